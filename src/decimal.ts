/**
 * Exact decimals. Money is integer cents (scale 2) and quantities integer thousandths (scale 3);
 * input is parsed from its decimal text, never through binary floating point arithmetic.
 */
export const ESCALA_DINHEIRO = 2;
export const ESCALA_QUANTIDADE = 3;

/** Largest scaled value the parser reads at all: a billion units. Each field has a lower limit (below). */
const MAXIMO = 1_000_000_000;

/**
 * The limits of what a write takes (docs/dominio.md, "Limites de valores"). A unit price is at
 * most R$ 100.000,00 and a quantity at most 100.000 units, so one line's quantity (thousandths) ×
 * price (cents) is at most 10^15, below Number.MAX_SAFE_INTEGER (about 9 × 10^15): every line
 * total is an exact integer number of cents (at most R$ 10 bilhões), and sums of those stay exact.
 * Both fit the 32-bit integer columns on PostgreSQL. A recorded amount of money (a payment, an
 * adjustment, a season paid in advance, a lot's target) is at most R$ 10.000.000,00, which fits
 * the movement's 32-bit column too.
 */
export const MAXIMO_PRECO_CENTAVOS = 10_000_000;
export const MAXIMO_QUANTIDADE_MILESIMOS = 100_000_000;
export const MAXIMO_LANCAMENTO_CENTAVOS = 1_000_000_000;
/** The largest value a 32-bit integer column (PostgreSQL `integer`) holds: a movement's amount. */
export const MAXIMO_DA_COLUNA = 2_147_483_647;

export type ResultadoDecimal = { ok: true; valor: number } | { ok: false; motivo: string };

/** Parses a JSON number or a dot-decimal string into an integer at the given scale. */
export function lerDecimal(entrada: unknown, escala: number): ResultadoDecimal {
  let texto: string;
  if (typeof entrada === 'number') {
    if (!Number.isFinite(entrada)) return { ok: false, motivo: 'deve ser um número' };
    texto = String(entrada);
  } else if (typeof entrada === 'string') {
    texto = entrada.trim();
  } else {
    return { ok: false, motivo: 'deve ser um número' };
  }
  if (texto.startsWith('-')) return { ok: false, motivo: 'não pode ser negativo' };
  if (/^\d+,\d+$/.test(texto)) return { ok: false, motivo: 'use ponto como separador decimal (ex.: 12.50)' };
  const m = /^(\d+)(?:\.(\d+))?$/.exec(texto);
  if (m === null) return { ok: false, motivo: 'deve ser um número com ponto decimal (ex.: 12.50)' };
  const inteira = m[1] ?? '0';
  const fracao = m[2] ?? '';
  if (fracao.length > escala) return { ok: false, motivo: `aceita no máximo ${escala} casas decimais` };
  const valor = Number(inteira) * 10 ** escala + Number(fracao.padEnd(escala, '0') || '0');
  if (valor > MAXIMO * 10 ** escala) return { ok: false, motivo: 'valor grande demais' };
  return { ok: true, valor };
}

/** What a form field takes, said when what was typed cannot be read. */
const FORMAS_ACEITAS = 'digite um número, como 1,5 ou 1.234,56';

/**
 * A decimal typed by a person in a form, in the forms Brazilians type (DOMAIN.md): "1,5", "1.5",
 * "R$ 12,50", "1.234,56", with spaces anywhere. Dots in groups of three are thousands where that
 * is the only reading: always for money (cents have two places), and for a quantity when there is
 * more than one group or a decimal comma follows. "1.500" as a quantity could be one and a half or
 * fifteen hundred, so it is refused with both ways of writing it. JSON keeps `lerDecimal` (dots).
 */
export function lerDecimalDigitado(entrada: unknown, escala: number): ResultadoDecimal {
  if (typeof entrada !== 'string') return lerDecimal(entrada, escala);
  const texto = entrada.replace(/[\s\u00a0]+/g, '').replace(/^R\$/i, '');
  if (texto.startsWith('-')) return { ok: false, motivo: 'não pode ser negativo' };
  const virgula = /^(\d{1,3}(?:\.\d{3})+|\d+),(\d+)$/.exec(texto);
  if (virgula !== null) return lerDecimal(`${(virgula[1] ?? '').replaceAll('.', '')}.${virgula[2] ?? ''}`, escala);
  const milhares = /^[1-9]\d{0,2}(?:\.\d{3})+$/.test(texto);
  if (milhares && escala >= 3 && texto.split('.').length === 2) {
    const [inteira, grupo] = texto.split('.');
    return {
      ok: false,
      motivo: `é ambíguo: escreva ${inteira ?? ''},${grupo ?? ''} para o número com decimais, ou ${inteira ?? ''}${grupo ?? ''} para o milhar`,
    };
  }
  if (milhares) return lerDecimal(texto.replaceAll('.', ''), escala);
  if (/^\d+(?:\.\d+)?$/.test(texto)) return lerDecimal(texto, escala);
  return { ok: false, motivo: FORMAS_ACEITAS };
}

/**
 * An integer at the given scale as a JSON number. NOTE: IEEE-754 division is correctly rounded,
 * so 1230 / 100 is the double nearest to 12.30, the same value Number("12.30") gives, without
 * building a string (this runs for every cell of a large report).
 */
