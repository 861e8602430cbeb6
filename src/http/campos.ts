/**
 * Readers of untyped input, shared by both faces' edges: a JSON body, a form body (everything
 * text: "on", "12,50") and GraphQL arguments alike. `Campos` reads one object field by field into
 * typed values, collecting a Portuguese message per bad field, and throws one Invalido with all of
 * them; the domain only ever sees what it returns.
 */
import {
  ESCALA_DINHEIRO,
  ESCALA_QUANTIDADE,
  MAXIMO_PRECO_CENTAVOS,
  MAXIMO_QUANTIDADE_MILESIMOS,
  formatarLimite,
  lerDecimal,
  lerDecimalDigitado,
} from '../decimal.ts';
import { Invalido } from '../domain/erros.ts';
import { conferirTexto } from '../domain/textos.ts';

export type Entrada = Readonly<Record<string, unknown>>;

interface OpcoesTexto {
  readonly obrigatorio?: boolean;
  readonly max?: number;
  readonly min?: number;
}

interface OpcoesNumero {
  readonly obrigatorio?: boolean;
  readonly min?: number;
  readonly max?: number;
}

/** The limit of a decimal field that names none, by its scale: a unit price, a quantity. */
const MAXIMO_PADRAO: Readonly<Record<number, number>> = {
  [ESCALA_DINHEIRO]: MAXIMO_PRECO_CENTAVOS,
  [ESCALA_QUANTIDADE]: MAXIMO_QUANTIDADE_MILESIMOS,
};

/**
 * The largest record id, the mark of a body typed by people (a form), whose decimals are read the
 * way people type them (`lerDecimalDigitado`), and what a calendar day is: declared with the
 * commands (src/comandos).
 */
export { ehDataValida } from '../comandos/leitor/blocos.ts';
export { DIGITADO, MAIOR_ID } from '../comandos/leitor/comum.ts';
import { ehDataValida } from '../comandos/leitor/blocos.ts';
import { DIGITADO, MAIOR_ID } from '../comandos/leitor/comum.ts';

/** Turns an unknown body into a record, refusing arrays and scalars. */
export function comoEntrada(corpo: unknown): Entrada {
  if (corpo === null || corpo === undefined) return {};
  if (typeof corpo !== 'object' || Array.isArray(corpo)) {
    throw new Invalido('CORPO_INVALIDO', 'O corpo da requisição deve ser um objeto');
  }
  return corpo as Entrada;
}

/**
 * Reads the fields of one input (JSON or form-encoded alike), collecting a Portuguese message
 * per bad field; `concluir()` throws Invalido with all of them at once.
 */
export class Campos {
  readonly erros: Record<string, string> = {};
  readonly #entrada: Entrada;
  readonly #digitado: boolean;

  constructor(entrada: Entrada) {
    this.#entrada = entrada;
    this.#digitado = (entrada as { [DIGITADO]?: unknown })[DIGITADO] === true;
  }

  bruto(nome: string): unknown {
    return Object.hasOwn(this.#entrada, nome) ? this.#entrada[nome] : undefined;
  }

  presente(nome: string): boolean {
    const v = this.bruto(nome);
    return v !== undefined && v !== null && v !== '';
  }

  erro(nome: string, mensagem: string): void {
    this.erros[nome] ??= mensagem;
  }

  texto(nome: string, opcoes: OpcoesTexto & { obrigatorio: true }): string;
  texto(nome: string, opcoes?: OpcoesTexto): string | null;
  texto(nome: string, opcoes: OpcoesTexto = {}): string | null {
    const v = this.bruto(nome);
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) {
      if (opcoes.obrigatorio === true) this.erro(nome, 'Campo obrigatório');
      return opcoes.obrigatorio === true ? '' : null;
    }
    if (typeof v !== 'string') {
      this.erro(nome, 'Deve ser um texto');
      return '';
    }
    const { texto, problema } = conferirTexto(v, { max: opcoes.max ?? 500, min: opcoes.min });
    if (problema !== null) this.erro(nome, problema);
    return texto;
  }

  /** Checkbox-friendly: a missing field is false; "on", "true", "1" are true. */
  booleano(nome: string, padrao = false): boolean {
    const v = this.bruto(nome);
    if (v === undefined || v === null || v === '') return padrao;
    if (typeof v === 'boolean') return v;
    // A form with a hidden "false" and a checkbox "on" sends both; the last one wins.
    const ultimo = Array.isArray(v) ? v[v.length - 1] : v;
    if (ultimo === true || ultimo === 'true' || ultimo === 'on' || ultimo === '1' || ultimo === 1) return true;
    if (ultimo === false || ultimo === 'false' || ultimo === 'off' || ultimo === '0' || ultimo === 0) return false;
    this.erro(nome, 'Deve ser verdadeiro ou falso');
    return padrao;
  }

