import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope {
  success: boolean;
  error: string;
  details?: Record<string, string>;
}

describe('núcleo HTTP da face Cestas', () => {
  let amb: AmbienteDeTeste;
  let nav: Navegador;
  let usuario: { id: number; email: string };
  before(async () => {
    amb = await iniciarAmbiente();
    usuario = await criarUsuario(amb.banco, { nome: 'Original' });
    nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email: usuario.email });
  });
  after(() => amb.fechar());

  async function nomeAtual(): Promise<string> {
    return (await amb.banco.selectFrom('usuario').select('nome').where('id', '=', usuario.id).executeTakeFirstOrThrow())
      .nome;
  }

  test('JSON malformado → 400 com o envelope', async () => {
    const r = await nav.post(
      `${amb.url}/profile`,
      { bruto: '{"nome": "x",', tipo: 'application/json' },
      { headers: { accept: 'application/json' } },
    );
    assert.equal(r.status, 400);
    const e = r.json<Envelope>();
    assert.equal(e.success, false);
    assert.match(e.error, /JSON malformado/);
    assert.equal(await nomeAtual(), 'Original');
  });

  test('tipos errados → 400 com detalhes por campo', async () => {
    const r = await nav.postJson(`${amb.url}/profile`, { nome: 123, celular: ['x'], cientepolitica: 'talvez' });
    assert.equal(r.status, 400);
    const e = r.json<Envelope>();
    assert.equal(e.details?.nome, 'Deve ser um texto');
    assert.equal(e.details?.celular, 'Deve ser um texto');
    assert.equal(e.details?.cientepolitica, 'Deve ser verdadeiro ou falso');
    assert.equal(await nomeAtual(), 'Original');
  });

  test('corpo que não é objeto → 400', async () => {
    const r = await nav.postJson(`${amb.url}/profile`, [1, 2, 3]);
    assert.equal(r.status, 400);
    assert.match(r.json<Envelope>().error, /objeto/);
  });

  test('chave __proto__ no JSON é recusada com 400', async () => {
    const r = await nav.post(
      `${amb.url}/profile`,
      { bruto: '{"nome":"A","__proto__":{"admin":true}}', tipo: 'application/json' },
      { headers: { accept: 'application/json' } },
    );
    assert.equal(r.status, 400);
    assert.equal(r.json<Envelope>().success, false);
  });

  test('corpo acima de 1 MiB → 413 com o envelope', async () => {
    const r = await nav.postJson(`${amb.url}/profile`, { nome: 'x'.repeat(1024 * 1024 + 10) });
    assert.equal(r.status, 413);
    assert.match(r.json<Envelope>().error, /grande demais/);
    assert.equal(await nomeAtual(), 'Original');
  });

  test('tipo de conteúdo desconhecido → 415 com o envelope', async () => {
    const r = await nav.post(
      `${amb.url}/profile`,
      { bruto: 'nome=x', tipo: 'text/plain' },
      { headers: { accept: 'application/json' } },
    );
    assert.equal(r.status, 415);
    assert.match(r.json<Envelope>().error, /application\/json/);
  });

  test('JSON de outra origem → 403', async () => {
    const r = await nav.postJson(`${amb.url}/profile`, { nome: 'Forjado' }, { origin: 'https://ataque.example' });
    assert.equal(r.status, 403);
    assert.match(r.json<Envelope>().error, /Origem/);
    assert.equal(await nomeAtual(), 'Original');
  });

  test('endereço inexistente → 404 em JSON e em HTML', async () => {
    const j = await nav.getJson(`${amb.url}/nao-existe`);
    assert.equal(j.status, 404);
    assert.deepEqual(j.json(), { success: false, error: 'Página ou registro não encontrado' });
    const h = await nav.get(`${amb.url}/nao-existe`);
    assert.equal(h.status, 404);
    assert.match(h.headers.get('content-type') ?? '', /text\/html/);
    assert.match(h.texto, /<html lang="pt-BR">/);
  });

  test('cabeçalhos de segurança em toda página', async () => {
    for (const caminho of ['/', '/profile', '/nao-existe', '/saiu']) {
      const r = await nav.get(`${amb.url}${caminho}`);
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'self'/, caminho);
      assert.match(csp, /frame-ancestors 'none'/, caminho);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', caminho);
      assert.ok(r.headers.get('referrer-policy'), caminho);
    }
  });

  test('páginas escapam o que as pessoas digitaram', async () => {
    const r = await nav.postJson(`${amb.url}/profile`, { nome: '<script>alert(1)</script>', cientepolitica: true });
    assert.equal(r.status, 200);
    const painel = await nav.get(`${amb.url}/`);
    assert.ok(!painel.texto.includes('<script>alert(1)</script>'));
    assert.ok(painel.texto.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    await nav.postJson(`${amb.url}/profile`, { nome: 'Original', cientepolitica: true });
  });
});
