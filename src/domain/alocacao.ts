import type { Db } from '../db/banco.ts';
import { ESCALA_QUANTIDADE, formatarQuantidade, paraNumero } from '../decimal.ts';
import { Conflito } from './erros.ts';

/**
 * Where each offered quantity goes. For every committed offer line of a cycle:
 *   to baskets = Σ over compositions (quantidadePorCesta × quantidadeCestas);
 *   to lots = Σ over the lots of lote markets (DOMAIN.md, Markets in cycles);
 *   to baskets + to lots ≤ offered;
 * and for every product: its lines' surplus ≥ every extra published of it, classic extras and
 * items released to venda_direta markets together.
 * A line is committed when its offer is final, or when baskets already use it: a supplier who was
 * allocated keeps that commitment while editing a draft (it counts for capacity, deliveries,
 * credit and reports, and can never drop below what baskets use), but a draft's surplus backs no
 * extras until the offer is final again.
 * Quantities are integer thousandths of the product's unit.
 */
export interface LinhaOfertada {
  readonly ofertaProdutoId: number;
  readonly ofertaId: number;
  readonly produtoId: number;
  readonly produto: string;
  readonly unidade: string;
  readonly fornecedorId: number;
  readonly fornecedor: string;
  readonly valorCentavos: number;
  readonly ofertadoMil: number;
  readonly paraCestasMil: number;
  /** What the lots of the cycle's lote markets take of this line. */
  readonly paraLotesMil: number;
  /** Whether the offer is final; a draft's line is here only because baskets use it. */
  readonly finalizada: boolean;
  readonly finalizadaEm: string | null;
}

/**
 * Committed offer lines of a cycle (see above) with what compositions take from each: one query.
 * `produtos`: only the lines of these products (every supplier's).
 */
export async function linhasOfertadas(db: Db, cicloid: number, produtos?: readonly number[]): Promise<LinhaOfertada[]> {
  const linhas = await db
    .selectFrom('ofertaproduto as op')
    .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
    .innerJoin('produto as p', 'p.id', 'op.produtoid')
    .innerJoin('usuario as u', 'u.id', 'o.usuarioid')
    .select([
      'op.id as ofertaProdutoId', 'o.id as ofertaId', 'op.produtoid as produtoId', 'p.nome as produto', 'p.unidade',
      'o.usuarioid as fornecedorId', 'u.nome as fornecedor', 'op.valorCentavos', 'op.quantidadeMilesimos as ofertadoMil', 'o.finalizada', 'o.finalizadaEm',
    ])
    .select((eb) =>
      eb
        .selectFrom('composicaoproduto as cp')
        .innerJoin('composicao as c', 'c.id', 'cp.composicaoid')
        .select((e2) => e2.fn.coalesce(e2.fn.sum<number>(e2('cp.quantidadePorCestaMilesimos', '*', e2.ref('c.quantidadeCestas'))), e2.lit(0)).as('s'))
        .whereRef('cp.ofertaProdutoId', '=', 'op.id')
        .as('paraCestasMil'),
    )
    .select((eb) =>
      eb
        .selectFrom('loteproduto as lp')
        .select((e2) => e2.fn.coalesce(e2.fn.sum<number>('lp.quantidadeMilesimos'), e2.lit(0)).as('s'))
        .whereRef('lp.ofertaProdutoId', '=', 'op.id')
        .as('paraLotesMil'),
    )
    .where('o.cicloid', '=', cicloid)
    .$if(produtos !== undefined, (q) => q.where('op.produtoid', 'in', [...(produtos ?? [])]))
    .where((eb) => eb.or([
      eb('o.finalizada', '=', true),
      eb.exists(eb.selectFrom('composicaoproduto as usa').select('usa.id').whereRef('usa.ofertaProdutoId', '=', 'op.id')),
      eb.exists(eb.selectFrom('loteproduto as usaLote').select('usaLote.id').whereRef('usaLote.ofertaProdutoId', '=', 'op.id')),
    ]))
    .orderBy('p.nome')
    .orderBy('op.valorCentavos')
    .orderBy('op.id')
    .execute();
  return linhas.map((l) => ({ ...l, finalizada: Boolean(l.finalizada), paraCestasMil: Number(l.paraCestasMil ?? 0), paraLotesMil: Number(l.paraLotesMil ?? 0) }));
}

export interface ExtraDoCiclo {
  readonly cicloProdutoId: number;
  readonly produtoId: number;
  readonly produto: string;
  readonly unidade: string;
  readonly publicadoMil: number;
  readonly valorCentavos: number;
  /** The venda_direta market it was released to; null for a classic extra. */
  readonly mercadoId: number | null;
}

