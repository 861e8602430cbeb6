import type {} from '@fastify/cookie';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Identidade } from '../domain/usuarios.ts';
import type { Cofre } from '../http/cofre.ts';
import type { CookieDeSaida } from '../http/saida.ts';
import { abrirVerificacao, type CookieDeVerificacao } from '../http/verificacao.ts';
import { COOKIE_SAIDA_CESTAS, COOKIE_SESSAO_CESTAS, DURACAO_SESSAO_CESTAS_MS } from '../http/sessoes-das-faces.ts';
import type { Verificacao } from './oidc.ts';
import { MAXIMO_DE_CICLOS } from '../comandos/relatorios.ts';

export const COOKIE_SESSAO = COOKIE_SESSAO_CESTAS;
export const COOKIE_VERIFICACAO = 'auth_verification';
export const COOKIE_SAIDA = COOKIE_SAIDA_CESTAS;
/** Absolute session lifetime: a week, then the provider is asked again. */
export const DURACAO_SESSAO_MS = DURACAO_SESSAO_CESTAS_MS;
/**
 * How stale the cookie's record of the last use may get before a request writes it again.
 * NOTE: re-sealing the cookie on every request would cost an encryption and a Set-Cookie each
 * time; this way a busy session pays once per interval, and the idle limit is exact to within it.
 */
export const RENOVAR_USO_MS = 5 * 60 * 1000;

export interface Sessao {
  /** Random id of this login, recorded when it ends (logout) so no copy of the cookie outlives it. */
  readonly sid: string;
  readonly identidade: Identidade;
  readonly idToken: string | undefined;
  /** Synchronizer token for form posts; secret because the cookie is encrypted. */
  readonly csrf: string;
  readonly inicio: number;
  /** The last use the cookie records (within RENOVAR_USO_MS), for the idle limit. */
  readonly uso: number;
  /** The cycles last chosen in POST /pedidosfornecedoresciclos: what a bare CSV download exports. */
  readonly ciclosEscolhidos?: readonly number[];
}

function comoCiclos(v: unknown): readonly number[] | undefined {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAXIMO_DE_CICLOS) return undefined;
  return v.every((i) => Number.isSafeInteger(i) && (i as number) > 0) ? (v as number[]) : undefined;
}

function ehTexto(v: unknown): v is string {
  return typeof v === 'string';
}

function comoSessao(v: unknown): Sessao | null {
  if (v === null || typeof v !== 'object') return null;
  const s = v as Record<string, unknown>;
  const id = s.identidade as Record<string, unknown> | null | undefined;
  if (id === null || typeof id !== 'object' || !ehTexto(id.sub) || !ehTexto(id.email) || !ehTexto(id.name)) return null;
  if (!ehTexto(s.csrf) || typeof s.inicio !== 'number' || !ehTexto(s.sid)) return null;
  const ciclosEscolhidos = comoCiclos(s.ciclosEscolhidos);
  return {
    sid: s.sid,
    identidade: {
      sub: id.sub,
      iss: ehTexto(id.iss) ? id.iss : undefined,
      email: id.email,
      name: id.name,
      picture: ehTexto(id.picture) ? id.picture : undefined,
      email_verified: typeof id.email_verified === 'boolean' ? id.email_verified : undefined,
    },
    idToken: ehTexto(s.idToken) ? s.idToken : undefined,
    csrf: s.csrf,
    inicio: s.inicio,
    uso: typeof s.uso === 'number' ? s.uso : s.inicio,
    ...(ciclosEscolhidos === undefined ? {} : { ciclosEscolhidos }),
  };
}

interface OpcoesCookie {
  readonly seguro: boolean;
}

/** The session the request's cookie carries, or null when it has none, a bad one, or one idle past `ociosaMs`. */
export function lerSessao(req: FastifyRequest, cofre: Cofre, agoraMs: number, ociosaMs: number): Sessao | null {
  const bruto = req.cookies[COOKIE_SESSAO];
  if (bruto === undefined) return null;
  const sessao = comoSessao(cofre.abrir(bruto, agoraMs));
  return sessao === null || agoraMs - sessao.uso > ociosaMs ? null : sessao;
}

function selarSessao(reply: FastifyReply, cofre: Cofre, sessao: Sessao, agoraMs: number, opcoes: OpcoesCookie): void {
  const expira = sessao.inicio + DURACAO_SESSAO_MS;
  reply.setCookie(COOKIE_SESSAO, cofre.selar(sessao, expira), {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: opcoes.seguro,
    maxAge: Math.max(1, Math.floor((expira - agoraMs) / 1000)),
  });
}

export function gravarSessao(
  reply: FastifyReply,
  cofre: Cofre,
  dados: { identidade: Identidade; idToken: string | undefined },
  agoraMs: number,
  opcoes: OpcoesCookie,
): void {
  const sessao: Sessao = {
    ...dados,
    sid: randomBytes(18).toString('base64url'),
    csrf: randomBytes(24).toString('base64url'),
    inicio: agoraMs,
    uso: agoraMs,
  };
  selarSessao(reply, cofre, sessao, agoraMs, opcoes);
}

/** Records a use of a live session in its cookie, when the last record is older than RENOVAR_USO_MS. */
export function renovarUso(
  reply: FastifyReply,
  cofre: Cofre,
  sessao: Sessao,
  agoraMs: number,
  opcoes: OpcoesCookie,
): void {
  if (agoraMs - sessao.uso < RENOVAR_USO_MS) return;
  selarSessao(reply, cofre, { ...sessao, uso: agoraMs }, agoraMs, opcoes);
}

/** Keeps the cycles a report was last asked for in the session (a bare CSV download exports them). */
export function lembrarCiclos(
  reply: FastifyReply,
  cofre: Cofre,
  sessao: Sessao,
  ciclos: readonly number[],
  agoraMs: number,
  opcoes: OpcoesCookie,
): void {
  const iguais =
    sessao.ciclosEscolhidos?.length === ciclos.length && ciclos.every((id, i) => sessao.ciclosEscolhidos?.[i] === id);
  if (iguais || ciclos.length > MAXIMO_DE_CICLOS) return;
  selarSessao(reply, cofre, { ...sessao, ciclosEscolhidos: [...ciclos], uso: agoraMs }, agoraMs, opcoes);
}

export function apagarSessao(reply: FastifyReply, opcoes: OpcoesCookie): void {
  reply.clearCookie(COOKIE_SESSAO, { path: '/', httpOnly: true, sameSite: 'lax', secure: opcoes.seguro });
}

/** The mark a Cestas logout leaves (`src/http/saida.ts`): the next login asks the provider again. */
export const cookieDeSaida = (opcoes: OpcoesCookie): CookieDeSaida => ({ nome: COOKIE_SAIDA, seguro: opcoes.seguro });

/** The Cestas login's verification cookie (`src/http/verificacao.ts`), sent only to /callback. */
export const cookieDeVerificacao = (opcoes: OpcoesCookie): CookieDeVerificacao => ({
  nome: COOKIE_VERIFICACAO,
  caminho: '/callback',
  seguro: opcoes.seguro,
});

export function lerVerificacao(req: FastifyRequest, cofre: Cofre, agoraMs: number): Verificacao | null {
  const v = abrirVerificacao(req, cofre, agoraMs, COOKIE_VERIFICACAO);
  if (v === null) return null;
  const { state, nonce, verifier, volta } = v;
  if (!ehTexto(state) || !ehTexto(nonce) || !ehTexto(verifier) || !ehTexto(volta)) return null;
  return { state, nonce, verifier, volta };
}
