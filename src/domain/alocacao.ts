import type { Db } from '../db/banco.ts';
import { juntas, leitura, type Leitura } from '../db/juntas.ts';
import { ESCALA_QUANTIDADE, faltaQuantidade, formatarQuantidadeComUnidade, paraNumero } from '../decimal.ts';
import { linhaNumaCesta, paraCestasDaLinha, quantidadesDasCestas } from './conteudo-das-cestas.ts';
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
  const [linhas] = await juntas(db, [leituraDasLinhasOfertadas(db, cicloid, produtos)]);
  return linhas;
}

/** linhasOfertadas as one statement of a batch (juntas.ts). */
export function leituraDasLinhasOfertadas(
  db: Db,
  cicloid: number,
  produtos?: readonly number[],
): Leitura<LinhaOfertada[]> {
  const consulta = db
    .selectFrom('ofertaproduto as op')
    .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
    .innerJoin('produto as p', 'p.id', 'op.produtoid')
    .innerJoin('usuario as u', 'u.id', 'o.usuarioid')
    .select([
      'op.id as ofertaProdutoId',
      'o.id as ofertaId',
      'op.produtoid as produtoId',
      'p.nome as produto',
      'p.unidade',
      'o.usuarioid as fornecedorId',
      'u.nome as fornecedor',
      'op.valorCentavos',
      'op.quantidadeMilesimos as ofertadoMil',
      'o.finalizada',
      'o.finalizadaEm',
    ])
    .select((eb) => paraCestasDaLinha(eb).as('paraCestasMil'))
    .select((eb) =>
      eb
        .selectFrom('loteproduto as lp')
        .select((e2) => e2.fn.coalesce(e2.fn.sum<number>('lp.quantidadeMilesimos'), e2.lit(0)).as('s'))
        .whereRef('lp.ofertaProdutoId', '=', 'op.id')
        .as('paraLotesMil'),
    )
    .where('o.cicloid', '=', cicloid)
    .$if(produtos !== undefined, (q) => q.where('op.produtoid', 'in', [...(produtos ?? [])]))
    .where((eb) =>
      eb.or([
        eb('o.finalizada', '=', true),
        linhaNumaCesta(eb),
        eb.exists(
          eb
            .selectFrom('loteproduto as usaLote')
            .select('usaLote.id')
            .whereRef('usaLote.ofertaProdutoId', '=', 'op.id'),
        ),
      ]),
    )
    .orderBy('p.nome')
    .orderBy('op.valorCentavos')
    .orderBy('op.id');
  return leitura(consulta.compile(), (linhas) =>
    linhas.map((l) => ({
      ...l,
      finalizada: Boolean(l.finalizada),
      paraCestasMil: Number(l.paraCestasMil ?? 0),
      paraLotesMil: Number(l.paraLotesMil ?? 0),
    })),
  );
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
  const [extras] = await juntas(db, [leituraDosExtrasPublicados(db, cicloid, produtos)]);
  return extras;
}

/** extrasPublicados as one statement of a batch (juntas.ts). */
export function leituraDosExtrasPublicados(
  db: Db,
  cicloid: number,
  produtos?: readonly number[],
): Leitura<ExtraDoCiclo[]> {
  const consulta = db
    .selectFrom('cicloproduto as cp')
    .innerJoin('produto as p', 'p.id', 'cp.produtoId')
    .select([
      'cp.id as cicloProdutoId',
      'cp.produtoId',
      'p.nome as produto',
      'p.unidade',
      'cp.quantidadeMilesimos as publicadoMil',
      'cp.valorCentavos',
      'cp.mercadoId',
    ])
    .where('cp.cicloid', '=', cicloid)
    .$if(produtos !== undefined, (q) => q.where('cp.produtoId', 'in', [...(produtos ?? [])]))
    .orderBy('cp.id');
  return leitura(consulta.compile(), (extras) => extras);
}

/** Per-line room for extras: what baskets and lots leave over of a final offer (a draft promises no more). */
export function sobraDaLinha(l: LinhaOfertada): number {
  return l.finalizada ? Math.max(0, l.ofertadoMil - l.paraCestasMil - l.paraLotesMil) : 0;
}

