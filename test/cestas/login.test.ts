import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { COOKIE_SAIDA } from '../../src/cestas/sessao.ts';
import {
  Navegador,
  aondeOProvedorLeva,
  ateOCallback,
  enviarFormulario,
  entrarPeloProvedor,
  tokenCsrf,
  type Resposta,
} from '../helpers/navegador.ts';
import { criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

describe('login da face Cestas pelo provedor OpenID', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente();
  });
  after(() => amb.fechar());

  test('GET / sem sessão redireciona ao endereço de autorização do provedor, com state, nonce e PKCE', async () => {
    const nav = new Navegador();
    const r = await nav.get(`${amb.url}/`, { seguir: false });
    assert.equal(r.status, 302);
    const destino = new URL(r.headers.get('location') ?? '');
    assert.equal(destino.origin, amb.idp);
    assert.equal(destino.pathname, '/auth');
    assert.equal(destino.searchParams.get('redirect_uri'), `${amb.url}/callback`);
    assert.equal(destino.searchParams.get('code_challenge_method'), 'S256');
    for (const p of ['state', 'nonce', 'code_challenge', 'client_id'])
      assert.ok(destino.searchParams.get(p), `falta ${p}`);
    assert.match(destino.searchParams.get('scope') ?? '', /openid/);
  });

  test('primeiro acesso: provedor → callback → /usuarionovo → cadastro → painel; o segundo login vai direto ao painel', async () => {
    const email = emailUnico('primeira');
    const nav = new Navegador();
    const aposLogin = await entrarPeloProvedor(nav, `${amb.url}/`, { email, nome: 'Marta Primeira' });
    assert.equal(aposLogin.status, 200);
    assert.equal(new URL(aposLogin.url).pathname, '/usuarionovo');
    assert.ok(
      aposLogin.caminho.some((u) => new URL(u).pathname === '/callback'),
      'passou pelo /callback',
    );
    assert.ok(nav.cookie(amb.url, 'appSession'), 'cookie appSession criado');
    assert.match(aposLogin.texto, /Complete seu cadastro/);
    assert.match(aposLogin.texto, /value="Marta Primeira"/, 'formulário pré-preenchido com o nome da identidade');
    assert.ok(aposLogin.texto.includes(email), 'mostra o e-mail da identidade');

    const cadastro = await nav.post(`${amb.url}/usuarionovo`, {
      form: { _csrf: tokenCsrf(aposLogin.texto), nome: 'Marta Primeira', perfil: 'consumidor', cientepolitica: 'true' },
    });
    assert.equal(cadastro.status, 200);
    assert.equal(new URL(cadastro.url).pathname, '/');
    assert.match(cadastro.texto, /Olá, Marta Primeira!/);
    assert.match(cadastro.texto, /Cadastro concluído/);

    const linha = await amb.banco
      .selectFrom('usuario')
      .selectAll()
      .where('emailChave', '=', email)
      .executeTakeFirstOrThrow();
    assert.equal(linha.email, email);
    assert.deepEqual(JSON.parse(linha.perfil), ['consumidor']);

    const outra = new Navegador();
    const segunda = await entrarPeloProvedor(outra, `${amb.url}/`, { email: email.toUpperCase(), nome: 'Marta' });
    assert.equal(new URL(segunda.url).pathname, '/');
    assert.equal(segunda.status, 200);
    assert.match(segunda.texto, /Olá, Marta Primeira!/, 'o e-mail casa sem diferenciar maiúsculas');
    assert.ok(!segunda.caminho.some((u) => new URL(u).pathname === '/usuarionovo'));
  });

  test('o painel também é servido em GET /callback para quem já está logado, e em JSON', async () => {
    const u = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Rui Fornecedor' });
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
    const pagina = await nav.get(`${amb.url}/callback`);
    assert.equal(pagina.status, 200);
    assert.match(pagina.texto, /Olá, Rui Fornecedor!/);
    const json = await nav.getJson(`${amb.url}/`);
    assert.equal(json.status, 200);
    const corpo = json.json<{ success: boolean; data: { usuario: { id: number; perfil: string[] } } }>();
    assert.equal(corpo.success, true);
    assert.equal(corpo.data.usuario.id, u.id);
    assert.deepEqual(corpo.data.usuario.perfil, ['fornecedor']);
  });

  test('requisição JSON sem sessão recebe 401 com o envelope, não um redirecionamento', async () => {
    const r = await new Navegador().getJson(`${amb.url}/`);
    assert.equal(r.status, 401);
    assert.deepEqual(r.json(), { success: false, error: 'Não autenticado' });
    const post = await new Navegador().postJson(`${amb.url}/profile`, { nome: 'x' });
    assert.equal(post.status, 401);
  });

  test('callback com state errado é recusado com página clara (400), nunca 500, e sem sessão', async () => {
    const nav = new Navegador();
    const local = await ateOCallback(nav, `${amb.url}/`, `${amb.url}/callback`, emailUnico());
    assert.ok(local.startsWith(`${amb.url}/callback?`), `chegou ao callback: ${local}`);
    const adulterado = new URL(local);
    adulterado.searchParams.set('state', 'state-de-outro-navegador');
    const resposta = await nav.get(adulterado.href);
    assert.equal(resposta.status, 400);
    assert.match(resposta.texto, /Não foi possível entrar/);
    assert.match(resposta.texto, /Entrar novamente/);
    assert.equal(nav.cookie(amb.url, 'appSession'), undefined);
  });

  test('callback sem o cookie de verificação (outro navegador, ou repetido) é recusado com 400', async () => {
    const nav = new Navegador();
    const local = await ateOCallback(nav, `${amb.url}/`, `${amb.url}/callback`, emailUnico());
    const outro = new Navegador();
    const resposta = await outro.get(local);
    assert.equal(resposta.status, 400);
    assert.match(resposta.texto, /outro navegador/);
    // The first browser completes it; replaying the same callback afterwards fails cleanly.
    const ok = await nav.get(local);
    assert.equal(ok.status, 200);
    const repetido = await nav.get(local, { seguir: false });
    assert.equal(repetido.status, 400);
  });

  test('callback com nonce que não confere é recusado com 400', async () => {
    const nav = new Navegador();
    const inicio = await nav.get(`${amb.url}/`, { seguir: false });
    const autorizacao = new URL(inicio.headers.get('location') ?? '');
    autorizacao.searchParams.set('nonce', 'nonce-forjado');
    const login = await nav.get(autorizacao.href);
    const final = await nav.post(`${login.url}/login`, { form: { email: emailUnico(), nome: 'X' } });
    assert.equal(final.status, 400);
    assert.equal(new URL(final.url).pathname, '/callback');
    assert.equal(nav.cookie(amb.url, 'appSession'), undefined);
  });

  test('quem cancela no provedor volta com erro e recebe 400 com mensagem, não 500', async () => {
    const nav = new Navegador();
    const login = await nav.get(`${amb.url}/`);
    const r = await nav.get(`${login.url}/abort`);
    assert.equal(r.status, 400);
    assert.equal(new URL(r.url).pathname, '/callback');
    assert.match(r.texto, /Não foi possível/);
  });

  test('appSession adulterado é rejeitado: o visitante volta a ser anônimo e o cookie é apagado', async () => {
    const u = await criarUsuario(amb.banco);
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
    const valido = nav.cookie(amb.url, 'appSession') ?? '';
    assert.equal((await nav.getJson(`${amb.url}/`)).status, 200);
    const meio = Math.floor(valido.length / 2);
    const trocado = valido.slice(0, meio) + (valido[meio] === 'A' ? 'B' : 'A') + valido.slice(meio + 1);
    nav.definirCookie(amb.url, 'appSession', trocado);
    const r = await nav.getJson(`${amb.url}/`);
    assert.equal(r.status, 401);
    assert.match(r.headers.getSetCookie().join('\n'), /appSession=;/);
    nav.definirCookie(amb.url, 'appSession', 'lixo');
    assert.equal((await nav.getJson(`${amb.url}/`)).status, 401);
  });

  test('appSession expirado é rejeitado', async () => {
    const u = await criarUsuario(amb.banco);
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
    assert.equal((await nav.getJson(`${amb.url}/`)).status, 200);
    amb.relogio.avancar(8 * 24 * 60 * 60 * 1000);
    try {
      assert.equal((await nav.getJson(`${amb.url}/`)).status, 401);
    } finally {
      amb.relogio.avancar(-8 * 24 * 60 * 60 * 1000);
    }
  });

  test('o cookie de sessão é HttpOnly e SameSite=Lax', async () => {
    const u = await criarUsuario(amb.banco);
    const nav = new Navegador();
    const local = await ateOCallback(nav, `${amb.url}/`, `${amb.url}/callback`, u.email);
    const cb = await nav.get(local, { seguir: false });
    const sessao = cb.headers.getSetCookie().find((c) => c.startsWith('appSession='));
    assert.ok(sessao);
    assert.match(sessao, /HttpOnly/i);
    assert.match(sessao, /SameSite=Lax/i);
    assert.doesNotMatch(sessao, /Secure/i, 'fora de produção o cookie não exige https');
  });

  test('sair encerra a sessão em toda parte: uma cópia do cookie feita antes não abre mais nada', async () => {
    const u = await criarUsuario(amb.banco);
    const nav = new Navegador();
    const painel = await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
    const copia = nav.cookie(amb.url, 'appSession') ?? '';
    const outroAparelho = new Navegador();
    outroAparelho.definirCookie(amb.url, 'appSession', copia);
    assert.equal((await outroAparelho.getJson(`${amb.url}/`)).status, 200);
    await nav.post(`${amb.url}/logout`, { form: { _csrf: tokenCsrf(painel.texto) } }, { seguir: false });
    assert.equal((await outroAparelho.getJson(`${amb.url}/`)).status, 401, 'a cópia foi encerrada junto');
    nav.definirCookie(amb.url, 'appSession', copia);
    assert.equal((await nav.getJson(`${amb.url}/profile`)).status, 401, 'reapresentar o cookie antigo não funciona');
    const novo = new Navegador();
    await entrarPeloProvedor(novo, `${amb.url}/`, { email: u.email });
    assert.equal((await novo.getJson(`${amb.url}/`)).status, 200, 'um login novo funciona');
  });

  test('sair encerra a sessão', async () => {
    const u = await criarUsuario(amb.banco);
    const nav = new Navegador();
    const painel = await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
    const r = await nav.post(`${amb.url}/logout`, { form: { _csrf: tokenCsrf(painel.texto) } }, { seguir: false });
    assert.equal(r.status, 303);
    assert.equal(nav.cookie(amb.url, 'appSession'), undefined);
    assert.equal((await nav.getJson(`${amb.url}/`)).status, 401);
  });

  /** Logs in through the provider and presses "Sair" (a form on every page), following every redirect. */
  async function entrarESair(nav: Navegador, email: string): Promise<Resposta> {
    const painel = await entrarPeloProvedor(nav, `${amb.url}/`, { email });
    return nav.post(`${amb.url}/logout`, { form: { _csrf: tokenCsrf(painel.texto) } });
  }

  test('"Sair" encerra também a sessão no provedor sem perguntar: a página dele se envia sozinha e termina em /saiu', async () => {
    const u = await criarUsuario(amb.banco);
    const nav = new Navegador();
    const noProvedor = await entrarESair(nav, u.email);
    const saida = new URL(noProvedor.url);
    assert.equal(saida.origin, amb.idp, 'a saída passa pelo endereço de encerramento do provedor');
    assert.ok(saida.searchParams.get('id_token_hint'), 'com o ID token como dica');
    assert.equal(saida.searchParams.get('post_logout_redirect_uri'), `${amb.url}/saiu`);

    // The page asks nothing and offers nothing to press (the button is for browsers without
    // JavaScript); its one script, allowed by its hash, posts the form (test/navegador/sair.test.ts
    // watches chromium do it).
    assert.equal(noProvedor.status, 200);
    assert.doesNotMatch(noProvedor.texto, /Deseja sair/);
    assert.ok(
      !noProvedor.texto.replace(/<noscript>[\s\S]*?<\/noscript>/g, '').includes('<button'),
      'nenhum botão à vista',
    );
    const scripts = [...noProvedor.texto.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1] ?? '');
    assert.equal(scripts.length, 1);
    const [script = ''] = scripts;
    assert.match(script, /getElementById\('op\.logoutForm'\)\.submit\(\)/);
    const csp = noProvedor.headers.get('content-security-policy') ?? '';
    assert.ok(
      csp.includes(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`),
      `o CSP permite o script pelo hash: ${csp}`,
    );
    assert.match(noProvedor.texto, /<input type="hidden" form="op.logoutForm" name="logout" value="yes">/);

    const saiu = await enviarFormulario(nav, noProvedor, 'op.logoutForm');
    assert.equal(saiu.url, `${amb.url}/saiu`);
    assert.equal(saiu.status, 200);
    assert.match(saiu.texto, /Você saiu da Cestaria/);
    assert.equal((await nav.getJson(`${amb.url}/`)).status, 401);

    // The provider's session is over: even without the mark our logout left, it asks who is there.
    nav.apagarCookie(amb.url, COOKIE_SAIDA);
    const { autorizacao, destino } = await aondeOProvedorLeva(nav, `${amb.url}/`, amb.idp);
    assert.equal(autorizacao.searchParams.get('prompt'), null);
    assert.match(
      destino.pathname,
      /^\/interaction\/[^/]+$/,
      `o provedor mostra o seu formulário de login, não devolve a pessoa: ${destino.href}`,
    );
  });

  test('depois de sair, o próximo login pede a pessoa de novo (prompt=login), mesmo com a sessão do provedor viva; o login apaga a marca', async () => {
    const u = await criarUsuario(amb.banco, { nome: 'Sara Saída' });
    const nav = new Navegador();
    const painel = await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
    const r = await nav.post(`${amb.url}/logout`, { form: { _csrf: tokenCsrf(painel.texto) } }, { seguir: false });
    assert.equal(r.status, 303);
    const marca = r.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE_SAIDA}=`));
    assert.ok(marca, 'sair deixa a marca no navegador');
    assert.match(marca, /; Path=\//);
    assert.match(marca, /; HttpOnly/i);
    assert.match(marca, /; SameSite=Lax/i);
    assert.doesNotMatch(marca, /Secure/i, 'fora de produção o cookie não exige https');
    // Nobody submits the provider's page (a browser without JavaScript, a closed tab): its
    // session lives on, and without the mark this browser would go straight back in.
    nav.apagarCookie(amb.url, COOKIE_SAIDA);
    const semMarca = await aondeOProvedorLeva(nav, `${amb.url}/`, amb.idp);
    assert.ok(
      semMarca.destino.href.startsWith(`${amb.url}/callback?`),
      `sem a marca, o provedor devolveria a pessoa: ${semMarca.destino.href}`,
    );
    nav.definirCookie(amb.url, COOKIE_SAIDA, '1');

    const comMarca = await aondeOProvedorLeva(nav, `${amb.url}/`, amb.idp);
    assert.equal(comMarca.autorizacao.searchParams.get('prompt'), 'login');
    assert.match(
      comMarca.destino.pathname,
      /^\/interaction\/[^/]+$/,
      `o provedor pede a pessoa de novo: ${comMarca.destino.href}`,
    );
    const dentro = await nav.post(`${comMarca.destino.href}/login`, { form: { email: u.email, nome: 'Sara' } });
    assert.equal(dentro.status, 200);
    assert.equal(new URL(dentro.url).pathname, '/');
    assert.match(dentro.texto, /Olá, Sara Saída!/);
    assert.equal(nav.cookie(amb.url, COOKIE_SAIDA), undefined, 'o login apagou a marca');
    // Only the first login after leaving asks: the next one is the provider's usual single sign-on.
    nav.apagarCookie(amb.url, 'appSession');
    const seguinte = await aondeOProvedorLeva(nav, `${amb.url}/`, amb.idp);
    assert.equal(seguinte.autorizacao.searchParams.get('prompt'), null);
    assert.ok(seguinte.destino.href.startsWith(`${amb.url}/callback?`));
  });

  test('sem o ID token, ou com o de outra pessoa, o provedor pergunta antes de encerrar a sua sessão', async () => {
    const [a, b] = [await criarUsuario(amb.banco), await criarUsuario(amb.banco)];
    const navA = new Navegador();
    const painelA = await entrarPeloProvedor(navA, `${amb.url}/`, { email: a.email });
    const saidaA = await navA.post(
      `${amb.url}/logout`,
      { form: { _csrf: tokenCsrf(painelA.texto) } },
      { seguir: false },
    );
    const dicaDeA = new URL(saidaA.headers.get('location') ?? '').searchParams.get('id_token_hint') ?? '';
    assert.ok(dicaDeA);

    const navB = new Navegador();
    await entrarPeloProvedor(navB, `${amb.url}/`, { email: b.email });
    for (const endereco of [
      `${amb.idp}/session/end`,
      `${amb.idp}/session/end?id_token_hint=${encodeURIComponent(dicaDeA)}`,
    ]) {
      const pagina = await navB.get(endereco);
      assert.equal(pagina.status, 200, endereco);
      assert.match(pagina.texto, /Deseja sair também do provedor de login\?/, endereco);
      assert.doesNotMatch(pagina.texto, /<script/, endereco);
      assert.doesNotMatch(pagina.headers.get('content-security-policy') ?? '', /script-src/, endereco);
    }
    assert.equal((await navB.getJson(`${amb.url}/`)).status, 200, 'a sessão de B na Cestaria segue');
    navB.apagarCookie(amb.url, 'appSession');
    assert.ok(
      (await aondeOProvedorLeva(navB, `${amb.url}/`, amb.idp)).destino.href.startsWith(`${amb.url}/callback?`),
      'e a do provedor também',
    );
  });
});
