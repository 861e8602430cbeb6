import { MapperKind, getDirective, mapSchema } from '@graphql-tools/utils';
import { GraphQLError, defaultFieldResolver, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';
import { PROFILES, type NomePerfil } from '../../domain/politica-mercados.ts';
import type { ContextoGraphql } from '../acesso.ts';

/**
 * The @auth directive (spec, section 5 item 9) as a schema transform, and deny by default: a
 * root field (Query, Mutation) without @auth must be listed here as public, or the schema is not
 * built at all. @auth on fields of other types is honoured the same way.
 */

/** The public root fields, "Tipo.campo": the one list. Anything else needs @auth. */
export const CAMPOS_PUBLICOS: readonly string[] = [
  // Who am I: null for an anonymous caller, never an error. (The HTTP layer answers anonymous
  // /graphql requests with 401 before any field runs; the schema stays honest on its own.)
  'Query.me',
];

/** The schema breaks the access rules: raised while building it, so the service never starts. */
export class ErroDeEsquema extends Error {
  override name = 'ErroDeEsquema';
}

/** Spec, section 7: the GraphQL authentication error. */
export function naoAutenticado(): GraphQLError {
  return new GraphQLError('Não autenticado', { extensions: { code: 'UNAUTHENTICATED' } });
}

/** The forbidden error, naming the profiles the field requires. */
export function acessoNegado(requires: readonly NomePerfil[]): GraphQLError {
  const mensagem =
    requires.length === 1 ? `Acesso negado: requer o perfil ${requires[0] ?? ''}` : `Acesso negado: requer um dos perfis ${requires.join(', ')}`;
  return new GraphQLError(mensagem, { extensions: { code: 'FORBIDDEN', required: [...requires] } });
}

/** Not logged in → UNAUTHENTICATED; `requires` given and none of them held → FORBIDDEN. */
export function exigirAcesso(ctx: ContextoGraphql, requires: readonly NomePerfil[]): void {
  if (!ctx.isAuthenticated) throw naoAutenticado();
  if (requires.length > 0 && !ctx.hasAnyProfile(requires)) throw acessoNegado(requires);
}

function lerRequires(valor: unknown, coordenada: string): NomePerfil[] {
  const lista: unknown[] = valor === undefined || valor === null ? [] : Array.isArray(valor) ? valor : [valor];
  const desconhecidos = lista.filter((p) => !(PROFILES as readonly unknown[]).includes(p));
  if (desconhecidos.length > 0) {
    throw new ErroDeEsquema(`@auth em ${coordenada} pede perfis desconhecidos: ${desconhecidos.join(', ')} (use ${PROFILES.join(', ')})`);
  }
  return lista as NomePerfil[];
}

function protegido(campo: GraphQLFieldConfig<unknown, ContextoGraphql>, requires: readonly NomePerfil[]): GraphQLFieldConfig<unknown, ContextoGraphql> {
  const resolver = campo.resolve ?? defaultFieldResolver;
  return {
    ...campo,
    resolve(origem, args, ctx, info) {
      exigirAcesso(ctx, requires);
      return resolver(origem, args, ctx, info);
    },
  };
}

/**
 * Applies @auth to every field that carries it and refuses to build a schema whose root fields
 * are neither protected nor listed as public (or listed as both, or listed but absent).
 */
export function aplicarAuth(schema: GraphQLSchema, publicos: readonly string[] = CAMPOS_PUBLICOS): GraphQLSchema {
  const raizes = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((t) => t?.name));
  const listados = new Set(publicos);
  const semRegra: string[] = [];
  const vistos = new Set<string>();
  const transformado = mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (campo, nome, tipo) => {
      const coordenada = `${tipo}.${nome}`;
      const auth = getDirective(schema, campo, 'auth')?.[0];
      if (raizes.has(tipo)) {
        vistos.add(coordenada);
        if (auth === undefined && !listados.has(coordenada)) semRegra.push(coordenada);
        if (auth !== undefined && listados.has(coordenada)) {
          throw new ErroDeEsquema(`${coordenada} tem @auth e também está em CAMPOS_PUBLICOS: escolha um dos dois`);
        }
      }
      if (auth === undefined) return campo;
      return protegido(campo, lerRequires(auth.requires, coordenada));
    },
  });
  if (semRegra.length > 0) {
    throw new ErroDeEsquema(`Campos sem regra de acesso (use @auth ou liste em CAMPOS_PUBLICOS): ${semRegra.join(', ')}`);
  }
  const sobrando = publicos.filter((c) => !vistos.has(c));
  if (sobrando.length > 0) throw new ErroDeEsquema(`CAMPOS_PUBLICOS cita campos que não existem: ${sobrando.join(', ')}`);
  return transformado;
}
