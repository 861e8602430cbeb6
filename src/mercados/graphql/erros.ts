import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { GraphQLError, type ASTNode, type GraphQLSchema } from 'graphql';
import { Conflito, ErroDominio, Invalido, NaoEncontrado, Proibido } from '../../domain/erros.ts';
import type { ContextoResolvers } from './contexto-resolvers.ts';

/**
 * The one place where failures become GraphQL errors. Domain errors keep their Portuguese
 * message and get a stable `extensions.code`; anything unexpected is logged with the request id
 * and reaches the client as a generic message with that id, never with its own text.
 */

/** Domain error class → GraphQL extensions.code. */
const CODIGOS: ReadonlyArray<readonly [new (...a: never[]) => ErroDominio, string]> = [
  [Invalido, 'BAD_USER_INPUT'],
  [Proibido, 'FORBIDDEN'],
  [NaoEncontrado, 'NOT_FOUND'],
  [Conflito, 'CONFLICT'],
];

/** Invalid input: the message names every field; `field` is the first, `fields` all of them. */
export function entradaInvalida(
  campos: Readonly<Record<string, unknown>>,
  motivo = 'VALIDACAO',
  nos?: readonly ASTNode[],
): GraphQLError {
  const pares = Object.entries(campos).map(([campo, mensagem]) => [campo, String(mensagem)] as const);
  return new GraphQLError(pares.map(([campo, mensagem]) => `${campo}: ${mensagem}`).join('; '), {
    ...(nos === undefined ? {} : { nodes: nos }),
    extensions: { code: 'BAD_USER_INPUT', motivo, field: pares[0]?.[0], fields: Object.fromEntries(pares) },
  });
}

export function mensagemDeErroInterno(requestId: string): string {
  return `Erro interno. Informe o código ${requestId} à administração.`;
}

/** Maps whatever a resolver threw to what the client is told. */
export function erroParaCliente(erro: unknown, ctx: Pick<ContextoResolvers, 'requestId' | 'log'>): GraphQLError {
  if (erro instanceof GraphQLError) return erro;
  if (erro instanceof ErroDominio) {
    const codigo = CODIGOS.find(([classe]) => erro instanceof classe)?.[1] ?? 'INTERNAL_SERVER_ERROR';
    if (erro instanceof Invalido && erro.detalhes !== undefined && Object.keys(erro.detalhes).length > 0) {
      return entradaInvalida(erro.detalhes, erro.codigo);
    }
    // A refusal's details (what is left of a product, which basket passes its ceiling) go along.
    const detalhes =
      erro.detalhes === undefined || Object.keys(erro.detalhes).length === 0 ? {} : { detalhes: erro.detalhes };
    return new GraphQLError(erro.message, { extensions: { code: codigo, motivo: erro.codigo, ...detalhes } });
  }
  ctx.log.error({ err: erro }, 'erro interno no GraphQL');
  return new GraphQLError(mensagemDeErroInterno(ctx.requestId), { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}

function ehPromessa(v: unknown): v is PromiseLike<unknown> {
  return (
    v !== null &&
    (typeof v === 'object' || typeof v === 'function') &&
    typeof (v as { then?: unknown }).then === 'function'
  );
}

/**
 * Wraps every field that has its own resolver so that its failures pass through erroParaCliente.
 * NOTE: a synchronous resolver stays synchronous: making every wrapped field async cost one
 * promise per field per row (12,000 for 200 markets with 20 prices each) and showed in the
 * profile of the markets query.
 */
export function traduzirErros(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (campo) => {
      const resolver = campo.resolve;
      if (resolver === undefined) return campo;
      return {
        ...campo,
        resolve(origem, args, ctx: ContextoResolvers, info) {
          let r: unknown;
          try {
            r = resolver(origem, args, ctx, info);
          } catch (e) {
            throw erroParaCliente(e, ctx);
          }
          if (!ehPromessa(r)) return r;
          return Promise.resolve(r).catch((e: unknown) => {
            throw erroParaCliente(e, ctx);
          });
        },
      };
    },
  });
}

/** A GraphQL error raised on purpose, however many times graphql-js re-wrapped it on the way out. */
function ehDeProposito(erro: unknown): boolean {
  if (!(erro instanceof GraphQLError)) return false;
  return erro.originalError === undefined || erro.originalError === null || ehDeProposito(erro.originalError);
}

/**
 * Yoga's last line: errors that escaped every resolver (a failure building the context, a value
 * the scalars cannot serialise). GraphQL errors raised on purpose pass; anything else loses its
 * text (Yoga logs the original).
 */
export function mascararErro(erro: unknown): Error {
  if (ehDeProposito(erro)) return erro as GraphQLError;
  return new GraphQLError('Erro interno. Tente novamente; se persistir, informe a administração.', {
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
