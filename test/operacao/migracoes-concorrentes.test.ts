/**
 * Three real server processes started at once on a fresh, empty database: the migrations run
 * exactly once (the others wait for the lock and find nothing to do) and all three become ready.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { abrirBanco } from '../../src/db/banco.ts';
import { NOMES_MIGRACOES } from '../../src/db/migrations/index.ts';
import { DIALETO, bancoVazio, urlDoBanco } from '../helpers/banco.ts';
import { parar, subirServidor, type ProcessoServidor } from '../helpers/processos.ts';

test(`três processos iniciados juntos num banco novo aplicam cada migração uma única vez e ficam prontos (${DIALETO})`, async () => {
  const cfg = await bancoVazio();
  const resultados = await Promise.allSettled([0, 1, 2].map(() => subirServidor({ DATABASE_URL: urlDoBanco(cfg) })));
  const servidores = resultados.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const banco = abrirBanco(cfg);
  try {
    assert.deepEqual(
      resultados.filter((r) => r.status === 'rejected'),
      [],
      'os três processos subiram',
    );
    for (const s of servidores) {
      const r = await fetch(`${s.url}/readyz`);
      assert.equal(r.status, 200, await r.text());
    }
    const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(banco);
    assert.deepEqual(
      rows.map((r) => r.name),
      [...NOMES_MIGRACOES].sort(),
      'cada migração aparece exatamente uma vez',
    );
  } finally {
    await Promise.all(servidores.map((s: ProcessoServidor) => parar(s.filho)));
    await banco.destroy();
  }
});
