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

const CONSUMIDORES = 200;
const ESTOQUE = 50;

describe(`reserva sob concorrência (${DIALETO})`, () => {
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cicloCestaId = 0;
  let cicloProdutoId = 0;
  let pontoEntregaId = 0;
  let pessoas: Array<{ id: number; email: string }> = [];

  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: ESTOQUE }],
      compor: true,
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const produto = await criarProduto(amb.banco, { unidade: 'unidade' });
    await criarOfertaFinalizada(amb.banco, cicloid, [
      { produtoId: produto.id, quantidadeMilesimos: ESTOQUE * 1000, valorCentavos: 100 },
    ]);
    const iso = new Date().toISOString();
    cicloProdutoId = (
      await amb.banco
        .insertInto('cicloproduto')
        .values({
          cicloid,
          produtoId: produto.id,
          quantidadeMilesimos: ESTOQUE * 1000,
          valorCentavos: 300,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    pontoEntregaId = (await criarPonto(amb.banco)).id;
    pessoas = [];
    for (let i = 0; i < CONSUMIDORES; i++) pessoas.push(await criarUsuario(amb.banco, { perfil: ['consumidor'] }));
  });
  after(() => amb.fechar());

  async function correria(
    linha: Record<string, number>,
  ): Promise<{ ok: number; conflitos: number; outros: number[]; disponiveis: Set<string> }> {
    const respostas = await Promise.all(
      pessoas.map((p) =>
        navegadorComSessao(amb, p.email).postJson(`${amb.url}/pedidoconsumidores`, {
          cicloid,
          pontoEntregaId,
          produtos: [linha],
        }),
      ),
    );
    const disponiveis = new Set<string>();
    for (const r of respostas.filter((x) => x.status === 409)) {
      const corpo = r.json<{ success: boolean; error: string }>();
      assert.equal(corpo.success, false);
      disponiveis.add(corpo.error);
    }
    return {
      // Each consumer's first order: created (201).
      ok: respostas.filter((r) => r.status === 201).length,
      conflitos: respostas.filter((r) => r.status === 409).length,
      outros: respostas.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.status),
      disponiveis,
    };
  }

  test(`${CONSUMIDORES} pedidos simultâneos de uma cesta com ${ESTOQUE}: exatamente ${ESTOQUE} reservadas e ${CONSUMIDORES - ESTOQUE} recusas limpas`, async () => {
    const r = await correria({ cicloCestaId, quantidade: 1 });
    assert.deepEqual(r.outros, []);
    assert.equal(r.ok, ESTOQUE);
    assert.equal(r.conflitos, CONSUMIDORES - ESTOQUE);
    assert.ok(
      [...r.disponiveis].every((m) => /disponível: 0 cesta/.test(m)),
      [...r.disponiveis].join(' | '),
    );
    const soma = await amb.banco
      .selectFrom('pedidoproduto')
      .select((eb) => eb.fn.sum<number>('quantidadeMilesimos').as('s'))
      .where('cicloCestaId', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(soma.s), ESTOQUE * 1000);
  });

  test(`o mesmo para um extra: ${ESTOQUE} vendidos, nenhum a mais`, async () => {
    await amb.banco.deleteFrom('pedidoproduto').execute();
    await amb.banco.deleteFrom('pedido').execute();
    const r = await correria({ cicloProdutoId, quantidade: 1 });
    assert.deepEqual(r.outros, []);
    assert.equal(r.ok, ESTOQUE);
    assert.equal(r.conflitos, CONSUMIDORES - ESTOQUE);
    const soma = await amb.banco
      .selectFrom('pedidoproduto')
      .select((eb) => eb.fn.sum<number>('quantidadeMilesimos').as('s'))
      .where('cicloProdutoId', '=', cicloProdutoId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(soma.s), ESTOQUE * 1000);
  });

  /**
   * Ten saves of one person's order at once, the i-th with the line `linha(i)`: the statuses
   * (sorted), how many orders the person has, and the lines of the order.
   */
  async function dezDaMesmaPessoa(p: { id: number; email: string } | undefined, linha: (i: number) => object) {
    assert.ok(p);
    await amb.banco.deleteFrom('pedidoproduto').execute();
    await amb.banco.deleteFrom('pedido').execute();
    const nav = navegadorComSessao(amb, p.email);
    const respostas = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        nav.postJson(`${amb.url}/pedidoconsumidores`, { cicloid, pontoEntregaId, produtos: [linha(i)] }),
      ),
    );
    const pedidos = await amb.banco.selectFrom('pedido').select('id').where('usuarioid', '=', p.id).execute();
    const linhas = await amb.banco
      .selectFrom('pedidoproduto')
      .select(['cicloCestaId', 'cicloProdutoId', 'quantidadeMilesimos'])
      .where('pedidoid', '=', pedidos[0]?.id ?? 0)
      .execute();
    return { status: respostas.map((r) => r.status).sort(), pedidos: pedidos.length, linhas };
  }

  test('dez gravações simultâneas da mesma pessoa deixam um só pedido', async () => {
    const r = await dezDaMesmaPessoa(pessoas[0], (i) => ({ cicloCestaId, quantidade: 1 + (i % 3) }));
    // One save created the order; the other nine changed it.
    assert.deepEqual(r.status, [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(r.pedidos, 1);
    assert.equal(r.linhas.length, 1);
  });

  test('gravações simultâneas da mesma pessoa com linhas que não se cruzam: um pedido, com as linhas de uma delas, e o reservado é o dele', async () => {
    // Lines that share no basket or extra take no common row lock, and each save deletes the
    // lines the one before it wrote: without the person's turn (PostgreSQL), one waited for the
    // order's row while holding its basket, the other for the basket while holding the order, and
    // one of them was undone by the deadlock detector (a 500).
    const r = await dezDaMesmaPessoa(pessoas[1], (i) =>
      i % 2 === 0 ? { cicloCestaId, quantidade: 1 } : { cicloProdutoId, quantidade: 2 },
    );
    assert.deepEqual(r.status, [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    assert.equal(r.pedidos, 1);
    assert.equal(r.linhas.length, 1, JSON.stringify(r.linhas));
    const [cesta, extra] = await Promise.all([
      amb.banco
        .selectFrom('ciclocesta')
        .select('reservadoMilesimos')
        .where('id', '=', cicloCestaId)
        .executeTakeFirstOrThrow(),
      amb.banco
        .selectFrom('cicloproduto')
        .select('reservadoMilesimos')
        .where('id', '=', cicloProdutoId)
        .executeTakeFirstOrThrow(),
    ]);
    const linha = r.linhas[0];
    assert.deepEqual(
      [Number(cesta.reservadoMilesimos), Number(extra.reservadoMilesimos)],
      linha?.cicloCestaId === null ? [0, 2000] : [1000, 0],
    );
  });
});

describe(`reserva sob concorrência, com mercados (${DIALETO})`, () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
  });
  after(() => amb.fechar());

  test('100 consumidores disputam o tomate que está numa cesta de um mercado e liberado à venda direta: nada além do que há', async () => {
    // 30 kg of tomatoes offered: 4 baskets of 5 kg (20 kg) for the cesta market, 10 kg released to the fair.
    const banco = amb.banco;
    const cesta = await criarCesta(banco);
    const ciclo = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 4 }],
    });
    const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const tomate = await criarProduto(banco, { unidade: 'kg' });
    const oferta = await criarOfertaFinalizada(banco, ciclo.id, [
      { produtoId: tomate.id, quantidadeMilesimos: 30_000, valorCentavos: 400 },
    ]);
    const iso = new Date().toISOString();
    const composicao = await banco
      .insertInto('composicao')
      .values({ cicloCestaId, quantidadeCestas: 4, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('composicaoproduto')
      .values({
        composicaoid: composicao.id,
        ofertaProdutoId: oferta.linhas[0] ?? 0,
        quantidadePorCestaMilesimos: 5000,
        unidade: 'kg',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const dono = await banco
      .insertInto('appuser')
      .values({
        providerId: 'idp|corrida',
        email: 'corrida@mercados.org',
        emailChave: 'corrida@mercados.org',
        name: 'Dono',
        avatar: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mercado = (nome: string, tipo: 'cesta' | 'venda_direta') =>
      banco
        .insertInto('mercado')
        .values({
          nome,
          descricao: null,
          tipo,
          taxaAdministrativaCentesimos: 500,
          valorMaximoCestaCentavos: tipo === 'cesta' ? 5000 : null,
          ativo: true,
          adminId: dono.id,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const [mCesta, mFeira] = [
      await mercado('Cestas da corrida', 'cesta'),
      await mercado('Feira da corrida', 'venda_direta'),
    ];
    await banco
      .insertInto('ciclomercado')
      .values([
        { cicloid: ciclo.id, mercadoId: mCesta.id, ordemAtendimento: 1, createdAt: iso, updatedAt: iso },
        { cicloid: ciclo.id, mercadoId: mFeira.id, ordemAtendimento: 2, createdAt: iso, updatedAt: iso },
      ])
      .execute();
    await banco.updateTable('ciclocesta').set({ mercadoId: mCesta.id }).where('id', '=', cicloCestaId).execute();
    const liberado = await banco
      .insertInto('cicloproduto')
      .values({
        cicloid: ciclo.id,
        produtoId: tomate.id,
        mercadoId: mFeira.id,
        quantidadeMilesimos: 10_000,
        valorCentavos: 650,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ponto = await criarPonto(banco);
    const pessoas = await Promise.all(
      Array.from({ length: 100 }, () => criarUsuario(banco, { perfil: ['consumidor'] })),
    );
    // Half ask for a basket, half for 1 kg of the released tomatoes; every fifth asks for both.
    const respostas = await Promise.all(
      pessoas.map((p, i) =>
        navegadorComSessao(amb, p.email).postJson(`${amb.url}/pedidoconsumidores`, {
          cicloid: ciclo.id,
          pontoEntregaId: ponto.id,
          produtos:
            i % 5 === 0
              ? [
                  { cicloCestaId, quantidade: 1 },
                  { cicloProdutoId: liberado.id, quantidade: 1 },
                ]
              : i % 2 === 0
                ? [{ cicloCestaId, quantidade: 1 }]
                : [{ cicloProdutoId: liberado.id, quantidade: 1 }],
        }),
      ),
    );
    assert.deepEqual(
      respostas.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.status),
      [],
      'só criados ou recusados por falta',
    );
    const soma = async (coluna: 'cicloCestaId' | 'cicloProdutoId', id: number) =>
      Number(
        (
          await banco
            .selectFrom('pedidoproduto')
            .select((eb) => eb.fn.sum<number>('quantidadeMilesimos').as('s'))
            .where(coluna, '=', id)
            .executeTakeFirstOrThrow()
        ).s ?? 0,
      );
    assert.equal(await soma('cicloCestaId', cicloCestaId), 4000, 'as 4 cestas, nenhuma a mais');
    assert.equal(await soma('cicloProdutoId', liberado.id), 10_000, 'os 10 kg liberados, nenhum a mais');
    // Every line kept its market.
    const linhas = await banco.selectFrom('pedidoproduto').select(['cicloCestaId', 'mercadoId']).execute();
    assert.ok(linhas.length > 0);
    assert.ok(linhas.every((l) => l.mercadoId === (l.cicloCestaId === null ? mFeira.id : mCesta.id)));
  });
});
