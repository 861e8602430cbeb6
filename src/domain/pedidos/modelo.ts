/**
 * The order as the rest of the code sees it (Pedido, its lines and pickup hours), how one is
 * assembled from the rows the loaders read (montarPedido), and the options and events of the use
 * cases that write it.
 */
import type { Db } from '../../db/banco.ts';
import { valorDaQuantidade } from '../../decimal.ts';
import { partesDoPedido, type ParteDoPedido, type Taxa } from './taxa.ts';

export interface LinhaDoPedido {
  readonly id: number;
  readonly tipo: 'cesta' | 'extra';
  readonly cicloCestaId: number | null;
  readonly cicloProdutoId: number | null;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  /** Price per unit (per basket), as ordered. */
  readonly valorCentavos: number;
  readonly subtotalCentavos: number;
  /** The market it is bought in, with that market's fee then; null in a cycle without markets. */
  readonly mercadoId: number | null;
  readonly mercado: string | null;
  readonly taxaCentesimos: number | null;
  /** The subscription that put this basket line in the order; null for a one-off line. */
  readonly assinaturaId: number | null;
}

export interface Pedido {
  readonly pedidoId: number;
  readonly cicloid: number;
  /** The consumer's id, under the interface's name; `usuario` carries it with the name. */
  readonly usuarioid: number;
  readonly usuario: { readonly id: number; readonly nome: string };
  /** The point, with the cycle's day and hours there when the cycle lists its points. */
  readonly pontoEntrega: HorarioDeRetirada & { readonly id: number; readonly nome: string };
  readonly pontoEntregaId: number;
  readonly finalizado: boolean;
  readonly dataConfirmacao: string | null;
  readonly produtos: LinhaDoPedido[];
  readonly totalCentavos: number;
  readonly taxaCentavos: number;
  readonly totalComTaxaCentavos: number;
  /** What is bought in each market and its fee, shown apart (one part in a cycle without markets). */
  readonly partes: ReadonlyArray<ParteDoPedido & { readonly mercado: string | null }>;
}

/** When to pick up at a point in a cycle; any part may be unset. */
export interface HorarioDeRetirada {
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
}

/** An order's row as the loaders read it: the order, its consumer's name and its delivery point's name and hours. */
export interface LinhaPedidoLida extends HorarioDeRetirada {
  readonly id: number;
  readonly cicloid: number;
  readonly usuarioid: number;
  readonly usuarioNome: string;
  readonly pontoEntregaId: number;
  readonly pontoNome: string;
  readonly finalizado: boolean;
  readonly dataConfirmacao: string | null;
}

/** An order line as the loaders read it, with the basket's or the product's name. */
export interface ItemLido {
  readonly id: number;
  readonly cicloCestaId: number | null;
  readonly cicloProdutoId: number | null;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly cestaNome: string | null;
  readonly produtoNome: string | null;
  readonly unidade: string | null;
  readonly mercadoId: number | null;
  readonly mercadoNome: string | null;
  readonly taxaCentesimos: number | null;
  readonly assinaturaId: number | null;
}

/** An order with its lines (in the order they were written) and its totals. */
export function montarPedido(p: LinhaPedidoLida, linhas: readonly ItemLido[], taxa: Taxa): Pedido {
  const produtos = linhas.map((l): LinhaDoPedido => {
    const cesta = l.cicloCestaId !== null;
    return {
      id: l.id,
      tipo: cesta ? 'cesta' : 'extra',
      cicloCestaId: l.cicloCestaId,
      cicloProdutoId: l.cicloProdutoId,
      nome: (cesta ? l.cestaNome : l.produtoNome) ?? '',
      unidade: cesta ? 'cesta' : (l.unidade ?? ''),
      quantidadeMilesimos: l.quantidadeMilesimos,
      valorCentavos: l.valorCentavos,
      subtotalCentavos: valorDaQuantidade(l.valorCentavos, l.quantidadeMilesimos),
      mercadoId: l.mercadoId,
      mercado: l.mercadoNome,
      taxaCentesimos: l.taxaCentesimos,
      assinaturaId: l.assinaturaId,
    };
  });
  const total = produtos.reduce((s, i) => s + i.subtotalCentavos, 0);
  const partes = partesDoPedido(produtos, taxa).map((x) => ({
    ...x,
    // Stryker disable next-line OptionalChaining: every part comes from at least one of these lines, so find always finds one
    mercado: produtos.find((l) => l.mercadoId === x.mercadoId)?.mercado ?? null,
  }));
  const t = partes.reduce((s, x) => s + x.taxaCentavos, 0);
  return {
    pedidoId: p.id,
    cicloid: p.cicloid,
    usuarioid: p.usuarioid,
    usuario: { id: p.usuarioid, nome: p.usuarioNome },
    pontoEntrega: {
      id: p.pontoEntregaId,
      nome: p.pontoNome,
      dataRetirada: p.dataRetirada,
      horaInicio: p.horaInicio,
      horaFim: p.horaFim,
    },
    pontoEntregaId: p.pontoEntregaId,
    finalizado: p.finalizado,
    dataConfirmacao: p.dataConfirmacao,
    produtos,
    totalCentavos: total,
    taxaCentavos: t,
    totalComTaxaCentavos: total + t,
    partes,
  };
}

/** What an order buys in one market, with that market's part of the fee, as its totals. */
export function pedidoNoMercado(p: Pedido, mercadoId: number): Pedido {
  const produtos = p.produtos.filter((l) => l.mercadoId === mercadoId);
  const partes = p.partes.filter((x) => x.mercadoId === mercadoId);
  const total = partes.reduce((s, x) => s + x.subtotalCentavos, 0);
  const taxa = partes.reduce((s, x) => s + x.taxaCentavos, 0);
  return { ...p, produtos, partes, totalCentavos: total, taxaCentavos: taxa, totalComTaxaCentavos: total + taxa };
}

/**
 * A market's orders (GraphQL pedidosDoMercado, the market's spreadsheet): those with at least one
 * line bought in it, each reduced to what it buys there.
 */
export function pedidosNoMercado(pedidos: readonly Pedido[], mercadoId: number): Pedido[] {
  return pedidos
    .filter((x) => x.produtos.some((l) => l.mercadoId === mercadoId))
    .map((x) => pedidoNoMercado(x, mercadoId));
}

/** What saving or confirming an order tells its consumer (one of the kinds in avisos.ts). */
export type EventoDoPedido =
  { readonly tipo: 'recibo'; readonly pedido: Pedido } | { readonly tipo: 'pedido_alterado'; readonly pedido: Pedido };

/**
 * Where an order's events go, in the order's own transaction. NOTE: declared here, by the side
 * that emits, so that orders need not know every kind of message; the outbox (`Avisos`, which
 * takes every `Evento`) fits it.
 */
export interface AvisosDoPedido {
  emitir(trx: Db, evento: EventoDoPedido): Promise<void>;
}

export interface OpcoesPedido {
  readonly agora: Date;
  readonly hoje: string;
  readonly taxa: Taxa;
  /** Where the receipt and the "confirm again" notice go, in the order's own transaction. */
  readonly avisos?: AvisosDoPedido;
  /** The community's time zone (TZ), for the time of a confirmation (finalizarPedido needs it). */
  readonly tz?: string;
}
