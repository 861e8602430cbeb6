import { unsign } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Banco } from '../db/banco.ts';
import { registrarSessaoEncerrada } from '../db/sessoes-encerradas.ts';
import { encerrarSessao } from '../domain/contas.ts';
import { Cofre } from './cofre.ts';
import { marcarSaida } from './saida.ts';

/**
 * One sign-out for both faces, on one device (docs/security.md, "Uma saída"). The faces keep their
 * sessions apart (an encrypted cookie in Cestas, a row behind a signed token in Mercados), but a
 * browser that reaches both faces on one host sends each face both cookies: "Sair" in either face
 * ends the other face's session in the same browser too, and leaves both faces' logout marks, so
 * a shared phone shows nobody's orders or Pix afterwards in either face.
 *
 * The names, lifetimes and keys of both cookies live here, below the faces, so neither face reads
 * the other's modules.
 */
export const COOKIE_SESSAO_CESTAS = 'appSession';
export const COOKIE_SAIDA_CESTAS = 'cestas_saiu';
/** Absolute lifetime of a Cestas session: a week, then the provider is asked again. */
export const DURACAO_SESSAO_CESTAS_MS = 7 * 24 * 60 * 60 * 1000;
/** The Cofre purpose that seals the Cestas session cookie. */
export const PROPOSITO_SESSAO_CESTAS = 'appSession';

/** The Mercados session cookie carries only a random token, signed with SESSION_SECRET. */
export const COOKIE_SESSAO_MERCADOS = 'mercadosSession';
export const COOKIE_SAIDA_MERCADOS = 'mercados_saiu';

export interface SegredosDasSessoes {
  readonly sessionSecret: string;
  readonly appSessionSecret: string;
}

const cofres = new Map<string, Cofre>();
function cofreCestas(segredo: string): Cofre {
  let c = cofres.get(segredo);
  if (c === undefined) {
    c = new Cofre(segredo, PROPOSITO_SESSAO_CESTAS);
    cofres.set(segredo, c);
  }
  return c;
}

/** The id and start of the Cestas session a cookie carries, or null when it carries none that opens. */
export function sessaoCestasDoCookie(bruto: string, segredo: string, agoraMs: number): { sid: string; inicio: number } | null {
  const v = cofreCestas(segredo).abrir(bruto, agoraMs);
  if (v === null || typeof v !== 'object') return null;
  const { sid, inicio } = v as { sid?: unknown; inicio?: unknown };
  return typeof sid === 'string' && typeof inicio === 'number' ? { sid, inicio } : null;
}

/** The token a Mercados session cookie carries, when its signature holds. */
export function tokenMercadosDoCookie(bruto: string, segredo: string): string | null {
  const r = unsign(bruto, segredo);
  return r.valid && r.value !== null && r.value !== '' ? r.value : null;
}

const opcoesDoCookie = (seguro: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: seguro });

/**
 * Ends, in this browser, the session of the face other than `face`: the one that is signing out
 * ends its own. A cookie that does not open is simply removed.
 */
export async function encerrarOutraFaceNoNavegador(
  face: 'cestas' | 'mercados',
  dep: { readonly banco: Banco; readonly segredos: SegredosDasSessoes; readonly seguro: boolean; readonly agora: Date },
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const { banco, segredos, seguro, agora } = dep;
  if (face === 'mercados') {
    const bruto = req.cookies[COOKIE_SESSAO_CESTAS];
    if (bruto === undefined) return;
    const sessao = sessaoCestasDoCookie(bruto, segredos.appSessionSecret, agora.getTime());
    if (sessao !== null) await registrarSessaoEncerrada(banco, sessao.sid, sessao.inicio + DURACAO_SESSAO_CESTAS_MS, agora);
    reply.clearCookie(COOKIE_SESSAO_CESTAS, opcoesDoCookie(seguro));
    marcarSaida(reply, { nome: COOKIE_SAIDA_CESTAS, seguro });
    return;
  }
  const bruto = req.cookies[COOKIE_SESSAO_MERCADOS];
  if (bruto === undefined) return;
  const token = tokenMercadosDoCookie(bruto, segredos.sessionSecret);
  if (token !== null) await encerrarSessao(banco, token);
  reply.clearCookie(COOKIE_SESSAO_MERCADOS, opcoesDoCookie(seguro));
  marcarSaida(reply, { nome: COOKIE_SAIDA_MERCADOS, seguro });
}
