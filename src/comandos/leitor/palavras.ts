/** The commands' reader (src/comandos/leitor/): the keywords. */
import { Ajv, type AnySchemaObject, type Options, type SchemaValidateFunction } from 'ajv';
import { type DataValidationCxt } from 'ajv/dist/types/index.js';
import {
  ESCALA_DINHEIRO,
  ESCALA_QUANTIDADE,
  MAXIMO_PRECO_CENTAVOS,
  MAXIMO_QUANTIDADE_MILESIMOS,
  formatarLimite,
  lerDecimal,
  lerDecimalDigitado,
} from '../../decimal.ts';
import { type Unidade, unidadeEscrita } from '../../domain/catalogo.ts';
import {
  DIGITADO,
  MAIOR_ID,
  PULADA,
  type Registro,
  UNIDADE_ESCRITA,
  ehRegistro,
  emBranco,
  maiuscula,
} from './comum.ts';

export interface OpcoesInteiro {
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

export interface OpcoesDecimal {
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
export const MAXIMO_PADRAO: Readonly<Record<number, number>> = {
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

export interface OpcoesLista {
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

/**
 * Read without coercion: "12" stays text for the keyword that reads it (as a number, and a comma
 * decimal as a decimal), and `true` never turns into the id 1. Every error is collected, with its
 * schema (a field's own message).
 */
export const SEM_COERCAO: Options = {
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  allErrors: true,
  verbose: true,
  strict: false,
};

export const ajv = new Ajv(SEM_COERCAO);

type Trocar = (novo: unknown) => void;
const trocador =
  (cxt: DataValidationCxt | undefined): Trocar =>
  (novo) => {
    if (cxt !== undefined) (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = novo;
  };

/** A modifying keyword: `ler` returns the message of a refusal, or null after replacing the value. */
export function palavra<O>(
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
