/**
 * The commands' reader, below both faces: one strict schema per write use case (TypeBox, compiled
 * once with Ajv), read the same way by a Cestas route (as its body) and by a GraphQL resolver (on
 * its arguments). Values come out in the domain's units: ids as integers, money in centavos,
 * quantities in milésimos.
 *
 * There is no global type coercion. A few explicit keywords carry the edge parsing, each where it
 * is declared:
 * - `x-inteiro`: an id or a count; a digit string (a form, a GraphQL ID) is read as the integer.
 * - `x-decimal`: money or a quantity at its scale. Decimals typed by people in a form ("1.234,56",
 *   "4,30", "2,5 kg") are read as people type them; JSON and GraphQL keep the API's dot-decimals.
 * - `x-lista`: a list given as a JSON array or as a form's bracket rows (an index map), without the
 *   blank spare rows a form offers; skipped rows keep the other rows' indices.
 * - `x-exclusivos`: exactly one of two fields of a row.
 * - `x-ids`: a list of ids, from a JSON array or a form's repeated field.
 *
 * Every refusal carries the Portuguese message the edge has always given, per field, and the
 * face names the field (`produtos.2.quantidade` on Cestas, `input.produtos[2].quantidade` in
 * GraphQL) from the same path.
 */
import { Ajv, type AnySchemaObject, type ErrorObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import { Type, type TSchema } from '@sinclair/typebox';
import {
  ESCALA_DINHEIRO,
  ESCALA_QUANTIDADE,
  MAXIMO_PRECO_CENTAVOS,
  MAXIMO_QUANTIDADE_MILESIMOS,
  formatarLimite,
  lerDecimal,
  lerDecimalDigitado,
} from '../decimal.ts';
import { unidadeEscrita, type Unidade } from '../domain/catalogo.ts';
import { Invalido } from '../domain/erros.ts';
import { EMAIL, conferirTexto } from '../domain/textos.ts';

/** The largest record id: ids are 32-bit integer columns on PostgreSQL. */
export const MAIOR_ID = 2_147_483_647;

/**
 * Marks a body typed by people (a form), set by the edge's form parsers on every object of the
 * body: its decimals are read the way people type them. A symbol, so no field a client sends can set it.
 */
export const DIGITADO: unique symbol = Symbol('digitado por pessoas');

/** Marks a list's row that is not a row (a blank spare, a zero quantity): validated as nothing, then dropped. */
const PULADA: unique symbol = Symbol('linha pulada');

/** The unit a person wrote after a quantity ("2,5 kg"), kept beside the row's fields. */
export const UNIDADE_ESCRITA: unique symbol = Symbol('unidade escrita');

/**
 * A form body, typed by people: marks it and every object inside it (the rows of its lists) so
 * their decimals are read as people type them. The form parsers call this; JSON bodies are never marked.
 */
export function digitadoPorPessoas<T>(corpo: T): T {
  // Only the objects and lists a parser builds; a file's bytes (a Buffer) are not fields.
  if (Array.isArray(corpo)) {
    for (const v of corpo) digitadoPorPessoas(v);
  } else if (
    corpo !== null &&
    typeof corpo === 'object' &&
    [Object.prototype, null].includes(Object.getPrototypeOf(corpo))
  ) {
    Object.defineProperty(corpo, DIGITADO, { value: true, enumerable: true });
    for (const v of Object.values(corpo)) digitadoPorPessoas(v);
  }
  return corpo;
}

type Registro = Record<string | symbol, unknown>;

const ehRegistro = (v: unknown): v is Registro => v !== null && typeof v === 'object' && !Array.isArray(v);
const emBranco = (v: unknown): boolean => v === undefined || v === null || v === '';
const maiuscula = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

/** A copy of the input the keywords may rewrite (the request keeps what was sent, to draw a form again). */
function copiar(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copiar);
  if (!ehRegistro(v)) return v;
  const copia: Registro = {};
  for (const [k, x] of Object.entries(v)) copia[k] = copiar(x);
  if (v[DIGITADO] === true) copia[DIGITADO] = true;
  return copia;
}

// ---------------------------------------------------------------------------------------------
// The keywords.

