import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Navegador, entrarPeloProvedor, tokenCsrf } from '../helpers/navegador.ts';
import { criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const ADMIN = 'coordenacao@teste.org';

describe('autocadastro e perfil próprio', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ env: { ADMIN_EMAILS: `outra@teste.org, ${ADMIN.toUpperCase()}` } });
  });
  after(() => amb.fechar());

  async function identidadeSemCadastro(email = emailUnico()) {
    const nav = new Navegador();
    const pagina = await entrarPeloProvedor(nav, `${amb.url}/`, { email, nome: 'Nova Pessoa' });
    assert.equal(new URL(pagina.url).pathname, '/usuarionovo');
    return { nav, email, csrf: tokenCsrf(pagina.texto) };
  }

  async function contarUsuarios(): Promise<number> {
    const r = await amb.banco
      .selectFrom('usuario')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  test('a caixa da política leva à política, numa nova aba', async () => {
    const nav = new Navegador();
    const pagina = await entrarPeloProvedor(nav, `${amb.url}/`, { email: emailUnico(), nome: 'Nova Pessoa' });
    assert.match(
      pagina.texto,
      /name="cientepolitica" value="true"[\s\S]*?<a href="\/limitesolar" target="_blank" rel="noopener">Ler a política da comunidade \(Limite solidário\)<\/a>/,
    );
  });

  test('não concede admin nem master: 403 e nenhum registro criado', async () => {
    const { nav } = await identidadeSemCadastro();
    const antes = await contarUsuarios();
    for (const perfil of [['admin'], ['consumidor', 'master'], ['info']]) {
      const r = await nav.postJson(`${amb.url}/usuarionovo`, { nome: 'Esperta', perfil, cientepolitica: true });
      assert.equal(r.status, 403, `perfil ${perfil.join(',')}`);
      const corpo = r.json<{ success: boolean; error: string }>();
      assert.equal(corpo.success, false);
      assert.match(corpo.error, /consumidor ou fornecedor/);
    }
    assert.equal(await contarUsuarios(), antes);
  });

  test('o e-mail vem sempre da identidade, nunca do corpo', async () => {
    const { nav, email } = await identidadeSemCadastro();
    const r = await nav.postJson(`${amb.url}/usuarionovo`, {
      nome: 'Pessoa Honesta',
      email: 'vitima@teste.org',
      perfil: ['consumidor', 'fornecedor'],
      cientepolitica: true,
    });
    assert.equal(r.status, 201);
    const dados = r.json<{ data: { email: string; perfil: string[] } }>().data;
    assert.equal(dados.email, email);
    assert.deepEqual(dados.perfil, ['fornecedor', 'consumidor']);
    const vitima = await amb.banco
      .selectFrom('usuario')
      .select('id')
      .where('emailChave', '=', 'vitima@teste.org')
      .executeTakeFirst();
    assert.equal(vitima, undefined);
  });

  test('e-mails de ADMIN_EMAILS recebem master no autocadastro', async () => {
    const { nav } = await identidadeSemCadastro(ADMIN);
    const r = await nav.postJson(`${amb.url}/usuarionovo`, {
      nome: 'Coordenação',
      perfil: ['consumidor'],
      cientepolitica: true,
    });
    assert.equal(r.status, 201);
    assert.deepEqual(r.json<{ data: { perfil: string[] } }>().data.perfil, ['master', 'consumidor']);
  });

  test('campos inválidos: 400 com detalhes por campo em JSON; no HTML o formulário volta com os valores', async () => {
    const { nav, csrf } = await identidadeSemCadastro();
    const antes = await contarUsuarios();
    const r = await nav.postJson(`${amb.url}/usuarionovo`, {
      nome: '',
      perfil: [],
      celular: 'abc',
      cientepolitica: false,
    });
    assert.equal(r.status, 400);
    const corpo = r.json<{ success: boolean; error: string; details: Record<string, string> }>();
    assert.equal(corpo.success, false);
    assert.equal(corpo.details.nome, 'Campo obrigatório');
    assert.match(corpo.details.perfil ?? '', /Escolha/);
    assert.match(corpo.details.celular ?? '', /Telefone inválido/);
    assert.match(corpo.details.cientepolitica ?? '', /ciência/);

    const html = await nav.post(`${amb.url}/usuarionovo`, {
      form: { _csrf: csrf, nome: 'Zé <b>Digitado</b>', celular: 'abc', perfil: 'fornecedor' },
    });
    assert.equal(html.status, 400);
    assert.match(html.texto, /value="Zé &lt;b&gt;Digitado&lt;\/b&gt;"/, 'o valor digitado volta escapado');
    assert.match(html.texto, /Telefone inválido/);
    assert.match(html.texto, /id="campo-perfil-fornecedor" name="perfil" value="fornecedor" checked/);
    assert.equal(await contarUsuarios(), antes);
  });

  test('formulário com chaves entre colchetes (perfil[]=…) chega como lista', async () => {
    const { nav, csrf, email } = await identidadeSemCadastro();
    const r = await nav.post(`${amb.url}/usuarionovo`, {
      bruto: `_csrf=${encodeURIComponent(csrf)}&nome=Colchetes&perfil%5B%5D=consumidor&perfil%5B%5D=fornecedor&cientepolitica=true`,
      tipo: 'application/x-www-form-urlencoded',
    });
    assert.equal(r.status, 200);
    const linha = await amb.banco
      .selectFrom('usuario')
      .select('perfil')
      .where('emailChave', '=', email)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(linha.perfil), ['fornecedor', 'consumidor']);
  });

  test('cadastrar duas vezes dá 409', async () => {
    const { nav } = await identidadeSemCadastro();
    const corpo = { nome: 'Dupla', perfil: ['consumidor'], cientepolitica: true };
    assert.equal((await nav.postJson(`${amb.url}/usuarionovo`, corpo)).status, 201);
    assert.equal((await nav.postJson(`${amb.url}/usuarionovo`, corpo)).status, 409);
  });

  test('POST /usuarionovo/:id altera só o próprio registro e preserva perfis concedidos pela coordenação', async () => {
    const outro = await criarUsuario(amb.banco, { nome: 'Outra Pessoa' });
    const eu = await criarUsuario(amb.banco, { perfil: ['admin', 'consumidor'], nome: 'Eu Mesma' });
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email: eu.email });

    const alheio = await nav.postJson(`${amb.url}/usuarionovo/${outro.id}`, {
      nome: 'Invasora',
      perfil: ['consumidor'],
      cientepolitica: true,
    });
    assert.equal(alheio.status, 403);
    const intacto = await amb.banco
      .selectFrom('usuario')
      .select('nome')
      .where('id', '=', outro.id)
      .executeTakeFirstOrThrow();
    assert.equal(intacto.nome, 'Outra Pessoa');

    const meu = await nav.postJson(`${amb.url}/usuarionovo/${eu.id}`, {
      nome: 'Eu Renomeada',
      perfil: ['fornecedor'],
      cientepolitica: true,
    });
    assert.equal(meu.status, 200);
    assert.deepEqual(meu.json<{ data: { nome: string; perfil: string[] } }>().data.perfil, ['admin', 'fornecedor']);

    assert.equal((await nav.postJson(`${amb.url}/usuarionovo/abc`, {})).status, 400);
  });

  test('GET e POST /profile mostram e alteram os próprios dados; perfil não muda por aqui', async () => {
    const eu = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Perfil Próprio' });
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email: eu.email });
    const pagina = await nav.get(`${amb.url}/profile`);
    assert.equal(pagina.status, 200);
    assert.ok(pagina.texto.includes(eu.email));
    const r = await nav.post(`${amb.url}/profile`, {
      form: {
        _csrf: tokenCsrf(pagina.texto),
        nome: 'Nome Novo',
        celular: '(14) 99999-0000',
        perfil: 'master',
        cientepolitica: 'true',
      },
    });
    assert.equal(r.status, 200);
    assert.equal(new URL(r.url).pathname, '/profile');
    assert.match(r.texto, /Perfil atualizado/);
    const linha = await amb.banco.selectFrom('usuario').selectAll().where('id', '=', eu.id).executeTakeFirstOrThrow();
    assert.equal(linha.nome, 'Nome Novo');
    assert.equal(linha.celular, '(14) 99999-0000');
    assert.deepEqual(JSON.parse(linha.perfil), ['consumidor']);
    const auditoria = await amb.banco
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'usuario')
      .where('entidadeId', '=', String(eu.id))
      .execute();
    assert.equal(auditoria.length, 1);
    assert.equal(auditoria[0]?.ator, eu.email);
  });

  test('identidade sem cadastro: o painel manda para /usuarionovo e JSON recebe 403', async () => {
    const { nav } = await identidadeSemCadastro();
    const r = await nav.get(`${amb.url}/`, { seguir: false });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/usuarionovo');
    const j = await nav.getJson(`${amb.url}/`);
    assert.equal(j.status, 403);
    assert.match(j.json<{ error: string }>().error, /Complete seu cadastro/);
  });

  test('cadastro inativo é recusado em toda parte com 403', async () => {
    const inativo = await criarUsuario(amb.banco, { ativo: false });
    const nav = new Navegador();
    const pagina = await entrarPeloProvedor(nav, `${amb.url}/`, { email: inativo.email });
    assert.equal(pagina.status, 403);
    assert.match(pagina.texto, /desativado/);
    assert.equal((await nav.getJson(`${amb.url}/profile`)).status, 403);
  });
});
