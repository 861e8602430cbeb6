import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor, enviarFormulario } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql, zerarLimiteDeLogin } from '../mercados/apoio.ts';

/**
 * One identity and one sign-out across both faces (docs/security.md, "Uma pessoa, uma
 * identidade" and "Uma saída"): a provider account that carries someone's e-mail under another
 * subject gets nothing of theirs in either face; an unverified e-mail holds no address; "Sair"
 * leaves the device in both faces; and ending every session ends the Mercados ones too.
 */
describe('uma identidade e uma saída nas duas faces', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  const cestas = (caminho: string) => `${amb.url}${caminho}`;

  interface Status {
    authenticated: boolean;
    user?: { id: number; usuarioId?: number; email: string };
  }
  async function statusMercados(nav: Navegador): Promise<Status> {
    return (await nav.getJson(`${amb.urlMercados}/auth/status`)).json<Status>();
  }
  /** What a JSON client sees of its Cestas session: 200 with the dashboard, 401 without one. */
  async function estadoCestas(nav: Navegador): Promise<number> {
    return (await nav.getJson(cestas('/'))).status;
  }
  async function meMercados(nav: Navegador): Promise<unknown> {
    return (await graphql(amb.urlMercados, nav, '{ me { id } }')).corpo;
  }
  const NAO_AUTENTICADO = { errors: [{ message: 'Não autenticado', extensions: { code: 'UNAUTHENTICATED' } }] };

  /** A browser sends every cookie of a host to each of its ports: the test's jar keeps them per port. */
  function comoUmNavegador(nav: Navegador): void {
    for (const [de, para] of [
      [amb.url, amb.urlMercados],
      [amb.urlMercados, amb.url],
    ] as const) {
      for (const [nome, c] of nav.cookies(de)) if (c.caminho === '/') nav.definirCookie(para, nome, c.valor);
    }
  }

  /** A person logged in to both faces in one browser: the provider remembers them for the second. */
  async function nasDuasFaces(): Promise<Navegador> {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const nav = new Navegador();
    await entrarPeloProvedor(nav, cestas('/'), { email: pessoa.email });
    await zerarLimiteDeLogin(amb.banco);
    await nav.get(`${amb.urlMercados}/login`);
    assert.equal((await statusMercados(nav)).user?.usuarioId, pessoa.id);
    return nav;
  }

  async function logins(usuarioid: number): Promise<{ emissor: string; sub: string }[]> {
    return amb.banco
      .selectFrom('identidade')
      .select(['emissor', 'sub'])
      .where('usuarioid', '=', usuarioid)
      .orderBy('id')
      .execute();
  }

  test('outro sub com o e-mail de uma admin ligada pela Cestas é recusado no Mercados: não vê e-mails nem grava nada', async () => {
    const vitima = await criarUsuario(amb.banco, { perfil: ['admin'], nome: 'Vítima Admin' });
    const dela = new Navegador();
    await entrarPeloProvedor(dela, cestas('/'), { email: vitima.email, sub: 'sub-da-vitima' });
    assert.equal(await estadoCestas(dela), 200);

    const invasor = new Navegador();
    const r = await entrarNoMercados(amb, invasor, { email: vitima.email, sub: 'sub-do-invasor', nome: 'Invasor' });
    assert.equal(
      new URL(r.url).pathname + new URL(r.url).search,
      '/login?error=outra_conta',
      'o login termina na página que explica a recusa',
    );
    assert.equal((await statusMercados(invasor)).authenticated, false);
    const lista = await graphql(amb.urlMercados, invasor, '{ usuarios { email } }');
    assert.deepEqual(lista.corpo, NAO_AUTENTICADO, 'sem sessão, nenhum e-mail');
    const contas = await amb.banco
      .selectFrom('appuser')
      .select('id')
      .where('providerId', '=', 'sub-do-invasor')
      .execute();
    assert.deepEqual(contas, [], 'a recusa não deixa conta nenhuma');
    assert.deepEqual(await logins(vitima.id), [{ emissor: amb.idp, sub: 'sub-da-vitima' }]);

    const dona = new Navegador();
    await entrarNoMercados(amb, dona, { email: vitima.email, sub: 'sub-da-vitima' });
    const s = await statusMercados(dona);
    assert.equal(s.user?.usuarioId, vitima.id, 'a dona entra no Mercados com o próprio cadastro');
    assert.equal((await logins(vitima.id)).length, 1, 'o mesmo login nas duas faces é uma identidade só');
  });

  test('ao contrário: um cadastro ligado pelo Mercados recusa na Cestas um login de outro sub', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Dona pelo Mercados' });
    const dela = new Navegador();
    await entrarNoMercados(amb, dela, { email: pessoa.email, sub: 'sub-mercados-dona' });
    assert.equal((await statusMercados(dela)).user?.usuarioId, pessoa.id);

    const invasor = new Navegador();
    const r = await entrarPeloProvedor(invasor, cestas('/'), { email: pessoa.email, sub: 'sub-cestas-invasor' });
    assert.equal(r.status, 403);
    assert.match(r.texto, /já está ligado a outra conta do provedor de login/);
    assert.equal(await estadoCestas(invasor), 401);
    assert.deepEqual(await logins(pessoa.id), [{ emissor: amb.idp, sub: 'sub-mercados-dona' }]);
    assert.equal((await statusMercados(dela)).user?.usuarioId, pessoa.id, 'a dona segue dentro');
  });

  test('um e-mail não verificado não reserva o endereço: a dona verificada entra e recebe o próprio cadastro', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Dona do Endereço' });
    const impostor = new Navegador();
    await entrarNoMercados(amb, impostor, { email: pessoa.email, sub: 'sub-nao-verificado', naoVerificado: true });
    const s = await statusMercados(impostor);
    assert.equal(s.authenticated, true, 'a conta não verificada existe, só dela');
    assert.equal(s.user?.usuarioId, undefined, 'e não é ligada a cadastro nenhum');

    const dona = new Navegador();
    const r = await entrarNoMercados(amb, dona, { email: pessoa.email, sub: 'sub-verificado-dona' });
    assert.equal(new URL(r.url).pathname, '/dashboard', r.url);
    assert.equal((await statusMercados(dona)).user?.usuarioId, pessoa.id);

    // An administrator sees which address nobody confirmed.
    const admin = await criarUsuario(amb.banco, { perfil: ['admin'] });
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: admin.email });
    const lista = await graphql(amb.urlMercados, nav, '{ usuarios { email emailVerificado usuarioId } }');
    const doEndereco = (
      lista.corpo as { data: { usuarios: { email: string; emailVerificado: boolean; usuarioId: string | null }[] } }
    ).data.usuarios.filter((u) => u.email === pessoa.email);
    assert.deepEqual(doEndereco.map((u) => [u.emailVerificado, u.usuarioId]).sort(), [
      [false, null],
      [true, String(pessoa.id)],
    ]);
  });

  test('sair na Cestas encerra também a sessão do Mercados no mesmo navegador', async () => {
    const nav = await nasDuasFaces();
    const copiaMercados = nav.cookie(amb.urlMercados, 'mercadosSession');
    assert.ok(copiaMercados);
    comoUmNavegador(nav);

    const r = await nav.postJson(cestas('/logout'), {});
    assert.equal(r.status, 200, r.texto);
    assert.match(r.headers.getSetCookie().join('\n'), /mercadosSession=;/, 'o cookie do Mercados é apagado');
    const outro = new Navegador();
    outro.definirCookie(amb.urlMercados, 'mercadosSession', copiaMercados);
    assert.equal(
      (await statusMercados(outro)).authenticated,
      false,
      'nem uma cópia do cookie abre a sessão do Mercados',
    );
    assert.deepEqual(await meMercados(outro), NAO_AUTENTICADO);
  });

  test('sair no Mercados encerra também a sessão da Cestas no mesmo navegador', async () => {
    const nav = await nasDuasFaces();
    const copiaCestas = nav.cookie(amb.url, 'appSession');
    assert.ok(copiaCestas);
    comoUmNavegador(nav);

    const r = await nav.get(`${amb.urlMercados}/logout`, { seguir: false });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/');
    assert.match(r.headers.getSetCookie().join('\n'), /appSession=;/, 'o cookie da Cestas é apagado');
    const outro = new Navegador();
    outro.definirCookie(amb.url, 'appSession', copiaCestas);
    assert.equal(await estadoCestas(outro), 401, 'nem uma cópia do cookie abre a sessão da Cestas');
  });

  test('sair de todos os aparelhos na Cestas encerra as sessões do Mercados em outros aparelhos', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const laptop = new Navegador();
    await entrarPeloProvedor(laptop, cestas('/'), { email: pessoa.email });
    const celular = new Navegador();
    await entrarNoMercados(amb, celular, { email: pessoa.email });
    assert.equal((await statusMercados(celular)).authenticated, true);

    const r = await laptop.postJson(cestas('/profile/sairdetodos'), {});
    assert.equal(r.status, 200, r.texto);
    assert.equal((await statusMercados(celular)).authenticated, false);
    assert.deepEqual(await meMercados(celular), NAO_AUTENTICADO);

    amb.relogio.avancar(1);
    const depois = new Navegador();
    await entrarNoMercados(amb, depois, { email: pessoa.email });
    assert.equal((await statusMercados(depois)).user?.usuarioId, pessoa.id, 'um login novo entra de novo');
  });

  test('um e-mail novo dado por um admin, a liberação do login e a desativação encerram as sessões do Mercados', async () => {
    const master = await criarUsuario(amb.banco, { perfil: ['master'] });
    const chefia = new Navegador();
    await entrarPeloProvedor(chefia, cestas('/'), { email: master.email });

    for (const caso of ['email', 'liberar', 'desativar'] as const) {
      const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: `Pessoa ${caso}` });
      const celular = new Navegador();
      await entrarNoMercados(amb, celular, { email: pessoa.email, sub: `sub-${caso}` });
      assert.equal((await statusMercados(celular)).user?.usuarioId, pessoa.id);
      const dados = { nome: `Pessoa ${caso}`, email: pessoa.email, perfil: ['consumidor'], ativo: true };
      const r =
        caso === 'liberar'
          ? await chefia.postJson(cestas(`/usuario/${pessoa.id}/liberarlogin`), {})
          : await chefia.postJson(
              cestas(`/usuario/${pessoa.id}`),
              caso === 'email' ? { ...dados, email: emailUnico('novo') } : { ...dados, ativo: false },
            );
      assert.equal(r.status, 200, `${caso}: ${r.texto}`);
      assert.equal((await statusMercados(celular)).authenticated, false, `${caso}: a sessão do Mercados termina`);
      assert.deepEqual(await meMercados(celular), NAO_AUTENTICADO, caso);
      if (caso !== 'desativar')
        assert.deepEqual(await logins(pessoa.id), [], `${caso}: o login fica livre para ligar de novo`);
    }
  });

  test('depois de um master liberar, outro sub entra no Mercados com o cadastro, e o antigo não', async () => {
    const master = await criarUsuario(amb.banco, { perfil: ['master'] });
    const chefia = new Navegador();
    await entrarPeloProvedor(chefia, cestas('/'), { email: master.email });
    const pessoa = await criarUsuario(amb.banco, { perfil: ['fornecedor'] });
    await entrarNoMercados(amb, new Navegador(), { email: pessoa.email, sub: 'sub-perdido' });
    const liberar = await chefia.postJson(cestas(`/usuario/${pessoa.id}/liberarlogin`), {});
    assert.equal(liberar.status, 200, liberar.texto);

    amb.relogio.avancar(1);
    const nova = new Navegador();
    await entrarNoMercados(amb, nova, { email: pessoa.email, sub: 'sub-novo' });
    assert.equal((await statusMercados(nova)).user?.usuarioId, pessoa.id);
    assert.deepEqual(await logins(pessoa.id), [{ emissor: amb.idp, sub: 'sub-novo' }]);
    const antiga = new Navegador();
    const r = await entrarNoMercados(amb, antiga, { email: pessoa.email, sub: 'sub-perdido' });
    assert.equal(new URL(r.url).pathname, '/dashboard');
    assert.equal(
      (await statusMercados(antiga)).user?.usuarioId,
      undefined,
      'a conta do login antigo não é mais da pessoa',
    );
  });

  test('o limite de login do Mercados: um login concluído zera a contagem do endereço', async () => {
    await zerarLimiteDeLogin(amb.banco);
    const anonimo = new Navegador();
    for (let i = 0; i < 4; i++)
      assert.equal((await anonimo.get(`${amb.urlMercados}/auth/idp`, { seguir: false })).status, 302);
    // The fifth visit is a person who completes the login.
    const pessoa = new Navegador();
    await entrarPeloProvedor(pessoa, `${amb.urlMercados}/login`, { email: emailUnico('limite') });
    assert.equal((await statusMercados(pessoa)).authenticated, true);
    for (let i = 0; i < 5; i++) {
      const r = await anonimo.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
      assert.equal(r.status, 302, `visita ${i + 1} depois do login concluído`);
    }
    const sexta = await anonimo.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
    assert.equal(sexta.status, 429, 'o limite de 5 por 15 minutos segue valendo para quem não conclui');
  });
});