interface OpcoesInteiro {
  readonly obrigatorio?: boolean;
  readonly min?: number;
  readonly max?: number;
}

/** An integer read as the edge has always read it: a number, or digits in text. */
function lerInteiro(v: unknown, o: OpcoesInteiro): { valor: number | null } | { erro: string } {
  if (emBranco(v)) return o.obrigatorio === true ? { erro: 'Campo obrigatório' } : { valor: null };
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n)) return { erro: 'Deve ser um número inteiro' };
  const min = o.min ?? 0;
  if (n < min) return { erro: min === 0 ? 'Não pode ser negativo' : `Deve ser no mínimo ${min}` };
  if (o.max !== undefined && n > o.max) return { erro: `Deve ser no máximo ${o.max}` };
  return { valor: n };
}

/** The id a body names, as the ownership check reads it before anything else (0: not an id). */
export function idNomeado(v: unknown): number | null {
  if (emBranco(v)) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : Number.NaN;
  return Number.isSafeInteger(n) ? n : 0;
}

interface OpcoesDecimal {
  readonly escala: number;
  readonly obrigatorio?: boolean;
  readonly min?: number;
  readonly max?: number;
  /** People may follow the number with its unit ("2,5 kg"). */
  readonly unidade?: boolean;
  /** A whole count instead, when the row names `campo` and not `outro` (a basket of an order). */
  readonly inteiraCom?: { readonly campo: string; readonly outro: string; readonly max: number };
}

/** The limit of a decimal field that names none, by its scale: a unit price, a quantity. */
const MAXIMO_PADRAO: Readonly<Record<number, number>> = {
  [ESCALA_DINHEIRO]: MAXIMO_PRECO_CENTAVOS,
  [ESCALA_QUANTIDADE]: MAXIMO_QUANTIDADE_MILESIMOS,
};

/**
 * A typed quantity split into its number and the word after it ("2,5 kg" → "2,5" and "kg"), or
 * null when it is not a number followed by a word. A scan from the end: linear on any input.
 */
export function separarUnidade(texto: string): { numero: string; palavra: string } | null {
  const t = texto.trim();
  const fim = t.endsWith('.') ? t.length - 1 : t.length;
  let inicio = fim;
  while (inicio > 0 && /\p{L}/u.test(t.charAt(inicio - 1))) inicio--;
  const numero = t.slice(0, inicio);
  if (inicio === fim || !/\d/.test(numero)) return null;
  return { numero, palavra: t.slice(inicio, fim) };
}

function lerDecimalDoCampo(
  v: unknown,
  o: OpcoesDecimal,
  linha: Registro | undefined,
): { valor: number | null; unidade?: Unidade } | { erro: string } | { deixar: true } {
  const c = o.inteiraCom;
  if (c !== undefined && linha !== undefined) {
    const [com, outro] = [!emBranco(linha[c.campo]), !emBranco(linha[c.outro])];
    // Both or neither: the row's own rule says so, and the quantity is not judged.
    if (com === outro) return { deixar: true };
    if (com) {
      const lido = lerInteiro(v, { obrigatorio: true, min: 1, max: c.max });
      return 'erro' in lido ? lido : { valor: (lido.valor ?? 0) * 1000 };
    }
  }
  if (emBranco(v)) return o.obrigatorio === true ? { erro: 'Campo obrigatório' } : { valor: null };
  const digitado = linha?.[DIGITADO] === true;
  let texto = v;
  let unidade: Unidade | undefined;
  const separado = o.unidade === true && digitado && typeof v === 'string' ? separarUnidade(v) : null;
  if (separado !== null) {
    const u = unidadeEscrita(separado.palavra);
    if (u === null) return { erro: `Escreva só o número, na unidade do produto (ex.: 2,5), sem "${separado.palavra}"` };
    texto = separado.numero;
    unidade = u;
  }
  const r = digitado ? lerDecimalDigitado(texto, o.escala) : lerDecimal(texto, o.escala);
  if (!r.ok) return { erro: maiuscula(r.motivo) };
  if (o.min !== undefined && r.valor < o.min) return { erro: 'Deve ser maior que zero' };
  const max = o.max ?? MAXIMO_PADRAO[o.escala];
  if (max !== undefined && r.valor > max) return { erro: `Use no máximo ${formatarLimite(max, o.escala)}` };
  return unidade === undefined ? { valor: r.valor } : { valor: r.valor, unidade };
}

