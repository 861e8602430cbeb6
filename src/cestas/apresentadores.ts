/**
 * The JSON shape of an offer and of an order, one for every route that answers one (save, page,
 * list, confirmation), as the contract writes them: the record's own fields under `oferta` or
 * `pedido`, and its lines in `produtos[]` beside them. An order also carries `pedidoId` at the
 * top, the field the contract says a save answers with.
 */
import type { Oferta } from '../domain/ofertas.ts';
import type { Pedido } from '../domain/pedidos.ts';

export function ofertaJson(o: Oferta) {
  const { produtos, ...oferta } = o;
  return { oferta, produtos };
}

export function pedidoJson(p: Pedido) {
  const { produtos, pedidoId, ...resto } = p;
  return { pedidoId, pedido: { id: pedidoId, ...resto }, produtos };
}

/** An order page before the person has ordered: the same keys, empty. */
export function semPedidoJson() {
  return { pedidoId: null, pedido: null, produtos: [] };
}
