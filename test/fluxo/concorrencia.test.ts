import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { DIALETO } from '../helpers/banco.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const CLIENTES = 200;

describe(`composição e fechamento sob ${CLIENTES} clientes simultâneos (${DIALETO})`, () => {
  const relogio = new RelogioDeTeste('2026-03-05T15:00:00Z');
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ relogio });
  });
  after(() => amb.fechar());

  test('composições concorrentes disputando uma linha de oferta nunca alocam além do ofertado', async () => {
    const produto = await criarProduto(amb.banco, { unidade: 'kg' });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [
        { cestaId: (await criarCesta(amb.banco)).id, quantidadeCestas: 100 },
        { cestaId: (await criarCesta(amb.banco)).id, quantidadeCestas: 100 },
      ],
    });
    // 100 kg offered; each basket type wants between 1 and 100 baskets of 1 kg.
    const oferta = await criarOfertaFinalizada(amb.banco, ciclo.id, [
      { produtoId: produto.id, quantidadeMilesimos: 100_000, valorCentavos: 500 },
    ]);
    const admins = await Promise.all(
      Array.from({ length: 10 }, async () =>
        navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email),
      ),
    );
    const respostas = await Promise.all(
      Array.from({ length: CLIENTES }, (_, i) => {
        const cc = ciclo.cicloCestas[i % 2] ?? 0;
        const admin = admins[i % admins.length];
        assert.ok(admin);
        return admin.postJson(`${amb.url}/composicao/${cc}`, {
          quantidadeCestas: 1 + ((i * 37) % 100),
          produtos: [{ ofertaProdutoId: oferta.linhas[0], quantidadePorCesta: '1', unidade: 'kg' }],
        });
      }),
    );
    const status = new Set(respostas.map((r) => r.status));
    assert.ok(
      [...status].every((s) => s === 200 || s === 409),
      [...status].join(','),
    );
    assert.ok(respostas.some((r) => r.status === 200) && respostas.some((r) => r.status === 409));
    const alocado = await amb.banco
      .selectFrom('composicaoproduto as cp')
      .innerJoin('composicao as c', 'c.id', 'cp.composicaoid')
      .select((eb) =>
        eb.fn.sum<number>(eb('cp.quantidadePorCestaMilesimos', '*', eb.ref('c.quantidadeCestas'))).as('s'),
      )
      .where('cp.ofertaProdutoId', '=', oferta.linhas[0] ?? 0)
      .executeTakeFirstOrThrow();
    assert.ok(Number(alocado.s) <= 100_000, `alocado ${Number(alocado.s)} > ofertado 100000`);
  });

  test('fechar o ciclo por duplo envio, 200 vezes ao mesmo tempo, lança cada movimentação uma vez só', async () => {
    relogio.definir('2026-03-10T15:00:00Z');
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: (await criarCesta(amb.banco, { valorCentavos: 5000 })).id, quantidadeCestas: 20 }],
    });
    const ponto = await criarPonto(amb.banco);
    const iso = new Date().toISOString();
    for (let i = 0; i < 5; i++) {
      const c = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
      const p = await amb.banco
        .insertInto('pedido')
        .values({
          cicloid: ciclo.id,
          usuarioid: c.id,
          pontoEntregaId: ponto.id,
          finalizado: true,
          dataConfirmacao: '2026-03-08T10:00:00',
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await amb.banco
        .insertInto('pedidoproduto')
        .values({
          pedidoid: p.id,
          cicloCestaId: ciclo.cicloCestas[0] ?? 0,
          cicloProdutoId: null,
          quantidadeMilesimos: 1000,
          valorCentavos: 5000,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    }
    const admin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
    const respostas = await Promise.all(
      Array.from({ length: CLIENTES }, () => admin.postJson(`${amb.url}/fecharciclo/${ciclo.id}`, {})),
    );
    assert.deepEqual([...new Set(respostas.map((r) => r.status))], [200]);
    const novas = respostas.map((r) => r.json<{ data: { novas: number } }>().data.novas);
    assert.equal(
      novas.reduce((a, b) => a + b, 0),
      5,
      'cinco débitos ao todo, lançados por um só dos envios',
    );
    const movimentos = await amb.banco
      .selectFrom('movimentacao')
      .select(['usuarioid', 'valorCentavos'])
      .where('cicloid', '=', ciclo.id)
      .execute();
    assert.equal(movimentos.length, 5);
    assert.ok(movimentos.every((m) => m.valorCentavos === 5000));
  });
});
