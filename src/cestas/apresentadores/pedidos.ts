/**
 * The JSON of an order and of what a cycle offers for ordering, from the domain's integer units
 * (centavos, milésimos) to the contract's decimal numbers. One shape for every route that answers
 * one (save, page, list, confirmation), as the contract writes it: the record's own fields under
 * `pedido`, its lines in `produtos[]` beside them, and `pedidoId` at the top, the field the
 * contract says a save answers with.
 */
import type { CestaParaPedir, ExtraParaPedir } from '../../domain/pedidos/disponibilidade.ts';
import type { LinhaDoPedido, Pedido } from '../../domain/pedidos/modelo.ts';
import { dinheiroJson, quantidadeJson } from './numeros.ts';

export function linhaDoPedidoJson(l: LinhaDoPedido) {
  // The subscription mark stays out of the contract's line until the API shows it on purpose.
  const {
    quantidadeMilesimos,
    valorCentavos,
    subtotalCentavos,
    taxaCentesimos: _,
    assinaturaId: _assinatura,
    ...resto
  } = l;
  return {
    ...resto,
    quantidade: quantidadeJson(quantidadeMilesimos),
    valor: dinheiroJson(valorCentavos),
    subtotal: dinheiroJson(subtotalCentavos),
  };
}

export function pedidoJson(p: Pedido) {
  const { produtos, pedidoId, totalCentavos, taxaCentavos, totalComTaxaCentavos, partes, ...resto } = p;
  return {
    pedidoId,
    pedido: {
      id: pedidoId,
      ...resto,
      total: dinheiroJson(totalCentavos),
      taxa: dinheiroJson(taxaCentavos),
      totalComTaxa: dinheiroJson(totalComTaxaCentavos),
      partes: partes.map((x) => ({
        mercadoId: x.mercadoId,
        mercado: x.mercado,
        subtotal: dinheiroJson(x.subtotalCentavos),
        taxa: dinheiroJson(x.taxaCentavos),
      })),
    },
    produtos: produtos.map(linhaDoPedidoJson),
  };
}

/** An order page before the person has ordered: the same keys, empty. */
export function semPedidoJson() {
  return { pedidoId: null, pedido: null, produtos: [] };
}

export function cestaParaPedirJson(c: CestaParaPedir) {
  const { valorCentavos, composicao, ...resto } = c;
  return {
    ...resto,
    valor: dinheiroJson(valorCentavos),
    composicao: composicao.map(({ quantidadeMilesimos, ...i }) => ({
      ...i,
      quantidade: quantidadeJson(quantidadeMilesimos),
    })),
  };
}

export function extraParaPedirJson(e: ExtraParaPedir) {
  const { valorCentavos, disponivelMilesimos, ...resto } = e;
  return { ...resto, valor: dinheiroJson(valorCentavos), disponivel: quantidadeJson(disponivelMilesimos) };
}
