import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { semSegredos } from '../../src/http/log.ts';
import { DIALETO } from '../helpers/banco.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

describe('falhas de infraestrutura', () => {
  test('com emissor externo configurado não há provedor de desenvolvimento, e um provedor fora do ar dá 503 claro', async () => {
    const amb = await iniciarAmbiente({
      env: { OIDC_ISSUER_BASE_URL: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' },
      semProvedorDev: true,
    });
    try {
      assert.equal(amb.servicos.enderecos.idp, undefined);
      const r = await new Navegador().get(`${amb.url}/`);
      assert.equal(r.status, 503);
      assert.match(r.texto, /provedor de login não respondeu/);
    } finally {
      await amb.fechar();
    }
  });

  describe('banco quebrado no meio da sessão', () => {
    let amb: AmbienteDeTeste;
    let nav: Navegador;
    before(async () => {
      amb = await iniciarAmbiente();
      const u = await criarUsuario(amb.banco);
      nav = new Navegador();
      await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
      // A broken schema makes every user lookup fail inside the database driver.
      await sql`drop table usuario ${sql.raw(DIALETO === 'postgres' ? 'cascade' : '')}`.execute(amb.banco);
    });
    after(() => amb.fechar());

    test('responde 500 genérico com o código da requisição, sem detalhes internos', async () => {
      const r = await nav.getJson(`${amb.url}/`);
      assert.equal(r.status, 500);
      const corpo = r.json<{ success: boolean; error: string; requestId: string }>();
      assert.equal(corpo.success, false);
      assert.match(corpo.requestId, /^[0-9a-f-]{36}$/);
      assert.equal(corpo.error, `Erro interno. Informe o código ${corpo.requestId} à coordenação.`);
      const html = await nav.get(`${amb.url}/`);
      assert.equal(html.status, 500);
      assert.match(html.texto, /Código da requisição: <code>[0-9a-f-]{36}<\/code>/);
    });
  });
});

test('os logs não guardam os valores de code e state do retorno do provedor', () => {
  assert.equal(
    semSegredos('/callback?code=abc&state=xyz&iss=http%3A%2F%2Fidp'),
    '/callback?code=%5Boculto%5D&state=%5Boculto%5D&iss=http%3A%2F%2Fidp',
  );
  assert.equal(semSegredos('/profile'), '/profile');
  assert.equal(semSegredos('/avisos/sair/abc.def-123?x=1'), '/avisos/sair/[oculto]?x=1');
});
