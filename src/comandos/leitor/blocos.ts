/** The commands' reader (src/comandos/leitor/): the schema's building blocks: each one documents its field and carries its keyword. */
import { type TSchema, Type } from '@sinclair/typebox';
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE } from '../../decimal.ts';
import { type Unidade } from '../../domain/catalogo.ts';
import { EMAIL, conferirTexto } from '../../domain/textos.ts';
import type { UNIDADE_ESCRITA } from './comum.ts';
import { DIGITADO, MAIOR_ID, ehRegistro, emBranco } from './comum.ts';
import { TIPOS_NO_FIO } from './fio.ts';
import { type OpcoesDecimal, type OpcoesInteiro, type OpcoesLista, palavra } from './palavras.ts';

/**
 * NOTE: a field's schema holds its keyword and its description only. A `type` or an `anyOf` beside
 * the keyword would judge the value as sent, before the keyword reads it ("12" from a form is not
 * yet an integer), so the wire's types are said in the description.
 */

/** An id (a record of the database): a JSON integer, or its digits from a form or a GraphQL ID. */
export const Id = (descricao: string) =>
  Type.Unsafe<number>({
    description: `${descricao} (id: número inteiro)`,
    'x-inteiro': { obrigatorio: true, min: 1, max: MAIOR_ID },
  });

/** An optional id: absent, null or blank when not named. */
export const IdOpcional = (descricao: string) =>
  Type.Unsafe<number | null | undefined>({
    description: `${descricao} (id: número inteiro, opcional)`,
    'x-inteiro': { min: 1, max: MAIOR_ID },
  });

/** A whole count. */
export const Inteiro = (descricao: string, opcoes: OpcoesInteiro & { obrigatorio: true }) =>
  Type.Unsafe<number>({ description: `${descricao} (número inteiro)`, 'x-inteiro': opcoes });

/** Money in reais on the wire, centavos in the command. */
export const Centavos = (descricao: string, opcoes: Omit<OpcoesDecimal, 'escala'> & { obrigatorio: true }) =>
  Type.Unsafe<number>({
    description: `${descricao} (em reais; JSON: número ou texto com ponto; formulário: "1.234,56")`,
    'x-decimal': { ...opcoes, escala: ESCALA_DINHEIRO },
  });

/** A quantity in its unit on the wire, milésimos in the command. */
export const Milesimos = (descricao: string, opcoes: Omit<OpcoesDecimal, 'escala'> & { obrigatorio: true }) =>
  Type.Unsafe<number>({
    description: `${descricao} (até 3 casas; JSON: número ou texto com ponto; formulário: "4,30", "2,5 kg")`,
    'x-decimal': { ...opcoes, escala: ESCALA_QUANTIDADE },
  });

/** A list of ids: a JSON array, a form's repeated field, or "1,2" text. */
export const Ids = (descricao: string, mensagem: string) =>
  Type.Unsafe<number[] | undefined>({
    description: descricao,
    'x-ids': { mensagem },
    // Only the document's: the keyword alone judges the value, so a bad id is refused once, with `mensagem`.
    [TIPOS_NO_FIO]: [
      { type: 'array', items: { type: 'integer', minimum: 1, maximum: MAIOR_ID } },
      { type: 'integer', minimum: 1, maximum: MAIOR_ID },
      { type: 'string', pattern: '^\\s*\\d{1,10}\\s*(,\\s*\\d{1,10}\\s*)*$' },
      { type: 'null' },
    ],
  });

/** A row of a list, in the command: its fields, and where its refusals are named. */
export type Linha<T> = T & { readonly [UNIDADE_ESCRITA]?: Unidade };

/** A list of rows: a JSON array or a form's bracket rows; rows `pular` says are not rows are left out. */
export const Linhas = <T extends TSchema>(
  linha: T,
  descricao: string,
  opcoes: OpcoesLista,
  extras: Readonly<Record<string, unknown>> = {},
) =>
  Type.Unsafe<Array<Linha<T['static']>>>({
    type: 'array',
    description: descricao,
    'x-lista': opcoes,
    items: { if: { 'x-pulada': true }, then: true, else: { ...linha, ...extras } },
  });