/** A port nobody listens on now. */
async function portaLivre(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const porta = (s.address() as AddressInfo).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return porta;
}

/**
 * Faces published on two host names do not share cookies: "Sair" passes through the other face
 * with a sealed ticket, and each face ends its own session in the browser that carries it.
 */
describe('uma saída com as faces em dois nomes de host', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    const [pc, pm] = [await portaLivre(), await portaLivre()];
    amb = await iniciarAmbiente({
      mercados: true,
      env: {
        CESTAS_PORT: String(pc),
        MERCADOS_PORT: String(pm),
        CESTAS_BASE_URL: `http://127.0.0.1:${pc}`,
        MERCADOS_BASE_URL: `http://localhost:${pm}`,
      },
    });
    assert.notEqual(new URL(amb.url).hostname, new URL(amb.urlMercados).hostname);
  });
  after(() => amb.fechar());

  /** One person logged in to both faces in one browser (the provider remembers them for the second). */
  async function nasDuasFaces(nome: string): Promise<{ nav: Navegador; id: number; cestas: string; mercados: string }> {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome });
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email: pessoa.email });
    await zerarLimiteDeLogin(amb.banco);
    await nav.get(`${amb.urlMercados}/login`);
    const status = (await nav.getJson(`${amb.urlMercados}/auth/status`)).json<{ user?: { usuarioId?: number } }>();
    assert.equal(status.user?.usuarioId, pessoa.id);
    const cestas = nav.cookie(amb.url, 'appSession');
    const mercados = nav.cookie(amb.urlMercados, 'mercadosSession');
    assert.ok(cestas !== undefined && mercados !== undefined, 'um cookie em cada host');
    assert.equal(nav.cookie(amb.url, 'mercadosSession'), undefined, 'os hosts não dividem cookies');
    return { nav, id: pessoa.id, cestas, mercados };
  }
  async function cestasAbre(cookie: string): Promise<boolean> {
    const nav = new Navegador();
    nav.definirCookie(amb.url, 'appSession', cookie);
    return (await nav.getJson(`${amb.url}/`)).status === 200;
  }
  async function mercadosAbre(cookie: string): Promise<boolean> {
    const nav = new Navegador();
    nav.definirCookie(amb.urlMercados, 'mercadosSession', cookie);
    return (await nav.getJson(`${amb.urlMercados}/auth/status`)).json<{ authenticated: boolean }>().authenticated;
  }

  test('sair no Mercados passa pela Cestas, que encerra a sua sessão, e termina em / do Mercados', async () => {
    const p = await nasDuasFaces('Saída Pelo Mercados');
    const r = await p.nav.get(`${amb.urlMercados}/logout`);
    assert.ok(
      r.caminho.some((c) => c.startsWith(`${amb.url}/saiu/continuar?t=`)),
      r.caminho.join(' → '),
    );
    assert.equal(r.url, `${amb.urlMercados}/`);
    assert.equal(await mercadosAbre(p.mercados), false);
    assert.equal(await cestasAbre(p.cestas), false, 'nem uma cópia do cookie da Cestas abre mais nada');
  });

  test('sair na Cestas passa pelo Mercados, que encerra a sua sessão, e segue para o provedor e /saiu', async () => {
    const p = await nasDuasFaces('Saída Pela Cestas');
    const r = await p.nav.get(`${amb.url}/logout`);
    assert.ok(
      r.caminho.some((c) => c.startsWith(`${amb.urlMercados}/auth/saiu/continuar?t=`)),
      r.caminho.join(' → '),
    );
    // The provider's end-session page posts itself (in a browser, by its script), then /saiu.
    assert.equal(new URL(r.url).origin, amb.idp);
    const saiu = await enviarFormulario(p.nav, r, 'op.logoutForm');
    assert.equal(saiu.url, `${amb.url}/saiu`);
    assert.equal(await cestasAbre(p.cestas), false);
    assert.equal(await mercadosAbre(p.mercados), false, 'nem uma cópia do cookie do Mercados abre mais nada');
  });

  test('o bilhete de saída de uma pessoa não encerra a sessão de outra, e um bilhete alterado não encerra nada', async () => {
    const a = await nasDuasFaces('Dona do Bilhete');
    const saida = await a.nav.get(`${amb.url}/logout`, { seguir: false });
    const continuar = saida.headers.get('location') ?? '';
    assert.ok(continuar.startsWith(`${amb.urlMercados}/auth/saiu/continuar?t=`), continuar);
    const b = await nasDuasFaces('Outra Pessoa');
    const comOBilheteDeA = await b.nav.get(continuar, { seguir: false });
    assert.equal(comOBilheteDeA.status, 302);
    assert.equal(await mercadosAbre(b.mercados), true, 'a sessão de outra pessoa continua');
    const alterado = await b.nav.get(`${continuar.slice(0, -4)}AAAA`, { seguir: false });
    assert.equal(alterado.headers.get('location'), '/');
    assert.equal(await mercadosAbre(b.mercados), true);
    assert.equal(
      await mercadosAbre(a.mercados),
      true,
      'o bilhete não foi usado no navegador de A: a sessão dela só termina quando ela passa por lá',
    );
  });
});
