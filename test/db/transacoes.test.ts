/**
 * emTransacao's rule of turn (src/db/banco.ts): on PostgreSQL, transactions never take the pool's
 * last CONEXOES_SO_DE_LEITURA connections, so reads go on while writers wait on a row lock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CONEXOES_SO_DE_LEITURA,
  ErroForaDaTransacao,
  abrirBanco,
  emTransacao,
  type Banco,
} from '../../src/db/banco.ts';
import { DIALETO, bancoNovo } from '../helpers/banco.ts';
import { criarPonto } from '../helpers/fabricas.ts';

// Two connections for transactions beside the ones kept for reads.
const CONEXOES = CONEXOES_SO_DE_LEITURA + 2;

describe('as vagas das transações no pool', () => {
  let banco: Banco;
  let ponto: number;
  before(async () => {
    banco = abrirBanco(await bancoNovo(), { maxConexoes: CONEXOES });
    ponto = (await criarPonto(banco, 'Ponto da trava')).id;
  });
  after(() => banco.destroy());

  const nome = async () =>
    (await banco.selectFrom('pontoentrega').select('nome').where('id', '=', ponto).executeTakeFirstOrThrow()).nome;

  test(
    'escritas esperando a mesma trava não tomam as conexões das leituras',
    { skip: DIALETO === 'sqlite' ? 'o SQLite tem uma conexão e a própria fila' : false },
    async () => {
      let soltar = () => {};
      const segurando = new Promise<void>((pronto) => (soltar = pronto));
      let travou = () => {};
      const travada = new Promise<void>((pronto) => (travou = pronto));
      // One writer takes the row lock and holds it; as many others as the pool has connections
      // want the same lock.
      const primeira = emTransacao(banco, async (trx) => {
        await trx.selectFrom('pontoentrega').select('id').where('id', '=', ponto).forUpdate().execute();
        travou();
        await segurando;
        await trx.updateTable('pontoentrega').set({ nome: 'Primeira' }).where('id', '=', ponto).execute();
      });
      await travada;
      const ordem: string[] = [];
      const outras = Array.from({ length: CONEXOES }, (_, i) =>
        emTransacao(banco, async (trx) => {
          await trx.selectFrom('pontoentrega').select('id').where('id', '=', ponto).forUpdate().execute();
          ordem.push(`outra ${i}`);
        }),
      );
      // With every other writer waiting, a read is answered at once, several times over.
      try {
        for (let i = 0; i < CONEXOES * 2; i++) {
          let prazo: NodeJS.Timeout | undefined;
          const esgotou = new Promise<never>((_, falhar) => {
            prazo = setTimeout(() => falhar(new Error('a leitura esperou atrás das escritas')), 5_000);
          });
          assert.equal(await Promise.race([nome(), esgotou]), 'Ponto da trava');
          clearTimeout(prazo);
        }
        assert.deepEqual(ordem, [], 'nenhuma outra escrita passou da trava');
      } finally {
        soltar();
      }
      await Promise.all([primeira, ...outras]);
      assert.equal(ordem.length, CONEXOES);
      assert.equal(await nome(), 'Primeira');
    },
  );

  test('uma transação aberta de dentro de outra falha alto, mesmo com as vagas tomadas, e não trava', async () => {
    let soltar = () => {};
    const segurando = new Promise<void>((pronto) => (soltar = pronto));
    let entrou = () => {};
    const dentro = new Promise<void>((pronto) => (entrou = pronto));
    // The other slot, when there is a gate, held until the end.
    const outra =
      DIALETO === 'postgres'
        ? emTransacao(banco, async () => {
            entrou();
            await segurando;
          })
        : (entrou(), Promise.resolve());
    await dentro;
    try {
      await assert.rejects(
        emTransacao(banco, () => emTransacao(banco, async () => 'de dentro')),
        ErroForaDaTransacao,
      );
    } finally {
      soltar();
    }
    await outra;
  });

  test('uma transação que falha solta a vaga: as seguintes rodam', async () => {
    await assert.rejects(
      emTransacao(banco, async () => {
        throw new Error('recusada');
      }),
      /recusada/,
    );
    // Every slot came back: as many transactions as the pool has connections run again.
    const todas = await Promise.all(Array.from({ length: CONEXOES * 2 }, () => emTransacao(banco, async () => 1)));
    assert.equal(todas.length, CONEXOES * 2);
  });
});
