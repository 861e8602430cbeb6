/** The community's calendar: dates are YYYY-MM-DD days in the configured time zone. */
export interface Relogio {
  agora(): Date;
}

export const relogioDoSistema: Relogio = { agora: () => new Date() };

const formatadores = new Map<string, Intl.DateTimeFormat>();

function formatador(tz: string): Intl.DateTimeFormat {
  let f = formatadores.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatadores.set(tz, f);
  }
  return f;
}

function partes(instante: Date, tz: string): Record<string, string> {
  const p: Record<string, string> = {};
  for (const { type, value } of formatador(tz).formatToParts(instante)) p[type] = value;
  return p;
}

const ultimoDia = new Map<string, { minuto: number; dia: string }>();

/**
 * The calendar day of an instant in the community's zone. NOTE: every request asks for today, and
 * formatToParts shows in the profile; zone offsets are whole minutes, so the day can only change
 * at a minute boundary and the last answer is kept for its minute.
 */
export function diaLocal(instante: Date, tz: string): string {
  const minuto = Math.floor(instante.getTime() / 60_000);
  const guardado = ultimoDia.get(tz);
  if (guardado?.minuto === minuto) return guardado.dia;
  const p = partes(instante, tz);
  const dia = `${p.year}-${p.month}-${p.day}`;
  ultimoDia.set(tz, { minuto, dia });
  return dia;
}

/** Local wall-clock time without a zone, as dataConfirmacao is written: 2026-11-21T10:15:00. */
export function dataHoraLocal(instante: Date, tz: string): string {
  const p = partes(instante, tz);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** Adds whole days to a YYYY-MM-DD date. */
export function somarDias(dia: string, dias: number): string {
  const d = new Date(`${dia}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + dias);
  return d.toISOString().slice(0, 10);
}

const DIAS_DA_SEMANA = [
  'domingo',
  'segunda-feira',
  'terça-feira',
  'quarta-feira',
  'quinta-feira',
  'sexta-feira',
  'sábado',
] as const;

/**
 * When to pick up, as people read it: "sábado, 28/11/2026, das 08:00 às 12:00" (any part may be
 * missing; nothing set gives ''). Pages, the PDF and messages all say it the same way.
 */
export function horarioDeRetiradaTexto(h: {
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
}): string {
  const partes: string[] = [];
  if (h.dataRetirada !== null) {
    const [a = '', m = '', d = ''] = h.dataRetirada.split('-');
    const dia = DIAS_DA_SEMANA[new Date(`${h.dataRetirada}T12:00:00Z`).getUTCDay()] ?? '';
    partes.push(`${dia}, ${d}/${m}/${a}`);
  }
  if (h.horaInicio !== null && h.horaFim !== null) partes.push(`das ${h.horaInicio} às ${h.horaFim}`);
  else if (h.horaInicio !== null) partes.push(`a partir das ${h.horaInicio}`);
  else if (h.horaFim !== null) partes.push(`até as ${h.horaFim}`);
  return partes.join(', ');
}

/** A day suppliers deliver on, with the coordination's note ("entregar na Sede até 17h"). */
export interface DiaDeEntrega {
  readonly dataEntrega: string;
  readonly observacao: string | null;
}

/**
 * When and where suppliers deliver, as people read it: "sexta-feira, 04/12/2026: entregar na Sede
 * até 17h; sábado, 05/12/2026" ('' when the coordination set no day). Pages, PDFs and messages
 * all say it the same way.
 */
export function diasDeEntregaTexto(dias: readonly DiaDeEntrega[]): string {
  return dias
    .map((d) => {
      const dia = horarioDeRetiradaTexto({ dataRetirada: d.dataEntrega, horaInicio: null, horaFim: null });
      const nota = d.observacao?.trim() ?? '';
      return nota === '' ? dia : `${dia}: ${nota}`;
    })
    .join('; ');
}
