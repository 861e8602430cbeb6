import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { GraphQLError, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';

/**
 * The work one GraphQL request does, bounded in time and done once.
 *
 * - Once: the same computation asked again in the same request (the same root field with the
 *   same arguments under another alias, a cycle's markets under two cycles' aliases) shares the
 *   first one's result, through `lembrar` (a per-request memo keyed by what is computed). A write
 *   forgets it, so a later field of the same request reads the new state.
 * - In time: past PRAZO_MS since the operation started, no resolver starts any more and the answer
 *   is one error (CONSULTA_DEMORADA_DEMAIS).
 * - Without holding the process: Node runs one thing at a time, and on SQLite a statement runs
 *   synchronously, so a long chain of resolvers would hold every other request (the Cestas face's
 *   included) until it ends. A resolver that would start after FATIA_MS of work without a turn of
 *   the event loop waits for the next turn first (`vez`), so other requests are served in between.
 */

/** How long one operation may run. */
export const PRAZO_MS = 3_000;
/** The longest stretch of resolvers run without letting other requests in. */
export const FATIA_MS = 10;

export function erroDePrazo(): GraphQLError {
  return new GraphQLError(
    `A consulta passou de ${PRAZO_MS / 1000} segundos e foi interrompida. Peça menos campos ou divida a consulta em partes.`,
    { extensions: { code: 'CONSULTA_DEMORADA_DEMAIS', limiteMs: PRAZO_MS } },
  );
}

let ultimaVolta = performance.now();
let proxima: Promise<void> | null = null;

/** One promise for everyone waiting: it resolves on the event loop's next turn. */
function proximaVolta(): Promise<void> {
  proxima ??= new Promise<void>((ok) =>
    setImmediate(() => {
      proxima = null;
      ultimaVolta = performance.now();
      ok();
    }),
  );
  return proxima;
}

/** Whether the current stretch of work still fits in its slice. */
export function naFatia(): boolean {
  return performance.now() - ultimaVolta < FATIA_MS;
}

/**
 * Waits until the current slice has room: after the next turn of the event loop, those who find
 * the slice used up again wait for the one after, so each turn runs at most about one slice.
 */
export async function vez(): Promise<void> {
  do await proximaVolta();
  while (!naFatia());
}

export class TrabalhoDaRequisicao {
  readonly #fim: number;
  readonly #memo = new Map<string, unknown>();
  #esgotado = false;

  constructor(inicioMs = performance.now(), prazoMs = PRAZO_MS) {
    this.#fim = inicioMs + prazoMs;
  }

  /** Whether the deadline passed at some check of this request. */
  get esgotado(): boolean {
    return this.#esgotado;
  }

  /** Whether the deadline has passed: from then on nothing more starts. */
  passouDoPrazo(): boolean {
    if (!this.#esgotado && performance.now() > this.#fim) this.#esgotado = true;
    return this.#esgotado;
  }

  /**
   * The result of `fazer` for `chave`, computed at most once per request: the same key gets the
   * same value (the same promise, for async work), failures included.
   */
  lembrar<T>(chave: string, fazer: () => T): T {
    if (this.#memo.has(chave)) return this.#memo.get(chave) as T;
    const v = fazer();
    this.#memo.set(chave, v);
    return v;
  }

  /** After a write: what was computed before may be stale. */
  esquecer(): void {
    this.#memo.clear();
  }
}

function ehPromessa(v: unknown): v is PromiseLike<unknown> {
  return (
    v !== null &&
    (typeof v === 'object' || typeof v === 'function') &&
    typeof (v as { then?: unknown }).then === 'function'
  );
}

/** A value handed on at a turn of its own when the slice is used up: what graphql-js builds under it starts fresh. */
async function naSuaVez<T>(v: T): Promise<T> {
  if (!naFatia()) await vez();
  return v;
}

/**
 * Every field with a resolver of its own checks the deadline before it starts. The fields that do
 * work of their own (the root fields, and those named in `pesados`: the resolvers that read the
 * database or compute over a cycle) also wait their turn (see `vez`) before they start and again
 * before their answer is built, and the root fields of Query are computed once per request for
 * the same arguments, so a thousand aliases of one field do the work of one.
 *
 * NOTE: the other fields never wait: a market's admin and prices, a price's product are read by
 * batch loaders that gather every load of one tick into one statement, and a field deferred to a
 * later turn would make a second statement. A synchronous resolver stays synchronous (see
 * traduzirErros, erros.ts). Past the deadline a field fails with a rejected promise, never by
 * throwing: graphql-js abandons the promises of a list's earlier items when a later item throws,
 * and their failures would surface as unhandled rejections.
 */
export function limitarTrabalho(schema: GraphQLSchema, pesados: ReadonlySet<string>): GraphQLSchema {
  const raizes = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name].filter((n) => n !== undefined));
  const consulta = schema.getQueryType()?.name;
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (campo, nome, tipo) => {
      const resolver = campo.resolve;
      if (resolver === undefined) return campo;
      if (!raizes.has(tipo) && !pesados.has(`${tipo}.${nome}`)) {
        return {
          ...campo,
          resolve(origem, args, ctx: { trabalho: TrabalhoDaRequisicao }, info) {
            if (ctx.trabalho.passouDoPrazo()) return Promise.reject(erroDePrazo());
            return resolver(origem, args, ctx, info);
          },
        };
      }
      const resolverUmaVez: GraphQLFieldResolver<unknown, { trabalho: TrabalhoDaRequisicao }> =
        tipo === consulta
          ? (origem, args, ctx, info) =>
              ctx.trabalho.lembrar(`${tipo}.${nome}\u0000${JSON.stringify(args)}`, () =>
                resolver(origem, args, ctx, info),
              )
          : resolver;
      const rodar: GraphQLFieldResolver<unknown, { trabalho: TrabalhoDaRequisicao }> = (origem, args, ctx, info) => {
        if (ctx.trabalho.passouDoPrazo()) return Promise.reject(erroDePrazo());
        const r: unknown = resolverUmaVez(origem, args, ctx, info);
        return ehPromessa(r) ? Promise.resolve(r).then(naSuaVez) : r;
      };
      return {
        ...campo,
        resolve(origem, args, ctx: { trabalho: TrabalhoDaRequisicao }, info) {
          if (naFatia()) return rodar(origem, args, ctx, info);
          return vez().then(() => rodar(origem, args, ctx, info));
        },
      };
    },
  });
}
