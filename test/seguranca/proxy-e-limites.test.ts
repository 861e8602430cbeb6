import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { zerarLimiteDeLogin } from '../mercados/apoio.ts';

const CLIENTE_A = '203.0.113.10';
const CLIENTE_B = '203.0.113.20';

async function chaves(amb: AmbienteDeTeste): Promise<string[]> {
  return (await amb.banco.selectFrom('limitetentativa').select('chave').orderBy('chave').execute()).map((l) => l.chave);
}

/** Starts the Mercados login as a client behind the proxy (or claiming to be), without following. */
function authIdp(amb: AmbienteDeTeste, cliente: string, accept = 'application/json') {
  return new Navegador().get(`${amb.urlMercados}/auth/idp`, {
    headers: { 'x-forwarded-for': cliente, accept },
    seguir: false,
  });
}

describe('atrás de um proxy confiável (TRUST_PROXY), cada cliente tem o seu limite de login', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { TRUST_PROXY: '127.0.0.1,::1' } });
  });
  after(() => amb.fechar());

  test('Mercados: 5 tentativas por 15 minutos em /auth/idp contam por cliente, não pelo endereço do proxy', async () => {
    await zerarLimiteDeLogin(amb.banco);
    for (let i = 0; i < 5; i++) assert.equal((await authIdp(amb, CLIENTE_A)).status, 302, `tentativa ${i + 1}`);
    const bloqueado = await authIdp(amb, CLIENTE_A);
    assert.equal(bloqueado.status, 429);
    assert.deepEqual(bloqueado.json(), { error: 'Muitas tentativas de login. Tente novamente em 15 minutos.' });
    assert.equal((await authIdp(amb, CLIENTE_B)).status, 302, 'o vizinho atrás do mesmo proxy entra');
    assert.deepEqual(await chaves(amb), [`mercados-login:${CLIENTE_A}`, `mercados-login:${CLIENTE_B}`]);
  });

  test('Mercados: um navegador no limite recebe uma página em português; só quem pede JSON recebe JSON', async () => {
    await zerarLimiteDeLogin(amb.banco);
    for (let i = 0; i < 5; i++) await authIdp(amb, CLIENTE_A);
    const pagina = await authIdp(amb, CLIENTE_A, 'text/html,application/xhtml+xml');
    assert.equal(pagina.status, 429);
    assert.match(pagina.headers.get('content-type') ?? '', /text\/html/);
    assert.match(pagina.texto, /<html lang="pt-BR">/);
    assert.match(pagina.texto, /Muitas tentativas de login\. Tente novamente em 15 minutos\./);
    assert.ok(Number(pagina.headers.get('retry-after')) > 0);
  });

  test('Cestas: visitas anônimas que vão ao provedor não contam nem gravam tentativas', async () => {
    await amb.banco.deleteFrom('limitetentativa').execute();
    for (let i = 0; i < 120; i++) {
      const r = await new Navegador().get(`${amb.url}/`, { headers: { 'x-forwarded-for': CLIENTE_A }, seguir: false });
      assert.equal(r.status, 302);
    }
    assert.deepEqual(await chaves(amb), []);
  });

  test('Cestas: os retornos do provedor contam por cliente; no limite, página ao navegador e JSON a quem pede', async () => {
    await amb.banco.deleteFrom('limitetentativa').execute();
    const callback = (cliente: string, accept: string) =>
      new Navegador().get(`${amb.url}/callback?code=falso&state=falso`, {
        headers: { 'x-forwarded-for': cliente, accept },
        seguir: false,
      });
    for (let i = 0; i < 100; i++)
      assert.equal(
        (await callback(CLIENTE_A, 'application/json')).status,
        400,
        'sem o cookie de verificação: recusado, mas conta',
      );
    const json = await callback(CLIENTE_A, 'application/json');
    assert.equal(json.status, 429);
    assert.equal(json.json<{ error: string }>().error, 'Muitas tentativas de login. Tente novamente em 15 minutos.');
    const pagina = await callback(CLIENTE_A, 'text/html');
    assert.equal(pagina.status, 429);
    assert.match(pagina.texto, /<html lang="pt-BR">/);
    assert.match(pagina.texto, /Muitas tentativas de login/);
    assert.equal((await callback(CLIENTE_B, 'application/json')).status, 400, 'outro cliente não é afetado');
  });

  test('as janelas vencidas saem da tabela', async () => {
    await amb.banco.deleteFrom('limitetentativa').execute();
    await authIdp(amb, CLIENTE_A);
    await authIdp(amb, CLIENTE_B);
    assert.equal((await chaves(amb)).length, 2);
    amb.relogio.avancar(16 * 60 * 1000);
    await authIdp(amb, '203.0.113.30');
    assert.deepEqual(await chaves(amb), ['mercados-login:203.0.113.30']);
  });
});

describe('sem TRUST_PROXY, o cabeçalho X-Forwarded-For não escolhe o endereço', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('quem inventa X-Forwarded-For continua contado pelo próprio endereço', async () => {
    await zerarLimiteDeLogin(amb.banco);
    for (let i = 0; i < 5; i++) await authIdp(amb, `198.51.100.${i}`);
    assert.equal((await authIdp(amb, CLIENTE_B)).status, 429);
    const [chave = ''] = await chaves(amb);
    assert.ok(!chave.includes('198.51.100') && !chave.includes(CLIENTE_B), chave);
  });
});
