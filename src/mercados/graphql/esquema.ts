import { readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { CAMPOS_PUBLICOS, aplicarAuth } from './acesso.ts';
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
export function criarEsquema(opcoes: { readonly sdl?: string; readonly publicos?: readonly string[] } = {}): GraphQLSchema {
  const base = makeExecutableSchema({ typeDefs: opcoes.sdl ?? SDL, resolvers });
  return traduzirErros(limitarTrabalho(aplicarAuth(base, opcoes.publicos ?? CAMPOS_PUBLICOS), new Set(Object.keys(PESOS))));
}
