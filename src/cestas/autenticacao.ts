import type { FastifyReply, FastifyRequest } from 'fastify';
import { autorizar, type Ator } from '../domain/acesso.ts';
import { Proibido } from '../domain/erros.ts';
import { atorDaSessao } from '../domain/usuarios.ts';
import { ErroHttp } from '../http/erros.ts';
import { verificarOrigem } from '../http/protecoes.ts';
import type { ContextoCestas } from './contexto-cestas.ts';
import { ErroLogin } from './oidc.ts';
import { caminhoLocal, lerAviso, querJson } from './resposta.ts';
import { gravarVerificacao } from '../http/verificacao.ts';
import { saiuAntes } from '../http/saida.ts';
import { COOKIE_SESSAO, apagarSessao, cookieDeSaida, cookieDeVerificacao, lerSessao, renovarUso } from './sessao.ts';
import type { Acesso } from './tipos-fastify.ts';

/**
 * Login attempts (returns from the provider, whether they succeed or fail) per client address.
 * NOTE: generous, because a whole community may share one address (a school or association
 * network, a phone carrier's NAT). Sending someone to the provider is not an attempt: every
 * anonymous visit does it, and counting those let a handful of requests lock a community out.
 */
export const LIMITE_LOGIN = { tentativas: 100, janelaMs: 15 * 60 * 1000 } as const;

export async function limitarLogin(ctx: ContextoCestas, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const t = await ctx.limitador.contar(
    `cestas-login:${req.ip}`,
    LIMITE_LOGIN.tentativas,
    LIMITE_LOGIN.janelaMs,
    ctx.relogio.agora(),
  );
  if (!t.permitido) {
    reply.header('retry-after', Math.max(1, Math.ceil((t.fimDaJanela - ctx.relogio.agora().getTime()) / 1000)));
    throw new ErroHttp(429, 'MUITAS_TENTATIVAS', 'Muitas tentativas de login. Tente novamente em 15 minutos.');
  }
}

/**
 * Starts the OpenID Connect login: a redirect to the provider's authorize address; after a logout
 * in this browser, one that asks the provider to authenticate the person again.
 */
export async function iniciarLogin(
  ctx: ContextoCestas,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { url, verificacao } = await ctx.oidc
    .iniciar(caminhoLocal(req.url), saiuAntes(req, cookieDeSaida({ seguro: ctx.cookiesSeguros })))
    .catch((e: unknown) => {
      if (!(e instanceof ErroLogin)) throw e;
      req.log.error({ err: e.cause ?? e }, 'provedor de login indisponível');
      throw new ErroHttp(503, 'PROVEDOR_INDISPONIVEL', e.message);
    });
  gravarVerificacao(
    reply,
    ctx.cofreVerificacao,
    verificacao,
    ctx.relogio.agora().getTime(),
    cookieDeVerificacao({ seguro: ctx.cookiesSeguros }),
  );
  return reply.redirect(url.href, 302);
}

/**
 * Loads the actor and applies the route's access rule. Returns a reply when it answered the
 * request itself (a redirect), undefined to go on; throws to refuse.
 */
export async function exigirAcesso(
  ctx: ContextoCestas,
  req: FastifyRequest,
  reply: FastifyReply,
  acesso: Exclude<Acesso, 'publico'>,
): Promise<FastifyReply | undefined> {
  if (req.sessao === null) {
    if (req.method === 'GET' && !querJson(req)) return iniciarLogin(ctx, req, reply);
    throw new ErroHttp(401, 'NAO_AUTENTICADO', 'Não autenticado');
  }
  // The access hook loaded the actor with the session check.
  const ator = atorDe(req);
  if (ator.usuarioid !== null && !ator.ativo) {
    throw new Proibido('USUARIO_INATIVO', 'Seu cadastro está desativado. Fale com a coordenação da comunidade.');
  }
  if (acesso === 'identidade') return undefined;
  if (ator.usuarioid === null) {
    if (req.method === 'GET' && !querJson(req)) return reply.redirect('/usuarionovo', 302);
    throw new Proibido('CADASTRO_PENDENTE', 'Complete seu cadastro em /usuarionovo antes de continuar');
  }
  autorizar(ator, acesso);
  return undefined;
}

/**
 * onRequest: session, one-time message, then the route's access rule (deny by default). A session
 * is checked against the database on every route, public ones included, so a session that has
 * ended (logout, "sair de todos", a new e-mail) is no session anywhere.
 */
export function ganchoDeAcesso(ctx: ContextoCestas) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const agoraMs = ctx.relogio.agora().getTime();
    req.sessao = lerSessao(req, ctx.cofreSessao, agoraMs, ctx.config.sessaoOciosaMs);
    req.ator = null;
    if (req.sessao === null && req.cookies[COOKIE_SESSAO] !== undefined)
      apagarSessao(reply, { seguro: ctx.cookiesSeguros });
    req.flash = req.method === 'GET' ? lerAviso(req, reply) : null;
    const acesso = req.routeOptions.config.acesso;
    // Unmatched requests (404) carry no rule and reach only the not-found handler.
    if (acesso === undefined) return undefined;
    if (req.sessao !== null) {
      // Whatever answers a logged-in person is theirs alone: no shared or browser cache keeps it.
      reply.header('cache-control', 'no-store');
      // One query: the session has not ended, and who it belongs to.
      req.ator = await atorDaSessao(ctx.banco, req.sessao);
      if (req.ator === null) {
        req.sessao = null;
        apagarSessao(reply, { seguro: ctx.cookiesSeguros });
      } else {
        renovarUso(reply, ctx.cofreSessao, req.sessao, agoraMs, { seguro: ctx.cookiesSeguros });
      }
    }
    if (acesso === 'publico') return undefined;
    return exigirAcesso(ctx, req, reply, acesso);
  };
}

/** preHandler: cross-site request forgery, by the rule both faces share (`verificarOrigem`). */
export function ganchoCsrf(ctx: ContextoCestas) {
  return async (req: FastifyRequest): Promise<void> => {
    verificarOrigem(req, new URL(ctx.baseUrl()).origin, req.sessao?.csrf ?? null);
  };
}

/** The actor of a request whose route's access rule has run (any rule but 'publico'). */
export function atorDe(req: FastifyRequest): Ator {
  if (req.ator === null) throw new Error(`${req.method} ${req.url}: sem ator; a regra de acesso da rota não rodou`);
  return req.ator;
}
