/**
 * Unsubscribe links: no login, a signed (person, kind). The key is derived (HKDF) from
 * SESSION_SECRET; a token never expires and names one person and one optional kind.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { ehTipoDeAviso, TIPOS_DE_AVISO, type TipoDeAviso } from '../../domain/avisos.ts';

/** The key that signs the links, derived from the session secret. */
export function chaveDeCancelar(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'cestaria-avisos', 'cancelar', 32));
}

export function tokenDeCancelar(chave: Buffer, usuarioid: number, tipo: TipoDeAviso): string {
  return `${usuarioid}.${tipo}.${assinar(chave, usuarioid, tipo)}`;
}

/** The person and kind a token names, or null when it is malformed or forged. */
export function abrirTokenDeCancelar(chave: Buffer, token: string): { usuarioid: number; tipo: TipoDeAviso } | null {
  const m = /^(\d{1,15})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (m === null) return null;
  const usuarioid = Number(m[1]);
  const tipo = m[2] ?? '';
  if (!ehTipoDeAviso(tipo) || !TIPOS_DE_AVISO[tipo].opcional) return null;
  const esperado = Buffer.from(assinar(chave, usuarioid, tipo));
  const recebido = Buffer.from(m[3] ?? '');
  return esperado.length === recebido.length && timingSafeEqual(esperado, recebido) ? { usuarioid, tipo } : null;
}

function assinar(chave: Buffer, usuarioid: number, tipo: string): string {
  return createHmac('sha256', chave).update(`${usuarioid}:${tipo}`).digest('base64url');
}

/** The unsubscribe link of an optional kind, at the Cestas address `base`; null for the mandatory ones. */
export function linkDeCancelar(chave: Buffer, base: string, usuarioid: number, tipo: TipoDeAviso): string | null {
  return TIPOS_DE_AVISO[tipo].opcional ? `${base}/avisos/sair/${tokenDeCancelar(chave, usuarioid, tipo)}` : null;
}