/** An object of a command (a row, the root): its fields, others allowed (a form's token, a row's id) and ignored. */
export const Objeto = <P extends Record<string, TSchema>>(
  campos: P,
  obrigatorios: ReadonlyArray<keyof P & string> = [],
) =>
  Type.Unsafe<{ [K in keyof P]: P[K]['static'] }>({ type: 'object', properties: campos, required: [...obrigatorios] });

interface OpcoesTexto {
  readonly obrigatorio?: boolean;
  readonly max: number;
  /**
   * A calendar day (`AAAA-MM-DD`), a time of day (`HH:MM`, read from "8h30" too), a phone or an
   * e-mail address, checked after the text itself.
   */
  readonly formato?: 'data' | 'hora' | 'telefone' | 'email';
  /** One of these values. */
  readonly valores?: readonly string[];
  /** What a required text left blank or out is told (default: "Campo obrigatório"). */
  readonly falta?: string;
}

const DATA_ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when the text is a real calendar day written YYYY-MM-DD. */
export function ehDataValida(texto: string): boolean {
  const m = DATA_ISO.exec(texto);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === texto;
}

/** A time of day as "HH:MM" ("8:30", "8h", "8h30", "08h30min" read too), or null when it is not one. */
function horaDoDia(t: string): string | null {
  const m = /^(\d{1,2})\s*(?::|h)\s*(\d{2})?\s*(?:min)?$|^(\d{1,2})$/i.exec(t);
  const horas = Number(m?.[1] ?? m?.[3] ?? Number.NaN);
  const minutos = Number(m?.[2] ?? 0);
  if (m === null || horas > 23 || minutos > 59) return null;
  return `${String(horas).padStart(2, '0')}:${String(minutos).padStart(2, '0')}`;
}

const valorInvalido = (valores: readonly string[]) => `Valor inválido: use ${valores.join(', ')}`;

/** A text as it is stored (trimmed, NFC, no control characters), with the domain's limits, in its format; blank is none. */
function lerTexto(v: unknown, o: OpcoesTexto): { valor: string | null } | { erro: string } {
  if (emBranco(v) || (typeof v === 'string' && v.trim() === ''))
    return o.obrigatorio === true ? { erro: o.falta ?? 'Campo obrigatório' } : { valor: null };
  if (typeof v !== 'string') return { erro: 'Deve ser um texto' };
  const { texto, problema } = conferirTexto(v, { max: o.max });
  if (problema !== null) return { erro: problema };
  if (o.valores !== undefined && !o.valores.includes(texto)) return { erro: valorInvalido(o.valores) };
  if (o.formato === 'data' && !ehDataValida(texto)) return { erro: 'Data inválida: use AAAA-MM-DD' };
  if (o.formato === 'email' && !EMAIL.test(texto)) return { erro: 'E-mail inválido' };
  if (o.formato === 'telefone' && !/^[+()\d\s.-]+$/.test(texto))
    return { erro: 'Telefone inválido: use dígitos, com espaços, parênteses, +, - ou . se quiser' };
  if (o.formato === 'telefone' && texto.replace(/\D/g, '').length < 8)
    return { erro: 'Telefone inválido: informe pelo menos 8 dígitos, com o DDD' };
  if (o.formato !== 'hora') return { valor: texto };
  const hora = horaDoDia(texto);
  return hora === null ? { erro: 'Horário inválido: use HH:MM, por exemplo 08:30' } : { valor: hora };
}

palavra<OpcoesTexto>('x-texto', (o, v, trocar) => {
  const r = lerTexto(v, o);
  if ('erro' in r) return r.erro;
  trocar(r.valor);
  return null;
});

interface OpcoesData {
  readonly obrigatorio?: boolean;
  /** A form may give it as people write it, dd/mm/aaaa. */
  readonly digitada?: boolean;
}

/** dd/mm/aaaa as people type it, turned into AAAA-MM-DD; anything else as it came. */
function diaDigitado(v: unknown): unknown {
  const m = typeof v === 'string' ? /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(v) : null;
  return m === null ? v : `${m[3]}-${(m[2] ?? '').padStart(2, '0')}-${(m[1] ?? '').padStart(2, '0')}`;
}

