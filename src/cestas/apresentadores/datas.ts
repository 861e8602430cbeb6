/**
 * Dates and times as people read them (pages, PDF, e-mails): dd/mm/aaaa and HH:mm, in the
 * community's time zone. The JSON keeps the contract's ISO text.
 */
import { dataHoraLocal } from '../../domain/tempo.ts';

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