  inteiro(nome: string, opcoes: OpcoesNumero & { obrigatorio: true }): number;
  inteiro(nome: string, opcoes?: OpcoesNumero): number | null;
  inteiro(nome: string, opcoes: OpcoesNumero = {}): number | null {
    const v = this.bruto(nome);
    if (v === undefined || v === null || v === '') {
      if (opcoes.obrigatorio === true) this.erro(nome, 'Campo obrigatório');
      return opcoes.obrigatorio === true ? 0 : null;
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,15}$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n)) {
      this.erro(nome, 'Deve ser um número inteiro');
      return 0;
    }
    const min = opcoes.min ?? 0;
    if (n < min) this.erro(nome, min === 0 ? 'Não pode ser negativo' : `Deve ser no mínimo ${min}`);
    if (opcoes.max !== undefined && n > opcoes.max) this.erro(nome, `Deve ser no máximo ${opcoes.max}`);
    return n;
  }

  /**
   * A decimal at the given scale, returned as an integer (cents, thousandths). Unless the field
   * says otherwise (`max`), money is a unit price (at most MAXIMO_PRECO_CENTAVOS) and a quantity at
   * most MAXIMO_QUANTIDADE_MILESIMOS: what keeps every total exact (src/decimal.ts).
   */
  decimal(nome: string, escala: number, opcoes: OpcoesNumero & { obrigatorio: true }): number;
  decimal(nome: string, escala: number, opcoes?: OpcoesNumero): number | null;
  decimal(nome: string, escala: number, opcoes: OpcoesNumero = {}): number | null {
    const v = this.bruto(nome);
    if ((v === undefined || v === null || v === '') && opcoes.obrigatorio !== true) return null;
    return this.#decimalDe(nome, v, escala, opcoes);
  }

  #decimalDe(nome: string, v: unknown, escala: number, opcoes: OpcoesNumero): number {
    if (v === undefined || v === null || v === '') {
      if (opcoes.obrigatorio === true) this.erro(nome, 'Campo obrigatório');
      return 0;
    }
    const r = this.#digitado ? lerDecimalDigitado(v, escala) : lerDecimal(v, escala);
    if (!r.ok) {
      this.erro(nome, r.motivo.charAt(0).toUpperCase() + r.motivo.slice(1));
      return 0;
    }
    if (opcoes.min !== undefined && r.valor < opcoes.min) this.erro(nome, 'Deve ser maior que zero');
    const max = opcoes.max ?? MAXIMO_PADRAO[escala];
    if (max !== undefined && r.valor > max) this.erro(nome, `Use no máximo ${formatarLimite(max, escala)}`);
    return r.valor;
  }

  data(nome: string, opcoes: { obrigatorio: true }): string;
  data(nome: string, opcoes?: { obrigatorio?: boolean }): string | null;
  data(nome: string, opcoes: { obrigatorio?: boolean } = {}): string | null {
    const t = this.texto(nome, { obrigatorio: opcoes.obrigatorio === true, max: 10 });
    if (t === null || t === '') return t;
    if (!ehDataValida(t)) this.erro(nome, 'Data inválida: use AAAA-MM-DD');
    return t;
  }

  umDe<T extends string>(nome: string, valores: readonly T[], opcoes: { obrigatorio?: boolean } = {}): T | null {
    const t = this.texto(nome, { obrigatorio: opcoes.obrigatorio === true, max: 100 });
    if (t === null || t === '') return null;
    if (!(valores as readonly string[]).includes(t)) {
      this.erro(nome, `Valor inválido: use ${valores.join(', ')}`);
      return null;
    }
    return t as T;
  }

  /** A set of enum values: a JSON array, one form value, or repeated form values. */
  conjuntoDe<T extends string>(nome: string, valores: readonly T[]): T[] {
    const v = this.bruto(nome);
    const lista = v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v];
    const resultado: T[] = [];
    for (const item of lista) {
      if (typeof item !== 'string' || !(valores as readonly string[]).includes(item)) {
        this.erro(nome, `Valor inválido: use ${valores.join(', ')}`);
        return [];
      }
      if (!resultado.includes(item as T)) resultado.push(item as T);
    }
    return resultado;
  }

  /** Adds the messages of rules judged elsewhere (the domain's), keeping a field's first message. */
  juntar(erros: Readonly<Record<string, string>>): void {
    for (const [campo, mensagem] of Object.entries(erros)) this.erro(campo, mensagem);
  }

  /** Throws Invalido with every collected message, if any. */
  concluir(): void {
    if (Object.keys(this.erros).length > 0) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { ...this.erros });
    }
  }
}

/** A record id given as GraphQL ID (text) or number. */
export function lerId(valor: unknown, campo: string): number {
  const c = new Campos({ [campo]: valor });
  const id = c.inteiro(campo, { obrigatorio: true, min: 1, max: MAIOR_ID });
  c.concluir();
  return id;
}