palavra<OpcoesData>('x-data', (o, v, trocar, cxt) => {
  const digitado = ehRegistro(cxt?.parentData) && cxt.parentData[DIGITADO] === true;
  const r = lerTexto(o.digitada === true && digitado ? diaDigitado(v) : v, {
    obrigatorio: o.obrigatorio,
    max: 10,
    formato: 'data',
  });
  if ('erro' in r) return r.erro;
  trocar(r.valor);
  return null;
});

interface OpcoesUmDe {
  readonly valores: readonly string[];
  readonly obrigatorio?: boolean;
  /** What a value out of the list is told (default: the list). */
  readonly mensagem?: string;
}

palavra<OpcoesUmDe>('x-um-de', (o, v, trocar) => {
  const r = lerTexto(v, { obrigatorio: o.obrigatorio, max: 100 });
  if ('erro' in r) return r.erro;
  if (r.valor !== null && !o.valores.includes(r.valor)) return o.mensagem ?? valorInvalido(o.valores);
  trocar(r.valor);
  return null;
});

const SIM = new Set<unknown>([true, 'true', 'on', '1', 1]);
const NAO = new Set<unknown>([false, 'false', 'off', '0', 0]);

/** A form's box: a hidden "false" then "on" when ticked arrive as a list, and the last one wins. */
function lerBooleano(v: unknown, ausente: boolean | null): { valor: boolean | null } | { erro: string } {
  if (emBranco(v)) return { valor: ausente };
  const ultimo: unknown = Array.isArray(v) ? v.at(-1) : v;
  if (SIM.has(ultimo)) return { valor: true };
  if (NAO.has(ultimo)) return { valor: false };
  return { erro: 'Deve ser verdadeiro ou falso' };
}

palavra<{ readonly ausente: boolean | null }>('x-booleano', (o, v, trocar) => {
  const r = lerBooleano(v, o.ausente);
  if ('erro' in r) return r.erro;
  trocar(r.valor);
  return null;
});

palavra<{ readonly valores: readonly string[] }>('x-conjunto', (o, v, trocar) => {
  const itens: unknown[] = emBranco(v) ? [] : Array.isArray(v) ? v : [v];
  if (itens.some((x) => typeof x !== 'string' || !o.valores.includes(x))) return valorInvalido(o.valores);
  trocar([...new Set(itens)]);
  return null;
});

/** An e-mail address. */
export const Email = (descricao: string) =>
  Type.Unsafe<string>({
    description: `${descricao} (e-mail, até 254 caracteres)`,
    'x-texto': { obrigatorio: true, max: 254, formato: 'email' },
    [TIPOS_NO_FIO]: [{ type: 'string' }],
  });

/** A phone as people write it: at least 8 digits, with spaces, parentheses, +, - and dots between them. */
export const Telefone = (descricao: string) =>
  Type.Unsafe<string | null | undefined>({
    description: `${descricao} (telefone: pelo menos 8 dígitos, com o DDD; espaços, (), +, - e . permitidos; opcional)`,
    'x-texto': { max: 30, formato: 'telefone' },
    [TIPOS_NO_FIO]: [{ type: 'string' }, { type: 'null' }],
  });

/** One of a list of values (an enum). */
export const UmDe = <T extends string, O extends Omit<OpcoesUmDe, 'valores'> = { obrigatorio: true }>(
  descricao: string,
  valores: readonly T[],
  opcoes?: O,
) => {
  const o = opcoes ?? { obrigatorio: true };
  return Type.Unsafe<O['obrigatorio'] extends true ? T : T | null | undefined>({
    description: `${descricao} (um de: ${valores.join(', ')}${o.obrigatorio === true ? '' : '; opcional'})`,
    'x-um-de': { ...o, valores },
    [TIPOS_NO_FIO]: [{ type: 'string', enum: valores }, ...(o.obrigatorio === true ? [] : [{ type: 'null' }])],
  });
};

