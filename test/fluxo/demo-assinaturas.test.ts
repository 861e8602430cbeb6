import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import { assinaturasDe } from '../../src/domain/assinaturas/leitura.ts';
import { carregarDemo } from '../../src/demo/dados.ts';
import { diaLocal } from '../../src/domain/tempo.ts';
import { bancoNovo } from '../helpers/banco.ts';

/**
 * The demo data (issue 23): a newcomer finds the open cycle filled by subscriptions of the demo's
 * basket types: one every cycle, one every other cycle, one paused over the open cycle.
 */
describe('dados de demonstração: assinaturas', () => {
  let banco: Banco;
  let hoje = '';
  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const agora = new Date();
    hoje = diaLocal(agora, 'America/Sao_Paulo');
    await carregarDemo(banco, agora, hoje);
  });
  after(() => banco.destroy());

  test('o ciclo com pedidos abertos traz as cestas das assinaturas; a pausada fica de fora', async () => {
    const aberto = await banco
      .selectFrom('ciclo')
      .select('id')
      .where('nome', '=', 'Ciclo com pedidos abertos')
      .executeTakeFirstOrThrow();
    const pessoa = async (email: string) =>
      (await banco.selectFrom('usuario').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const noAberto = async (email: string) => {
      const [a] = await assinaturasDe(banco, await pessoa(email), hoje);
      assert.ok(a, `${email} assina`);
      return [
        a.cesta,
        a.frequencia,
        a.ativa,
        a.pausas.length,
        a.proximosCiclos.find((c) => c.cicloid === aberto.id)?.situacao ?? 'fora',
      ];
    };
    assert.deepEqual(await noAberto('fabi@exemplo.org'), ['Cesta Pequena', 'cada_ciclo', true, 0, 'gerado']);
    assert.deepEqual(await noAberto('gabriel@exemplo.org'), ['Cesta Média', 'ciclo_sim_ciclo_nao', true, 0, 'gerado']);
    assert.deepEqual(await noAberto('elias@exemplo.org'), ['Cesta Pequena', 'cada_ciclo', true, 1, 'pausado']);
    // The generated baskets are order lines of the open cycle, marked as the subscriptions'.
    const linhas = await banco
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('p.cicloid', '=', aberto.id)
      .where('pp.assinaturaId', 'is not', null)
      .executeTakeFirstOrThrow();
    assert.equal(Number(linhas.n), 2);
  });
});
