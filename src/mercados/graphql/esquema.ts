import { readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { ACOES_DOS_CAMPOS, CAMPOS_PUBLICOS, aplicarAuth } from './acesso.ts';
import type { AcaoMercados } from '../../domain/politica-mercados.ts';
import { traduzirErros } from './erros.ts';
import { resolvers } from './resolvers.ts';
import { PESOS } from './limites.ts';
import { limitarTrabalho } from './trabalho.ts';

/** The schema file: the source of truth of the Mercados API. */
export const SDL = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');

/**
 * The executable schema: SDL and resolvers, then @auth (which refuses to build when a root field
 * has no access rule), then the bounds on each request's work (trabalho.ts), then the translation
 * of every failure into a client-safe GraphQL error.
 */
export function criarEsquema(
  opcoes: {
    readonly sdl?: string;
    readonly publicos?: readonly string[];
    readonly acoes?: Readonly<Record<string, AcaoMercados>>;
  } = {},
): GraphQLSchema {
  const base = makeExecutableSchema({ typeDefs: opcoes.sdl ?? SDL, resolvers });
  const protegido = aplicarAuth(base, opcoes.publicos ?? CAMPOS_PUBLICOS, opcoes.acoes ?? ACOES_DOS_CAMPOS);
  return traduzirErros(limitarTrabalho(protegido, new Set(Object.keys(PESOS))));
}
