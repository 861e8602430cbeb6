/**
 * A one-off order, as both faces place it: the use case above the order and the subscriptions.
 * Subscriptions go first: the cycle's subscription orders are generated (gerarAntesDoPedido)
 * before the one-off order takes stock (salvarPedido). NOTE: the order itself knows nothing of
 * subscriptions; this is the one place that puts the two in sequence.
 */
import type { Banco } from '../../db/banco.ts';
import type { Ator } from '../acesso.ts';
import { gerarAntesDoPedido } from '../assinaturas/geracao.ts';
import type { OpcoesPedido, Pedido } from './modelo.ts';
import type { EntradaPedido } from './regras.ts';
import { salvarPedido } from './salvar.ts';

/** Saves a one-off order after the cycle's subscription orders (once per process and cycle; see gerarAntesDoPedido). */
export async function fazerPedido(
  banco: Banco,
  ator: Ator,
  entrada: EntradaPedido,
  opcoes: OpcoesPedido & { readonly tz: string },
): Promise<{ pedido: Pedido; criado: boolean; reaberto: boolean }> {
  await gerarAntesDoPedido(banco, entrada.cicloid, opcoes);
  return salvarPedido(banco, ator, entrada, opcoes);
}
