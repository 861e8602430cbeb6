/**
 * Movements written by a key (`movimentacao.chave`, unique): the cycle's closing and the pickup's
 * shorts write each once, however often they run. Only keys not yet written become rows.
 */
import type { Db } from '../db/banco.ts';

/** One movement to write once, by its key. */
export interface Lancamento {
  readonly usuarioid: number;
  /** tipomovimentacao.id */
  readonly tipo: number;
  readonly sentido: 'credito' | 'debito';
  readonly centavos: number;
  readonly descricao: string;
  readonly chave: string;
}

/**
 * Writes the movements whose key is new, dated `data`, in batches that keep each statement under
 * the databases' parameter limits; returns how many were written. In the caller's transaction.
 */
export async function lancarPorChave(
  trx: Db,
  lancamentos: readonly Lancamento[],
  c: { readonly cicloid: number; readonly data: string; readonly criadoPor: number | null; readonly agora: Date },
): Promise<number> {
  const iso = c.agora.toISOString();
  let novas = 0;
  for (let i = 0; i < lancamentos.length; i += 200) {
    // Stryker disable next-line MethodExpression: each movement's key makes a repeated insert do nothing; batches only keep each statement under the databases' parameter limits
    const lote = lancamentos.slice(i, i + 200);
    const r = await trx
      .insertInto('movimentacao')
      .values(
        lote.map((l) => ({
          usuarioid: l.usuarioid,
          tipoMovimentacaoId: l.tipo,
          sentido: l.sentido,
          valorCentavos: l.centavos,
          data: c.data,
          descricao: l.descricao,
          cicloid: c.cicloid,
          chave: l.chave,
          criadoPor: c.criadoPor,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .onConflict((oc) => oc.column('chave').doNothing())
      .returning('id')
      .execute();
    novas += r.length;
  }
  return novas;
}
