import { sql } from 'kysely';
import type { FabricaMigracao } from './dialeto.ts';

/**
 * On PostgreSQL, a commit takes the rows of `versaodados` in ascending id order.
 *
 * Since 20261203_1000_versao_no_commit each counter moves once per transaction, while it commits,
 * in the order its writes queued them: a transaction that wrote a cycle table and then a market
 * table moved counter 2 and then 1, one that wrote the other way moved 1 and then 2. Two such
 * transactions committing together could each hold one row and wait for the other's: a deadlock,
 * which PostgreSQL ends after a second by failing one of them. Now moving a counter first locks
 * every counter row of a lower id, so every transaction takes the rows in the same order: the
 * later one waits for the first to commit, and both commit.
 *
 * SQLite has one writer at a time: nothing to do there.
 */
const NO_COMMIT = 'cestaria_versao_no_commit';

const corpo = (antesDeMover: string) => `BEGIN
  IF current_setting('cestaria.versao_' || TG_ARGV[0], true) IS DISTINCT FROM 'movida' THEN
    PERFORM set_config('cestaria.versao_' || TG_ARGV[0], 'movida', true);${antesDeMover}
    UPDATE versaodados SET versao = versao + 1 WHERE id = TG_ARGV[0]::integer;
  END IF;
  RETURN NULL;
END`;

const EM_ORDEM = `
    -- The rows of lower ids first, in order: every transaction takes them in ascending order.
    PERFORM 1 FROM versaodados WHERE id < TG_ARGV[0]::integer ORDER BY id FOR NO KEY UPDATE;`;

export const versoesEmOrdem: FabricaMigracao = (ctx) => ({
  async up(db) {
    if (ctx.dialeto !== 'postgres') return;
    await sql`CREATE OR REPLACE FUNCTION ${sql.id(NO_COMMIT)}() RETURNS trigger LANGUAGE plpgsql AS ${sql.lit(corpo(EM_ORDEM))}`.execute(
      db,
    );
  },
  async down(db) {
    if (ctx.dialeto !== 'postgres') return;
    await sql`CREATE OR REPLACE FUNCTION ${sql.id(NO_COMMIT)}() RETURNS trigger LANGUAGE plpgsql AS ${sql.lit(corpo(''))}`.execute(
      db,
    );
  },
});