/** What a list's rows skip: blank spares, a zero quantity, an unticked box. */
type Pular =
  | { readonly semQuantidade: string; readonly zeroDoJson: boolean }
  | { readonly desmarcado: string }
  | 'em-branco'
  | 'nenhuma';

interface OpcoesLista {
  readonly maximo: number;
  readonly excesso?: string;
  readonly pular: Pular;
}

/** A form's box: a hidden "false" then "on" when ticked (both arrive, as a list). */
const marcado = (v: unknown): boolean =>
  v === 'on' || v === 'true' || v === true || (Array.isArray(v) && v.some(marcado));

function pula(item: Registro, p: Pular): boolean {
  if (p === 'nenhuma') return false;
  if (p === 'em-branco') return Object.entries(item).every(([k, v]) => k === 'id' || emBranco(v));
  if ('desmarcado' in p) return Object.hasOwn(item, p.desmarcado) && !marcado(item[p.desmarcado]);
  const q = Object.hasOwn(item, p.semQuantidade) ? item[p.semQuantidade] : undefined;
  return q === '' || (typeof q === 'string' && /^\s*0+(?:[.,]0+)?\s*$/.test(q)) || (p.zeroDoJson && q === 0);
}

/** A list given as a JSON array or as form bracket keys (qs gives an array or an index map). */
function itensDaLista(valor: unknown): unknown[] | null {
  if (emBranco(valor)) return [];
  if (Array.isArray(valor)) return valor;
  if (ehRegistro(valor)) {
    const chaves = Object.keys(valor);
    if (chaves.every((k) => /^\d+$/.test(k))) return chaves.sort((a, b) => Number(a) - Number(b)).map((k) => valor[k]);
  }
  return null;
}

const ajv = new Ajv({
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  allErrors: true,
  verbose: true,
  strict: false,
});

type Trocar = (novo: unknown) => void;
const trocador =
  (cxt: DataValidationCxt | undefined): Trocar =>
  (novo) => {
    if (cxt !== undefined) (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = novo;
  };

/** A modifying keyword: `ler` returns the message of a refusal, or null after replacing the value. */
function palavra<O>(
  nome: string,
  ler: (o: O, v: unknown, trocar: Trocar, cxt: DataValidationCxt | undefined) => string | null,
): void {
  const validate: SchemaValidateFunction = (o: O, v: unknown, _p?: AnySchemaObject, cxt?: DataValidationCxt) => {
    const erro = ler(o, v, trocador(cxt), cxt);
    validate.errors = erro === null ? undefined : [{ keyword: nome, message: erro, params: {} }];
    return erro === null;
  };
  ajv.addKeyword({ keyword: nome, modifying: true, errors: true, validate });
}

palavra<OpcoesInteiro>('x-inteiro', (o, v, trocar) => {
  const r = lerInteiro(v, o);
  if ('erro' in r) return r.erro;
  trocar(r.valor);
  return null;
});

palavra<OpcoesDecimal>('x-decimal', (o, v, trocar, cxt) => {
  const linha = ehRegistro(cxt?.parentData) ? cxt.parentData : undefined;
  const r = lerDecimalDoCampo(v, o, linha);
  if ('deixar' in r) return null;
  if ('erro' in r) return r.erro;
  trocar(r.valor);
  if (r.unidade !== undefined && linha !== undefined) linha[UNIDADE_ESCRITA] = r.unidade;
  return null;
});

palavra<OpcoesLista>('x-lista', (o, v, trocar) => {
  const itens = itensDaLista(v);
  if (itens === null) return 'Deve ser uma lista';
  if (itens.length > o.maximo) {
    trocar([]);
    return o.excesso ?? `No máximo ${o.maximo} itens`;
  }
  for (const item of itens) if (ehRegistro(item) && pula(item, o.pular)) item[PULADA] = true;
  trocar(itens);
  return null;
});

palavra<{ readonly mensagem: string }>('x-ids', (o, v, trocar) => {
  // A JSON array, a form's repeated (or bracketed) field, one id, or "1,2" text.
  const itens = emBranco(v)
    ? []
    : Array.isArray(v)
      ? v
      : ehRegistro(v)
        ? Object.values(v)
        : typeof v === 'string'
          ? v.split(',')
          : [v];
  const lidos: number[] = [];
  for (const x of itens) {
    if (x === '') continue;
    const n = typeof x === 'number' ? x : typeof x === 'string' && /^\d{1,12}$/.test(x.trim()) ? Number(x) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > MAIOR_ID) return o.mensagem;
    lidos.push(n);
  }
  trocar(lidos);
  return null;
});

