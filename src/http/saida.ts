import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The mark a logout leaves in the browser, so the next login there asks the provider to
 * authenticate the person again (`prompt=login`) instead of riding on the provider's own session:
 * on a shared computer, "Sair" must not hand the account to whoever clicks "Entrar" next. Both
 * faces keep theirs this way, each under its own name (browsers share cookies between the ports
 * of one host). A successful login removes it.
 *
 * The mark says nothing about anyone and grants nothing: removing it only gives back the silent
 * login, and planting one only makes the next login ask for the password.
 */
export interface CookieDeSaida {
  readonly nome: string;
  readonly seguro: boolean;
}

/**
 * NOTE: it lasts as long as a provider's session commonly does (the development provider keeps
 * its for 14 days), not minutes: the next person at a library or school computer may sit down
 * hours after the last one left. It costs one password prompt, once, to whoever logs in next.
 */
const DURACAO_MARCA_MS = 30 * 24 * 60 * 60 * 1000;

const opcoes = (cookie: CookieDeSaida) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: cookie.seguro,
});

/** Leaves the mark: called by every logout, whatever the provider then does. */
export function marcarSaida(reply: FastifyReply, cookie: CookieDeSaida): void {
  reply.setCookie(cookie.nome, '1', { ...opcoes(cookie), maxAge: DURACAO_MARCA_MS / 1000 });
}

/** Whether this browser logged out since its last login here. */
export function saiuAntes(req: FastifyRequest, cookie: CookieDeSaida): boolean {
  return req.cookies[cookie.nome] !== undefined;
}

/** Removes the mark after a successful login: the logins after it are the provider's usual ones. */
export function esquecerSaida(req: FastifyRequest, reply: FastifyReply, cookie: CookieDeSaida): void {
  if (saiuAntes(req, cookie)) reply.clearCookie(cookie.nome, opcoes(cookie));
}