/** The extras a cycle publishes; `produtos`: only those of these products. */
export async function extrasPublicados(db: Db, cicloid: number, produtos?: readonly number[]): Promise<ExtraDoCiclo[]> {
  return db
    .selectFrom('cicloproduto as cp')
    .innerJoin('produto as p', 'p.id', 'cp.produtoId')
    .select(['cp.id as cicloProdutoId', 'cp.produtoId', 'p.nome as produto', 'p.unidade', 'cp.quantidadeMilesimos as publicadoMil', 'cp.valorCentavos', 'cp.mercadoId'])
    .where('cp.cicloid', '=', cicloid)
    .$if(produtos !== undefined, (q) => q.where('cp.produtoId', 'in', [...(produtos ?? [])]))
    .orderBy('cp.id')
    .execute();
}

/** Per-line room for extras: what baskets and lots leave over of a final offer (a draft promises no more). */
export function sobraDaLinha(l: LinhaOfertada): number {
  return l.finalizada ? Math.max(0, l.ofertadoMil - l.paraCestasMil - l.paraLotesMil) : 0;
}

/**
 * Attributes sold extras to suppliers, deterministically: per product, the cheapest offer first,
 * then the earliest finalised, then the oldest line; each line gives at most its surplus.
 */
export function atribuirExtras(linhas: readonly LinhaOfertada[], vendidoPorProduto: ReadonlyMap<number, number>): Map<number, number> {
  const atribuido = new Map<number, number>();
  const porProduto = new Map<number, LinhaOfertada[]>();
  for (const l of linhas) porProduto.set(l.produtoId, [...(porProduto.get(l.produtoId) ?? []), l]);
  for (const [produtoId, vendido] of vendidoPorProduto) {
    let resta = vendido;
    const ordem = [...(porProduto.get(produtoId) ?? [])].sort(
      (a, b) => a.valorCentavos - b.valorCentavos || (a.finalizadaEm ?? '').localeCompare(b.finalizadaEm ?? '') || a.ofertaProdutoId - b.ofertaProdutoId,
    );
    for (const l of ordem) {
      if (resta <= 0) break;
      const parte = Math.min(resta, sobraDaLinha(l));
      if (parte > 0) atribuido.set(l.ofertaProdutoId, parte);
      resta -= parte;
    }
  }
  return atribuido;
}

function qtd(mil: number, unidade: string): string {
  return `${formatarQuantidade(mil)} ${unidade}`;
}

/** The extras of each product added up: a product may be a classic extra and released to markets. */
function extrasPorProduto(extras: readonly ExtraDoCiclo[]): ExtraDoCiclo[] {
  const por = new Map<number, ExtraDoCiclo>();
  for (const e of extras) {
    const atual = por.get(e.produtoId);
    por.set(e.produtoId, atual === undefined ? e : { ...atual, publicadoMil: atual.publicadoMil + e.publicadoMil });
  }
  return [...por.values()];
}

/**
 * The capacity rule: refuses (409) when compositions and lots take more than a line offers, or
 * baskets, lots and published extras (classic or released to markets) take more of a product than
 * all its finalised offers together.
 */
export function conferirCapacidade(linhas: readonly LinhaOfertada[], extras: readonly ExtraDoCiclo[]): void {
  for (const l of linhas) {
    const usado = l.paraCestasMil + l.paraLotesMil;
    if (usado > l.ofertadoMil) {
      const onde = l.paraLotesMil === 0 ? `nas cestas ${qtd(l.paraCestasMil, l.unidade)}` : `nas cestas ${qtd(l.paraCestasMil, l.unidade)}, nos lotes ${qtd(l.paraLotesMil, l.unidade)}`;
      throw new Conflito(
        'CAPACIDADE_EXCEDIDA',
        `Faltam ${qtd(usado - l.ofertadoMil, l.unidade)} de ${l.produto} de ${l.fornecedor}: ofertado ${qtd(l.ofertadoMil, l.unidade)}, ${onde}`,
        { ofertaProdutoId: l.ofertaProdutoId, produto: l.produto, fornecedor: l.fornecedor, faltando: paraNumero(usado - l.ofertadoMil, ESCALA_QUANTIDADE) },
      );
    }
  }
  for (const e of extrasPorProduto(extras)) {
    const doProduto = linhas.filter((l) => l.produtoId === e.produtoId);
    const sobra = doProduto.reduce((s, l) => s + sobraDaLinha(l), 0);
    if (e.publicadoMil > sobra) {
      const unidade = e.unidade;
      const nome = e.produto;
      const fornecedores = [...new Set(doProduto.map((l) => l.fornecedor))].join(', ') || 'nenhum fornecedor';
      throw new Conflito(
        'CAPACIDADE_EXCEDIDA',
        `Faltam ${qtd(e.publicadoMil - sobra, unidade)} de ${nome} (${fornecedores}): os extras publicados passam da sobra de ${qtd(sobra, unidade)}`,
        { produtoId: e.produtoId, produto: nome, fornecedor: fornecedores, faltando: paraNumero(e.publicadoMil - sobra, ESCALA_QUANTIDADE) },
      );
    }
  }
}