/** Each product's lines in the order extras are attributed: cheapest, earliest finalised, oldest. */
function linhasPorProdutoNaOrdem(linhas: readonly LinhaOfertada[]): Map<number, LinhaOfertada[]> {
  const porProduto = new Map<number, LinhaOfertada[]>();
  for (const l of linhas) porProduto.set(l.produtoId, [...(porProduto.get(l.produtoId) ?? []), l]);
  for (const ls of porProduto.values()) {
    ls.sort(
      (a, b) =>
        a.valorCentavos - b.valorCentavos ||
        (a.finalizadaEm ?? '').localeCompare(b.finalizadaEm ?? '') ||
        a.ofertaProdutoId - b.ofertaProdutoId,
    );
  }
  return porProduto;
}

/** A market key: a market's id, or null for what is sold outside any market. */
export type ChaveMercado = number | null;

/**
 * Attributes sold extras to suppliers, deterministically: per product, the cheapest offer first,
 * then the earliest finalised, then the oldest line; each line gives at most its surplus. Told
 * per market: the units sold of a product, market by market (outside any market first, then by
 * id), fill its lines in that order, so per market the lines add up to what it sold.
 */
export function atribuirExtrasPorMercado(
  linhas: readonly LinhaOfertada[],
  vendido: ReadonlyMap<number, ReadonlyMap<ChaveMercado, number>>,
): Map<number, Map<ChaveMercado, number>> {
  const atribuido = new Map<number, Map<ChaveMercado, number>>();
  const porProduto = linhasPorProdutoNaOrdem(linhas);
  for (const [produtoId, porMercado] of vendido) {
    const fila = [...porMercado].filter(([, q]) => q > 0).sort(([a], [b]) => (a ?? 0) - (b ?? 0));
    let i = 0;
    let restaNoMercado = fila[0]?.[1] ?? 0;
    for (const l of porProduto.get(produtoId) ?? []) {
      let cabe = sobraDaLinha(l);
      while (cabe > 0 && i < fila.length) {
        const parte = Math.min(cabe, restaNoMercado);
        const chave = fila[i]?.[0] ?? null;
        const daLinha = atribuido.get(l.ofertaProdutoId) ?? new Map<ChaveMercado, number>();
        daLinha.set(chave, (daLinha.get(chave) ?? 0) + parte);
        atribuido.set(l.ofertaProdutoId, daLinha);
        cabe -= parte;
        restaNoMercado -= parte;
        if (restaNoMercado === 0) restaNoMercado = fila[++i]?.[1] ?? 0;
      }
    }
  }
  return atribuido;
}

const qtd = formatarQuantidadeComUnidade;

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
      const onde =
        l.paraLotesMil === 0
          ? `nas cestas ${qtd(l.paraCestasMil, l.unidade)}`
          : `nas cestas ${qtd(l.paraCestasMil, l.unidade)}, nos lotes ${qtd(l.paraLotesMil, l.unidade)}`;
      throw new Conflito(
        'CAPACIDADE_EXCEDIDA',
        `${faltaQuantidade(usado - l.ofertadoMil, l.unidade)} de ${l.produto} de ${l.fornecedor}: ofertado ${qtd(l.ofertadoMil, l.unidade)}, ${onde}`,
        {
          ofertaProdutoId: l.ofertaProdutoId,
          produto: l.produto,
          fornecedor: l.fornecedor,
          faltando: paraNumero(usado - l.ofertadoMil, ESCALA_QUANTIDADE),
        },
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
        `${faltaQuantidade(e.publicadoMil - sobra, unidade)} de ${nome} (${fornecedores}): os extras publicados passam da sobra de ${qtd(sobra, unidade)}`,
        {
          produtoId: e.produtoId,
          produto: nome,
          fornecedor: fornecedores,
          faltando: paraNumero(e.publicadoMil - sobra, ESCALA_QUANTIDADE),
        },
      );
    }
  }
}

/** What one offered line gives to one market of the cycle (mercadoId null: outside any market). */
export interface ParteDaLinhaNoMercado {
  readonly mercadoId: ChaveMercado;
  /** Compositions of the market's baskets × their quantidadeCestas. */
  readonly paraCestasMil: number;
  /** The market's lots. */
  readonly paraLotesMil: number;
  readonly planejadoMil: number;
  readonly pedidoMil: number;
  readonly extrasReservadosMil: number;
}

