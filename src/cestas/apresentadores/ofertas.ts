/**
 * The JSON of an offer, from the domain's integer units to the contract's decimal numbers: the
 * record's own fields under `oferta`, its lines in `produtos[]` beside them, for every route that
 * answers one (save, page, removal). The list and the products to offer take the same units.
 */
import type { LinhaDaOferta, Oferta, OfertaDaLista, ProdutoParaOfertar } from '../../domain/ofertas.ts';
import { comValorReferencia, dinheiroJson, quantidadeJson } from './numeros.ts';

export function linhaDaOfertaJson(l: LinhaDaOferta) {
  const { quantidadeMilesimos, valorCentavos, alocadoMilesimos, ...resto } = l;
  return {
    ...resto,
    quantidade: quantidadeJson(quantidadeMilesimos),
    valor: dinheiroJson(valorCentavos),
    alocado: quantidadeJson(alocadoMilesimos),
  };
}

export function ofertaJson(o: Oferta) {
  const { produtos, totalCentavos, ...oferta } = o;
  return { oferta: { ...oferta, total: dinheiroJson(totalCentavos) }, produtos: produtos.map(linhaDaOfertaJson) };
}

export const produtoParaOfertarJson = (p: ProdutoParaOfertar) => comValorReferencia(p);

/** A line of `/oferta-index`: the contract's `cicloid` and `usuarioid` beside the nested objects pages use. */
export function ofertaDaListaJson(o: OfertaDaLista) {
  const { totalCentavos, ...resto } = o;
  return { ...resto, cicloid: o.ciclo.id, usuarioid: o.fornecedor.id, total: dinheiroJson(totalCentavos) };
}