/** Where one offered line goes in a cycle: planned (compositions, published extras) and ordered. */
export interface EntregaDaLinha {
  readonly linha: LinhaOfertada;
  /** Compositions × their quantidadeCestas, plus lots, plus published extras attributed to this line. */
  readonly planejadoMil: number;
  /** Compositions × baskets in confirmed orders, plus lots, plus extras in confirmed orders attributed here. */
  readonly pedidoMil: number;
  /** Extras in every saved order (confirmed or not) attributed here, for the surplus report. */
  readonly extrasReservadosMil: number;
}

/**
 * What each supplier delivers in a cycle, line by line: five queries whatever the size of the
 * cycle. Closing the cycle and every supplier report use this one computation.
 */
export async function entregasDoCiclo(db: Db, cicloid: number): Promise<EntregaDaLinha[]> {
  const [linhas, composicoes, cestasPedidas, extras, vendidos] = await Promise.all([
    linhasOfertadas(db, cicloid),
    db
      .selectFrom('composicaoproduto as cp')
      .innerJoin('composicao as c', 'c.id', 'cp.composicaoid')
      .innerJoin('ciclocesta as cc', 'cc.id', 'c.cicloCestaId')
      .select(['cp.ofertaProdutoId', 'cp.quantidadePorCestaMilesimos', 'c.cicloCestaId', 'c.quantidadeCestas'])
      .where('cc.cicloid', '=', cicloid)
      .execute(),
    db
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .select(['pp.cicloCestaId'])
      .select((eb) => eb.fn.sum<number>('pp.quantidadeMilesimos').as('m'))
      .where('p.cicloid', '=', cicloid)
      .where('p.finalizado', '=', true)
      .where('pp.cicloCestaId', 'is not', null)
      .groupBy('pp.cicloCestaId')
      .execute(),
    extrasPublicados(db, cicloid),
    db
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .innerJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
      .select(['cp.produtoId', 'p.finalizado'])
      .select((eb) => eb.fn.sum<number>('pp.quantidadeMilesimos').as('m'))
      .where('p.cicloid', '=', cicloid)
      .groupBy(['cp.produtoId', 'p.finalizado'])
      .execute(),
  ]);
  const pedidasPorCesta = new Map(cestasPedidas.map((c) => [c.cicloCestaId, Math.round(Number(c.m) / 1000)]));
  const soma = (m: Map<number, number>, k: number, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const planejadoCestas = new Map<number, number>();
  const pedidoCestas = new Map<number, number>();
  for (const c of composicoes) {
    soma(planejadoCestas, c.ofertaProdutoId, c.quantidadePorCestaMilesimos * c.quantidadeCestas);
    soma(pedidoCestas, c.ofertaProdutoId, c.quantidadePorCestaMilesimos * (pedidasPorCesta.get(c.cicloCestaId ?? 0) ?? 0));
  }
  const publicados = new Map<number, number>();
  for (const e of extras) soma(publicados, e.produtoId, e.publicadoMil);
  const confirmados = new Map<number, number>();
  const reservados = new Map<number, number>();
  for (const v of vendidos) {
    soma(reservados, v.produtoId, Number(v.m));
    if (v.finalizado) soma(confirmados, v.produtoId, Number(v.m));
  }
  const extraPlanejado = atribuirExtras(linhas, publicados);
  const extraPedido = atribuirExtras(linhas, confirmados);
  const extraReservado = atribuirExtras(linhas, reservados);
  // A lot is ordered as it is composed: its buyer is named, so planned and ordered are the same.
  return linhas.map((l) => ({
    linha: l,
    planejadoMil: (planejadoCestas.get(l.ofertaProdutoId) ?? 0) + l.paraLotesMil + (extraPlanejado.get(l.ofertaProdutoId) ?? 0),
    pedidoMil: (pedidoCestas.get(l.ofertaProdutoId) ?? 0) + l.paraLotesMil + (extraPedido.get(l.ofertaProdutoId) ?? 0),
    extrasReservadosMil: extraReservado.get(l.ofertaProdutoId) ?? 0,
  }));
}
