import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCicloAberto, criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, contaPorEmail, entrarNoMercados, graphql, perfisDe } from './apoio.ts';

/**
 * One account per person: the same verified e-mail in the Cestas face (OpenID) and in the Mercados
 * face (OAuth) is one person, with one history and one set of roles, whichever face changes them.
 */
describe('uma conta por pessoa nas duas faces', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  const cestas = (caminho: string) => `${amb.url}${caminho}`;

  interface Status {
    authenticated: boolean;
    user?: { id: number; usuarioId?: number; profiles: string[]; acoes: { criarMercado: boolean } };
  }
  async function status(nav: Navegador): Promise<NonNullable<Status['user']>> {
    const s = (await nav.getJson(`${amb.urlMercados}/auth/status`)).json<Status>();
    assert.ok(s.user, 'logado na face Mercados');
    return s.user;
  }
  async function perfilNaCestas(nav: Navegador): Promise<{ id: number; perfil: string[] }> {
    const r = await nav.getJson(cestas('/profile'));
    assert.equal(r.status, 200);
    const usuario = r.json<{ data: { usuario: { id: number; perfil: string[] } | null } }>().data.usuario;
    assert.ok(usuario, 'com cadastro na face Cestas');
    return usuario;
  }
  /** A Mercados Administrador with no Cestas record, to change other people's profiles. */
  async function administradorDoMercados(): Promise<Navegador> {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['Administrador'] });
    return nav;
  }
  /** A Cestas admin, logged in through the provider. */
  async function adminDaCestas(): Promise<Navegador> {
    const admin = await criarUsuario(amb.banco, { perfil: ['admin'] });
    const nav = new Navegador();
    await entrarPeloProvedor(nav, cestas('/'), { email: admin.email });
    return nav;
  }

  test('o mesmo e-mail nas duas faces é uma conta só: o pedido feito na Cestas é da pessoa que entra no Mercados', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Rosa Una' });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, cestas('/'), { email: pessoa.email });
    const { cicloid, cicloCestaId, ponto } = await criarCicloAberto(amb.banco, 10);
    const pedido = await naCestas.postJson(cestas('/pedidoconsumidores'), {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 1 }],
    });
    assert.equal(pedido.status, 201, pedido.texto);
    const pedidoId = pedido.json<{ data: { pedidoId: number } }>().data.pedidoId;

    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email.toUpperCase(), nome: 'Rosa Una' });
    const user = await status(noMercados);
    assert.equal(user.usuarioId, pessoa.id, '/auth/status liga a conta ao cadastro da Cestas');
    const me = await graphql(amb.urlMercados, noMercados, '{ me { id usuarioId profiles } }');
    assert.deepEqual(me.corpo.data?.me, {
      id: String(user.id),
      usuarioId: String(pessoa.id),
      profiles: ['Consumidor'],
    });
    const dono = await amb.banco
      .selectFrom('pedido')
      .select('usuarioid')
      .where('id', '=', pedidoId)
      .executeTakeFirstOrThrow();
    assert.equal(dono.usuarioid, user.usuarioId, 'o pedido é da mesma pessoa');
    assert.equal((await perfilNaCestas(naCestas)).id, user.usuarioId);
    assert.deepEqual(await perfisDe(amb.banco, user.id), [], 'os papéis ficam só no cadastro da pessoa');
  });

  test('quem vem da Cestas e entra no Mercados pela primeira vez recebe Consumidor, visto também na Cestas', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['fornecedor'] });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, cestas('/'), { email: pessoa.email });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email });
    assert.deepEqual((await status(noMercados)).profiles, ['Fornecedor', 'Consumidor']);
    assert.deepEqual((await perfilNaCestas(naCestas)).perfil, ['fornecedor', 'consumidor']);
  });

  test('quem vem do Mercados e entra na Cestas vai ao cadastro, preenchido, e a conta vira uma só', async () => {
    const email = emailUnico('do-mercados');
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email, nome: 'Marta Mercado' });
    const conta = await status(noMercados);
    assert.equal(conta.usuarioId, undefined, 'ainda sem cadastro na Cestas');

    const naCestas = new Navegador();
    const login = await entrarPeloProvedor(naCestas, cestas('/'), { email, nome: 'Marta Mercado' });
    assert.equal(new URL(login.url).pathname, '/usuarionovo');
    const pagina = login.texto;
    assert.match(pagina, /name="nome"[^>]*value="Marta Mercado"/, 'nome preenchido');
    assert.ok(pagina.includes(email), 'e-mail mostrado');
    assert.match(pagina, /value="consumidor"[^>]*checked/, 'o Consumidor do Mercados já vem marcado');
    assert.doesNotMatch(pagina, /value="fornecedor"[^>]*checked/);

    const r = await naCestas.postJson(cestas('/usuarionovo'), {
      nome: 'Marta Mercado',
      perfil: ['consumidor', 'fornecedor'],
      cientepolitica: true,
    });
    assert.equal(r.status, 201, r.texto);
    const usuario = r.json<{ data: { id: number; perfil: string[] } }>().data;
    assert.deepEqual(usuario.perfil, ['fornecedor', 'consumidor']);
    const depois = await status(noMercados);
    assert.equal(depois.id, conta.id, 'a mesma conta do Mercados');
    assert.equal(depois.usuarioId, usuario.id, 'agora ligada ao cadastro');
    assert.deepEqual(
      depois.profiles,
      ['Fornecedor', 'Consumidor'],
      'o que a pessoa escolheu na Cestas vale no Mercados, na sessão aberta',
    );
    assert.deepEqual(await perfisDe(amb.banco, conta.id), []);
    const uniao = await amb.banco
      .selectFrom('auditoria')
      .select(['acao', 'depois'])
      .where('entidade', '=', 'usuario')
      .where('entidadeId', '=', String(usuario.id))
      .where('acao', '=', 'unir contas')
      .execute();
    assert.equal(uniao.length, 1, 'a união fica na auditoria');
  });

  test('um papel dado no Mercados aparece na Cestas, e retirado lá deixa de valer na sessão aberta', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, cestas('/'), { email: pessoa.email });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email });
    const { id: contaId } = await status(noMercados);
    assert.equal((await naCestas.getJson(cestas('/oferta-index'))).status, 403, 'consumidora não vê ofertas');

    const administrador = await administradorDoMercados();
    const dar = await graphql(
      amb.urlMercados,
      administrador,
      'mutation($userId: ID!, $perfis: [String!]!) { atribuirPerfis(userId: $userId, perfis: $perfis) { profiles } }',
      { userId: String(contaId), perfis: ['Fornecedor', 'Consumidor'] },
    );
    assert.deepEqual(dar.corpo, { data: { atribuirPerfis: { profiles: ['Fornecedor', 'Consumidor'] } } });
    assert.deepEqual((await perfilNaCestas(naCestas)).perfil, ['fornecedor', 'consumidor']);
    assert.equal(
      (await naCestas.getJson(cestas('/oferta-index'))).status,
      200,
      'a sessão aberta na Cestas já pode ofertar',
    );

    const tirar = await graphql(
      amb.urlMercados,
      administrador,
      'mutation($userId: ID!) { atribuirPerfis(userId: $userId, perfis: ["Consumidor"]) { profiles } }',
      { userId: String(contaId) },
    );
    assert.deepEqual(tirar.corpo, { data: { atribuirPerfis: { profiles: ['Consumidor'] } } });
    assert.equal(
      (await naCestas.getJson(cestas('/oferta-index'))).status,
      403,
      'retirado, deixa de valer na sessão aberta',
    );
  });

  test('um papel dado na Cestas aparece no Mercados, e retirado lá deixa de valer na sessão aberta (e nas respostas guardadas)', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email });
    const consulta = '{ mercados { id acoes { editar } } }';
    const admin = await adminDaCestas();
    const mercado = await graphql(
      amb.urlMercados,
      await administradorDoMercados(),
      'mutation { criarMercado(input: {nome: "Feira Una", tipo: venda_direta}) { id } }',
    );
    assert.ok(mercado.corpo.data, JSON.stringify(mercado.corpo));
    const editar = async () => {
      const r = await graphql(amb.urlMercados, noMercados, consulta);
      const lista = r.corpo.data?.mercados as Array<{ id: string; acoes: { editar: boolean } }>;
      return lista.find((m) => m.id === (mercado.corpo.data?.criarMercado as { id: string }).id)?.acoes.editar;
    };
    assert.equal(await editar(), false);

    const dar = await admin.postJson(cestas(`/usuario/${pessoa.id}`), {
      nome: pessoa.nome,
      email: pessoa.email,
      perfil: ['consumidor', 'admin'],
    });
    assert.equal(dar.status, 200, dar.texto);
    assert.deepEqual((await status(noMercados)).profiles, ['Administrador', 'Consumidor']);
    assert.equal(await editar(), true, 'a resposta guardada não sobrevive à mudança de papel');

    const tirar = await admin.postJson(cestas(`/usuario/${pessoa.id}`), {
      nome: pessoa.nome,
      email: pessoa.email,
      perfil: ['consumidor'],
    });
    assert.equal(tirar.status, 200, tirar.texto);
    const user = await status(noMercados);
    assert.deepEqual(user.profiles, ['Consumidor']);
    assert.equal(user.acoes.criarMercado, false);
    assert.equal(await editar(), false);
    const recusada = await graphql(
      amb.urlMercados,
      noMercados,
      'mutation { criarMercado(input: {nome: "Não pode", tipo: lote}) { id } }',
    );
    assert.equal(recusada.corpo.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  });

  test('AdminMercado, que a Cestas não tem, sobrevive a uma edição do cadastro na Cestas', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email });
    const { id: contaId } = await status(noMercados);
    const administrador = await administradorDoMercados();
    await graphql(
      amb.urlMercados,
      administrador,
      'mutation($userId: ID!) { atribuirPerfis(userId: $userId, perfis: ["AdminMercado", "Consumidor"]) { id } }',
      { userId: String(contaId) },
    );
    const admin = await adminDaCestas();
    const r = await admin.postJson(cestas(`/usuario/${pessoa.id}`), {
      nome: 'Outro Nome',
      email: pessoa.email,
      perfil: ['consumidor', 'fornecedor'],
    });
    assert.equal(r.status, 200, r.texto);
    assert.deepEqual(
      r.json<{ data: { perfil: string[] } }>().data.perfil,
      ['fornecedor', 'consumidor'],
      'a Cestas mostra só os perfis do contrato',
    );
    assert.deepEqual((await status(noMercados)).profiles, ['AdminMercado', 'Fornecedor', 'Consumidor']);
  });

  test('o master continua Administrador: o Mercados não o retira, e ninguém tira o próprio Administrador', async () => {
    const master = await criarUsuario(amb.banco, { perfil: ['master'] });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: master.email });
    const conta = await status(noMercados);
    assert.deepEqual(conta.profiles, ['Administrador', 'Consumidor']);
    const administrador = await administradorDoMercados();
    const r = await graphql(
      amb.urlMercados,
      administrador,
      'mutation($userId: ID!) { atribuirPerfis(userId: $userId, perfis: ["Consumidor"]) { id } }',
      { userId: String(conta.id) },
    );
    assert.equal(r.corpo.errors?.[0]?.extensions?.code, 'CONFLICT');
    const proprio = await graphql(
      amb.urlMercados,
      noMercados,
      'mutation($userId: ID!) { atribuirPerfis(userId: $userId, perfis: ["Consumidor"]) { id } }',
      { userId: String(conta.id) },
    );
    assert.equal(proprio.corpo.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const linha = await amb.banco
      .selectFrom('usuario')
      .select('perfil')
      .where('id', '=', master.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(linha.perfil), ['master', 'consumidor']);
  });

  test('um e-mail que o provedor do Mercados não verificou não é ligado a ninguém', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['admin'] });
    const impostora = new Navegador();
    const r = await entrarNoMercados(amb, impostora, {
      email: pessoa.email,
      nome: 'Impostora',
      sub: `impostora-${pessoa.id}`,
      naoVerificado: true,
    });
    assert.equal(new URL(r.url).pathname, '/dashboard');
    const user = await status(impostora);
    assert.equal(user.usuarioId, undefined);
    assert.deepEqual(user.profiles, ['Consumidor'], 'nada do cadastro da Cestas');
    const me = await graphql(amb.urlMercados, impostora, '{ me { usuarioId } }');
    assert.deepEqual(me.corpo.data?.me, { usuarioId: null });
    const linha = await amb.banco
      .selectFrom('usuario')
      .select('perfil')
      .where('id', '=', pessoa.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(linha.perfil), ['admin'], 'o cadastro não ganhou nada');

    // Nor the other way round: a Cestas registration does not take an unverified Mercados account.
    const email = emailUnico('sem-verificar');
    await entrarNoMercados(amb, new Navegador(), { email, naoVerificado: true });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, cestas('/'), { email });
    const cadastro = await naCestas.postJson(cestas('/usuarionovo'), {
      nome: 'Sem Verificar',
      perfil: ['consumidor'],
      cientepolitica: true,
    });
    assert.equal(cadastro.status, 201, cadastro.texto);
    const conta = await contaPorEmail(amb.banco, email);
    assert.equal(conta?.usuarioId, null);
    assert.deepEqual(await perfisDe(amb.banco, conta?.id ?? 0), ['Consumidor']);
  });
});
