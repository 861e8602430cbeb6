import assert from 'node:assert/strict';
import { ErroDominio } from '../../src/domain/erros.ts';

/** What a domain refusal says, for exact comparison; fails the test when the promise resolves or throws anything else. */
export async function recusa(
  p: Promise<unknown>,
): Promise<{ tipo: string; codigo: string; mensagem: string; detalhes: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ErroDominio, `esperava um erro de domínio, veio ${String(e)}`);
    return { tipo: e.constructor.name, codigo: e.codigo, mensagem: e.message, detalhes: { ...(e.detalhes ?? {}) } };
  }
  assert.fail('esperava uma recusa');
}