/** A set of values of a list (duplicates dropped): a JSON array, one form value, or a form's repeated field. */
export const ConjuntoDe = <T extends string>(descricao: string, valores: readonly T[]) =>
  Type.Unsafe<T[] | undefined>({
    description: `${descricao} (lista com: ${valores.join(', ')})`,
    'x-conjunto': { valores },
    [TIPOS_NO_FIO]: [
      { type: 'array', items: { type: 'string', enum: valores } },
      { type: 'string', enum: valores },
      { type: 'null' },
    ],
  });

/**
 * A yes or no: JSON true/false, or a form's checkbox ("on", after a hidden "false"). Blank or absent:
 * `ausente` (false for a box left unticked; null where absent means "keep what the record says").
 */
export const Booleano = <A extends boolean | null>(descricao: string, ausente: A) =>
  Type.Unsafe<boolean | A | undefined>({
    description: `${descricao} (verdadeiro ou falso; formulário: caixa marcada "on")`,
    'x-booleano': { ausente },
    // A form sends "on" when ticked, after a hidden "false": both arrive, as a list.
    [TIPOS_NO_FIO]: [
      { type: 'boolean' },
      { type: 'string' },
      { type: 'array', items: { type: 'string' } },
      { type: 'null' },
    ],
  });

/** An optional whole count (absent, null or blank: none). */
export const InteiroOpcional = (descricao: string, opcoes: { min: number; max: number }) =>
  Type.Unsafe<number | null | undefined>({
    description: `${descricao} (número inteiro, opcional)`,
    'x-inteiro': opcoes,
  });

/** An optional decimal at its scale (a percentage with two places, money): absent, null or blank is none. */
export const DecimalOpcional = (descricao: string, escala: number) =>
  Type.Unsafe<number | null | undefined>({
    description: `${descricao} (até ${escala} casas; JSON: número ou texto com ponto; opcional)`,
    'x-decimal': { escala },
  });

type TextoLido<O extends { readonly obrigatorio?: boolean }> = O['obrigatorio'] extends true
  ? string
  : string | null | undefined;

/** A text's wire types: text, and null when it may be left out. */
const tiposDeTexto = (o: { readonly obrigatorio?: boolean }) => [
  { type: 'string' },
  ...(o.obrigatorio === true ? [] : [{ type: 'null' }]),
];

/** A text people type: trimmed, at most `max` characters, without control characters. */
export const Texto = <O extends Omit<OpcoesTexto, 'formato'>>(descricao: string, opcoes: O) =>
  Type.Unsafe<TextoLido<O>>({
    description: `${descricao} (texto, até ${opcoes.max} caracteres)`,
    'x-texto': opcoes,
    ...(opcoes.falta === undefined ? {} : { 'x-falta': opcoes.falta }),
    [TIPOS_NO_FIO]: tiposDeTexto(opcoes),
  });

/** A calendar day, written AAAA-MM-DD. */
export const Data = <O extends OpcoesData>(descricao: string, opcoes: O) =>
  Type.Unsafe<TextoLido<O>>({
    description: `${descricao} (data: AAAA-MM-DD${opcoes.digitada === true ? '; formulário: também dd/mm/aaaa' : ''})`,
    'x-data': opcoes,
    [TIPOS_NO_FIO]: tiposDeTexto(opcoes),
  });

/** A time of day, read as people write it ("8h30", "8:30", "8") and kept as HH:MM. */
export const Hora = (descricao: string) =>
  Type.Unsafe<string | null | undefined>({
    description: `${descricao} (horário: HH:MM; também "8h30", "8")`,
    'x-texto': { max: 10, formato: 'hora' },
    [TIPOS_NO_FIO]: tiposDeTexto({}),
  });

/** A yes or no: JSON true/false; a form's box sends "on" after a hidden "false". Blank: not said (null). */
export const Marcado = (descricao: string) =>
  Type.Unsafe<boolean | null | undefined>({
    description: `${descricao} (JSON: true ou false; formulário: a caixa marcada)`,
    'x-booleano': { ausente: null },
    [TIPOS_NO_FIO]: [
      { type: 'boolean' },
      { type: 'string' },
      { type: 'integer' },
      { type: 'array', items: { type: 'string' } },
      { type: 'null' },
    ],
  });