export function paraNumero(escalado: number, escala: number): number {
  return Math.round(escalado) / 10 ** escala;
}

/** An integer at the given scale as dot-decimal text with all its places: 1230 → "12.30". */
export function formatarDecimal(escalado: number, escala: number): string {
  const negativo = escalado < 0;
  const abs = Math.abs(Math.round(escalado));
  const base = 10 ** escala;
  // Past 2^53 (only rows older than the input limits), in BigInt: never "1e+21".
  const [inteira, resto] = Number.isSafeInteger(abs)
    ? [Math.floor(abs / base), abs % base]
    : [BigInt(abs) / BigInt(base), BigInt(abs) % BigInt(base)];
  const fracao = String(resto).padStart(escala, '0');
  return `${negativo ? '-' : ''}${inteira}${escala > 0 ? `.${fracao}` : ''}`;
}

/** Money for people: 1230 → "R$ 12,30". */
export function formatarReais(centavos: number): string {
  const [inteira = '0', fracao = '00'] = formatarDecimal(Math.abs(centavos), ESCALA_DINHEIRO).split('.');
  const milhares = inteira.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${centavos < 0 ? '−' : ''}R$ ${milhares},${fracao}`;
}

/** A quantity for people, in pt-BR, without trailing zeros: 1500 → "1,5", 12000000 → "12.000". */
export function formatarQuantidade(milesimos: number): string {
  const [inteira = '0', fracao = ''] = formatarDecimal(Math.abs(milesimos), ESCALA_QUANTIDADE).split('.');
  const decimais = fracao.replace(/0+$/, '');
  return `${milesimos < 0 ? '−' : ''}${inteira.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}${decimais === '' ? '' : `,${decimais}`}`;
}

/** The plural of each unit word; a symbol ("kg", "g") and an unknown word stay as written. */
const PLURAIS: Readonly<Record<string, string>> = {
  unidade: 'unidades',
  litro: 'litros',
  dúzia: 'dúzias',
  maço: 'maços',
  cesta: 'cestas',
};

const PLURAL_PT_BR = new Intl.PluralRules('pt-BR');

/**
 * Whether pt-BR reads a quantity in the singular, by Intl.PluralRules('pt-BR'): below two ("0
 * dúzia", "1 maço", "1,5 kg", "1,999 litro"); from two on, plural ("2 maços", "1.000 unidades").
 */
export function quantidadeNoSingular(milesimos: number): boolean {
  return PLURAL_PT_BR.select(Math.abs(milesimos) / 10 ** ESCALA_QUANTIDADE) === 'one';
}

/** The word that agrees with a quantity: (1000, 'falta', 'faltam') → "falta"; (5000, …) → "faltam". */
export function concordancia(milesimos: number, singular: string, plural: string): string {
  return quantidadeNoSingular(milesimos) ? singular : plural;
}

/** A unit's word for two or more: 'maço' → "maços"; 'kg' → "kg". */
export function unidadeNoPlural(unidade: string): string {
  return PLURAIS[unidade] ?? unidade;
}

/** The unit's word that agrees with the quantity: (1500, 'dúzia') → "dúzia", (2000, 'dúzia') → "dúzias". */
export function palavraDaUnidade(milesimos: number, unidade: string): string {
  return concordancia(milesimos, unidade, unidadeNoPlural(unidade));
}

/** A quantity with its unit, as people write it: 2000 'maço' → "2 maços", 1500 'dúzia' → "1,5 dúzia", 2000 'kg' → "2 kg". */
export function formatarQuantidadeComUnidade(milesimos: number, unidade: string): string {
  return `${formatarQuantidade(milesimos)} ${palavraDaUnidade(milesimos, unidade)}`;
}

/** What is missing, with the verb agreeing: (1000, 'maço') → "Falta 1 maço", (2500, 'kg') → "Faltam 2,5 kg". */
export function faltaQuantidade(milesimos: number, unidade: string): string {
  return `${concordancia(milesimos, 'Falta', 'Faltam')} ${formatarQuantidadeComUnidade(milesimos, unidade)}`;
}

/**
 * Price of a quantity: cents per unit × thousandths of a unit, rounded half-up to the cent.
 * Integer arithmetic throughout, so 0.1 + 0.2 of a price is exactly 0.3 of it.
 */
export function valorDaQuantidade(centavosPorUnidade: number, milesimos: number): number {
  const produto = centavosPorUnidade * milesimos;
  if (Number.isSafeInteger(produto)) return Math.floor((produto + 500) / 1000);
  // A product past 2^53 cannot come from input within the limits; a row written before them is
  // still priced exactly here, in BigInt, instead of silently in floating point.
  // Stryker disable next-line all: only rows older than the input limits reach this
  return Number((BigInt(Math.round(centavosPorUnidade)) * BigInt(Math.round(milesimos)) + 500n) / 1000n);
}

/** A limit for people, in pt-BR: 10000000 at scale 2 → "100.000,00", 100000000 at scale 3 → "100.000". */
export function formatarLimite(escalado: number, escala: number): string {
  if (escala === ESCALA_QUANTIDADE) return formatarQuantidade(escalado);
  const [inteira = '0', fracao = ''] = formatarDecimal(escalado, escala).split('.');
  return `${inteira.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}${fracao === '' ? '' : `,${fracao}`}`;
}
