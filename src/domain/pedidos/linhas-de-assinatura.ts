/**
 * The basket lines that subscriptions put in (gravarLinhaDeAssinatura) and take out of
 * (retirarLinhaDeAssinatura) consumers' orders, inside the subscriptions' own transaction.
 */
import type { Db } from '../../db/banco.ts';
import { dataHoraLocal } from '../tempo.ts';

/** One basket line a subscription puts in a consumer's order (prices and the fee as salvarPedido records them). */
export interface LinhaDeAssinatura {
  readonly cicloid: number;
  readonly usuarioid: number;
  readonly pontoEntregaId: number;
  readonly cicloCestaId: number;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly mercadoId: number | null;
  /** The market's fee now; kept only when the line has a market, as salvarPedido keeps it. */
  readonly taxaCentesimos: number | null;
  readonly assinaturaId: number;
}

/**
 * Adds a subscription's basket line to the consumer's order in the cycle, inside the caller's
 * transaction (which holds the cycle basket's lock and checked what is free). With no order yet,
 * the order is created at the subscription's point and confirmed, as finalizarPedido confirms;
 * an existing order keeps its point and state. When the order already holds that basket, the
 * line grows and is marked as the subscription's (an order holds each basket once).
 * Two statements, whatever was there: the order and the line are each written with ON CONFLICT
 * on their unique keys (the counting triggers are AFTER triggers, so an upsert counts once).
 * Returns the order's id.
 */
export async function gravarLinhaDeAssinatura(
  trx: Db,
  l: LinhaDeAssinatura,
  opcoes: { agora: Date; tz: string },
): Promise<{ pedidoId: number }> {
  const iso = opcoes.agora.toISOString();
  const pedido = await trx
    .insertInto('pedido')
    .values({
      cicloid: l.cicloid,
      usuarioid: l.usuarioid,
      pontoEntregaId: l.pontoEntregaId,
      finalizado: true,
      dataConfirmacao: dataHoraLocal(opcoes.agora, opcoes.tz),
      createdAt: iso,
      updatedAt: iso,
    })
    .onConflict((oc) => oc.columns(['cicloid', 'usuarioid']).doUpdateSet({ updatedAt: iso }))
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('pedidoproduto')
    .values({
      pedidoid: pedido.id,
      cicloCestaId: l.cicloCestaId,
      cicloProdutoId: null,
      quantidadeMilesimos: l.quantidadeMilesimos,
      valorCentavos: l.valorCentavos,
      mercadoId: l.mercadoId,
      taxaCentesimos: l.mercadoId === null ? null : (l.taxaCentesimos ?? 0),
      assinaturaId: l.assinaturaId,
      createdAt: iso,
      updatedAt: iso,
    })
    .onConflict((oc) =>
      oc.columns(['pedidoid', 'cicloCestaId']).doUpdateSet((eb) => ({
        quantidadeMilesimos: eb(
          eb.ref('pedidoproduto.quantidadeMilesimos'),
          '+',
          eb.ref('excluded.quantidadeMilesimos'),
        ),
        assinaturaId: eb.ref('excluded.assinaturaId'),
        updatedAt: eb.ref('excluded.updatedAt'),
      })),
    )
    .execute();
  return { pedidoId: pedido.id };
}

/**
 * Takes `quantidadeMilesimos` of a subscription's basket line out of its order (releasing the
 * reservation through the counting triggers); the line goes when nothing is left of it, and the
 * order when it has no line left. Returns whether the order was deleted.
 */
export async function retirarLinhaDeAssinatura(
  trx: Db,
  pedidoId: number,
  assinaturaId: number,
  quantidadeMilesimos: number,
  agora: Date,
): Promise<boolean> {
  const iso = agora.toISOString();
  const linha = await trx
    .selectFrom('pedidoproduto')
    .select(['id', 'quantidadeMilesimos'])
    .where('pedidoid', '=', pedidoId)
    .where('assinaturaId', '=', assinaturaId)
    .executeTakeFirst();
  if (linha !== undefined) {
    if (linha.quantidadeMilesimos > quantidadeMilesimos) {
      await trx
        .updateTable('pedidoproduto')
        .set({
          quantidadeMilesimos: linha.quantidadeMilesimos - quantidadeMilesimos,
          assinaturaId: null,
          updatedAt: iso,
        })
        .where('id', '=', linha.id)
        .execute();
    } else {
      await trx.deleteFrom('pedidoproduto').where('id', '=', linha.id).execute();
    }
  }
  const resta = await trx.selectFrom('pedidoproduto').select('id').where('pedidoid', '=', pedidoId).executeTakeFirst();
  if (resta !== undefined) {
    await trx.updateTable('pedido').set({ updatedAt: iso }).where('id', '=', pedidoId).execute();
    return false;
  }
  await trx
    .updateTable('assinaturaciclo')
    .set({ pedidoId: null, updatedAt: iso })
    .where('pedidoId', '=', pedidoId)
    .execute();
  await trx.deleteFrom('pedido').where('id', '=', pedidoId).execute();
  return true;
}
