/**
 * Money and percentages as the API carries them: decimal text with a dot and two places
 * ("12.50"). People may type a comma; values are kept in integer cents, never as floats.
 */

/** "12,5" or "12.50" → 1250; null when it is not a non-negative amount with up to 2 places. */
export function paraCentavos(texto: string): number | null {
  const t = texto.trim().replace(',', '.');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(t);
  if (m === null) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** 1250 → "12.50", the API's format. */
export function deCentavos(centavos: number): string {
  return `${Math.trunc(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
}

/** "12.50" → "12,50", as people read it. */
export function decimalLegivel(valor: string): string {
  return valor.replace('.', ',');
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
