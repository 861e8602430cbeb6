import { MapperKind, getDirective, mapSchema } from '@graphql-tools/utils';
import { GraphQLError, defaultFieldResolver, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql';
import { PROFILES, perfisDaAcao, type AcaoMercados, type NomePerfil } from '../../domain/politica-mercados.ts';
import type { ContextoGraphql } from '../acesso.ts';

/**
 * The @auth directive (spec, section 5 item 9) as a schema transform, and deny by default: a
 * root field (Query, Mutation) without @auth must be listed here as public, or the schema is not
 * built at all. @auth on fields of other types is honoured the same way.
 *
 * One source of truth for who may call a field: each field with @auth names, in ACOES_DOS_CAMPOS,
 * the action of the Mercados policy (src/domain/politica-mercados.ts) its resolver authorises,
 * and its `requires` must list exactly the profiles that action needs (none: any account).
 * A field without an action, an action for a field that does not exist, or a list that differs
 * from the policy's stops the schema from being built, so the service does not start.
 */

/** The public root fields, "Tipo.campo": the one list. Anything else needs @auth. */
export const CAMPOS_PUBLICOS: readonly string[] = [
  // Who am I: null for an anonymous caller, never an error. (The HTTP layer answers anonymous
  // /graphql requests with 401 before any field runs; the schema stays honest on its own.)
  'Query.me',
];

/** Each field with @auth → the policy action that decides who may call it. */
export const ACOES_DOS_CAMPOS: Readonly<Record<string, AcaoMercados>> = {
  'Query.mercados': 'verMercados',
  'Query.mercado': 'verMercados',
  // The kinds of market and what each can do: part of reading markets.
  'Query.tiposDeMercado': 'verMercados',
  'Query.produtos': 'verCatalogo',
  'Query.usuarios': 'listarUsuarios',
  'Query.meusAvisos': 'escolherAvisos',
  'Query.ciclos': 'verCiclos',
  'Query.ciclo': 'verCiclos',
  'Query.minhaOferta': 'ofertar',
  'Query.produtosParaOfertar': 'ofertar',
  'Query.minhasEntregas': 'ofertar',
  'Query.minhasOfertas': 'ofertar',
  'Query.meusPedidos': 'pedir',
  'Query.minhaCobranca': 'pedir',
  'Query.minhasAssinaturas': 'pedir',
  'Query.pedidosDoMercado': 'verPedidosDoMercado',
  // Each person's own steps: any account, read from their own records only.
  'Query.meusProximosPassos': 'verCiclos',
  // The pickup day: any account at the gate; who works at which point is the domain's rule
  // (src/domain/retirada/acesso.ts), checked before anything else.
  'Query.meusPontosDeRetirada': 'trabalharNaRetirada',
  'Query.retiradaDoPonto': 'trabalharNaRetirada',
  'Mutation.sincronizarRetirada': 'trabalharNaRetirada',
  // The days suppliers deliver: part of what one delivers.
  'Ciclo.diasDeEntrega': 'ofertar',
  'Mutation.criarMercado': 'criarMercado',
  'Mutation.atualizarMercado': 'atualizarMercado',
  'Mutation.desativarMercado': 'desativarMercado',
  'Mutation.atualizarPrecoMercado': 'atualizarPrecos',
  'Mutation.atribuirPerfis': 'atribuirPerfis',
  'Mutation.salvarOferta': 'gravarOferta',
  'Mutation.fazerPedido': 'gravarPedido',
  'Mutation.confirmarPedido': 'gravarPedido',
  'Mutation.definirMercadosDoCiclo': 'definirMercadosDoCiclo',
  'Mutation.definirMeusAvisos': 'escolherAvisos',
  'Mutation.salvarAssinatura': 'gravarAssinatura',
  'Mutation.pularCiclo': 'gravarAssinatura',
  'Mutation.registrarPagamentoDaTemporada': 'registrarPagamento',
};

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
    requires.length === 1
      ? `Acesso negado: requer o perfil ${requires[0] ?? ''}`
      : `Acesso negado: requer um dos perfis ${requires.join(', ')}`;
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
    throw new ErroDeEsquema(
      `@auth em ${coordenada} pede perfis desconhecidos: ${desconhecidos.join(', ')} (use ${PROFILES.join(', ')})`,
    );
  }
  return lista as NomePerfil[];
}

