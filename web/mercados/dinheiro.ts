/**
 * Money and percentages as the API carries them: decimal text with a dot and two places
 * ("12.50"). People type money as they do in the Cestas face, read by the same reader
 * (src/decimal.ts, lerDecimalDigitado): "24", "5,50", "R$ 24,00", "1.234,56". Values are kept in
 * integer cents, never as floats.
 */
import { ESCALA_DINHEIRO, lerDecimalDigitado } from '../../src/decimal.ts';

/** "12,5", "R$ 12,50", "1.234,56" or "12.50" → cents; null when it is not a non-negative amount with up to 2 places. */
export function paraCentavos(texto: string): number | null {
  const r = lerDecimalDigitado(texto, ESCALA_DINHEIRO);
  return r.ok ? r.valor : null;
}

/** Why typed money cannot be read, in a sentence for the field; null when it can. */
export function erroDoValor(texto: string): string | null {
  const r = lerDecimalDigitado(texto, ESCALA_DINHEIRO);
  if (r.ok) return null;
  if (r.motivo === 'não pode ser negativo') return 'O valor não pode ser negativo';
  if (r.motivo === 'valor grande demais') return 'O valor é grande demais';
  if (r.motivo.startsWith('aceita no máximo'))
    return 'Use no máximo 2 casas depois da vírgula (os centavos), como 4,30';
  return 'Escreva o valor como 24, 5,50, R$ 24,00 ou 1.234,56';
}

/** 1250 → "12.50", the API's format. */
export function deCentavos(centavos: number): string {
  return `${Math.trunc(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
}

/** "1200.50" → "1.200,50", as people read it: thousands with dots, the decimal comma. */
export function decimalLegivel(valor: string): string {
  const negativo = valor.startsWith('-');
  const [inteira = '', fracao] = (negativo ? valor.slice(1) : valor).split('.');
  const milhares = inteira.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negativo ? '-' : ''}${milhares}${fracao === undefined ? '' : `,${fracao}`}`;
}

/** "12.50" → "R$ 12,50"; null → "—". */
export function reais(valor: string | null): string {
  return valor === null ? '—' : `R$ ${decimalLegivel(valor)}`;
}

/** 11490 cents → "R$ 114,90". */
export function reaisDeCentavos(centavos: number): string {
  return reais(deCentavos(centavos));
}

/** Adjusts by a percentage (may be negative or fractional), rounded to the cent, never below zero. */
export function ajustarPercentual(centavos: number, percentual: number): number {
  return Math.max(0, Math.round((centavos * (100 + percentual)) / 100));
}

/** "-5,5" or "10" → the number; null when it is not a percentage. */
export function paraPercentual(texto: string): number | null {
  const t = texto.trim().replace(',', '.');
  if (!/^[-+]?\d{1,3}(?:\.\d{1,2})?$/.test(t)) return null;
  return Number(t);
}
