import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, type Migration } from 'kysely';

/**
 * What a migration may know about where it runs. Migrations never import application code;
 * dialect differences go through this small context instead.
 *
 * Frozen, like the migrations that use it (test/db/migracoes-congeladas.test.ts): a helper that
 * must work differently is a new helper, so a landed migration always does what it did.
 */
export interface ContextoMigracao {
  readonly dialeto: 'sqlite' | 'postgres';
}

export type FabricaMigracao = (ctx: ContextoMigracao) => Migration;

/** Adds the surrogate key every table has, in the dialect's own idiom. */
export function comId<T extends string>(
  ctx: ContextoMigracao,
  tabela: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return ctx.dialeto === 'sqlite'
    ? tabela.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : tabela.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity());
}

/** Adds createdAt/updatedAt as ISO-8601 text, identical on both dialects. */
export function comDatas<T extends string, C extends string>(tabela: CreateTableBuilder<T, C>) {
  return tabela.addColumn('createdAt', 'text', (c) => c.notNull()).addColumn('updatedAt', 'text', (c) => c.notNull());
}

export const naoNulo = (c: ColumnDefinitionBuilder) => c.notNull();

export type Db = Kysely<any>;

/**
 * Triggers that add 1 to row `id` of `versaodados` after every write to each table: one
 * statement-level trigger per table on PostgreSQL (through the function `funcao`), one per event
 * on SQLite. Trigger names are `<table>_<nome>_tg` (PostgreSQL) and `<table>_<nome>_<event>_tg`.
 */
export async function criarGatilhosDeVersao(
  db: Db,
  ctx: ContextoMigracao,
  g: { id: number; nome: string; funcao: string; tabelas: readonly string[]; colunasDoUpdate?: Readonly<Record<string, readonly string[]>> },
): Promise<void> {
  // Where a table lists columns, only an UPDATE that sets one of them counts (`UPDATE OF`).
  const update = (t: string) => {
    const colunas = g.colunasDoUpdate?.[t];
    return colunas === undefined ? sql`UPDATE` : sql`UPDATE OF ${sql.join(colunas.map((c) => sql.id(c)))}`;
  };
  if (ctx.dialeto === 'postgres') {
    await sql`CREATE FUNCTION ${sql.id(g.funcao)}() RETURNS trigger LANGUAGE plpgsql AS ${sql.lit(`BEGIN UPDATE versaodados SET versao = versao + 1 WHERE id = ${g.id}; RETURN NULL; END`)}`.execute(db);
    for (const t of g.tabelas) {
      await sql`CREATE TRIGGER ${sql.id(`${t}_${g.nome}_tg`)} AFTER INSERT OR ${update(t)} OR DELETE OR TRUNCATE ON ${sql.table(t)}
        FOR EACH STATEMENT EXECUTE FUNCTION ${sql.id(g.funcao)}()`.execute(db);
    }
    return;
  }
  for (const t of g.tabelas) {
    for (const evento of ['INSERT', 'UPDATE', 'DELETE']) {
      await sql`CREATE TRIGGER ${sql.id(`${t}_${g.nome}_${evento.toLowerCase()}_tg`)} AFTER ${evento === 'UPDATE' ? update(t) : sql.raw(evento)} ON ${sql.table(t)}
        BEGIN UPDATE versaodados SET versao = versao + 1 WHERE id = ${sql.lit(g.id)}; END`.execute(db);
    }
  }
}

/** Undoes criarGatilhosDeVersao. */
export async function apagarGatilhosDeVersao(db: Db, ctx: ContextoMigracao, g: { nome: string; funcao: string; tabelas: readonly string[] }): Promise<void> {
  for (const t of g.tabelas) {
    if (ctx.dialeto === 'postgres') await sql`DROP TRIGGER IF EXISTS ${sql.id(`${t}_${g.nome}_tg`)} ON ${sql.table(t)}`.execute(db);
    else for (const e of ['insert', 'update', 'delete']) await sql`DROP TRIGGER IF EXISTS ${sql.id(`${t}_${g.nome}_${e}_tg`)}`.execute(db);
  }
  if (ctx.dialeto === 'postgres') await sql`DROP FUNCTION IF EXISTS ${sql.id(g.funcao)}()`.execute(db);
}
