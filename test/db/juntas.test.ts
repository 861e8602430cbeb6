/**
 * juntas (src/db/juntas.ts): statements of one transaction sent together (PostgreSQL's pipeline)
 * or in turn (SQLite), each read by its own reader, in order; and the transaction's BEGIN sent
 * with its first statement (poolComNomes in src/db/banco.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, emTransacao, type Banco } from '../../src/db/banco.ts';
import { juntas, leitura } from '../../src/db/juntas.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { criarPonto } from '../helpers/fabricas.ts';

describe('juntas: comandos de uma transação enviados juntos', () => {
  let banco: Banco;
  let ponto: number;
  before(async () => {
    banco = abrirBanco(await bancoNovo());
    ponto = (await criarPonto(banco, 'Ponto de partida')).id;
  });
  after(() => banco.destroy());

  const nomeDe = (id: number) => banco.selectFrom('pontoentrega').select('nome').where('id', '=', id);
  const renomear = (id: number, nome: string) =>
    banco.updateTable('pontoentrega').set({ nome }).where('id', '=', id).returning('nome');

  test('cada leitor recebe as linhas do seu comando, na ordem, e um comando nulo não vai ao banco', async () => {
    const outro = (await criarPonto(banco, 'Outro ponto')).id;
    const [a, nada, b, contagem] = await emTransacao(banco, (trx) =>
      juntas(trx, [
        leitura(nomeDe(ponto).compile(), (linhas) => linhas.map((l) => l.nome)),
        leitura(null, (linhas: unknown[]) => linhas.length),
        leitura(nomeDe(outro).compile(), ([l]) => l?.nome),
        leitura(
          banco
            .selectFrom('pontoentrega')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('id', 'in', [ponto, outro])
            .compile(),
          ([l]) => Number(l?.n),
        ),
      ]),
    );
    assert.deepEqual(a, ['Ponto de partida']);
    assert.equal(nada, 0);
    assert.equal(b, 'Outro ponto');
    assert.equal(contagem, 2);
  });

  test('os comandos rodam na ordem dada: o segundo vê o que o primeiro escreveu', async () => {
    const id = (await criarPonto(banco, 'Antes')).id;
    const [escrito, lido] = await emTransacao(banco, (trx) =>
      juntas(trx, [
        leitura(renomear(id, 'Depois').compile(), ([l]) => l?.nome),
        leitura(nomeDe(id).compile(), ([l]) => l?.nome),
      ]),
    );
    assert.equal(escrito, 'Depois');
    assert.equal(lido, 'Depois');
  });

  test('um comando que falha no meio: o erro é o dele, e nada do lote fica', async () => {
    const id = (await criarPonto(banco, 'Intacto')).id;
    const outro = (await criarPonto(banco, 'Ocupado')).id;
    await assert.rejects(
      emTransacao(banco, (trx) =>
        juntas(trx, [
          leitura(renomear(id, 'Mudado').compile(), ([l]) => l?.nome),
          // The point's name is unique (nomeChave): taking the other's fails.
          leitura(
            trx
              .updateTable('pontoentrega')
              .set({ nome: 'Ocupado', nomeChave: 'ocupado' })
              .where('id', '=', id)
              .compile(),
            () => null,
          ),
          leitura(renomear(outro, 'Também mudado').compile(), ([l]) => l?.nome),
        ]),
      ),
      (e: unknown) => {
        const texto = String((e as { message?: unknown }).message);
        assert.match(texto, /unique|UNIQUE/);
        assert.doesNotMatch(texto, /current transaction is aborted/);
        return true;
      },
    );
    assert.equal((await nomeDe(id).executeTakeFirstOrThrow()).nome, 'Intacto');
    assert.equal((await nomeDe(outro).executeTakeFirstOrThrow()).nome, 'Ocupado');
  });

  test('o primeiro leitor que recusa para os outros, e a transação volta atrás', async () => {
    const id = (await criarPonto(banco, 'Não mudou')).id;
    const lidos: string[] = [];
    await assert.rejects(
      emTransacao(banco, (trx) =>
        juntas(trx, [
          leitura(renomear(id, 'Mudou').compile(), () => {
            throw new Error('recusado pelo leitor');
          }),
          leitura(nomeDe(id).compile(), ([l]) => lidos.push(l?.nome ?? '')),
        ]),
      ),
      /recusado pelo leitor/,
    );
    assert.deepEqual(lidos, []);
    assert.equal((await nomeDe(id).executeTakeFirstOrThrow()).nome, 'Não mudou');
  });

  test('a transação cujo primeiro comando falha volta atrás, e a conexão segue servindo', async () => {
    await criarPonto(banco, 'Chave tomada');
    const iso = new Date().toISOString();
    // Every connection of the pool in turn: the BEGIN goes with the first statement.
    for (let i = 0; i < 12; i++) {
      await assert.rejects(
        emTransacao(banco, async (trx) => {
          await trx
            .insertInto('pontoentrega')
            .values({ nome: 'Chave tomada', nomeChave: 'chave tomada', createdAt: iso, updatedAt: iso })
            .execute();
        }),
        /unique|UNIQUE/,
      );
      await assert.rejects(
        emTransacao(banco, () => Promise.reject(new Error('antes de qualquer comando'))),
        /antes de qualquer comando/,
      );
      const [nome] = await emTransacao(banco, (trx) =>
        juntas(trx, [leitura(nomeDe(ponto).compile(), ([l]) => l?.nome)]),
      );
      assert.equal(nome, 'Ponto de partida');
    }
    const uma = await emTransacao(banco, async (trx) => {
      await trx.updateTable('pontoentrega').set({ nome: 'Numa transação' }).where('id', '=', ponto).execute();
      throw new Error('desfeita');
    }).catch((e: unknown) => e);
    assert.ok(uma instanceof Error);
    assert.equal((await nomeDe(ponto).executeTakeFirstOrThrow()).nome, 'Ponto de partida');
  });
});