function protegido(
  campo: GraphQLFieldConfig<unknown, ContextoGraphql>,
  requires: readonly NomePerfil[],
): GraphQLFieldConfig<unknown, ContextoGraphql> {
  const resolver = campo.resolve ?? defaultFieldResolver;
  return {
    ...campo,
    resolve(origem, args, ctx, info) {
      exigirAcesso(ctx, requires);
      return resolver(origem, args, ctx, info);
    },
  };
}

/** Whether a field's `requires` says the same as the policy: the same profiles, or none for any account. */
function mesmosPerfis(requires: readonly NomePerfil[], acao: AcaoMercados): boolean {
  const politica = perfisDaAcao(acao);
  if (politica === 'qualquerConta') return requires.length === 0;
  return requires.length === politica.length && politica.every((p) => requires.includes(p));
}

const descrever = (perfis: readonly NomePerfil[] | 'qualquerConta'): string =>
  perfis === 'qualquerConta' || perfis.length === 0 ? 'qualquer conta' : perfis.join(', ');

/**
 * Applies @auth to every field that carries it and refuses to build a schema whose root fields
 * are neither protected nor listed as public (or listed as both, or listed but absent), or whose
 * @auth lists disagree with the policy actions of `acoes`.
 */
export function aplicarAuth(
  schema: GraphQLSchema,
  publicos: readonly string[] = CAMPOS_PUBLICOS,
  acoes: Readonly<Record<string, AcaoMercados>> = ACOES_DOS_CAMPOS,
): GraphQLSchema {
  const raizes = new Set(
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map((t) => t?.name),
  );
  const listados = new Set(publicos);
  const semRegra: string[] = [];
  const semAcao: string[] = [];
  const discordantes: string[] = [];
  const vistos = new Set<string>();
  const protegidos = new Set<string>();
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
      protegidos.add(coordenada);
      const requires = lerRequires(auth.requires, coordenada);
      const acao = Object.hasOwn(acoes, coordenada) ? acoes[coordenada] : undefined;
      if (acao === undefined) semAcao.push(coordenada);
      else if (!mesmosPerfis(requires, acao)) {
        discordantes.push(
          `${coordenada} (@auth: ${descrever(requires)}; política, ${acao}: ${descrever(perfisDaAcao(acao))})`,
        );
      }
      return protegido(campo, requires);
    },
  });
  if (semRegra.length > 0) {
    throw new ErroDeEsquema(
      `Campos sem regra de acesso (use @auth ou liste em CAMPOS_PUBLICOS): ${semRegra.join(', ')}`,
    );
  }
  const sobrando = publicos.filter((c) => !vistos.has(c));
  if (sobrando.length > 0)
    throw new ErroDeEsquema(`CAMPOS_PUBLICOS cita campos que não existem: ${sobrando.join(', ')}`);
  if (semAcao.length > 0) {
    throw new ErroDeEsquema(`Campos com @auth sem ação da política em ACOES_DOS_CAMPOS: ${semAcao.join(', ')}`);
  }
  const semCampo = Object.keys(acoes).filter((c) => !protegidos.has(c));
  if (semCampo.length > 0)
    throw new ErroDeEsquema(`ACOES_DOS_CAMPOS cita campos sem @auth ou que não existem: ${semCampo.join(', ')}`);
  if (discordantes.length > 0) {
    throw new ErroDeEsquema(
      `@auth difere da política da face Mercados (src/domain/politica-mercados.ts): ${discordantes.join('; ')}`,
    );
  }
  return transformado;
}
