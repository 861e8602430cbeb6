import type {} from '@fastify/cookie';
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DURACAO_SESSAO_MS } from '../domain/contas.ts';
import type { Cofre } from '../http/cofre.ts';
import type { CookieDeSaida } from '../http/saida.ts';
import { abrirVerificacao, type CookieDeVerificacao } from '../http/verificacao.ts';
import { COOKIE_SAIDA_MERCADOS, COOKIE_SESSAO_MERCADOS } from '../http/sessoes-das-faces.ts';
import type { Verificacao } from './oauth.ts';

/**
 * The Mercados session cookie carries only a random token, signed with SESSION_SECRET; the
 * session itself lives in the database. The name differs from Cestas' appSession because
 * browsers share cookies between ports of one host.
 */
export const COOKIE_SESSAO = COOKIE_SESSAO_MERCADOS;
export const COOKIE_VERIFICACAO = 'mercados_auth';
export const COOKIE_SAIDA = COOKIE_SAIDA_MERCADOS;

interface OpcoesCookie {
  readonly seguro: boolean;
}

/**
 * The token in the session cookie: undefined when there is no cookie, null when it is there but
 * its signature does not hold.
 */
export function lerTokenDaSessao(req: FastifyRequest): string | null | undefined {
  const bruto = req.cookies[COOKIE_SESSAO];
  if (bruto === undefined) return undefined;
  const r = req.unsignCookie(bruto);
  return r.valid && r.value !== null && r.value !== '' ? r.value : null;
}

export function gravarCookieSessao(reply: FastifyReply, token: string, opcoes: OpcoesCookie): void {
  reply.setCookie(COOKIE_SESSAO, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: opcoes.seguro,
    signed: true,
    maxAge: DURACAO_SESSAO_MS / 1000,
  });
}

export function apagarCookieSessao(reply: FastifyReply, opcoes: OpcoesCookie): void {
  reply.clearCookie(COOKIE_SESSAO, { path: '/', httpOnly: true, sameSite: 'lax', secure: opcoes.seguro });
}

/**
 * The session's CSRF token, derived from its secret token: nothing more is stored in the session
 * than the user id, and showing this token to the page reveals nothing about the cookie.
 */
export function tokenCsrf(segredo: string, tokenSessao: string): string {
  return createHmac('sha256', segredo).update(`csrf:${tokenSessao}`).digest('base64url');
}

/** The mark a Mercados logout leaves (`src/http/saida.ts`): the next login asks the provider again. */
export const cookieDeSaida = (opcoes: OpcoesCookie): CookieDeSaida => ({ nome: COOKIE_SAIDA, seguro: opcoes.seguro });

/** The Mercados login's verification cookie (`src/http/verificacao.ts`), sent only to its callback. */
export const cookieDeVerificacao = (opcoes: OpcoesCookie & { readonly caminho: string }): CookieDeVerificacao => ({
  nome: COOKIE_VERIFICACAO,
  caminho: opcoes.caminho,
  seguro: opcoes.seguro,
});

/** The login's challenge, and where the login asked to come back to (`voltar`, checked by the callback). */
export function lerVerificacao(
  req: FastifyRequest,
  cofre: Cofre,
  agoraMs: number,
): { readonly desafio: Verificacao; readonly voltar?: string } | null {
  const v = abrirVerificacao(req, cofre, agoraMs, COOKIE_VERIFICACAO);
  if (v === null) return null;
  const { state, nonce, verifier, voltar } = v;
  if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string') return null;
  return { desafio: { state, nonce, verifier }, ...(typeof voltar === 'string' ? { voltar } : {}) };
}
