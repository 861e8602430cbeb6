import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EMAIL } from '../../src/domain/textos.ts';
import { SalvarUsuario } from '../../src/comandos/cadastro.ts';
import { nomesDoCorpo } from '../../src/comandos/leitor/leitura.ts';
import { Invalido } from '../../src/domain/erros.ts';
import { entrarComo } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * Patterns run only on values within their length limit, and the e-mail pattern is linear.
 * NOTE: no timing assertions (those belong in bench/). The inputs below are the ones that took
 * seconds (60,000 characters) or would take minutes (500,000) with the old order of checks, so a
 * regression shows as this file hitting the runner's timeout.
 */
describe('entradas enormes não prendem o processo', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente();
  });
  after(() => amb.fechar());

  test('um e-mail de 60.000 caracteres recebe 400 com o limite, e nada é gravado', async () => {
    const admin = await entrarComo(amb, ['admin']);
    const antes = await amb.banco.selectFrom('usuario').select('id').execute();
    const r = await admin.nav.postJson(`${amb.url}/usuario`, {
      nome: 'Enorme',
      email: `a@${'.'.repeat(60_000)}@`,
      perfil: ['consumidor'],
    });
    assert.equal(r.status, 400);
    assert.equal(r.json<{ details: Record<string, string> }>().details.email, 'Deve ter no máximo 254 caracteres');
    assert.equal((await amb.banco.selectFrom('usuario').select('id').execute()).length, antes.length);
  });

  test('o limite vem antes de qualquer padrão: 500.000 pontos entre duas arrobas', () => {
    const corpo = { email: `a@${'.'.repeat(500_000)}@`, nome: `${'x'.repeat(400_000)}\u0000`, perfil: ['admin'] };
    assert.throws(
      () => SalvarUsuario.ler(corpo, nomesDoCorpo),
      (e) =>
        e instanceof Invalido &&
        assert.deepEqual(e.detalhes, {
          email: 'Deve ter no máximo 254 caracteres',
          nome: 'Deve ter no máximo 120 caracteres',
        }) === undefined,
    );
  });

  test('o padrão de e-mail aceita e recusa o que deve, e é linear no pior caso do anterior', () => {
    for (const bom of ['ana@exemplo.org', 'a.b+c@sub.exemplo.com.br', 'maria_jose@x.co'])
      assert.ok(EMAIL.test(bom), bom);
    for (const ruim of ['sem-arroba', 'a@b', 'a@b.', 'a@.b', 'a@b..c', 'a b@c.d', 'a@b@c.d', '@b.c'])
      assert.ok(!EMAIL.test(ruim), ruim);
    // The old pattern backtracked quadratically on this shape; this one answers at once.
    assert.equal(EMAIL.test(`a@${'.'.repeat(2_000_000)}@`), false);
    assert.equal(EMAIL.test(`a@${'b.'.repeat(1_000_000)}@`), false);
  });
});
