/** The JSON of balances, movements and a cycle's closing, in the contract's decimal numbers. */
import type { Fechamento, Movimentacao, PreviaDoFechamento, Saldo, SaldoDePessoa } from '../../domain/financeiro.ts';
import { dinheiroJson } from './numeros.ts';

export function saldoJson(s: Saldo) {
  return { saldo: dinheiroJson(s.saldoCentavos), movimentacoes: s.movimentacoes };
}

export function saldoDePessoaJson(s: SaldoDePessoa) {
  return { usuarioid: s.usuarioid, nome: s.nome, saldo: dinheiroJson(s.saldoCentavos) };
}

export function movimentacaoJson(m: Movimentacao) {
  const { valorCentavos, ...resto } = m;
  return { ...resto, valor: dinheiroJson(valorCentavos) };
}

export function fechamentoJson(f: Fechamento) {
  const { debitosCentavos, creditosCentavos, naoConfirmados, ...resto } = f;
  return {
    ...resto,
    debitos: dinheiroJson(debitosCentavos),
    creditos: dinheiroJson(creditosCentavos),
    naoConfirmados: naoConfirmados.map(({ totalComTaxaCentavos, ...n }) => ({
      ...n,
      totalComTaxa: dinheiroJson(totalComTaxaCentavos),
    })),
  };
}

export function previaDoFechamentoJson(p: PreviaDoFechamento) {
  const { debitosCentavos, creditosCentavos, naoConfirmados, ...resto } = p;
  return {
    ...resto,
    debitos: dinheiroJson(debitosCentavos),
    creditos: dinheiroJson(creditosCentavos),
    naoConfirmados: naoConfirmados.map(({ totalComTaxaCentavos, ...n }) => ({
      ...n,
      totalComTaxa: dinheiroJson(totalComTaxaCentavos),
    })),
  };
}
