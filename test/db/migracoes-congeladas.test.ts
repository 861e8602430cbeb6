/**
 * A migration that has landed has run on someone's database: changing it (or a helper it uses)
 * would make two databases with the same history different. Each landed file is frozen by its
 * SHA-256 in migracoes-congeladas.json; a change to the schema is a new migration, and a new
 * helper goes beside the old ones. A new migration file is added to the list when it lands.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

const PASTA = new URL('../../src/db/migrations/', import.meta.url);
const congeladas = JSON.parse(readFileSync(new URL('migracoes-congeladas.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>;

function hash(arquivo: string): string {
  return createHash('sha256')
    .update(readFileSync(new URL(arquivo, PASTA)))
    .digest('hex');
}

test('nenhuma migração que já entrou mudou, nem os ajudantes que ela usa', () => {
  const mudadas = Object.entries(congeladas)
    .filter(([arquivo, esperado]) => hash(arquivo) !== esperado)
    .map(([arquivo]) => arquivo);
  assert.deepEqual(mudadas, [], 'migrações que mudaram depois de entrar: escreva uma migração nova em vez disso');
});

test('toda migração da pasta está na lista das congeladas', () => {
  const novas = readdirSync(PASTA).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && congeladas[f] === undefined);
  assert.deepEqual(
    novas.map((f) => `"${f}": "${hash(f)}"`),
    [],
    'acrescente estas linhas a test/db/migracoes-congeladas.json',
  );
});
