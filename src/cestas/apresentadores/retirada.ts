/** The pickup day's reads as their JSON says them: integer units to the contract's numbers. */
import type { PedidoDoQr } from '../../domain/retirada/recibo.ts';
import type { ResumoDaRetirada } from '../../domain/retirada/resumo.ts';
import { dinheiroJson, quantidadeJson } from './numeros.ts';

export function pedidoDoQrJson(p: PedidoDoQr) {
  return {
    ...p,
    itens: p.itens.map(({ quantidadeMilesimos, conteudo, ...resto }) => ({
      ...resto,
      quantidade: quantidadeJson(quantidadeMilesimos),
      conteudo: conteudo.map(({ quantidadeMilesimos: q, ...x }) => ({ ...x, quantidade: quantidadeJson(q) })),
    })),
  };
}

export function resumoDaRetiradaJson(r: ResumoDaRetirada, geradoEm: string) {
  return {
    ...r,
    geradoEm,
    pontos: r.pontos.map((p) => ({
      ...p,
      faltas: p.faltas.map(({ quantidadeMilesimos, creditoCentavos, ...resto }) => ({
        ...resto,
        quantidade: quantidadeJson(quantidadeMilesimos),
        credito: dinheiroJson(creditoCentavos),
      })),
      creditoDasFaltas: dinheiroJson(p.creditoDasFaltasCentavos),
      pagamentos: p.pagamentos.map(({ valorCentavos, ...resto }) => ({ ...resto, valor: dinheiroJson(valorCentavos) })),
      totais: {
        dinheiro: { quantos: p.totais.dinheiro.quantos, valor: dinheiroJson(p.totais.dinheiro.centavos) },
        pix: { quantos: p.totais.pix.quantos, valor: dinheiroJson(p.totais.pix.centavos) },
        total: dinheiroJson(p.totais.totalCentavos),
      },
    })),
  };
}
