/**
 * Texts people read, the same on every page of both faces, in PDFs, the CSV and e-mails: money
 * ("R$ 1.234,56"), quantities with their unit ("1,5 kg", "2 maços"), pt-BR decimals for form
 * fields and spreadsheets ("12,50"), dates and times as dd/mm/aaaa and HH:mm in the community's
 * time zone, and a Pix charge line by line. The JSON keeps the contract's numbers and ISO texts.
 *
 * Below the faces and src/mensagens; the integer arithmetic behind the numbers is src/decimal.ts,
 * which the domain also uses for the figures in its error messages.
 */
import {
  ESCALA_DINHEIRO,
  ESCALA_QUANTIDADE,
  formatarQuantidade,
  formatarQuantidadeComUnidade,
  formatarReais,
  palavraDaUnidade,
  paraNumero,
  unidadeNoPlural,
} from './decimal.ts';
import type { Cobranca, LinhaDaCobranca } from './domain/pix.ts';
import { dataHoraLocal } from './domain/tempo.ts';

// -------------------------------------------------------------------------------------------
// Numbers.

/** Money, from centavos: 123456 → "R$ 1.234,56"; negative with "−". */
export const reais = formatarReais;

/** A quantity with its unit, from milésimos: 1500, "kg" → "1,5 kg"; 2000, "maço" → "2 maços". */
export const quantidade = formatarQuantidadeComUnidade;

/** The unit's word that agrees with a quantity: 1500, "dúzia" → "dúzia"; 2000 → "dúzias"; and its plural. */
export const unidadeDaQuantidade = palavraDaUnidade;
export const pluralDaUnidade = unidadeNoPlural;

/** A quantity without its unit, from milésimos: 1500 → "1,5", 12000000 → "12.000". */
export const numeroDeQuantidade = formatarQuantidade;

const DECIMAL_BR = {
  dinheiro: {
    escala: ESCALA_DINHEIRO,
    formato: new Intl.NumberFormat('pt-BR', { useGrouping: false, minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  },
  quantidade: {
    escala: ESCALA_QUANTIDADE,
    formato: new Intl.NumberFormat('pt-BR', { useGrouping: false, maximumFractionDigits: 3 }),
  },
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

// -------------------------------------------------------------------------------------------
// Dates and times.

/** "2026-03-12" (or the date part of a longer ISO text) → "12/03/2026". */
export function dataBr(iso: string): string {
  const [a = '', m = '', d = ''] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${a}`;
}

/** Local wall-clock time, as `dataConfirmacao` is kept ("2026-11-23T13:50:09") → "23/11/2026 às 13:50". */
export function dataHoraBr(local: string): string {
  return `${dataBr(local)} às ${local.slice(11, 16)}`;
}

/** An instant (ISO with zone, as the audit log keeps it) in the community's time zone. */
export function instanteBr(iso: string, tz: string): string {
  const instante = new Date(iso);
  return Number.isNaN(instante.getTime()) ? iso : dataHoraBr(dataHoraLocal(instante, tz));
}

// -------------------------------------------------------------------------------------------
// A Pix charge.

/** What a line of a charge is, said so the person sees why the amount carries over. */
export function descricaoDaLinha(l: LinhaDaCobranca): string {
  if (l.tipo === 'saldo') {
    return l.valorCentavos > 0
      ? 'Saldo devedor que vem das movimentações anteriores (ciclos fechados, pagamentos e ajustes)'
      : 'Crédito seu com a comunidade, descontado (movimentações anteriores)';
  }
  if (l.reaberto)
    return `Diferença do pedido no ${l.cicloNome ?? 'ciclo'} (ciclo reaberto: só o que mudou desde o fechamento)`;
  return `Pedido confirmado no ${l.cicloNome ?? 'ciclo'} (com a taxa; entra nas movimentações quando o ciclo fecha)`;
}

/** The lines as text pairs, for the page and the e-mail: description and signed amount. */
export function linhasEmTexto(c: Cobranca): Array<readonly [string, string]> {
  return c.linhas.map(
    (l) => [descricaoDaLinha(l), `${l.valorCentavos < 0 ? '− ' : ''}${reais(Math.abs(l.valorCentavos))}`] as const,
  );
}
