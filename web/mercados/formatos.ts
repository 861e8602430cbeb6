/**
 * Dates and quantities as the API carries them and as people read them, shared by every page of
 * the cycle workflow. Quantities travel as dot-decimal text with 3 places ("1.500"); people type
 * and read commas ("1,5"). They are kept in integer thousandths, never as floats.
 */
import { formatarQuantidadeComUnidade } from '../../src/decimal.ts';

/** The word that agrees with a quantity in thousandths: (1000, 'resta', 'restam') → "resta". */
export { concordancia } from '../../src/decimal.ts';

/** "2026-11-27" (the API's AAAA-MM-DD) → "27/11/2026"; anything else as it came. */
export function dataBr(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m === null ? iso : `${m[3] ?? ''}/${m[2] ?? ''}/${m[1] ?? ''}`;
}

/** "2026-11-27T14:05:09" (local time) → "27/11/2026 14:05". */
export function dataHoraBr(iso: string): string {
  const hora = /T(\d{2}:\d{2})/.exec(iso)?.[1];
  return hora === undefined ? dataBr(iso) : `${dataBr(iso)} ${hora}`;
}

/**
 * An instant (ISO) → "27/11/2026 às 14:05", in the community's time zone (`fuso`, from
 * /auth/status), as the Cestas pages and e-mails show it: the same offer reads the same hour on a
 * phone set to another zone. Without a zone (no session yet), the device's.
 */
export function instanteLegivel(iso: string, fuso: string | undefined): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const dia = t.toLocaleDateString('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: fuso });
  const hora = t.toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit', timeZone: fuso });
  return `${dia} às ${hora}`;
}

/** "1,5" or "1.500" → 1500 thousandths; null when it is not a non-negative quantity with up to 3 places. */
export function paraMilesimos(texto: string): number | null {
  const m = /^(\d{1,9})(?:[.,](\d{1,3}))?$/.exec(texto.trim());
  if (m === null) return null;
  return Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
}

/** 1500 → "1.500", the API's format. */
export function deMilesimos(milesimos: number): string {
  return `${Math.trunc(milesimos / 1000)}.${String(milesimos % 1000).padStart(3, '0')}`;
}

/** "1.500" → "1,5"; "2.000" → "2": as people read and type it. */
export function quantidadeLegivel(valor: string): string {
  const [inteira = '0', fracao = ''] = valor.split('.');
  const casas = fracao.replace(/0+$/, '');
  return casas === '' ? inteira : `${inteira},${casas}`;
}

/**
 * "2.000" cesta → "2 cestas"; "1.500" kg → "1,5 kg"; "6.000" unidade → "6 unidades": the same
 * words as the Cestas face (src/decimal.ts formatarQuantidadeComUnidade, Intl.PluralRules).
 */
export function quantidadeComUnidade(quantidade: string, unidade: string): string {
  const negativa = quantidade.startsWith('-');
  const mil = paraMilesimos(negativa ? quantidade.slice(1) : quantidade);
  if (mil === null) return `${quantidadeLegivel(quantidade)} ${unidade}`;
  return formatarQuantidadeComUnidade(negativa ? -mil : mil, unidade);
}

/** A price of a quantity, rounded half-up to the cent (the server's rule, decimal.ts valorDaQuantidade). */
export function valorDaQuantidade(centavos: number, milesimos: number): number {
  return Math.floor((centavos * milesimos + 500) / 1000);
}