/** Where one offered line goes in a cycle: planned (compositions, published extras) and ordered. */
export interface EntregaDaLinha {
  readonly linha: LinhaOfertada;
  /** Compositions × their quantidadeCestas, plus lots, plus published extras attributed to this line. */
  readonly planejadoMil: number;
  /** Compositions × baskets in confirmed orders, plus lots, plus extras in confirmed orders attributed here. */
  readonly pedidoMil: number;
  /**
   * Extras attributed here in the orders that hold stock, for the surplus and product reports:
   * every saved order while the order window is open, only confirmed ones once it has closed
   * (DOMAIN.md, "Order"; see `soConfirmadosReservam`).
   */
  readonly extrasReservadosMil: number;
  /**
   * The same figures per market, in the order of the market ids (null first); they add up to the
   * line's. A cycle without markets has one part, null. Parts with nothing are left out.
   */
  readonly porMercado: readonly ParteDaLinhaNoMercado[];
}

type PorMercado = Map<ChaveMercado, number>;
const somarEm = (m: Map<number, PorMercado>, k: number, mercado: ChaveMercado, v: number) => {
  const dentro = m.get(k) ?? new Map<ChaveMercado, number>();
  dentro.set(mercado, (dentro.get(mercado) ?? 0) + v);
  m.set(k, dentro);
};

/**
 * What each supplier delivers in a cycle, line by line and market by market: five queries whatever
 * the size of the cycle (six when it has lots). Closing the cycle and every supplier report use
 * this one computation. Baskets count in their market (ciclocesta.mercadoId), lots in theirs, and
 * extras as they were ordered (pedidoproduto.mercadoId) or published (cicloproduto.mercadoId).
 */
export async function entregasDoCiclo(
  db: Db,
  cicloid: number,
  opcoes: { readonly soConfirmadosReservam?: boolean } = {},
): Promise<EntregaDaLinha[]> {
  const [linhas, composicoes, cestasPedidas, extras, vendidos] = await Promise.all([
    linhasOfertadas(db, cicloid),
    quantidadesDasCestas(db, cicloid),
    db
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .select(['pp.cicloCestaId', 'pp.mercadoId'])
      .select((eb) => eb.fn.sum<number>('pp.quantidadeMilesimos').as('m'))
      .where('p.cicloid', '=', cicloid)
      .where('p.finalizado', '=', true)
      .where('pp.cicloCestaId', 'is not', null)
      .groupBy(['pp.cicloCestaId', 'pp.mercadoId'])
      .execute(),
    extrasPublicados(db, cicloid),
    db
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .innerJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
      .select(['cp.produtoId', 'p.finalizado', 'pp.mercadoId'])
      .select((eb) => eb.fn.sum<number>('pp.quantidadeMilesimos').as('m'))
      .where('p.cicloid', '=', cicloid)
      .groupBy(['cp.produtoId', 'p.finalizado', 'pp.mercadoId'])
      .execute(),
  ]);
  // Lots only exist in cycles with lote markets: no query for the others.
  const lotes = linhas.some((l) => l.paraLotesMil > 0)
    ? await db
        .selectFrom('loteproduto as lp')
        .innerJoin('lote as l', 'l.id', 'lp.loteid')
        .select(['lp.ofertaProdutoId', 'l.mercadoId'])
        .select((eb) => eb.fn.sum<number>('lp.quantidadeMilesimos').as('m'))
        .where('l.cicloid', '=', cicloid)
        .groupBy(['lp.ofertaProdutoId', 'l.mercadoId'])
        .execute()
    : [];
  // Baskets ordered per (cycle basket, market it was bought in).
  const pedidasPorCesta = new Map<number, PorMercado>();
  for (const c of cestasPedidas)
    somarEm(pedidasPorCesta, c.cicloCestaId ?? 0, c.mercadoId, Math.round(Number(c.m) / 1000));
  const paraCestas = new Map<number, PorMercado>();
  const pedidoCestas = new Map<number, PorMercado>();
  for (const c of composicoes) {
    somarEm(paraCestas, c.ofertaProdutoId, c.mercadoId, c.quantidadePorCestaMilesimos * c.quantidadeCestas);
    for (const [mercado, n] of pedidasPorCesta.get(c.cicloCestaId ?? 0) ?? [])
      somarEm(pedidoCestas, c.ofertaProdutoId, mercado, c.quantidadePorCestaMilesimos * n);
  }
  const paraLotes = new Map<number, PorMercado>();
  for (const l of lotes) somarEm(paraLotes, l.ofertaProdutoId, l.mercadoId, Number(l.m));
  const publicados = new Map<number, PorMercado>();
  for (const e of extras) somarEm(publicados, e.produtoId, e.mercadoId, e.publicadoMil);
  const confirmados = new Map<number, PorMercado>();
  const reservados = new Map<number, PorMercado>();
  for (const v of vendidos) {
    if (v.finalizado || opcoes.soConfirmadosReservam !== true)
      somarEm(reservados, v.produtoId, v.mercadoId, Number(v.m));
    if (v.finalizado) somarEm(confirmados, v.produtoId, v.mercadoId, Number(v.m));
  }
  const extraPlanejado = atribuirExtrasPorMercado(linhas, publicados);
  const extraPedido = atribuirExtrasPorMercado(linhas, confirmados);
  const extraReservado = atribuirExtrasPorMercado(linhas, reservados);
  const de = (m: Map<number, PorMercado>, l: LinhaOfertada, mercado: ChaveMercado) =>
    m.get(l.ofertaProdutoId)?.get(mercado) ?? 0;
  return linhas.map((l) => {
    const mercados = new Set<ChaveMercado>([null]);
    for (const m of [paraCestas, pedidoCestas, paraLotes, extraPlanejado, extraPedido, extraReservado])
      for (const k of m.get(l.ofertaProdutoId)?.keys() ?? []) mercados.add(k);
    // A lot is ordered as it is composed: its buyer is named, so planned and ordered are the same.
    const partes = [...mercados]
      .sort((a, b) => (a ?? 0) - (b ?? 0))
      .map((mercadoId): ParteDaLinhaNoMercado => {
        const cestas = de(paraCestas, l, mercadoId);
        const doLote = de(paraLotes, l, mercadoId);
        return {
          mercadoId,
          paraCestasMil: cestas,
          paraLotesMil: doLote,
          planejadoMil: cestas + doLote + de(extraPlanejado, l, mercadoId),
          pedidoMil: de(pedidoCestas, l, mercadoId) + doLote + de(extraPedido, l, mercadoId),
          extrasReservadosMil: de(extraReservado, l, mercadoId),
        };
      });
    const total = (f: (p: ParteDaLinhaNoMercado) => number) => partes.reduce((s, p) => s + f(p), 0);
    return {
      linha: l,
      planejadoMil: total((p) => p.planejadoMil),
      pedidoMil: total((p) => p.pedidoMil),
      extrasReservadosMil: total((p) => p.extrasReservadosMil),
      porMercado: partes.filter(
        (p, i) => (i === 0 && partes.length === 1) || p.planejadoMil + p.pedidoMil + p.extrasReservadosMil > 0,
      ),
    };
  });
}

