import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Banco } from '../db/banco.ts';
import { contaDaSessao, type Conta } from '../domain/contas.ts';
import { perfisDaAcao, type AcaoMercados, type NomePerfil } from '../domain/politica-mercados.ts';
import type { Relogio } from '../domain/tempo.ts';
import { ehEscrita, verificarOrigem } from '../http/protecoes.ts';
import { apagarCookieSessao, lerTokenDaSessao, tokenCsrf } from './sessao.ts';

/**
 * What the access hooks read of the face's context (ContextoMercados has it all). NOTE: named
 * here rather than imported, because the context names the browser client, whose pages carry the
 * guards below: the hooks sit under the context, not beside it.
 */
export interface ContextoDeAcesso {
  readonly config: Pick<Config, 'sessionSecret'>;
  readonly banco: Banco;
  readonly relogio: Relogio;
  readonly cookiesSeguros: boolean;
  /** The public address, known once the server listens. */
  readonly baseUrl: () => string;
}

/** A route's access check: answers the request itself (and returns the reply) to refuse it. */
export type Middleware = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

/** Who may reach a route: anyone, or whoever a middleware lets through. */
export type Guarda = 'publico' | Middleware;

export const CAMINHO_GRAPHQL = '/graphql';

/** The body of an unauthenticated GraphQL request (spec, sections 5 and 7). */
export const ERRO_GRAPHQL_NAO_AUTENTICADO = {
  errors: [{ message: 'Não autenticado', extensions: { code: 'UNAUTHENTICATED' } }],
} as const;

/** The request path without its query string. */
export function caminhoDe(req: FastifyRequest): string {
  return req.url.split('?', 1)[0] ?? req.url;
}

/** Not logged in: 401 with the GraphQL errors list on /graphql, a redirect to /login elsewhere. */
export const isAuthenticated: Middleware = async (req, reply) => {
  if (req.conta !== null) return undefined;
  if (caminhoDe(req) === CAMINHO_GRAPHQL) return reply.code(401).send(ERRO_GRAPHQL_NAO_AUTENTICADO);
  return reply.redirect('/login', 302);
};

/**
 * The spec's 403 body (section 5, item 8): `required` says who may. The middlewares below answer it
 * for a missing profile; a route answers it for a record its profile does not reach (someone
 * else's market).
 */
export function acessoNegado(reply: FastifyReply, required: string): FastifyReply {
  return reply.code(403).send({ error: 'Acesso negado', required });
}

function exigirPerfis(aceitos: readonly NomePerfil[], required: string): Middleware {
  return async (req, reply) => {
    if (req.conta === null) return reply.code(401).send({ error: 'Não autenticado' });
    if (!req.conta.profiles.some((p) => aceitos.includes(p))) return acessoNegado(reply, required);
    return undefined;
  };
}

/** 401 when not logged in; 403 naming the profile when the account lacks it. */
export function hasProfile(name: NomePerfil): Middleware {
  return exigirPerfis([name], name);
}

/** 401 when not logged in; 403 naming the profiles when the account has none of them. */
export function hasAnyProfile(names: readonly NomePerfil[]): Middleware {
  return exigirPerfis(names, `Um dos perfis: ${names.join(', ')}`);
}

/**
 * A route's guard from the policy table (politica-mercados.ts): hasProfile when the action needs one
 * profile, hasAnyProfile when it needs one of several. A route names its action, never profiles,
 * as a GraphQL field's @auth must list its action's.
 */
export function guardaDaAcao(acao: AcaoMercados): Middleware {
  const perfis = perfisDaAcao(acao);
  if (perfis === 'qualquerConta') throw new Error(`a ação ${acao} não pede perfil: guarde a rota com isAuthenticated`);
  const [um, ...outros] = perfis;
  return um !== undefined && outros.length === 0 ? hasProfile(um) : hasAnyProfile(perfis);
}

/** What every GraphQL request carries (spec, section 5 item 7). */
export interface ContextoGraphql {
  readonly user: Conta | null;
  readonly isAuthenticated: boolean;
  hasProfile(name: NomePerfil): boolean;
  hasAnyProfile(names: readonly NomePerfil[]): boolean;
}

export function contextoGraphql(user: Conta | null): ContextoGraphql {
  return {
    user,
    isAuthenticated: user !== null,
    hasProfile: (name) => user?.profiles.includes(name) ?? false,
    hasAnyProfile: (names) => user?.profiles.some((p) => names.includes(p)) ?? false,
  };
}

/**
 * onRequest: reloads the account of the session cookie, if any (one query; none for anonymous
 * visitors, who get no session), then applies the route's guard. /graphql is guarded by
 * isAuthenticated whatever route serves it. Unmatched paths carry no guard and reach the 404.
 */
export function ganchoDeAcesso(ctx: ContextoDeAcesso) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    req.conta = null;
    req.tokenSessao = null;
    const token = lerTokenDaSessao(req);
    if (token !== undefined) {
      const conta = token === null ? null : await contaDaSessao(ctx.banco, token, ctx.relogio.agora());
      if (conta === null) {
        // Forged, expired or ended: the browser forgets it, and the visitor is anonymous.
        apagarCookieSessao(reply, { seguro: ctx.cookiesSeguros });
      } else {
        req.conta = conta;
        req.tokenSessao = token;
      }
    }
    if (caminhoDe(req) === CAMINHO_GRAPHQL) {
      const recusa = await isAuthenticated(req, reply);
      if (recusa !== undefined) return recusa;
    }
    const guarda = req.routeOptions.config.guarda;
    if (guarda === undefined || guarda === 'publico') return undefined;
    return guarda(req, reply);
  };
}

/** The CSRF token of the current session, to show to pages and hand to the browser client. */
export function csrfDaRequisicao(ctx: ContextoDeAcesso, req: FastifyRequest): string | null {
  return req.tokenSessao === null ? null : tokenCsrf(ctx.config.sessionSecret, req.tokenSessao);
}

function ehJson(req: FastifyRequest): boolean {
  const tipo = (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  return tipo === 'application/json';
}

/**
 * preHandler: cross-site request forgery, by the rule both faces share (`verificarOrigem`). A
 * GraphQL write must also be application/json, as GraphQL over HTTP asks.
 */
export function ganchoCsrf(ctx: ContextoDeAcesso) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    verificarOrigem(req, new URL(ctx.baseUrl()).origin, csrfDaRequisicao(ctx, req));
    if (ehEscrita(req) && caminhoDe(req) === CAMINHO_GRAPHQL && !ehJson(req)) {
      return reply.code(415).send({
        errors: [
          { message: 'Envie a operação GraphQL como application/json', extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
        ],
      });
    }
    return undefined;
  };
}
