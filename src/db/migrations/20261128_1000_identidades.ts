import { sql } from 'kysely';
import { comId, type ContextoMigracao, type Db, type FabricaMigracao } from './dialeto.ts';

/**
 * One identity per person across both faces.
 *
 * - `identidade`: the (issuer, subject) pairs bound to a Usuario. A person has at most one subject
 *   per issuer, and a subject belongs to one person. It replaces `usuario.loginEmissor`/`loginSub`,
 *   which held one pair for the Cestas face only: existing bindings are copied over (an issuer
 *   that was not recorded is kept as the empty text) and the two columns go.
 * - `appuser.emissor`: the issuer that vouched for `providerId`. An account is found by both, never
 *   by the subject alone, so `providerId` is no longer unique by itself. Accounts from before this
 *   migration have the empty issuer until the Mercados face starts and adopts them under the
 *   issuer it is configured with (adotarContasAntigas, src/domain/contas.ts).
 * - `appuser.emailChave` is unique only among accounts whose e-mail the provider verified: an
 *   address nobody vouched for no longer keeps its owner out.
 *
 * Dropping a column's UNIQUE needs a new table on SQLite (sqlite.org/lang_altertable.html): the
 * runner turns foreign keys off for the run and checks them before the commit (src/db/banco.ts),
 * so the old table goes without firing ON DELETE actions; the new one takes its name, rows,
 * indexes and triggers, and the tables that point at `appuser` keep pointing at the name.
 */
async function reconstruirContasNoSqlite(db: Db): Promise<void> {
  const chaves = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
  if (chaves.rows[0]?.foreign_keys !== 0) throw new Error('20261128_1000_identidades: as chaves estrangeiras precisam estar desligadas (src/db/banco.ts, migrar)');
  const anexos = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE tbl_name = 'appuser' AND type IN ('index', 'trigger') AND sql IS NOT NULL`.execute(db);
  await sql`CREATE TABLE "appuser_novo" ("id" integer primary key autoincrement, "providerId" text not null, "email" text not null,
    "emailChave" text not null, "name" text not null, "avatar" text, "createdAt" text not null, "updatedAt" text not null,
    "usuarioId" integer references "usuario" ("id"), "emailVerificado" boolean default false not null, "emissor" text default '' not null)`.execute(db);
  await sql`INSERT INTO appuser_novo (id, "providerId", email, "emailChave", name, avatar, "createdAt", "updatedAt", "usuarioId", "emailVerificado", emissor)
    SELECT id, "providerId", email, "emailChave", name, avatar, "createdAt", "updatedAt", "usuarioId", "emailVerificado", '' FROM appuser`.execute(db);
  await sql`DROP TABLE appuser`.execute(db);
  await sql`ALTER TABLE appuser_novo RENAME TO appuser`.execute(db);
  for (const a of anexos.rows) await sql.raw(a.sql).execute(db);
}

async function contasNoPostgres(db: Db): Promise<void> {
  await db.schema.alterTable('appuser').addColumn('emissor', 'text', (c) => c.notNull().defaultTo('')).execute();
  // The names PostgreSQL gave the two column constraints, whatever they are.
  const restricoes = await sql<{ conname: string }>`
    SELECT c.conname FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
    WHERE t.relname = 'appuser' AND c.contype = 'u'
      AND (SELECT array_agg(a.attname::text) FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = ANY (c.conkey)) && ARRAY['providerId', 'emailChave']`.execute(db);
  for (const r of restricoes.rows) await sql`ALTER TABLE appuser DROP CONSTRAINT ${sql.id(r.conname)}`.execute(db);
}

export const identidades: FabricaMigracao = (ctx: ContextoMigracao) => ({
  async up(db) {
    await comId(ctx, db.schema.createTable('identidade'))
      .addColumn('usuarioid', 'integer', (c) => c.notNull().references('usuario.id').onDelete('cascade'))
      .addColumn('emissor', 'text', (c) => c.notNull())
      .addColumn('sub', 'text', (c) => c.notNull())
      .addColumn('createdAt', 'text', (c) => c.notNull())
      .addUniqueConstraint('identidade_sub_uq', ['emissor', 'sub'])
      .addUniqueConstraint('identidade_usuario_uq', ['usuarioid', 'emissor'])
      .execute();
    const agora = new Date().toISOString();
    await sql`INSERT INTO identidade (usuarioid, emissor, sub, "createdAt")
      SELECT id, coalesce("loginEmissor", ''), "loginSub", ${agora} FROM usuario WHERE "loginSub" IS NOT NULL`.execute(db);
    await db.schema.alterTable('usuario').dropColumn('loginSub').execute();
    await db.schema.alterTable('usuario').dropColumn('loginEmissor').execute();

    if (ctx.dialeto === 'sqlite') await reconstruirContasNoSqlite(db);
    else await contasNoPostgres(db);
    await db.schema.createIndex('appuser_provedor_uq').on('appuser').columns(['emissor', 'providerId']).unique().execute();
    await db.schema.createIndex('appuser_email_ix').on('appuser').column('emailChave').execute();
    await db.schema.createIndex('appuser_email_verificado_uq').on('appuser').column('emailChave').unique().where(sql.ref('emailVerificado'), '=', sql`true`).execute();
  },
  async down(db) {
    await db.schema.dropIndex('appuser_email_verificado_uq').execute();
    await db.schema.dropIndex('appuser_email_ix').execute();
    await db.schema.dropIndex('appuser_provedor_uq').execute();
    await db.schema.alterTable('usuario').addColumn('loginEmissor', 'text').execute();
    await db.schema.alterTable('usuario').addColumn('loginSub', 'text').execute();
    await sql`UPDATE usuario SET "loginEmissor" = nullif(i.emissor, ''), "loginSub" = i.sub FROM identidade i WHERE i.usuarioid = usuario.id`.execute(db);
    await db.schema.dropTable('identidade').execute();
  },
});
