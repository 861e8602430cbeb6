/**
 * What saved orders hold of a cycle's lines (its baskets and its extras), as SQL fragments for the
 * queries that read those lines: the order itself, the composition's capacity checks and the
 * subscriptions' generation count a line the same way.
 */
import { sql } from 'kysely';

/** The two kinds of line an order reserves: a cycle basket (`ciclocesta`) or an extra (`cicloproduto`). */
type TabelaReservada = 'ciclocesta' | 'cicloproduto';
const COLUNA_DA_LINHA = { ciclocesta: 'cicloCestaId', cicloproduto: 'cicloProdutoId' } as const;

/** Whether the cycle's order window has closed today: from then on, only confirmed orders hold stock (DOMAIN.md, "Order"). */
export function soConfirmadosSeguram(ciclo: { readonly dataPedidoFim: string }, hoje: string): boolean {
  return hoje > ciclo.dataPedidoFim;
}

/**
 * What confirmed orders hold of the line `alias` (a row of `tabela`), in thousandths: summed from
 * their lines (indexed by line and order, migrations/20261121_2000_indices_de_reserva.ts).
 */
function confirmadoDaLinha(tabela: TabelaReservada, alias: string) {
  return sql<number>`(SELECT COALESCE(SUM(ppc."quantidadeMilesimos"), 0) FROM pedidoproduto ppc INNER JOIN pedido pc ON pc.id = ppc.pedidoid
    WHERE ppc.${sql.id(COLUNA_DA_LINHA[tabela])} = ${sql.ref(`${alias}.id`)} AND pc.finalizado)`;
}

/**
 * What saved orders hold of the line `alias` (a row of `tabela`), in thousandths. While the order
 * window has not closed, every saved order holds its stock: the row's counter, kept by triggers
 * (migrations/20261121_2300_reservas_contadas.ts). Once it has closed, an unconfirmed order holds
 * nothing (it is neither delivered nor charged): only confirmed orders count, summed from their
 * lines. The caller knows which (it has read the cycle).
 */
export function reservadoDaLinha(tabela: TabelaReservada, alias: string, soConfirmados: boolean) {
  return soConfirmados ? confirmadoDaLinha(tabela, alias) : sql<number>`${sql.ref(`${alias}.reservadoMilesimos`)}`;
}

/**
 * The same when the cycle is not read yet: the phase decided in SQL from today (the line's cycle
 * is one primary-key row), so a page reads it in the same single statement. NOTE: CASE evaluates
 * only the branch it takes, so an open window never pays for the sum.
 */
export function reservadoDaLinhaHoje(tabela: TabelaReservada, alias: string, hoje: string) {
  return sql<number>`CASE WHEN (SELECT cf."dataPedidoFim" FROM ciclo cf WHERE cf.id = ${sql.ref(`${alias}.cicloid`)}) < ${hoje}
    THEN ${confirmadoDaLinha(tabela, alias)} ELSE ${sql.ref(`${alias}.reservadoMilesimos`)} END`;
}

/** How many baskets of a cycle basket may be sold: its composition's quantidadeCestas (what will be packed), 0 with no composition. */
export function vendaveisDaCesta(alias: string) {
  return sql<number>`COALESCE((SELECT cq."quantidadeCestas" FROM composicao cq WHERE cq."cicloCestaId" = ${sql.ref(`${alias}.id`)}), 0)`;
}
