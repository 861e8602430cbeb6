import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

let amb: AmbienteDeTeste;
before(async () => {
  amb = await iniciarAmbiente({ mercados: true });
});
after(() => amb.fechar());

function conferir(r: Response, onde: string): void {
  const csp = r.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'self'/, `${onde}: CSP`);
  assert.match(csp, /frame-ancestors 'none'/, `${onde}: frame-ancestors`);
  assert.match(csp, /object-src 'none'/, `${onde}: object-src`);
  assert.equal(r.headers.get('x-content-type-options'), 'nosniff', `${onde}: nosniff`);
  assert.match(
    r.headers.get('referrer-policy') ?? '',
    /no-referrer|same-origin|strict-origin/,
    `${onde}: referrer-policy`,
  );
  assert.equal(r.headers.get('x-powered-by'), null, `${onde}: sem x-powered-by`);
}

test('cabeçalhos de segurança em toda resposta das duas faces: páginas, JSON, erros e redirecionamentos', async () => {
  const alvos = [
    ...['/', '/limitesolar', '/saiu', '/nao-existe', '/static/estilo.css', '/profile'].map((c) => `${amb.url}${c}`),
    ...['/', '/login', '/auth/status', '/dashboard', '/nao-existe', '/graphql'].map((c) => `${amb.urlMercados}${c}`),
  ];
  for (const url of alvos) {
    const html = await fetch(url, { redirect: 'manual' });
    conferir(html, url);
    const json = await fetch(url, { redirect: 'manual', headers: { accept: 'application/json' } });
    conferir(json, `${url} (JSON)`);
  }
});
