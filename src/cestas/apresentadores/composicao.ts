/** The JSON of the composition page and of a composition save, in the contract's decimal numbers. */
import type { PaginaComposicao } from '../../domain/composicao.ts';
import { dinheiroJson, quantidadeJson } from './numeros.ts';

export function composicaoJson(p: PaginaComposicao) {
  return {
    cicloCesta: p.cicloCesta,
    // The contract's Composicao names its cycle basket: `composicao` reads as the body a save takes.
    composicao: {
      cicloCestaId: p.cicloCesta.id,
      quantidadeCestas: p.composicao.quantidadeCestas,
      produtos: p.composicao.produtos.map(
        ({ quantidadePorCestaMilesimos, quantidadeNaUnidadeEscolhida, valorCentavos, custoCentavos, ...resto }) => ({
          ...resto,
          quantidadePorCesta: quantidadeJson(quantidadePorCestaMilesimos),
          quantidadeNaUnidadeEscolhida: quantidadeJson(quantidadeNaUnidadeEscolhida),
          valor: dinheiroJson(valorCentavos),
          custo: dinheiroJson(custoCentavos),
        }),
      ),
    },
    ofertas: p.ofertas.map(({ valorCentavos, ofertadaMilesimos, alocadaMilesimos, disponivelMilesimos, ...resto }) => ({
      ...resto,
      valor: dinheiroJson(valorCentavos),
      quantidadeOfertada: quantidadeJson(ofertadaMilesimos),
      quantidadeAlocada: quantidadeJson(alocadaMilesimos),
      quantidadeDisponivel: quantidadeJson(disponivelMilesimos),
    })),
    extras: p.extras.map(({ quantidadeMilesimos, ...resto }) => ({
      ...resto,
      quantidade: quantidadeJson(quantidadeMilesimos),
    })),
    fornecedores: p.fornecedores.map(({ valorAcumuladoCentavos, ...resto }) => ({
      ...resto,
      valorAcumulado: dinheiroJson(valorAcumuladoCentavos),
    })),
    custoPorCesta: dinheiroJson(p.custoPorCestaCentavos),
    valorReferencia: dinheiroJson(p.valorReferenciaCentavos),
  };
}
