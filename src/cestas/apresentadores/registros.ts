/** The JSON of the records whose domain values are integer units: the contract's decimal numbers. */
import type { Cesta, Produto } from '../../domain/catalogo.ts';
import type { Ciclo } from '../../domain/ciclos/modelo.ts';
import { comValorReferencia, dinheiroJson, quantidadeJson } from './numeros.ts';

export const cestaJson = (c: Cesta) => comValorReferencia(c);

export const produtoJson = (p: Produto) => comValorReferencia(p);

export function cicloJson(c: Ciclo) {
  return {
    ...c,
    cicloProdutos: c.cicloProdutos.map(({ quantidadeMilesimos, valorCentavos, ...resto }) => ({
      ...resto,
      quantidade: quantidadeJson(quantidadeMilesimos),
      valor: dinheiroJson(valorCentavos),
    })),
    sobras: c.sobras.map(({ sobraMilesimos, ...resto }) => ({ ...resto, sobra: quantidadeJson(sobraMilesimos) })),
  };
}
