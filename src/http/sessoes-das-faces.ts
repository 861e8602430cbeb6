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
export function sessaoCestasDoCookie(
  bruto: string,
  segredo: string,
  agoraMs: number,
): { sid: string; inicio: number } | null {
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
    if (sessao !== null)
      await registrarSessaoEncerrada(banco, sessao.sid, sessao.inicio + DURACAO_SESSAO_CESTAS_MS, agora);
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

/**
 * Faces on two host names (`cestas.exemplo.org`, `mercados.exemplo.org`) do not see each other's
 * cookies, so "Sair" passes through the other face on its way out: the browser carries that
 * face's cookie there, and a sealed, two-minute ticket names the person who is signing out. The
 * other face ends its session in that browser when it is the same person's, and goes on to where
 * the sign-out was going. A ticket cannot be forged or redirected elsewhere (it is sealed with
 * SESSION_SECRET, and the destination is inside it), and it ends no one else's session.
 */
export const CONTINUAR_SAIDA = { cestas: '/saiu/continuar', mercados: '/auth/saiu/continuar' } as const;
const PROPOSITO_SAIDA = 'saida-conjunta';
const DURACAO_BILHETE_MS = 2 * 60 * 1000;

function cofreDaSaida(segredo: string): Cofre {
  const chave = `${PROPOSITO_SAIDA}\u0000${segredo}`;
  let c = cofres.get(chave);
  if (c === undefined) {
    c = new Cofre(segredo, PROPOSITO_SAIDA);
    cofres.set(chave, c);
  }
  return c;
}

/** Whether a browser sends one address's cookies to the other: the same host name, whatever the port. */
export function mesmoHost(a: string, b: string): boolean {
  return new URL(a).hostname === new URL(b).hostname;
}

/**
 * Where "Sair" sends the browser: `destino` (relative to the face's own address), or first the other face, when
 * it runs on another host name and the person has a record both faces know.
 */
export function caminhoDaSaida(o: {
  readonly de: 'cestas' | 'mercados';
  readonly propria: string;
  readonly outra: string | null;
  readonly segredo: string;
  readonly agora: Date;
  readonly usuarioid: number | null;
  readonly destino: string;
}): string {
  if (o.outra === null || o.usuarioid === null || mesmoHost(o.propria, o.outra)) return o.destino;
  const destino = new URL(o.destino, o.propria).href;
  const bilhete = cofreDaSaida(o.segredo).selar({ u: o.usuarioid, d: destino }, o.agora.getTime() + DURACAO_BILHETE_MS);
  return `${o.outra}${CONTINUAR_SAIDA[o.de === 'cestas' ? 'mercados' : 'cestas']}?t=${encodeURIComponent(bilhete)}`;
}

/** The person and destination of a sign-out ticket, or null when it does not open (forged, altered or expired). */
export function lerBilheteDeSaida(
  bilhete: string,
  segredo: string,
  agoraMs: number,
): { readonly usuarioid: number; readonly destino: string } | null {
  const v = cofreDaSaida(segredo).abrir(bilhete, agoraMs);
  if (v === null || typeof v !== 'object') return null;
  const { u, d } = v as { u?: unknown; d?: unknown };
  if (typeof u !== 'number' || !Number.isSafeInteger(u) || typeof d !== 'string' || !/^https?:\/\//.test(d))
    return null;
  return { usuarioid: u, destino: d };
}
