/**
 * What is inside the cycle's baskets: the one owner of the composition-items join
 * (composicaoproduto ⋈ composicao ⋈ ciclocesta ⋈ ofertaproduto ⋈ produto). Every reader of basket
 * contents goes through here (docs/decisions.md, "Quem lê o conteúdo das cestas"): the order page
 * and its catalogue, the composition page and its save, the cost of a basket against its market's
 * ceiling, what an offer line is held by, the deliveries, and the assembly sheet. Writing a
 * composition stays in composicao.ts.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/banco.ts';
import type { DB } from '../db/tipos.ts';

/** One item of one cycle basket, with what its readers ask of it. */
export interface ItemDaCesta {
  readonly cicloCestaId: number;
  readonly cesta: string;
  /** The market the cycle basket is sold in; null in a cycle without markets. */
  readonly mercadoId: number | null;
  /** How many baskets the composition packs. */
  readonly quantidadeCestas: number;
  readonly ofertaProdutoId: number;
  readonly produtoId: number;
  readonly produto: string;
  /** The product's unit: `quantidadePorCestaMilesimos` is in it. */
  readonly unidade: string;
  /** The unit the coordinator composed it in (naUnidadeEscolhida shows the quantity so). */
  readonly unidadeEscolhida: string;
  readonly fornecedorId: number;
  readonly fornecedor: string;
  /** The supplier's offer price per unit of the product. */
  readonly valorCentavos: number;
  readonly quantidadePorCestaMilesimos: number;
}

/** Whose baskets: a cycle's, one cycle basket's, or the ones that use some offer lines. */
export type OndeLer =
  { readonly cicloid: number } | { readonly cicloCestaId: number } | { readonly ofertaProdutoIds: readonly number[] };

/**
 * The order of the items: as composed (each basket's items in the order they were entered), by
 * product name (each basket's, for the order page), or by basket name then product (the assembly
 * sheet, and what holds an offer line).
 */
export type OrdemDosItens = 'composicao' | 'produto' | 'cesta';

/** The items of the baskets `onde` names, in one statement (none for an empty list of lines). */
export async function itensDasCestas(
  db: Db,
  onde: OndeLer,
  ordem: OrdemDosItens = 'composicao',
): Promise<ItemDaCesta[]> {
  if ('ofertaProdutoIds' in onde && onde.ofertaProdutoIds.length === 0) return [];
  let q = db
    .selectFrom('composicaoproduto as x')
    .innerJoin('composicao as c', 'c.id', 'x.composicaoid')
    .innerJoin('ciclocesta as cc', 'cc.id', 'c.cicloCestaId')
    .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
    .innerJoin('ofertaproduto as op', 'op.id', 'x.ofertaProdutoId')
    .innerJoin('produto as p', 'p.id', 'op.produtoid')
    .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
    .innerJoin('usuario as u', 'u.id', 'o.usuarioid')
    .select([
      'cc.id as cicloCestaId',
      'cesta.nome as cesta',
      'cc.mercadoId',
      'c.quantidadeCestas',
      'x.ofertaProdutoId',
      'op.produtoid as produtoId',
      'p.nome as produto',
      'p.unidade',
      'x.unidade as unidadeEscolhida',
      'o.usuarioid as fornecedorId',
      'u.nome as fornecedor',
      'op.valorCentavos',
      'x.quantidadePorCestaMilesimos',
    ]);
  if ('cicloid' in onde) q = q.where('cc.cicloid', '=', onde.cicloid);
  else if ('cicloCestaId' in onde) q = q.where('cc.id', '=', onde.cicloCestaId);
  else q = q.where('x.ofertaProdutoId', 'in', [...onde.ofertaProdutoIds]);
  if (ordem === 'cesta') q = q.orderBy('cesta.nome').orderBy('p.nome');
  else if (ordem === 'produto') q = q.orderBy('p.nome');
  else q = q.orderBy('cc.id').orderBy('x.id');
  return q.execute();
}

/** The quantities a cycle's compositions take, line by line: what the deliveries and the suppliers' totals count. */
export async function quantidadesDasCestas(
  db: Db,
  cicloid: number,
): Promise<
  Array<
    Pick<
      ItemDaCesta,
      'ofertaProdutoId' | 'quantidadePorCestaMilesimos' | 'cicloCestaId' | 'quantidadeCestas' | 'mercadoId'
    >
  >
> {
  return db
    .selectFrom('composicaoproduto as cp')
    .innerJoin('composicao as c', 'c.id', 'cp.composicaoid')
    .innerJoin('ciclocesta as cc', 'cc.id', 'c.cicloCestaId')
    .select([
      'cp.ofertaProdutoId',
      'cp.quantidadePorCestaMilesimos',
      'c.cicloCestaId',
      'c.quantidadeCestas',
      'cc.mercadoId',
    ])
    .where('cc.cicloid', '=', cicloid)
    .execute();
}

type ComLinha = ExpressionBuilder<DB & { op: DB['ofertaproduto'] }, 'op'>;
type ComCestaDoCiclo = ExpressionBuilder<DB & { cc: DB['ciclocesta'] }, 'cc'>;

/**
 * What the compositions take of the offer line `op`, in thousandths (per-basket quantity ×
 * baskets, summed), for a query's select. Multiplied in 64 bits: two 32-bit columns would
 * overflow PostgreSQL's integer.
 */
export function paraCestasDaLinha(eb: ComLinha) {
  return eb
    .selectFrom('composicaoproduto as cp')
    .innerJoin('composicao as c', 'c.id', 'cp.composicaoid')
    .select((e2) =>
      e2.fn
        .coalesce(
          e2.fn.sum<number>(
            e2(e2.cast<number>('cp.quantidadePorCestaMilesimos', 'bigint'), '*', e2.ref('c.quantidadeCestas')),
          ),
          e2.lit(0),
        )
        .as('s'),
    )
    .whereRef('cp.ofertaProdutoId', '=', 'op.id');
}

/** Whether some basket uses the offer line `op`, for a query's where. */
export function linhaNumaCesta(eb: ComLinha) {
  return eb.exists(
    eb.selectFrom('composicaoproduto as usa').select('usa.id').whereRef('usa.ofertaProdutoId', '=', 'op.id'),
  );
}

/** Whether the cycle basket `cc` has anything composed in it (a basket with nothing in it is not for sale). */
export function cestaComposta(eb: ComCestaDoCiclo) {
  return eb.exists(
    eb
      .selectFrom('composicao as c')
      .innerJoin('composicaoproduto as x', 'x.composicaoid', 'c.id')
      .select('x.id')
      .whereRef('c.cicloCestaId', '=', 'cc.id'),
  );
}
