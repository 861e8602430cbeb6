import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Navegador, enviarFormulario } from '../helpers/navegador.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados } from '../mercados/apoio.ts';
import { emailUnico } from '../helpers/fabricas.ts';

/**
 * A copy of the person's session cookie, taken while it was live: each use is a fresh browser
 * holding it, so the server clearing the cookie in one answer cannot hide what the next one does.
 */
function copiaDoCookie(amb: AmbienteDeTeste, p: Pessoa): () => Navegador {
  const valor = p.nav.cookie(amb.url, 'appSession');
  assert.ok(valor !== undefined, 'a pessoa tem sessão');
  return () => {
    const copia = new Navegador();
    copia.definirCookie(amb.url, 'appSession', valor);
    return copia;
  };
}

describe('uma sessão encerrada não vale em rota nenhuma, pública ou não', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  const maneiras: Record<string, (p: Pessoa) => Promise<void>> = {
    'POST /logout em JSON': async (p) => {
      const r = await p.nav.postJson(`${amb.url}/logout`, {});
      assert.equal(r.status, 200);
    },
    'POST /logout pelo formulário (e pelo provedor)': async (p) => {
      const r = await p.nav.post(
        `${amb.url}/logout`,
        { form: { _csrf: await csrfDe(amb, p.nav) } },
        { headers: { accept: 'text/html', 'sec-fetch-site': 'same-origin' } },
      );
      // The provider's end-session page posts itself (test/cestas/login.test.ts): this does what its script does.
      assert.match(r.texto, /Encerrando a sessão no provedor de login/);
      assert.equal((await enviarFormulario(p.nav, r, 'op.logoutForm')).url, `${amb.url}/saiu`);
    },
    'GET /logout navegando na própria página': async (p) => {
      const r = await p.nav.get(`${amb.url}/logout`, {
        headers: { accept: 'text/html', 'sec-fetch-site': 'same-origin' },
      });
      assert.match(r.texto, /Encerrando a sessão no provedor de login/);
      assert.equal((await enviarFormulario(p.nav, r, 'op.logoutForm')).url, `${amb.url}/saiu`);
    },
  };

  for (const [maneira, sair] of Object.entries(maneiras)) {
    test(`depois de ${maneira}, a cópia do cookie não abre /callback, o painel nem as páginas públicas`, async () => {
      const p = await entrarComo(amb, ['consumidor'], 'Pessoa Que Saiu');
      const copia = copiaDoCookie(amb, p);
      const vivo = await copia().get(`${amb.url}/limitesolar`);
      assert.match(vivo.texto, /action="\/logout"/, 'com a sessão viva, a página pública mostra o menu da pessoa');
      await sair(p);

      const callback = await copia().get(`${amb.url}/callback`, {
        headers: { accept: 'application/json' },
        seguir: false,
      });
      // Asked for JSON, /callback answers as the dashboard does: an ended session is no session (401).
      assert.equal(callback.status, 401);
      assert.ok(!callback.texto.includes('Pessoa Que Saiu'));
      assert.equal((await copia().getJson(`${amb.url}/`)).status, 401);
      const publica = await copia().get(`${amb.url}/limitesolar`);
      assert.equal(publica.status, 200);
      assert.ok(!publica.texto.includes('action="/logout"'), 'a página pública não trata a cópia como sessão');
      assert.ok(!publica.texto.includes('Pessoa Que Saiu'));
    });
  }

  test('/callback sem code nem state, com sessão viva, leva ao painel', async () => {
    const p = await entrarComo(amb, ['consumidor']);
    const r = await p.nav.get(`${amb.url}/callback`, { seguir: false });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/');
  });

  test('Cestas: um GET /logout vindo de outro site pede confirmação e não encerra a sessão', async () => {
    const p = await entrarComo(amb, ['consumidor']);
    for (const site of ['cross-site', 'same-site']) {
      const r = await p.nav.get(`${amb.url}/logout`, {
        headers: { accept: 'text/html', 'sec-fetch-site': site },
        seguir: false,
      });
      assert.equal(r.status, 200, site);
      assert.match(r.texto, /Deseja sair da Cestaria neste aparelho\?/);
      assert.match(r.texto, /<form method="post" action="\/logout">/);
      assert.equal((await p.nav.getJson(`${amb.url}/`)).status, 200, `${site}: a sessão continua`);
    }
    const confirmar = await p.nav.post(
      `${amb.url}/logout`,
      { form: { _csrf: await csrfDe(amb, p.nav) } },
      { headers: { 'sec-fetch-site': 'same-origin' }, seguir: false },
    );
    assert.equal(confirmar.status, 303);
    assert.equal((await p.nav.getJson(`${amb.url}/`)).status, 401);
  });

  test('Mercados: um GET /logout vindo de outro site pede confirmação; da própria página, sai', async () => {
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: emailUnico('mercados-sair') });
    const autenticado = async () =>
      (await nav.getJson(`${amb.urlMercados}/auth/status`)).json<{ authenticated: boolean }>().authenticated;
    const outro = await nav.get(`${amb.urlMercados}/logout`, {
      headers: { 'sec-fetch-site': 'cross-site' },
      seguir: false,
    });
    assert.equal(outro.status, 200);
    assert.match(outro.headers.get('content-type') ?? '', /text\/html/);
    assert.match(outro.texto, /Deseja sair da Cestaria Mercados neste aparelho\?/);
    assert.match(outro.texto, /name="_csrf" value="[^"]+"/);
    assert.equal(await autenticado(), true, 'a sessão continua');
    const proprio = await nav.get(`${amb.urlMercados}/logout`, {
      headers: { 'sec-fetch-site': 'same-origin' },
      seguir: false,
    });
    assert.equal(proprio.status, 302);
    assert.equal(proprio.headers.get('location'), '/');
    assert.equal(await autenticado(), false);
  });

  test('Cestas: respostas a quem tem sessão levam Cache-Control: no-store (páginas, JSON, erros e redirecionamentos)', async () => {
    const p = await entrarComo(amb, ['admin']);
    const respostas = {
      pagina: await p.nav.get(`${amb.url}/`),
      json: await p.nav.getJson(`${amb.url}/cesta-index`),
      erro: await p.nav.getJson(`${amb.url}/cesta/999999`),
      redirecionamento: await p.nav.post(
        `${amb.url}/categoria`,
        { form: { _csrf: await csrfDe(amb, p.nav), nome: `Categoria ${Date.now()}` } },
        { seguir: false },
      ),
      publica: await p.nav.get(`${amb.url}/limitesolar`),
    };
    assert.equal(respostas.erro.status, 404);
    assert.equal(respostas.redirecionamento.status, 303);
    for (const [tipo, r] of Object.entries(respostas)) assert.equal(r.headers.get('cache-control'), 'no-store', tipo);
  });
});
