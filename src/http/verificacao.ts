import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Cofre } from './cofre.ts';

/**
 * What must survive between sending a person to the login provider and their return (state,
 * nonce, PKCE verifier), sealed into a short cookie that only the callback path receives. Both
 * faces keep theirs this way, each under its own name and path.
 */
const DURACAO_VERIFICACAO_MS = 10 * 60 * 1000;

export interface CookieDeVerificacao {
  readonly nome: string;
  /** The callback path: the only one the browser sends the cookie to. */
  readonly caminho: string;
  readonly seguro: boolean;
}

export function gravarVerificacao(
  reply: FastifyReply,
  cofre: Cofre,
  v: object,
  agoraMs: number,
  cookie: CookieDeVerificacao,
): void {
  reply.setCookie(cookie.nome, cofre.selar(v, agoraMs + DURACAO_VERIFICACAO_MS), {
    path: cookie.caminho,
    httpOnly: true,
    sameSite: 'lax',
    secure: cookie.seguro,
    maxAge: DURACAO_VERIFICACAO_MS / 1000,
  });
}

/** The sealed fields, when the cookie is there, authentic and not expired; each face checks their shape. */
export function abrirVerificacao(
  req: FastifyRequest,
  cofre: Cofre,
  agoraMs: number,
  nome: string,
): Readonly<Record<string, unknown>> | null {
  const bruto = req.cookies[nome];
  if (bruto === undefined) return null;
  const v: unknown = cofre.abrir(bruto, agoraMs);
  return v !== null && typeof v === 'object' ? (v as Readonly<Record<string, unknown>>) : null;
}

export function apagarVerificacao(reply: FastifyReply, cookie: CookieDeVerificacao): void {
  reply.clearCookie(cookie.nome, { path: cookie.caminho, httpOnly: true, sameSite: 'lax', secure: cookie.seguro });
}