/** What a line's supplier delivers to one market (null: outside markets), by the market's name. */
export interface PedidoNoMercado {
  readonly mercadoId: ChaveMercado;
  readonly mercado: string | null;
  readonly pedidoMil: number;
}

export interface EntregaComMercados extends EntregaDaLinha {
  /** `pedidoMil` by market, named; markets with nothing ordered left out; by name, outside markets last. */
  readonly mercados: readonly PedidoNoMercado[];
}

/** The cycle's deliveries with each line's ordered quantity by market, named (GraphQL `minhasEntregas`): one query more than entregasDoCiclo. */
export async function entregasComMercados(db: Db, cicloid: number): Promise<EntregaComMercados[]> {
  const entregas = await entregasDoCiclo(db, cicloid);
  const ids = [
    ...new Set(entregas.flatMap((e) => e.porMercado.flatMap((p) => (p.mercadoId === null ? [] : [p.mercadoId])))),
  ];
  const nomes = new Map(
    ids.length === 0
      ? []
      : (await db.selectFrom('mercado').select(['id', 'nome']).where('id', 'in', ids).execute()).map((m) => [
          m.id,
          m.nome,
        ]),
  );
  return entregas.map((e) => ({
    ...e,
    mercados: e.porMercado
      .filter((p) => p.pedidoMil > 0)
      .map((p) => ({
        mercadoId: p.mercadoId,
        mercado: p.mercadoId === null ? null : (nomes.get(p.mercadoId) ?? null),
        pedidoMil: p.pedidoMil,
      }))
      .sort(
        (a, b) =>
          (a.mercado === null ? 1 : 0) - (b.mercado === null ? 1 : 0) ||
          (a.mercado ?? '').localeCompare(b.mercado ?? '', 'pt-BR') ||
          (a.mercadoId ?? 0) - (b.mercadoId ?? 0),
      ),
  }));
}
