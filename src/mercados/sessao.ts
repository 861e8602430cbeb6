import type {} from '@fastify/cookie';
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DURACAO_SESSAO_MS } from '../domain/contas.ts';
import type { Cofre } from '../http/cofre.ts';
import type { Verificacao } from './oauth.ts';

/**
 * The Mercados session cookie carries only a random token, signed with SESSION_SECRET; the
 * session itself lives in the database. The name differs from Cestas' appSession because
 * browsers share cookies between ports of one host.
 */
export const COOKIE_SESSAO = 'mercadosSession';
export const COOKIE_VERIFICACAO = 'mercados_auth';
const DURACAO_VERIFICACAO_MS = 10 * 60 * 1000;

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

/** State, nonce and PKCE verifier, sealed into a short cookie visible only to the callback. */
export function gravarVerificacao(
  reply: FastifyReply,
  cofre: Cofre,
  v: Verificacao,
  agoraMs: number,
  opcoes: OpcoesCookie & { readonly caminho: string },
): void {
  reply.setCookie(COOKIE_VERIFICACAO, cofre.selar(v, agoraMs + DURACAO_VERIFICACAO_MS), {
    path: opcoes.caminho,
    httpOnly: true,
    sameSite: 'lax',
    secure: opcoes.seguro,
    maxAge: DURACAO_VERIFICACAO_MS / 1000,
  });
}

export function lerVerificacao(req: FastifyRequest, cofre: Cofre, agoraMs: number): Verificacao | null {
  const bruto = req.cookies[COOKIE_VERIFICACAO];
  if (bruto === undefined) return null;
  const v = cofre.abrir(bruto, agoraMs);
  if (v === null || typeof v !== 'object') return null;
  const { state, nonce, verifier } = v as Record<string, unknown>;
  if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string') return null;
  return { state, nonce, verifier };
}

export function apagarVerificacao(reply: FastifyReply, opcoes: OpcoesCookie & { readonly caminho: string }): void {
  reply.clearCookie(COOKIE_VERIFICACAO, { path: opcoes.caminho, httpOnly: true, sameSite: 'lax', secure: opcoes.seguro });
}