ajv.addKeyword({
  keyword: 'x-pulada',
  errors: false,
  validate: (_o: unknown, v: unknown) => ehRegistro(v) && v[PULADA] === true,
});

interface OpcoesExclusivos {
  readonly campos: readonly [string, string];
  readonly nenhum: string;
  readonly ambos: string;
  /** A field the row needs once it names exactly one of them (its quantity). */
  readonly comUm?: string;
}

const exclusivos: SchemaValidateFunction = (
  o: OpcoesExclusivos,
  v: unknown,
  _p?: AnySchemaObject,
  cxt?: DataValidationCxt,
) => {
  exclusivos.errors = undefined;
  if (!ehRegistro(v)) return true;
  const [a, b] = o.campos;
  const quantos = [a, b].filter((k) => !emBranco(v[k])).length;
  const falta = o.comUm !== undefined && quantos === 1 && !Object.hasOwn(v, o.comUm) ? o.comUm : null;
  if (falta !== null)
    exclusivos.errors = [
      {
        keyword: 'x-exclusivos',
        instancePath: `${cxt?.instancePath ?? ''}/${falta}`,
        message: 'Campo obrigatório',
        params: {},
      },
    ];
  if (quantos === 1) return falta === null;
  exclusivos.errors = [
    {
      keyword: 'x-exclusivos',
      instancePath: `${cxt?.instancePath ?? ''}/${a}`,
      message: quantos === 0 ? o.nenhum : o.ambos,
      params: {},
    },
  ];
  return false;
};
ajv.addKeyword({ keyword: 'x-exclusivos', errors: true, validate: exclusivos });

// ---------------------------------------------------------------------------------------------
// The schema's building blocks: each one documents its field and carries its keyword.

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

// ---------------------------------------------------------------------------------------------
// Reading a command.

/** A path of the input, as segments: `['produtos', 2, 'quantidade']`. */
export type Caminho = ReadonlyArray<string | number>;

/** How a face names a field of the input from its path. */
export type Nomear = (caminho: Caminho) => string;

/** The Cestas face (and every JSON body): the body's keys, dotted (`produtos.2.quantidade`). */
export const nomesDoCorpo: Nomear = (caminho) => caminho.join('.');

/**
 * GraphQL: the argument's path (`input.produtos[2].quantidade`). `raizes` names the fields that are
 * arguments of their own (`cicloid` → `cicloId`) or the input itself (a list argument); every other
 * field is a field of `input`.
 */
export function nomesDoGraphql(raizes: Readonly<Record<string, string>> = {}): Nomear {
  return ([raiz, ...resto]) =>
    resto.reduce<string>(
      (nome, s) => (typeof s === 'number' ? `${nome}[${s}]` : `${nome}.${s}`),
      raizes[String(raiz)] ?? `input.${String(raiz)}`,
    );
}

/** Keywords whose refusal is said after the field's own (a row's rule after its fields' reading). */
const TARDIAS = new Set(['x-exclusivos']);

const MENSAGENS_DE_TIPO: Readonly<Record<string, string>> = {
  integer: 'Deve ser um número inteiro',
  number: 'Deve ser um número',
  string: 'Deve ser um texto',
  boolean: 'Deve ser verdadeiro ou falso',
  object: 'Deve ser um objeto',
  array: 'Deve ser uma lista',
};

