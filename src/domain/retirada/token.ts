/**
 * The pickup token of an order: what the QR code in the receipt carries. It names one order and
 * opens that order and nothing else, with no login. The key is derived (HKDF) from
 * SESSION_SECRET, as the unsubscribe links' (src/mensagens/correio/cancelar.ts), under its own
 * label, so one kind of token never opens the other.
 *
 * 128 bits of HMAC-SHA256 keep the QR code small and are far beyond guessing.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** The key that signs pickup tokens, derived from the session secret. */
export function chaveDaRetirada(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, 'cestaria-retirada', 'pedido', 32));
}

function assinar(chave: Buffer, pedidoId: number): string {
  return createHmac('sha256', chave).update(`retirada:${pedidoId}`).digest().subarray(0, 16).toString('base64url');
}

/** `<pedido>.<assinatura>`: 22 characters of signature. */
export function tokenDoPedido(chave: Buffer, pedidoId: number): string {
  return `${pedidoId}.${assinar(chave, pedidoId)}`;
}

/** The order a token names, or null when it is malformed or forged. */
export function pedidoDoToken(chave: Buffer, token: string): number | null {
  const m = /^(\d{1,15})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (m === null) return null;
  const pedidoId = Number(m[1]);
  const esperado = Buffer.from(assinar(chave, pedidoId));
  const recebido = Buffer.from(m[2] ?? '');
  return esperado.length === recebido.length && timingSafeEqual(esperado, recebido) ? pedidoId : null;
}
