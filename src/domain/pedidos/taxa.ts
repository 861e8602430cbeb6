/**
 * The money of an order: the community's administrative fee (Taxa) and how an order's lines split
 * into one part per market, each with its fee (DOMAIN.md, "Fees").
 */

/** The community's administrative fee on an order: a percentage plus a fixed amount (TAXA_*). */
export interface Taxa {
  readonly percentualCentesimos: number;
  readonly fixaCentavos: number;
}

/** The fee of an order total, rounded half-up to the cent; no order, no fee. */
export function taxaDoPedido(totalCentavos: number, taxa: Taxa): number {
  if (totalCentavos <= 0) return 0;
  return Math.floor((totalCentavos * taxa.percentualCentesimos + 5000) / 10000) + taxa.fixaCentavos;
}

/** A line's value, the market it was bought in (null: none) and that market's fee when it was written. */
export interface ValorNoMercado {
  readonly subtotalCentavos: number;
  readonly mercadoId: number | null;
  readonly taxaCentesimos: number | null;
}

/** What an order buys in one market (mercadoId null: outside any market) and the fee on it. */
export interface ParteDoPedido {
  readonly mercadoId: number | null;
  readonly subtotalCentavos: number;
  readonly taxaCentavos: number;
  /** The market's fee, in hundredths of a percent; null outside markets (the TAXA_* settings). */
  readonly taxaCentesimos: number | null;
}

/**
 * The fee of an order (DOMAIN.md, "Fees"): each market's `taxaAdministrativa` on what is bought in
 * it, rounded half-up per market; the TAXA_* settings on what is bought outside any market, as
 * in a cycle without markets. Parts come in the order their first line does.
 */
export function partesDoPedido(linhas: readonly ValorNoMercado[], taxa: Taxa): ParteDoPedido[] {
  const por = new Map<number | null, { subtotal: number; centesimos: number }>();
  for (const l of linhas) {
    const atual = por.get(l.mercadoId) ?? { subtotal: 0, centesimos: l.taxaCentesimos ?? 0 };
    atual.subtotal += l.subtotalCentavos;
    por.set(l.mercadoId, atual);
  }
  return [...por].map(([mercadoId, p]) => ({
    mercadoId,
    subtotalCentavos: p.subtotal,
    taxaCentesimos: mercadoId === null ? null : p.centesimos,
    taxaCentavos:
      mercadoId === null
        ? taxaDoPedido(p.subtotal, taxa)
        : taxaDoPedido(p.subtotal, { percentualCentesimos: p.centesimos, fixaCentavos: 0 }),
  }));
}
