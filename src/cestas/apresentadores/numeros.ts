/**
 * Numbers from the domain's integer units as the contract's JSON numbers (1250 centavos → 12.5,
 * 1500 milésimos → 1.5). The texts people read are src/formatos.ts.
 */
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, paraNumero } from '../../decimal.ts';

export const dinheiroJson = (centavos: number): number => paraNumero(centavos, ESCALA_DINHEIRO);
export const quantidadeJson = (milesimos: number): number => paraNumero(milesimos, ESCALA_QUANTIDADE);

/** A catalogue price (a basket's or a product's reference value) as the contract names it. */
export function comValorReferencia<T extends { readonly valorReferenciaCentavos: number }>(
  x: T,
): Omit<T, 'valorReferenciaCentavos'> & { valorReferencia: number } {
  const { valorReferenciaCentavos, ...resto } = x;
  return { ...resto, valorReferencia: dinheiroJson(valorReferenciaCentavos) };
}