function caminhoDoErro(e: ErrorObject): Caminho {
  const segmentos: Array<string | number> = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replaceAll('~1', '/').replaceAll('~0', '~')));
  if (e.keyword === 'required' && typeof e.params.missingProperty === 'string')
    segmentos.push(e.params.missingProperty);
  return segmentos;
}

function mensagemDoErro(e: ErrorObject): string {
  if (e.keyword.startsWith('x-')) return e.message ?? 'Valor inválido';
  if (e.keyword === 'required') {
    const propriedades = e.parentSchema?.properties as Record<string, Record<string, unknown>> | undefined;
    const falta = propriedades?.[String(e.params.missingProperty)]?.['x-falta'];
    return typeof falta === 'string' ? falta : 'Campo obrigatório';
  }
  if (e.keyword === 'type')
    return MENSAGENS_DE_TIPO[[e.params.type].flat().find((t) => t !== 'null') ?? ''] ?? 'Valor inválido';
  return 'Valor inválido';
}

/** What a validation found: the fields refused, in the order they were found; a field's first refusal stays. */
export class Recusas {
  readonly #porCampo = new Map<string, { caminho: Caminho; nome?: string; mensagem: string }>();

  /** Ajv's errors, with the edge's messages. */
  juntarDoEsquema(erros: readonly ErrorObject[]): void {
    // Skipped rows' `if` and the branches of an anyOf report nothing of their own.
    const proprios = erros.filter((e) => e.keyword !== 'if' && e.keyword !== 'anyOf');
    for (const e of [
      ...proprios.filter((x) => !TARDIAS.has(x.keyword)),
      ...proprios.filter((x) => TARDIAS.has(x.keyword)),
    ])
      this.juntar(caminhoDoErro(e), mensagemDoErro(e));
  }

