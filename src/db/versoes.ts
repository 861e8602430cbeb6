import type { Db } from './banco.ts';
import { consultaPreparada } from './preparadas.ts';

/**
 * The rows of `versaodados`: counters that database triggers move on every write to the tables
 * behind a cached read, so every writer counts (either face, any process, the command line, a
 * restore) without code remembering to. A cache keeps what it built with the version it read
 * before building, and builds again when the version moved.
 */
export const VERSAO_DOS_MERCADOS = 1;
export const VERSAO_DOS_CICLOS = 2;

const lerVersao = consultaPreparada(
  (db: Db, id: number) => db.selectFrom('versaodados').select('versao').where('id', '=', id),
  1,
);

/** The current value of one counter (one primary-key read). */
export async function versaoDosDados(
  db: Db,
  qual: typeof VERSAO_DOS_MERCADOS | typeof VERSAO_DOS_CICLOS,
): Promise<number> {
  const [r] = await lerVersao(db, qual);
  return Number(r?.versao ?? 0);
}
