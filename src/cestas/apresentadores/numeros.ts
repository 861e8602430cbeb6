/**
 * Numbers from the domain's integer units: the contract's JSON numbers (1250 centavos → 12.5,
 * 1500 milésimos → 1.5) and the pt-BR decimals of form fields and the CSV ("12,50", "1,5").
 */
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, paraNumero } from '../../decimal.ts';

export const dinheiroJson = (centavos: number): number => paraNumero(centavos, ESCALA_DINHEIRO);
export const quantidadeJson = (milesimos: number): number => paraNumero(milesimos, ESCALA_QUANTIDADE);

/** A catalogue price (a basket's or a product's reference value) as the contract names it. */
export function comValorReferencia<T extends { readonly valorReferenciaCentavos: number }>(x: T): Omit<T, 'valorReferenciaCentavos'> & { valorReferencia: number } {
  const { valorReferenciaCentavos, ...resto } = x;
  return { ...resto, valorReferencia: dinheiroJson(valorReferenciaCentavos) };
}

const DECIMAL_BR = {
  dinheiro: { escala: ESCALA_DINHEIRO, formato: new Intl.NumberFormat('pt-BR', { useGrouping: false, minimumFractionDigits: 2, maximumFractionDigits: 2 }) },
  quantidade: { escala: ESCALA_QUANTIDADE, formato: new Intl.NumberFormat('pt-BR', { useGrouping: false, maximumFractionDigits: 3 }) },
} as const;

/**
 * A decimal with a comma and no thousands dots, from its integer units: money with its two places
 * (350 centavos → "3,50"), a quantity with the places it has (12500 milésimos → "12,5"). What a
 * form field shows and reads back, and what a spreadsheet in pt-BR reads as a number (the CSV).
 */
export function decimalBr(escalado: number, tipo: keyof typeof DECIMAL_BR): string {
  const { escala, formato } = DECIMAL_BR[tipo];
  return formato.format(paraNumero(escalado, escala));
}
