import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarAppMercados } from '../../src/mercados/app.ts';
import { subDoEmail } from '../../src/idp/provedor.ts';
import { COOKIE_SAIDA } from '../../src/mercados/sessao.ts';
import { emailUnico } from '../helpers/fabricas.ts';
import { Navegador, aondeOProvedorLeva } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import {
  ateOCallback,
  contaPorEmail,
  entrarNoMercados,
  perfisDe,
  sessoesDe,
  setCookie,
  zerarLimiteDeLogin,
} from './apoio.ts';

const FALHA = '/login?error=auth_failed';

describe('login da face Mercados pelo provedor OAuth', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: 'chefia@teste.org,vice@teste.org' } });
  });
  after(() => amb.fechar());

  async function contarContas(): Promise<number> {
    const r = await amb.banco
      .selectFrom('appuser')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async function contarSessoes(): Promise<number> {
    const r = await amb.banco
      .selectFrom('appsession')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  test('GET /login leva a /auth/idp, que leva ao provedor com escopos profile e email, state e PKCE', async () => {
    await zerarLimiteDeLogin(amb.banco);
    const nav = new Navegador();
    const login = await nav.get(`${amb.urlMercados}/login`, { seguir: false });
    assert.equal(login.status, 302);
    assert.equal(login.headers.get('location'), '/auth/idp');

    const auth = await nav.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
    assert.equal(auth.status, 302);
    const destino = new URL(auth.headers.get('location') ?? '');
    assert.equal(destino.origin, amb.idp);
    assert.equal(destino.pathname, '/auth');
    assert.equal(destino.searchParams.get('redirect_uri'), `${amb.urlMercados}/auth/idp/callback`);
    assert.equal(destino.searchParams.get('response_type'), 'code');
    assert.equal(destino.searchParams.get('code_challenge_method'), 'S256');
    for (const p of ['state', 'code_challenge', 'client_id']) assert.ok(destino.searchParams.get(p), `falta ${p}`);
    assert.equal(destino.searchParams.get('prompt'), null, 'sem ter saído, nada de prompt');
    const escopos = (destino.searchParams.get('scope') ?? '').split(' ');
    assert.ok(escopos.includes('profile') && escopos.includes('email'), `escopos: ${escopos.join(' ')}`);

    const verificacao = setCookie(auth, 'mercados_auth');
    assert.ok(verificacao, 'state e PKCE guardados num cookie selado');
    assert.match(verificacao, /Path=\/auth\/idp\/callback/);
    assert.match(verificacao, /HttpOnly/);
    assert.equal(setCookie(auth, 'mercadosSession'), undefined, 'nenhuma sessão antes do login');
  });

  test('primeiro login cria a conta com o perfil Consumidor e o avatar da foto do provedor', async () => {
    const email = emailUnico('primeiro');
    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email, nome: 'Paula Primeira' });
    assert.equal(r.status, 200);
    assert.equal(new URL(r.url).pathname, '/dashboard');
    assert.ok(
      r.caminho.some((u) => new URL(u).pathname === '/auth/idp/callback'),
      'passou pelo callback',
    );
    assert.match(r.texto, /<div id="raiz">/, 'o painel é o cliente web (o navegador o confere em test/navegador)');

    const conta = await contaPorEmail(amb.banco, email);
    assert.ok(conta);
    const sub = subDoEmail(email);
    assert.equal(conta.providerId, sub);
    assert.equal(conta.email, email);
    assert.equal(conta.name, 'Paula Primeira');
    assert.equal(conta.avatar, `${amb.idp}/avatar/${sub}.svg`);
    assert.deepEqual(await perfisDe(amb.banco, conta.id), ['Consumidor']);
    assert.equal(await sessoesDe(amb.banco, conta.id), 1);
  });

  test('um e-mail de ADMIN_EMAILS recebe também Administrador', async () => {
    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email: 'Chefia@Teste.org', nome: 'Chefia' });
    assert.equal(new URL(r.url).pathname, '/dashboard');
    const conta = await contaPorEmail(amb.banco, 'chefia@teste.org');
    assert.ok(conta);
    assert.deepEqual(await perfisDe(amb.banco, conta.id), ['Administrador', 'Consumidor']);
    const status = await nav.getJson(`${amb.urlMercados}/auth/status`);
    assert.deepEqual(status.json(), {
      authenticated: true,
      // The community's time zone, in which the client shows instants.
      fuso: amb.config.tz,
      // The Cestas face runs beside this one: its address comes with the session, for the client's link.
      cestas: amb.url,
      user: {
        id: conta.id,
        name: 'Chefia',
        email: 'Chefia@Teste.org',
        profiles: ['Administrador', 'Consumidor'],
        acoes: {
          criarMercado: true,
          gerirMercados: true,
          gerirAlgumMercado: true,
          listarUsuarios: true,
          atribuirPerfis: true,
          ofertar: false,
          pedir: true,
          definirMercadosDoCiclo: true,
        },
      },
    });
  });

  test('um e-mail de ADMIN_EMAILS que o provedor não verificou não recebe Administrador', async () => {
    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email: 'vice@teste.org', nome: 'Impostora', naoVerificado: true });
    assert.equal(new URL(r.url).pathname, '/dashboard');
    const conta = await contaPorEmail(amb.banco, 'vice@teste.org');
    assert.ok(conta);
    assert.deepEqual(await perfisDe(amb.banco, conta.id), ['Consumidor']);
    const status = await nav.getJson(`${amb.urlMercados}/auth/status`);
    assert.deepEqual(status.json<{ user: { profiles: string[] } }>().user.profiles, ['Consumidor']);
  });

  test('um e-mail novo que o provedor não verificou não substitui o da conta', async () => {
    const sub = `sub-nao-verificado-${emailUnico('x').split('@')[0]}`;
    const antigo = emailUnico('verificado');
    await entrarNoMercados(amb, new Navegador(), { email: antigo, nome: 'Vera', sub });
    await entrarNoMercados(amb, new Navegador(), {
      email: emailUnico('sem-verificar'),
      nome: 'Vera',
      sub,
      naoVerificado: true,
    });
    const linha = await amb.banco
      .selectFrom('appuser')
      .select('email')
      .where('providerId', '=', sub)
      .executeTakeFirstOrThrow();
    assert.equal(linha.email, antigo);
  });

  test('o segundo login acha a mesma conta pelo providerId mesmo depois de o e-mail mudar no provedor', async () => {
    const sub = `sub-fixo-${emailUnico('x').split('@')[0]}`;
    const antigo = emailUnico('antigo');
    const novo = emailUnico('novo');
    await entrarNoMercados(amb, new Navegador(), { email: antigo, nome: 'Rita', sub });
    const primeira = await contaPorEmail(amb.banco, antigo);
    assert.ok(primeira);
    const total = await contarContas();

    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email: novo, nome: 'Rita Souza', sub });
    assert.equal(new URL(r.url).pathname, '/dashboard');
    assert.equal(await contarContas(), total, 'nenhuma conta nova');
    const status = await nav.getJson(`${amb.urlMercados}/auth/status`);
    assert.deepEqual(status.json(), {
      authenticated: true,
      // The community's time zone, in which the client shows instants.
      fuso: amb.config.tz,
      // The Cestas face runs beside this one: its address comes with the session, for the client's link.
      cestas: amb.url,
      user: {
        id: primeira.id,
        name: 'Rita Souza',
        email: novo,
        profiles: ['Consumidor'],
        acoes: {
          criarMercado: false,
          gerirMercados: false,
          gerirAlgumMercado: false,
          listarUsuarios: false,
          atribuirPerfis: false,
          ofertar: false,
          pedir: true,
          definirMercadosDoCiclo: false,
        },
      },
    });
    const linha = await amb.banco
      .selectFrom('appuser')
      .selectAll()
      .where('providerId', '=', sub)
      .executeTakeFirstOrThrow();
    assert.equal(linha.id, primeira.id);
    assert.equal(linha.email, novo, 'o e-mail acompanha o provedor');
    assert.equal(await contaPorEmail(amb.banco, antigo), undefined);
  });

  test('state adulterado no callback → /login?error=auth_failed, sem conta e sem sessão', async () => {
    const email = emailUnico('state');
    const nav = new Navegador();
    await zerarLimiteDeLogin(amb.banco);
    const callback = new URL(await ateOCallback(nav, amb.urlMercados, { email }));
    callback.searchParams.set('state', 'state-de-outro-navegador');
    const sessoes = await contarSessoes();
    const r = await nav.get(callback.href, { seguir: false });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), FALHA);
    assert.equal(setCookie(r, 'mercadosSession'), undefined);
    assert.equal(await contaPorEmail(amb.banco, email), undefined);
    assert.equal(await contarSessoes(), sessoes);

    // The browser client explains the failure (test/navegador/mercados-fluxo.test.ts).
    const pagina = await nav.get(`${amb.urlMercados}${FALHA}`);
    assert.equal(pagina.status, 200);
    assert.match(pagina.texto, /<div id="raiz">/);
  });

  test('erro do provedor (login cancelado) → /login?error=auth_failed e nenhuma conta', async () => {
    const nav = new Navegador();
    await zerarLimiteDeLogin(amb.banco);
    const total = await contarContas();
    const login = await nav.get(`${amb.urlMercados}/login`);
    assert.match(new URL(login.url).pathname, /^\/interaction\//);
    const r = await nav.get(`${login.url}/abort`);
    assert.equal(new URL(r.url).pathname + new URL(r.url).search, FALHA);
    assert.ok(r.caminho.some((u) => u.startsWith(`${amb.urlMercados}/auth/idp/callback?error=access_denied`)));
    assert.equal(r.status, 200);
    assert.match(r.texto, /<div id="raiz">/);
    assert.equal(await contarContas(), total);
    assert.equal(nav.cookie(amb.urlMercados, 'mercadosSession'), undefined);
  });

  test('código reutilizado → /login?error=auth_failed, sem nova conta nem nova sessão', async () => {
    const email = emailUnico('reuso');
    const nav = new Navegador();
    await zerarLimiteDeLogin(amb.banco);
    const callback = await ateOCallback(nav, amb.urlMercados, { email });
    const verificacao = nav.cookie(amb.urlMercados, 'mercados_auth');
    assert.ok(verificacao);
    const ok = await nav.get(callback, { seguir: false });
    assert.equal(ok.headers.get('location'), '/dashboard');
    const conta = await contaPorEmail(amb.banco, email);
    assert.ok(conta);
    const total = await contarContas();
    const sessoes = await contarSessoes();

    // The attacker replays the same code with the same (copied) verification cookie.
    const outro = new Navegador();
    outro.definirCookie(amb.urlMercados, 'mercados_auth', verificacao, '/auth/idp/callback');
    const repetido = await outro.get(callback, { seguir: false });
    assert.equal(repetido.status, 302);
    assert.equal(repetido.headers.get('location'), FALHA);
    assert.equal(setCookie(repetido, 'mercadosSession'), undefined);
    assert.equal(await contarContas(), total);
    assert.equal(await contarSessoes(), sessoes);
  });

  test('callback sem o cookie de verificação (outro navegador) → /login?error=auth_failed e nenhuma conta', async () => {
    const email = emailUnico('outro');
    const nav = new Navegador();
    await zerarLimiteDeLogin(amb.banco);
    const callback = await ateOCallback(nav, amb.urlMercados, { email });
    const r = await new Navegador().get(callback, { seguir: false });
    assert.equal(r.headers.get('location'), FALHA);
    assert.equal(await contaPorEmail(amb.banco, email), undefined);
  });

  test('um sub novo com o e-mail de outra conta não toma a conta: falha e nada é criado', async () => {
    const email = emailUnico('dono');
    const sufixo = email.split('@')[0] ?? '';
    await entrarNoMercados(amb, new Navegador(), { email, sub: `dono-${sufixo}` });
    const total = await contarContas();
    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email, sub: `intruso-${sufixo}` });
    // The client's /login says why: the address already belongs to another account.
    assert.equal(new URL(r.url).pathname + new URL(r.url).search, '/login?error=email_em_uso');
    assert.equal(await contarContas(), total);
    assert.equal(nav.cookie(amb.urlMercados, 'mercadosSession'), undefined);
  });

  test('o id da sessão muda a cada login: a sessão anterior do navegador é encerrada no servidor', async () => {
    const email = emailUnico('fixacao');
    const nav = new Navegador();
    // A value planted by someone else is never adopted.
    nav.definirCookie(amb.urlMercados, 'mercadosSession', 'plantado.pelo-atacante');
    await entrarNoMercados(amb, nav, { email });
    const primeiro = nav.cookie(amb.urlMercados, 'mercadosSession');
    assert.ok(primeiro && primeiro !== 'plantado.pelo-atacante');
    const conta = await contaPorEmail(amb.banco, email);
    assert.ok(conta);

    await zerarLimiteDeLogin(amb.banco);
    // Logged in, /login goes to the dashboard; /auth/idp logs in again. The provider remembers
    // this browser, so the second login comes straight back.
    assert.equal((await nav.get(`${amb.urlMercados}/login`, { seguir: false })).headers.get('location'), '/dashboard');
    const segundo = await nav.get(`${amb.urlMercados}/auth/idp`);
    assert.equal(new URL(segundo.url).pathname, '/dashboard');
    const novo = nav.cookie(amb.urlMercados, 'mercadosSession');
    assert.ok(novo && novo !== primeiro, 'id de sessão novo');
    assert.equal(await sessoesDe(amb.banco, conta.id), 1, 'a sessão anterior foi apagada');

    const velho = new Navegador();
    velho.definirCookie(amb.urlMercados, 'mercadosSession', primeiro);
    assert.deepEqual((await velho.getJson(`${amb.urlMercados}/auth/status`)).json(), { authenticated: false });
  });

  test('GET /logout volta a / e o próximo login pede a pessoa de novo ao provedor (prompt=login); o login apaga a marca', async () => {
    const email = emailUnico('sair');
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email, nome: 'Sílvia Saída' });
    const saiu = await nav.get(`${amb.urlMercados}/logout`, { seguir: false });
    assert.equal(saiu.status, 302);
    assert.equal(saiu.headers.get('location'), '/');
    const marca = setCookie(saiu, COOKIE_SAIDA);
    assert.ok(marca, 'sair deixa a marca no navegador');
    assert.match(marca, /; Path=\//);
    assert.match(marca, /; HttpOnly/i);
    assert.match(marca, /; SameSite=Lax/i);
    assert.doesNotMatch(marca, /Secure/i, 'fora de produção o cookie não exige https');

    // The spec's logout ends at /, so the provider's session lives on: without the mark, this
    // browser would go straight back in.
    nav.apagarCookie(amb.urlMercados, COOKIE_SAIDA);
    const semMarca = await aondeOProvedorLeva(nav, `${amb.urlMercados}/auth/idp`, amb.idp);
    assert.equal(semMarca.autorizacao.searchParams.get('prompt'), null);
    assert.ok(
      semMarca.destino.href.startsWith(`${amb.urlMercados}/auth/idp/callback?`),
      `sem a marca, o provedor devolveria a pessoa: ${semMarca.destino.href}`,
    );
    nav.definirCookie(amb.urlMercados, COOKIE_SAIDA, '1');

    // "Entrar" again: the provider shows its login form.
    await zerarLimiteDeLogin(amb.banco);
    const login = await nav.get(`${amb.urlMercados}/login`);
    assert.match(
      new URL(login.url).pathname,
      /^\/interaction\/[^/]+$/,
      `o provedor pede a pessoa de novo: ${login.url}`,
    );
    const autorizacao = login.caminho
      .map((u) => new URL(u))
      .find((u) => u.origin === amb.idp && u.pathname === '/auth');
    assert.equal(autorizacao?.searchParams.get('prompt'), 'login');
    const dentro = await nav.post(`${login.url}/login`, { form: { email, nome: 'Sílvia Saída' } });
    assert.equal(new URL(dentro.url).pathname, '/dashboard');
    assert.equal(nav.cookie(amb.urlMercados, COOKIE_SAIDA), undefined, 'o login apagou a marca');
    assert.equal(
      (await nav.getJson(`${amb.urlMercados}/auth/status`)).json<{ authenticated: boolean }>().authenticated,
      true,
    );
  });

  test('provedor fora do ar → /login?error=auth_failed, e o serviço segue de pé', async () => {
    const app = await criarAppMercados({
      config: amb.config,
      banco: amb.banco,
      relogio: amb.relogio,
      provedor: { issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y' },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const endereco = app.server.address();
      const url = `http://localhost:${typeof endereco === 'object' && endereco !== null ? endereco.port : 0}`;
      await zerarLimiteDeLogin(amb.banco);
      const r = await new Navegador().get(`${url}/auth/idp`, { seguir: false });
      assert.equal(r.status, 302);
      assert.equal(r.headers.get('location'), FALHA);
      const pagina = await new Navegador().get(`${url}/login`);
      assert.equal(new URL(pagina.url).search, '?error=auth_failed');
      assert.equal(pagina.status, 200);
    } finally {
      await app.close();
    }
  });
});
