/** The commands' reader (src/comandos/leitor/): reading a command. */
import { type TSchema } from '@sinclair/typebox';
import { type ErrorObject, type ValidateFunction } from 'ajv';
import { Invalido } from '../../domain/erros.ts';
import type { Linha } from './blocos.ts';
import { PULADA, copiar, ehRegistro } from './comum.ts';
import { ajv } from './palavras.ts';

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

/** The words for a value of the wrong type (also a non-command body's, src/http/esquemas.ts). */
export const MENSAGENS_DE_TIPO: Readonly<Record<string, string>> = {
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
