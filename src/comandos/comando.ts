/**
 * A command: one write use case, declared once (its schema, the ids whose ownership is checked
 * first, and how it becomes the domain's input), read by both faces. A Cestas route declares
 * `corpo` as its body, so `req.body` is the command; a GraphQL resolver calls `lerComando` on its
 * arguments. Either way the ownership check runs first, on the ids the command names, before any
 * other field is judged: someone else's id is refused as such, never answered with a validation
 * message about that person's data.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { type Nomear } from './leitor/leitura.ts';
import { idNomeado } from './leitor/palavras.ts';

export interface Comando<T> {
  /** The body of a route that reads it: documents the wire, and reads into T (src/http/esquemas.ts). */
  readonly corpo: TSchema & { static: T };
  /** The command's own fields, which a face may name differently (GraphQL: `cicloid` → `cicloId`). */
  readonly raizes: readonly string[];
  /** The people the input names (null: none), for the ownership check that runs before everything. */
  donos(dados: unknown): ReadonlyArray<number | null>;
  /** Reads the input into the command, or throws one Invalido naming every refused field. */
  ler(dados: unknown, nomear: Nomear): T;
}

const registrados = new WeakMap<object, Comando<unknown>>();

/** Declares a command; its `corpo` is the schema a route gives as its body. */
export function comando<T>(nome: string, esquema: TSchema, c: Omit<Comando<T>, 'corpo'>): Comando<T> {
  const corpo = Type.Unsafe<T>({ ...esquema, 'x-comando': nome });
  const declarado: Comando<T> = { ...c, corpo };
  registrados.set(corpo, declarado as Comando<unknown>);
  return declarado;
}

const dasAlteracoes = new WeakMap<object, TSchema>();

/**
 * The body of a route that changes a record that exists, where a JSON body's missing fields keep
 * the record's values (src/cestas/comandos.ts, `mantendoOQueNaoVeio`): the same command, read the
 * same way, documented with no field required.
 */
export function corpoDaAlteracao<T>(c: Comando<T>): TSchema & { static: T } {
  const feito = dasAlteracoes.get(c.corpo);
  if (feito !== undefined) return feito as TSchema & { static: T };
  const descricao = typeof c.corpo.description === 'string' ? `${c.corpo.description}. ` : '';
  const corpo = Type.Unsafe<T>({
    ...c.corpo,
    required: [],
    description: `${descricao}Numa alteração em JSON, o campo que não vem fica como está; null apaga o que pode ficar vazio`,
  });
  registrados.set(corpo, c as Comando<unknown>);
  dasAlteracoes.set(c.corpo, corpo);
  return corpo;
}

/** The command a route's body schema declares (undefined: a schema of its own). */
export function comandoDoCorpo(esquema: unknown): Comando<unknown> | undefined {
  if (esquema === null || typeof esquema !== 'object') return undefined;
  const c = registrados.get(esquema);
  if (c === undefined && 'x-comando' in esquema)
    throw new Error(
      `O esquema do comando ${String(esquema['x-comando'])} foi copiado: declare o corpo do próprio comando`,
    );
  return c;
}

/** The ownership check first, on every person the input names; then the reading. */
export function lerComando<T>(
  c: Comando<T>,
  dados: unknown,
  nomear: Nomear,
  dono: (usuarioid: number | null) => void,
): T {
  for (const u of c.donos(dados)) dono(u);
  return c.ler(dados, nomear);
}

const ehRegistro = (v: unknown): v is Record<string | symbol, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The people a body names as `usuarioid`: flat, and in the contract's nested resource
 * (`pedido.usuarioid`) when it differs; each goes through the ownership check.
 */
export function donosDoRecurso(dados: unknown, recurso: string | null): Array<number | null> {
  const corpo = ehRegistro(dados) ? dados : {};
  const dentro = recurso === null ? undefined : corpo[recurso];
  const ids = [
    idNomeado(ehRegistro(dentro) && Object.hasOwn(dentro, 'usuarioid') ? dentro.usuarioid : corpo.usuarioid),
  ];
  if (
    ehRegistro(dentro) &&
    Object.hasOwn(dentro, 'usuarioid') &&
    Object.hasOwn(corpo, 'usuarioid') &&
    dentro.usuarioid !== corpo.usuarioid
  )
    ids.push(idNomeado(corpo.usuarioid));
  return ids;
}

/**
 * The contract writes a resource's own fields nested (`pedido.pontoEntregaId`) beside its
 * `produtos[]`; a program may send that shape or the flat one, and both read the same. A field
 * given both ways with different values is refused (`pedido.cicloid`).
 */
export function achatar(
  corpo: Readonly<Record<string | symbol, unknown>>,
  recurso: string,
): { plano: Record<string | symbol, unknown>; recusas: Array<[string[], string]> } {
  const { [recurso]: dentro, ...fora } = corpo;
  if (dentro === undefined) return { plano: fora, recusas: [] };
  if (!ehRegistro(dentro)) return { plano: fora, recusas: [[[recurso], 'Deve ser um objeto']] };
  const recusas = Object.keys(dentro)
    .filter((k) => Object.hasOwn(fora, k) && fora[k] !== dentro[k])
    .map((k): [string[], string] => [[recurso, k], `Difere do ${k} informado fora de "${recurso}"`]);
  return { plano: { ...fora, ...dentro }, recusas };
}
