import { sql, type Kysely } from 'kysely';
import type { FabricaMigracao } from './dialeto.ts';

/**
 * On PostgreSQL, the counters of `versaodados` move when a transaction commits, not at the write.
 *
 * Until now each write to a table behind a cached read ran `UPDATE versaodados … WHERE id = n` at
 * once (a statement trigger), so the counter's row stayed locked from that write until the commit:
 * every transaction that wrote to any of those tables took turns on one row, for as long as the
 * slowest of them took to finish (two suppliers' offers of different products, say). Now the
 * write only queues a deferred row trigger, and the counter moves once per transaction and per
 * counter, while it commits: the row is locked for the commit alone. The counter still becomes
 * visible with the data it counts, in the same commit, so a cache never keeps older data under a
 * newer version. TRUNCATE, which has no row triggers, keeps its statement trigger.
 *
 * SQLite has one writer at a time, so its triggers stay as they are.
 */
const FUNCOES = { cestaria_mudou_versao: 1, cestaria_mudou_versao_dos_ciclos: 2 } as const;
const NO_COMMIT = 'cestaria_versao_no_commit';

// pg_trigger.tgtype bits (PostgreSQL's include/catalog/pg_trigger.h).
const INSERT = 4;
const DELETE = 8;
const UPDATE = 16;
const TRUNCATE = 32;

interface Gatilho {
  readonly nome: string;
  readonly tabela: string;
  readonly tipo: number;
  readonly colunas: readonly string[] | null;
  readonly funcao: string;
  readonly argumento: string | null;
}

/** The triggers that call one of `funcoes`, with their events and the columns of UPDATE OF. */
async function gatilhos(db: Kysely<unknown>, funcoes: readonly string[]): Promise<Gatilho[]> {
  const { rows } = await sql<Gatilho>`
    SELECT t.tgname AS nome, c.relname AS tabela, t.tgtype AS tipo, p.proname AS funcao,
      (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
        WHERE a.attrelid = t.tgrelid AND a.attnum = ANY (t.tgattr)) AS colunas,
      CASE WHEN t.tgnargs > 0 THEN convert_from(substring(t.tgargs FROM 1 FOR position('\\000'::bytea IN t.tgargs) - 1), 'UTF8') END AS argumento
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
    JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE NOT t.tgisinternal AND p.proname = ANY (${funcoes}::text[])
    ORDER BY c.relname, t.tgname`.execute(db);
  return rows;
}

/** "INSERT OR UPDATE OF a, b OR DELETE": the row events of a trigger. */
function eventos(g: Gatilho) {
  return sql.join(
    [
      ...(g.tipo & INSERT ? [sql`INSERT`] : []),
      ...(g.tipo & UPDATE
        ? [g.colunas === null || g.colunas.length === 0 ? sql`UPDATE` : sql`UPDATE OF ${sql.join(g.colunas.map((c) => sql.id(c)))}`]
        : []),
      ...(g.tipo & DELETE ? [sql`DELETE`] : []),
    ],
    sql` OR `,
  );
}

export const versaoNoCommit: FabricaMigracao = (ctx) => ({
  async up(db) {
    if (ctx.dialeto !== 'postgres') return;
    // Once per transaction and counter: the first row event at the commit moves it, and marks the
    // transaction (a setting local to it) so that the others do not.
    await sql`CREATE FUNCTION ${sql.id(NO_COMMIT)}() RETURNS trigger LANGUAGE plpgsql AS ${sql.lit(`BEGIN
  IF current_setting('cestaria.versao_' || TG_ARGV[0], true) IS DISTINCT FROM 'movida' THEN
    PERFORM set_config('cestaria.versao_' || TG_ARGV[0], 'movida', true);
    UPDATE versaodados SET versao = versao + 1 WHERE id = TG_ARGV[0]::integer;
  END IF;
  RETURN NULL;
END`)}`.execute(db);
    for (const g of await gatilhos(db, Object.keys(FUNCOES))) {
      const id = FUNCOES[g.funcao as keyof typeof FUNCOES];
      await sql`DROP TRIGGER ${sql.id(g.nome)} ON ${sql.table(g.tabela)}`.execute(db);
      if (g.tipo & TRUNCATE)
        await sql`CREATE TRIGGER ${sql.id(g.nome)} AFTER TRUNCATE ON ${sql.table(g.tabela)}
          FOR EACH STATEMENT EXECUTE FUNCTION ${sql.id(g.funcao)}()`.execute(db);
      if (g.tipo & (INSERT | UPDATE | DELETE))
        await sql`CREATE CONSTRAINT TRIGGER ${sql.id(`${g.tabela}_versao${id}_no_commit_tg`)} AFTER ${eventos(g)} ON ${sql.table(g.tabela)}
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${sql.id(NO_COMMIT)}(${sql.lit(String(id))})`.execute(db);
    }
  },
  async down(db) {
    if (ctx.dialeto !== 'postgres') return;
    const porId = Object.fromEntries(Object.entries(FUNCOES).map(([f, id]) => [String(id), f]));
    const truncate = await gatilhos(db, Object.keys(FUNCOES));
    for (const g of await gatilhos(db, [NO_COMMIT])) {
      const funcao = porId[g.argumento ?? ''] ?? '';
      const antigo = truncate.find((t) => t.tabela === g.tabela && t.funcao === funcao);
      await sql`DROP TRIGGER ${sql.id(g.nome)} ON ${sql.table(g.tabela)}`.execute(db);
      if (antigo !== undefined) await sql`DROP TRIGGER ${sql.id(antigo.nome)} ON ${sql.table(g.tabela)}`.execute(db);
      await sql`CREATE TRIGGER ${sql.id(antigo?.nome ?? `${g.tabela}_versao${g.argumento ?? ''}_tg`)} AFTER ${eventos(g)}${antigo === undefined ? sql`` : sql` OR TRUNCATE`} ON ${sql.table(g.tabela)}
        FOR EACH STATEMENT EXECUTE FUNCTION ${sql.id(funcao)}()`.execute(db);
    }
    await sql`DROP FUNCTION ${sql.id(NO_COMMIT)}()`.execute(db);
  },
});