  juntar(caminho: Caminho, mensagem: string): void {
    const chave = caminho.join('/');
    if (!this.#porCampo.has(chave)) this.#porCampo.set(chave, { caminho, mensagem });
  }

  /** Refusals the domain's rules name by the rows' `campo` (the face's names already). */
  juntarNomeados(erros: Readonly<Record<string, string>>): void {
    for (const [nome, mensagem] of Object.entries(erros))
      if (!this.#porCampo.has(`=${nome}`)) this.#porCampo.set(`=${nome}`, { caminho: [], nome, mensagem });
  }

  /** True when nothing at or below `caminho` was refused. */
  legivel(caminho: Caminho): boolean {
    const chave = caminho.join('/');
    return ![...this.#porCampo.keys()].some((k) => k === chave || k.startsWith(`${chave}/`));
  }

  get vazia(): boolean {
    return this.#porCampo.size === 0;
  }

  /** The one shape of refused input: 400, "Verifique os campos destacados", a message per field. */
  recusar(nomear: Nomear): never {
    throw new Invalido(
      'VALIDACAO',
      'Verifique os campos destacados',
      Object.fromEntries([...this.#porCampo.values()].map((r) => [r.nome ?? nomear(r.caminho), r.mensagem])),
    );
  }
}

/**
 * A compiled command schema. `validar` works on a copy of the input (the request keeps what was
 * sent, to draw a form again) and returns it read into the command's units: all of it when
 * nothing was refused, else what could be read (a refused field keeps what was sent).
 */
export interface Esquema<T> {
  validar(dados: unknown, recusas: Recusas): T;
}

export function compilar<T>(esquema: TSchema): Esquema<T> {
  // Compiled the first time it reads: a process compiles only the commands it is sent.
  let validador: ValidateFunction | undefined;
  return {
    validar(dados, recusas) {
      validador ??= ajv.compile(esquema);
      const copia = copiar(dados);
      if (!validador(copia)) recusas.juntarDoEsquema(validador.errors ?? []);
      return copia as T;
    },
  };
}

/** The rows of a list that are rows (not skipped), with their index in what was sent. */
export function linhasDe<T>(lista: unknown): Array<{ linha: Linha<T>; indice: number }> {
  if (!Array.isArray(lista)) return [];
  return lista.flatMap((linha: unknown, indice) =>
    ehRegistro(linha) && linha[PULADA] !== true ? [{ linha: linha as Linha<T>, indice }] : [],
  );
}

/** Turns an unknown body into a record, refusing arrays and scalars; none reads as empty. */
export function comoObjeto(corpo: unknown): Readonly<Record<string, unknown>> {
  if (corpo === null || corpo === undefined) return {};
  if (typeof corpo !== 'object' || Array.isArray(corpo))
    throw new Invalido('CORPO_INVALIDO', 'O corpo da requisição deve ser um objeto');
  return corpo as Readonly<Record<string, unknown>>;
}

/**
 * A domain refusal of a command, with the face's names: a field of the command's root
 * (`pontoEntregaId`, `produtos`) gets the face's name; a row's fields were named by the face already
 * (the rows carry their `campo`), and any other detail is left as it is.
 */
export async function comNomes<T>(raizes: readonly string[], nomear: Nomear, fazer: () => Promise<T>): Promise<T> {
  try {
    return await fazer();
  } catch (e) {
    if (!(e instanceof Invalido) || e.detalhes === undefined) throw e;
    throw new Invalido(
      e.codigo,
      e.message,
      Object.fromEntries(Object.entries(e.detalhes).map(([k, v]) => [raizes.includes(k) ? nomear([k]) : k, v])),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The wire's types, for the documents people and programs read.

type NoDoEsquema = Readonly<Record<string, unknown>>;

/** The document's types for a field its own reader judges: `{ [TIPOS_NO_FIO]: [{ type: 'string' }, …] }`. */
export const TIPOS_NO_FIO = 'x-tipos-no-fio';

const ehNo = (v: unknown): v is NoDoEsquema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The largest value a decimal field takes, on the wire (reais, units). */
const noFio = (inteiro: number, escala: number): number => inteiro / 10 ** escala;

/** A number an option of a keyword names (undefined: it names none). */
const opcao = (o: NoDoEsquema, chave: string): number | undefined => {
  const v = o[chave];
  return typeof v === 'number' ? v : undefined;
};

/** What the keyword of a field accepts as sent: a JSON value of its type, or the text a form or GraphQL gives. */
function tiposDoCampo(no: NoDoEsquema): readonly unknown[] | null {
  // A field whose reader is not a keyword (a form's box, GraphQL's own request) names them itself.
  const proprios = no[TIPOS_NO_FIO];
  if (Array.isArray(proprios)) return proprios;
  const inteiro = no['x-inteiro'];
  const decimal = no['x-decimal'];
  const o = ehNo(inteiro) ? inteiro : ehNo(decimal) ? decimal : null;
  if (o === null) return null;
  const nulo = o.obrigatorio === true ? [] : [{ type: 'null' }];
  if (o === inteiro) {
    const [min, max] = [opcao(o, 'min') ?? 0, opcao(o, 'max')];
    return [
      { type: 'integer', minimum: min, ...(max === undefined ? {} : { maximum: max }) },
      { type: 'string', pattern: min < 0 ? '^\\s*-?\\d{1,15}\\s*$' : '^\\s*\\d{1,15}\\s*$' },
      ...nulo,
    ];
  }
  const escala = opcao(o, 'escala') ?? ESCALA_QUANTIDADE;
  const max = opcao(o, 'max') ?? MAXIMO_PADRAO[escala];
  return [
    {
      type: 'number',
      minimum: noFio(opcao(o, 'min') ?? 0, escala),
      ...(max === undefined ? {} : { maximum: noFio(max, escala) }),
    },
    { type: 'string' },
    ...nulo,
  ];
}

/**
 * A command's schema as the OpenAPI document shows it: every field that a keyword reads gets the
 * types it accepts as sent (`anyOf`), beside its keyword and description. Only the document: the
 * validator keeps the keyword alone (see the NOTE above the building blocks).
 */
export function comTiposDoFio(esquema: unknown): unknown {
  if (Array.isArray(esquema)) return esquema.map(comTiposDoFio);
  if (!ehNo(esquema)) return esquema;
  const copia: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(esquema)) if (k !== TIPOS_NO_FIO) copia[k] = comTiposDoFio(v);
  const tipos = tiposDoCampo(esquema);
  if (tipos !== null && copia.anyOf === undefined && copia.type === undefined) copia.anyOf = tipos;
  return copia;
}
