/**
 * What a database refusal means is read from the driver's code (PostgreSQL's SQLSTATE, SQLite's
 * extended result code), on the real database of this run, never from the message text.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { violouReferencia, violouUnicidade } from '../../src/db/erros.ts';
import { criarProduto } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

let amb: AmbienteDeTeste;
before(async () => {
  amb = await iniciarAmbiente();
});
after(() => amb.fechar());

async function recusa(escrita: () => Promise<unknown>): Promise<unknown> {
  try {
    await escrita();
  } catch (e) {
    return e;
  }
  assert.fail('a escrita devia ter sido recusada');
}

const agora = new Date().toISOString();

test('chave única repetida e id repetido: unicidade, não referência', async () => {
  const categoria = { nome: 'Folhas', nomeChave: 'folhas', createdAt: agora, updatedAt: agora };
  const { id } = await amb.banco.insertInto('categoria').values(categoria).returning('id').executeTakeFirstOrThrow();
  const repetida = await recusa(() => amb.banco.insertInto('categoria').values(categoria).execute());
  assert.equal(violouUnicidade(repetida), true);
  assert.equal(violouReferencia(repetida), false);
  const mesmoId = await recusa(() =>
    amb.banco
      .insertInto('categoria')
      .values({ ...categoria, id, nomeChave: 'outra' })
      .execute(),
  );
  assert.equal(violouUnicidade(mesmoId), true);
});

test('referência a um registro que não existe, e apagar um registro em uso: referência, não unicidade', async () => {
  const orfao = await recusa(() =>
    amb.banco
      .insertInto('produto')
      .values({
        nome: 'Sem categoria',
        nomeChave: 'sem categoria',
        unidade: 'kg',
        valorReferenciaCentavos: 100,
        categoriaid: 999_999,
        createdAt: agora,
        updatedAt: agora,
      })
      .execute(),
  );
  assert.equal(violouReferencia(orfao), true);
  assert.equal(violouUnicidade(orfao), false);
  const { id } = await amb.banco
    .insertInto('categoria')
    .values({ nome: 'Raízes', nomeChave: 'raízes', createdAt: agora, updatedAt: agora })
    .returning('id')
    .executeTakeFirstOrThrow();
  const produto = await criarProduto(amb.banco);
  await amb.banco.updateTable('produto').set({ categoriaid: id }).where('id', '=', produto.id).execute();
  const emUso = await recusa(() => amb.banco.deleteFrom('categoria').where('id', '=', id).execute());
  assert.equal(violouReferencia(emUso), true);
});

test('outras recusas e erros que só dizem as palavras não contam', async () => {
  const semNome = await recusa(() =>
    amb.banco
      .insertInto('categoria')
      .values({ nome: null as unknown as string, nomeChave: 'nula', createdAt: agora, updatedAt: agora })
      .execute(),
  );
  assert.equal(violouUnicidade(semNome), false);
  assert.equal(violouReferencia(semNome), false);
  for (const e of [
    new Error('UNIQUE constraint failed: categoria.nomeChave'),
    new Error('FOREIGN KEY constraint failed'),
    null,
    'texto',
    { code: 23505 },
  ]) {
    assert.equal(violouUnicidade(e), false, String(e));
    assert.equal(violouReferencia(e), false, String(e));
  }
});
