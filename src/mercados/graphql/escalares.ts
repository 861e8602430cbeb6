import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { formatarDecimal, lerDecimal } from '../../decimal.ts';

/** Every Decimal of this API (money, the fee percentage) has two places. */
const CASAS = 2;

/**
 * Thrown by the scalars when a value cannot be read. Input checks (entrada.ts) show its message,
 * already in Portuguese, next to the field's path.
 */
export class ErroDeEscalar extends Error {
  override name = 'ErroDeEscalar';
}

/** What resolvers hand the Decimal scalar: an exact count of hundredths (cents, or 0.01 %). */
export interface Centesimos {
  readonly centesimos: number;
}

export function emCentesimos(valor: number): Centesimos;
export function emCentesimos(valor: number | null): Centesimos | null;
export function emCentesimos(valor: number | null): Centesimos | null {
  return valor === null ? null : { centesimos: valor };
}

/**
 * NOTE: any integer goes out, not only safe ones: input is bounded so that totals stay exact
 * (src/decimal.ts), but a row written before those limits must still be readable, never a 500.
 */
function ehCentesimos(v: unknown): v is Centesimos {
  return typeof v === 'object' && v !== null && Number.isInteger((v as Centesimos).centesimos);
}

/**
 * Reads a JSON number or dot-decimal text exactly (never through float arithmetic) and returns
 * it as canonical text with two places: "12.5" → "12.50", 3 → "3.00". Negative values are read
 * too; each field's range is the domain's rule.
 */
function lerDecimalDeEntrada(valor: unknown): string {
  if (typeof valor !== 'number' && typeof valor !== 'string') {
    throw new ErroDeEscalar('Deve ser um número ou um texto com ponto decimal (ex.: 12.50)');
  }
  const texto = typeof valor === 'number' ? String(valor) : valor.trim();
  const negativo = texto.startsWith('-');
  const corpo = negativo ? texto.slice(1) : texto;
  if (corpo.startsWith('-')) throw new ErroDeEscalar('Deve ser um número com ponto decimal (ex.: 12.50)');
  const r = lerDecimal(corpo, CASAS);
  if (!r.ok) throw new ErroDeEscalar(r.motivo.charAt(0).toUpperCase() + r.motivo.slice(1));
  return formatarDecimal(negativo ? -r.valor : r.valor, CASAS);
}

function literal(no: ValueNode): unknown {
  if (no.kind === Kind.INT || no.kind === Kind.FLOAT || no.kind === Kind.STRING) return no.value;
  return undefined;
}

export const Decimal = new GraphQLScalarType<string, string>({
  name: 'Decimal',
  description: 'Decimal exato com ponto, até 2 casas; responde texto com 2 casas.',
  serialize(valor) {
    // NOTE: only exact hundredths go out; a bare float here would be a bug, not a value.
    if (!ehCentesimos(valor)) throw new TypeError(`Decimal espera centésimos exatos, recebeu ${typeof valor}`);
    return formatarDecimal(valor.centesimos, CASAS);
  },
  parseValue: lerDecimalDeEntrada,
  parseLiteral(no) {
    const v = literal(no);
    if (v === undefined) throw new ErroDeEscalar('Deve ser um número ou um texto com ponto decimal (ex.: 12.50)');
    return lerDecimalDeEntrada(v);
  },
});

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function lerInstante(valor: unknown): Date {
  const d = typeof valor === 'string' && ISO_8601.test(valor) ? new Date(valor) : null;
  if (d === null || Number.isNaN(d.getTime())) {
    throw new ErroDeEscalar('Deve ser um instante ISO 8601 com fuso (ex.: 2026-11-21T18:00:00Z)');
  }
  return d;
}

export const DateTime = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'Instante ISO 8601 em UTC.',
  serialize(valor) {
    // The database keeps instants as ISO text already; normalise to UTC with milliseconds.
    const d = valor instanceof Date ? valor : typeof valor === 'string' ? new Date(valor) : null;
    if (d === null || Number.isNaN(d.getTime())) throw new TypeError('DateTime espera um instante');
    return d.toISOString();
  },
  parseValue: lerInstante,
  parseLiteral(no) {
    return lerInstante(no.kind === Kind.STRING ? no.value : undefined);
  },
});

/** Quantities have three places (thousandths of the product's unit). */
const CASAS_QUANTIDADE = 3;

/** What resolvers hand the Quantidade scalar: an exact count of thousandths. */
export interface Milesimos {
  readonly milesimos: number;
}

export function emMilesimos(valor: number): Milesimos {
  return { milesimos: valor };
}

/** Any integer, as for Decimal (see ehCentesimos). */
function ehMilesimos(v: unknown): v is Milesimos {
  return typeof v === 'object' && v !== null && Number.isInteger((v as Milesimos).milesimos);
}

/** Like Decimal's reading, with three places and never negative: "1.5" → "1.500". */
function lerQuantidadeDeEntrada(valor: unknown): string {
  if (typeof valor !== 'number' && typeof valor !== 'string') {
    throw new ErroDeEscalar('Deve ser um número ou um texto com ponto decimal (ex.: 1.5)');
  }
  const texto = typeof valor === 'number' ? String(valor) : valor.trim();
  if (texto.startsWith('-')) throw new ErroDeEscalar('Não pode ser negativa');
  const r = lerDecimal(texto, CASAS_QUANTIDADE);
  if (!r.ok) throw new ErroDeEscalar(r.motivo.charAt(0).toUpperCase() + r.motivo.slice(1));
  return formatarDecimal(r.valor, CASAS_QUANTIDADE);
}

export const Quantidade = new GraphQLScalarType<string, string>({
  name: 'Quantidade',
  description: 'Quantidade exata com ponto, até 3 casas; responde texto com 3 casas.',
  serialize(valor) {
    if (!ehMilesimos(valor)) throw new TypeError(`Quantidade espera milésimos exatos, recebeu ${typeof valor}`);
    return formatarDecimal(valor.milesimos, CASAS_QUANTIDADE);
  },
  parseValue: lerQuantidadeDeEntrada,
  parseLiteral(no) {
    const v = literal(no);
    if (v === undefined) throw new ErroDeEscalar('Deve ser um número ou um texto com ponto decimal (ex.: 1.5)');
    return lerQuantidadeDeEntrada(v);
  },
});
