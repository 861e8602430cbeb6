import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pessoasDoCiclo } from '../../src/domain/avisos.ts';
import { criarMercadoNoBanco } from '../mercados/apoio.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
} from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}

interface Parte {
  mercadoId: number | null;
  mercado: string | null;
  subtotal: number;
  taxa: number;
}
interface PedidoJson {
  pedidoId: number;
  pedido: { total: number; taxa: number; totalComTaxa: number; partes: Parte[] };
  produtos: Array<{ nome: string; mercadoId: number | null; mercado: string | null; subtotal: number }>;
}

const dia = (d: string) => `2026-03-${d}T15:00:00Z`;

describe('mercados dentro dos ciclos (face Cestas)', () => {
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  let admin: Pessoa;
  let info: Pessoa;
  let adminMercados = 0;
  before(async () => {
    relogio = new RelogioDeTeste(dia('05'));
    amb = await iniciarAmbiente({ relogio });
    admin = await entrarComo(amb, ['admin']);
    info = await entrarComo(amb, ['info']);
    const iso = new Date().toISOString();
    adminMercados = (
      await amb.banco
        .insertInto('appuser')
        .values({
          providerId: 'idp|dono',
          email: 'dono@mercados.org',
          emailChave: 'dono@mercados.org',
          name: 'Dono',
          avatar: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  /**
   * A cycle with one basket type (10 baskets, R$ 50,00 each) composed of 5 kg of tomatoes at
   * R$ 4,00 (cost R$ 20,00), one supplier offering 100 kg of tomatoes and 40 maços of lettuce,
   * three points, and a market of each type (cesta: ceiling R$ 30,00, fee 5 %; venda_direta:
   * fee 10 %, tomatoes at R$ 6,00; lote), plus an inactive one.
   */
  async function cenario() {
    const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
    });
    const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const tomate = await criarProduto(amb.banco, { nome: `Tomate ${ciclo.id}`, unidade: 'kg' });
    const alface = await criarProduto(amb.banco, { nome: `Alface ${ciclo.id}`, unidade: 'maço' });
    const oferta = await criarOfertaFinalizada(amb.banco, ciclo.id, [
      { produtoId: tomate.id, quantidadeMilesimos: 100_000, valorCentavos: 400 },
      { produtoId: alface.id, quantidadeMilesimos: 40_000, valorCentavos: 200 },
    ]);
    const [linhaTomate = 0, linhaAlface = 0] = oferta.linhas;
    const compor = (kg: number) =>
      admin.nav.postJson(url(`/composicao/${cicloCestaId}`), {
        quantidadeCestas: 10,
        produtos: [{ ofertaProdutoId: linhaTomate, quantidadePorCesta: kg, unidade: 'kg' }],
      });
    assert.equal((await compor(5)).status, 200);
    const [sede, feira, escola] = [
      await criarPonto(amb.banco, `Sede ${ciclo.id}`),
      await criarPonto(amb.banco, `Feira ${ciclo.id}`),
      await criarPonto(amb.banco, `Escola ${ciclo.id}`),
    ];
    const mCesta = await criarMercadoNoBanco(amb.banco, {
      adminId: adminMercados,
      nome: `Cestas ${ciclo.id}`,
      tipo: 'cesta',
      valorMaximoCestaCentavos: 3000,
    });
    const mDireta = await criarMercadoNoBanco(amb.banco, {
      adminId: adminMercados,
      nome: `Feira livre ${ciclo.id}`,
      tipo: 'venda_direta',
    });
    const mLote = await criarMercadoNoBanco(amb.banco, {
      adminId: adminMercados,
      nome: `PNAE ${ciclo.id}`,
      tipo: 'lote',
    });
    const mInativo = await criarMercadoNoBanco(amb.banco, {
      adminId: adminMercados,
      nome: `Fechado ${ciclo.id}`,
      tipo: 'venda_direta',
      ativo: false,
    });
    await amb.banco
      .updateTable('mercado')
      .set({ taxaAdministrativaCentesimos: 1000 })
      .where('id', '=', mDireta.id)
      .execute();
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('precomercado')
      .values({
        mercadoId: mDireta.id,
        produtoId: tomate.id,
        precoCentavos: 600,
        ativo: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    return {
      cicloid: ciclo.id,
      cicloCestaId,
      cesta: cesta.nome,
      tomate,
      alface,
      linhaTomate,
      linhaAlface,
      compor,
      sede: sede.id,
      feira: feira.id,
      escola: escola.id,
      mCesta,
      mDireta,
      mLote,
      mInativo,
    };
  }
  type Cenario = Awaited<ReturnType<typeof cenario>>;

  function mercadosPadrao(c: Cenario) {
    return [
      { mercadoId: c.mCesta.id, ordemAtendimento: 1, pontoEntregaIds: [c.sede], cicloCestaIds: [c.cicloCestaId] },
      { mercadoId: c.mDireta.id, ordemAtendimento: 2, pontoEntregaIds: [c.sede, c.feira], cicloCestaIds: [] },
      { mercadoId: c.mLote.id, ordemAtendimento: 3, pontoEntregaIds: [], cicloCestaIds: [] },
    ];
  }

  test('o ciclo lista os mercados que atende, na ordem de atendimento, com os pontos e as cestas de cada um', async () => {
    const c = await cenario();
    const r = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: mercadosPadrao(c) });
    assert.equal(r.status, 200, r.texto);
    const dados = r.json<
      Envelope<{
        cicloMercados: Array<{
          mercadoId: number;
          tipo: string;
          ordemAtendimento: number;
          pontoEntregaIds: number[];
          cicloCestaIds: number[];
          taxaAdministrativa: number | null;
          valorMaximoCesta: number | null;
        }>;
        tetos: Array<{ cesta: string; custo: number; valorMaximoCesta: number }>;
      }>
    >().data;
    assert.deepEqual(
      dados.cicloMercados.map((m) => [m.mercadoId, m.tipo, m.ordemAtendimento, m.pontoEntregaIds, m.cicloCestaIds]),
      [
        [c.mCesta.id, 'cesta', 1, [c.sede], [c.cicloCestaId]],
        // Points come in name order: Feira before Sede.
        [c.mDireta.id, 'venda_direta', 2, [c.feira, c.sede], []],
        [c.mLote.id, 'lote', 3, [], []],
      ],
    );
    assert.deepEqual(
      dados.cicloMercados.map((m) => [m.taxaAdministrativa, m.valorMaximoCesta]),
      [
        [5, 30],
        [10, null],
        [5, null],
      ],
    );
    assert.deepEqual(
      dados.tetos.map((t) => [t.cesta, t.custo, t.valorMaximoCesta]),
      [[c.cesta, 20, 30]],
    );
    // The order of service can be turned around in one save.
    const invertido = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), {
      cicloMercados: mercadosPadrao(c).map((m) => ({ ...m, ordemAtendimento: 4 - m.ordemAtendimento })),
    });
    assert.equal(invertido.status, 200, invertido.texto);
    assert.deepEqual(
      invertido
        .json<Envelope<{ cicloMercados: Array<{ mercadoId: number }> }>>()
        .data.cicloMercados.map((m) => m.mercadoId),
      [c.mLote.id, c.mDireta.id, c.mCesta.id],
    );
    // The page: every market as a fieldset, the basket's cost against the ceiling; info reads it without a form.
    const pagina = await admin.nav.get(url(`/ciclo/${c.cicloid}/mercados`));
    assert.equal(pagina.status, 200);
    assert.match(pagina.texto, new RegExp(`<legend>Cestas ${c.cicloid} <span class="nota">· Cesta</span></legend>`));
    assert.match(pagina.texto, /· custo R\$ 20,00 de R\$ 30,00/);
    assert.doesNotMatch(
      pagina.texto,
      new RegExp(`Fechado ${c.cicloid}`),
      'um mercado desativado fora do ciclo não aparece',
    );
    const leitura = await info.nav.get(url(`/ciclo/${c.cicloid}/mercados`));
    assert.equal(leitura.status, 200);
    assert.doesNotMatch(leitura.texto, /Salvar mercados do ciclo/);
    assert.equal((await info.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: [] })).status, 403);
  });

  test('regras da lista: ordem única, mercado ativo, cesta só em mercado de cestas, pontos existentes; nada gravado quando recusa', async () => {
    const c = await cenario();
    const tentar = (cicloMercados: unknown) =>
      admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados });
    const repetida = await tentar([
      { mercadoId: c.mCesta.id, ordemAtendimento: 1 },
      { mercadoId: c.mDireta.id, ordemAtendimento: 1 },
    ]);
    assert.equal(repetida.status, 400);
    assert.equal(
      repetida.json<Envelope>().details?.['cicloMercados.1.ordemAtendimento'],
      'Dois mercados com a ordem 1: cada mercado tem a sua',
    );
    const inativo = await tentar([{ mercadoId: c.mInativo.id, ordemAtendimento: 1 }]);
    assert.equal(inativo.status, 400);
    assert.equal(
      inativo.json<Envelope>().details?.['cicloMercados.0.mercadoId'],
      `O mercado Fechado ${c.cicloid} está desativado: só mercados ativos entram num ciclo`,
    );
    const cestaNaFeira = await tentar([
      { mercadoId: c.mDireta.id, ordemAtendimento: 1, cicloCestaIds: [c.cicloCestaId] },
    ]);
    assert.equal(cestaNaFeira.status, 400);
    assert.match(
      String(cestaNaFeira.json<Envelope>().details?.['cicloMercados.0.cicloCestaIds']),
      /não é um mercado de cestas/,
    );
    const semPonto = await tentar([{ mercadoId: c.mDireta.id, ordemAtendimento: 1, pontoEntregaIds: [999_999] }]);
    assert.equal(semPonto.status, 400);
    assert.equal(
      semPonto.json<Envelope>().details?.['cicloMercados.0.pontoEntregaIds'],
      'Ponto de entrega inexistente ou inativo: 999999',
    );
    assert.equal(
      (await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), {})).status,
      400,
      'a lista é obrigatória',
    );
    assert.equal(
      (await amb.banco.selectFrom('ciclomercado').select('id').where('cicloid', '=', c.cicloid).execute()).length,
      0,
    );
  });

  test('cesta: o custo composto não passa do máximo do mercado (409 com a cesta e o excesso), ao compor ou ao pôr a cesta no mercado', async () => {
    const c = await cenario();
    assert.equal(
      (await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: mercadosPadrao(c) })).status,
      200,
    );
    const acima = await c.compor(8);
    assert.equal(acima.status, 409);
    const corpo = acima.json<Envelope>();
    assert.equal(
      corpo.error,
      `A cesta ${c.cesta} custa R$ 32,00 para compor: R$ 2,00 acima do máximo de R$ 30,00 do mercado Cestas ${c.cicloid}`,
    );
    assert.deepEqual(corpo.details, {
      cicloCestaId: c.cicloCestaId,
      cesta: c.cesta,
      mercadoId: c.mCesta.id,
      excesso: 2,
    });
    assert.equal((await c.compor(7.5)).status, 200, 'R$ 30,00: no limite');
    // Out of the market, the basket may cost more; back into it, refused.
    const fora = mercadosPadrao(c).map((m) => ({ ...m, cicloCestaIds: [] }));
    assert.equal((await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: fora })).status, 200);
    assert.equal((await c.compor(8)).status, 200);
    const deVolta = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: mercadosPadrao(c) });
    assert.equal(deVolta.status, 409);
    assert.match(deVolta.json<Envelope>().error, /R\$ 2,00 acima do máximo/);
  });

  test('venda direta: a coordenação libera a sobra pelo preço ativo do mercado; nunca além da sobra; sem preço, não libera', async () => {
    const c = await cenario();
    assert.equal(
      (await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: mercadosPadrao(c) })).status,
      200,
    );
    const liberar = (itens: unknown) =>
      admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercado/${c.mDireta.id}/liberar`), { itens });
    const r = await liberar([{ produtoId: c.tomate.id, quantidade: 30 }]);
    assert.equal(r.status, 200, r.texto);
    const dados = r.json<
      Envelope<{
        itens: Array<{ produtoId: number; quantidade: number; valor: number }>;
        produtos: Array<{ produtoId: number; preco: number | null; sobra: number; liberado: number }>;
      }>
    >().data;
    assert.deepEqual(
      dados.itens.map((i) => [i.produtoId, i.quantidade, i.valor]),
      [[c.tomate.id, 30, 6]],
    );
    assert.deepEqual(
      dados.produtos.find((p) => p.produtoId === c.tomate.id),
      { produtoId: c.tomate.id, nome: `Tomate ${c.cicloid}`, unidade: 'kg', preco: 6, sobra: 50, liberado: 30 },
    );
    // 100 kg offered, 50 in baskets: 50 of surplus, 30 already here.
    const demais = await liberar([{ produtoId: c.tomate.id, quantidade: 51 }]);
    assert.equal(demais.status, 409);
    assert.match(demais.json<Envelope>().error, new RegExp(`Falta 1 kg de Tomate ${c.cicloid}`));
    const semPreco = await liberar([{ produtoId: c.alface.id, quantidade: 5 }]);
    assert.equal(semPreco.status, 400);
    assert.equal(
      semPreco.json<Envelope>().details?.['itens.0.produtoId'],
      `Alface ${c.cicloid} não tem preço ativo em Feira livre ${c.cicloid}: defina o preço do mercado antes de liberar`,
    );
    // A product is sold once per cycle: released here, it cannot also be a classic extra.
    const extra = await admin.nav.postJson(url(`/ciclo/${c.cicloid}`), {
      nome: `Ciclo ${c.cicloid}`,
      ...DATAS_PADRAO,
      cicloProdutos: [{ produtoId: c.tomate.id, quantidade: 5, valor: 5 }],
    });
    assert.equal(extra.status, 409, extra.texto);
    assert.equal(
      extra.json<Envelope>().details?.['cicloProdutos.0.produtoId'],
      `Este produto está liberado para Feira livre ${c.cicloid} neste ciclo: um produto é vendido uma vez por ciclo, como extra ou num mercado`,
    );
    // Saving the cycle form never touches the released items.
    assert.equal(
      (
        await admin.nav.postJson(url(`/ciclo/${c.cicloid}`), {
          nome: `Ciclo ${c.cicloid}`,
          ...DATAS_PADRAO,
          cicloProdutos: [],
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await amb.banco
          .selectFrom('cicloproduto')
          .select('quantidadeMilesimos')
          .where('cicloid', '=', c.cicloid)
          .where('mercadoId', '=', c.mDireta.id)
          .executeTakeFirstOrThrow()
      ).quantidadeMilesimos,
      30_000,
    );
    // A market that is not venda_direta has no release.
    assert.equal((await admin.nav.getJson(url(`/ciclo/${c.cicloid}/mercado/${c.mLote.id}/liberar`))).status, 409);
  });

  test('lote: composto de linhas das ofertas para um comprador, com valor contra o alvo, dentro do que foi ofertado', async () => {
    const c = await cenario();
    assert.equal(
      (await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: mercadosPadrao(c) })).status,
      200,
    );
    const lote = {
      mercadoId: c.mLote.id,
      comprador: 'Escola Municipal Rui Barbosa',
      pontoEntregaId: c.escola,
      valorAlvo: 70,
      linhas: [{ ofertaProdutoId: c.linhaTomate, quantidade: 15 }],
    };
    const r = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/lotes`), lote);
    assert.equal(r.status, 201, r.texto);
    const criado = r.json<
      Envelope<{
        id: number;
        valor: number;
        valorAlvo: number;
        linhas: Array<{ quantidade: number; subtotal: number }>;
      }>
    >().data;
    assert.deepEqual(
      [criado.valor, criado.valorAlvo, criado.linhas.map((l) => [l.quantidade, l.subtotal])],
      [60, 70, [[15, 60]]],
    );
    // 50 in baskets + 15 in the lot + 36 more would pass the 100 offered.
    const demais = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/lotes`), {
      ...lote,
      comprador: 'Creche',
      linhas: [{ ofertaProdutoId: c.linhaTomate, quantidade: 36 }],
    });
    assert.equal(demais.status, 409);
    assert.match(demais.json<Envelope>().error, /ofertado 100 kg, nas cestas 50 kg, nos lotes 51 kg/);
    // The lot takes its room from the surplus: a release can no longer take all 50.
    const liberar = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercado/${c.mDireta.id}/liberar`), {
      itens: [{ produtoId: c.tomate.id, quantidade: 36 }],
    });
    assert.equal(liberar.status, 409);
    // A lot's market must be a lote market of the cycle.
    const errado = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/lotes`), { ...lote, mercadoId: c.mDireta.id });
    assert.equal(errado.status, 409);
    assert.equal(
      (
        await admin.nav.postJson(url(`/ciclo/${c.cicloid}/lotes`), {
          ...lote,
          comprador: ' ',
          valorAlvo: 0,
          linhas: [],
        })
      ).status,
      400,
    );
    // The supplier delivers the lot: it is among what the deliveries report plans and counts.
    const entregas = await admin.nav.getJson(url(`/pedidosfornecedorestodos/${c.cicloid}`));
    const linhas = entregas
      .json<
        Envelope<{
          grupos: Array<{ linhas: Array<{ mercado: string; produto: string; planejado: number; quantidade: number }> }>;
        }>
      >()
      .data.grupos.flatMap((g) => g.linhas);
    // Per market: the baskets in the cesta market, the lot (ordered as composed) in the lote market.
    assert.deepEqual(
      linhas.filter((l) => l.produto === `Tomate ${c.cicloid}`).map((l) => [l.mercado, l.planejado, l.quantidade]),
      [
        [`Cestas ${c.cicloid}`, 50, 0],
        [`PNAE ${c.cicloid}`, 15, 15],
      ],
    );
    // A market with lots cannot leave the cycle; deleting the lot frees it.
    const sair = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), {
      cicloMercados: mercadosPadrao(c).slice(0, 2),
    });
    assert.equal(sair.status, 409);
    assert.equal(
      sair.json<Envelope>().error,
      `O mercado PNAE ${c.cicloid} não pode sair do ciclo: tem 1 lote(s); apague-os antes`,
    );
    assert.equal((await admin.nav.postJson(url(`/ciclo/${c.cicloid}/lotes/${criado.id}/apagar`), {})).status, 200);
    assert.equal(
      (await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: mercadosPadrao(c).slice(0, 2) }))
        .status,
      200,
    );
  });

  test('o pedido compra em dois mercados: cada linha leva o seu mercado, a taxa de cada mercado aparece à parte, o ponto precisa servir todos', async () => {
    const c = await cenario();
    assert.equal(
      (await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), { cicloMercados: mercadosPadrao(c) })).status,
      200,
    );
    assert.equal(
      (
        await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercado/${c.mDireta.id}/liberar`), {
          itens: [{ produtoId: c.tomate.id, quantidade: 30 }],
        })
      ).status,
      200,
    );
    const tomateLiberado = (
      await amb.banco
        .selectFrom('cicloproduto')
        .select('id')
        .where('cicloid', '=', c.cicloid)
        .where('mercadoId', '=', c.mDireta.id)
        .executeTakeFirstOrThrow()
    ).id;
    relogio.definir(dia('07'));
    const consumidora = await entrarComo(amb, ['consumidor'], 'Rita Dois Mercados');
    const pedir = (pontoEntregaId: number) =>
      consumidora.nav.postJson(url('/pedidoconsumidores'), {
        cicloid: c.cicloid,
        pontoEntregaId,
        produtos: [
          { cicloCestaId: c.cicloCestaId, quantidade: 1 },
          { cicloProdutoId: tomateLiberado, quantidade: 2 },
        ],
      });
    // The order page says which market sells each item.
    const vitrine = (await consumidora.nav.getJson(url(`/pedidoconsumidores/${c.cicloid}`))).json<
      Envelope<{
        cestas: Array<{ nome: string; mercado: string | null }>;
        extras: Array<{ nome: string; mercado: string | null }>;
      }>
    >().data;
    assert.deepEqual(
      vitrine.cestas.map((x) => [x.nome, x.mercado]),
      [[c.cesta, `Cestas ${c.cicloid}`]],
    );
    assert.deepEqual(
      vitrine.extras.map((x) => [x.nome, x.mercado]),
      [[`Tomate ${c.cicloid}`, `Feira livre ${c.cicloid}`]],
    );
    assert.match(
      (await consumidora.nav.get(url(`/pedidoconsumidores/${c.cicloid}`))).texto,
      new RegExp(`<p class="nota">Vendida por Cestas ${c.cicloid}</p>`),
    );
    // The basket's market hands out at the sede only; the direct sale at the sede and the fair.
    const naFeira = await pedir(c.feira);
    assert.equal(naFeira.status, 400);
    assert.equal(
      naFeira.json<Envelope>().details?.pontoEntregaId,
      `Este ponto não serve todos os itens do pedido. Pontos que servem: Sede ${c.cicloid}`,
    );
    assert.deepEqual(naFeira.json<Envelope>().details?.pontosQueServem, [c.sede]);
    const r = await pedir(c.sede);
    assert.equal(r.status, 201, r.texto);
    const p = r.json<Envelope<PedidoJson>>().data;
    assert.deepEqual(
      p.produtos.map((l) => [l.nome, l.mercado, l.subtotal]),
      [
        [c.cesta, `Cestas ${c.cicloid}`, 50],
        [`Tomate ${c.cicloid}`, `Feira livre ${c.cicloid}`, 12],
      ],
    );
    // 5 % of R$ 50,00 and 10 % of R$ 12,00.
    assert.deepEqual(p.pedido.partes, [
      { mercadoId: c.mCesta.id, mercado: `Cestas ${c.cicloid}`, subtotal: 50, taxa: 2.5 },
      { mercadoId: c.mDireta.id, mercado: `Feira livre ${c.cicloid}`, subtotal: 12, taxa: 1.2 },
    ]);
    assert.deepEqual([p.pedido.total, p.pedido.taxa, p.pedido.totalComTaxa], [62, 3.7, 65.7]);
    // Confirmed, the order is what the person owes: the same parts, fees included.
    assert.equal(
      (await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: p.pedidoId })).status,
      200,
    );
    const saldo = (await consumidora.nav.getJson(url('/saldo'))).json<Envelope<{ devido: number }>>().data;
    assert.equal(saldo.devido, 65.7);
    // A later change of a market's fee never rewrites the order.
    await amb.banco
      .updateTable('mercado')
      .set({ taxaAdministrativaCentesimos: 2000 })
      .where('id', '=', c.mDireta.id)
      .execute();
    const depois = (await consumidora.nav.getJson(url(`/pedidoconsumidoresconfirmacao/${p.pedidoId}`))).json<
      Envelope<PedidoJson>
    >().data;
    assert.equal(depois.pedido.taxa, 3.7);
    assert.equal((await consumidora.nav.getJson(url('/saldo'))).json<Envelope<{ devido: number }>>().data.devido, 65.7);
    // The confirmation page shows each market's part apart.
    const pagina = await consumidora.nav.get(url(`/pedidoconsumidoresconfirmacao/${p.pedidoId}`));
    assert.match(
      pagina.texto,
      new RegExp(`Taxa de Feira livre ${c.cicloid} \\(10% de R\\$ 12,00\\)</th><td class="num">R\\$ 1,20<`),
    );
    // The consumers' report says each line's market and each market's fee; filtered, one market only.
    type Rel = {
      colunas: Array<{ chave: string }>;
      grupos: Array<{ linhas: Array<Record<string, unknown>> }>;
      totais: Record<string, number>;
    };
    const relatorio = async (corpo: Record<string, unknown>) =>
      (await admin.nav.postJson(url('/pedidosconsumidoresciclos'), corpo)).json<Envelope<Rel>>().data;
    const todo = await relatorio({ ciclos: [c.cicloid] });
    assert.ok(todo.colunas.some((x) => x.chave === 'mercado'));
    const dela = todo.grupos.flatMap((g) => g.linhas).filter((l) => l.consumidor === 'Rita Dois Mercados');
    assert.deepEqual(
      dela.map((l) => [l.mercado, l.item, l.valor]),
      [
        [`Cestas ${c.cicloid}`, c.cesta, 50],
        [`Feira livre ${c.cicloid}`, `Tomate ${c.cicloid}`, 12],
        [`Cestas ${c.cicloid}`, `Taxa de Cestas ${c.cicloid}`, 2.5],
        [`Feira livre ${c.cicloid}`, `Taxa de Feira livre ${c.cicloid}`, 1.2],
      ],
    );
    const feira = await relatorio({ ciclos: [c.cicloid], mercadoId: c.mDireta.id });
    assert.deepEqual(
      feira.grupos.flatMap((g) => g.linhas).map((l) => [l.item, l.valor]),
      [
        [`Tomate ${c.cicloid}`, 12],
        [`Taxa de Feira livre ${c.cicloid}`, 1.2],
      ],
    );
    assert.equal(feira.totais.valor, 13.2);
    // The fair's AdminMercado (a consumer in Cestas, linked to the Mercados account that runs it)
    // reads that market's orders, and only its own elsewhere.
    const gerente = await entrarComo(amb, ['consumidor'], 'Gil Gerente da Feira');
    await amb.banco
      .updateTable('usuario')
      .set({ perfil: JSON.stringify(['consumidor', 'adminMercado']) })
      .where('id', '=', gerente.id ?? 0)
      .execute();
    const isoG = new Date().toISOString();
    const contaGerente = await amb.banco
      .insertInto('appuser')
      .values({
        providerId: `idp|gerente-${c.cicloid}`,
        email: gerente.email,
        emailChave: gerente.email,
        name: 'Gil',
        avatar: null,
        usuarioId: gerente.id,
        emailVerificado: true,
        createdAt: isoG,
        updatedAt: isoG,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await amb.banco.updateTable('mercado').set({ adminId: contaGerente.id }).where('id', '=', c.mDireta.id).execute();
    const comoGerente = async (corpo: Record<string, unknown>) =>
      (await gerente.nav.postJson(url('/pedidosconsumidoresciclos'), corpo))
        .json<Envelope<Rel>>()
        .data.grupos.flatMap((g) => g.linhas)
        .map((l) => [l.consumidor, l.item]);
    assert.deepEqual(await comoGerente({ ciclos: [c.cicloid], mercadoId: c.mDireta.id }), [
      ['Rita Dois Mercados', `Tomate ${c.cicloid}`],
      ['Rita Dois Mercados', `Taxa de Feira livre ${c.cicloid}`],
    ]);
    assert.deepEqual(
      await comoGerente({ ciclos: [c.cicloid], mercadoId: c.mCesta.id }),
      [],
      'de outro mercado, só os próprios pedidos (nenhum)',
    );
    assert.deepEqual(await comoGerente({ ciclos: [c.cicloid] }), [], 'sem o mercado, só os próprios pedidos');
    // The coordination's message can go to one market's buyers only.
    assert.deepEqual(await pessoasDoCiclo(amb.banco, c.cicloid, c.mDireta.id), [consumidora.id]);
    assert.deepEqual(await pessoasDoCiclo(amb.banco, c.cicloid, c.mLote.id), []);
    assert.ok((await pessoasDoCiclo(amb.banco, c.cicloid)).includes(consumidora.id ?? 0));
    // A market with orders cannot leave the cycle.
    const sair = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mercados`), {
      cicloMercados: [mercadosPadrao(c)[0], mercadosPadrao(c)[2]],
    });
    assert.equal(sair.status, 409);
    assert.equal(
      sair.json<Envelope>().error,
      `O mercado Feira livre ${c.cicloid} não pode sair do ciclo: 1 pedido(s) compraram nele`,
    );
  });
});
