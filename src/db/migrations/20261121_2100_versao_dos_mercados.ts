import { sql } from 'kysely';
import type { FabricaMigracao } from './contexto.ts';

/**
 * A counter that moves whenever anything a Mercados read query shows may have changed: markets,
 * their prices, the shared product catalogue and its categories, accounts and their profiles.
 * Triggers keep it, so every writer counts (both faces, the command line, a restore) without any
 * code remembering to. The GraphQL response cache (src/mercados/graphql/cache.ts) keys on it.
 */
export const TABELAS_DA_VERSAO = ['mercado', 'precomercado', 'produto', 'categoria', 'appuser', 'appuserprofile', 'profile'] as const;

export const versaoDosMercados: FabricaMigracao = (ctx) => ({
  async up(db) {
    await db.schema
      .createTable('versaodados')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('versao', 'bigint', (c) => c.notNull())
      .execute();
    await db.insertInto('versaodados').values({ id: 1, versao: 1 }).execute();
    if (ctx.dialeto === 'postgres') {
      await sql`CREATE FUNCTION cestaria_mudou_versao() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE versaodados SET versao = versao + 1 WHERE id = 1; RETURN NULL; END $$`.execute(db);
      for (const t of TABELAS_DA_VERSAO) {
        await sql`CREATE TRIGGER ${sql.id(`${t}_versao_tg`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(t)}
          FOR EACH STATEMENT EXECUTE FUNCTION cestaria_mudou_versao()`.execute(db);
      }
    } else {
      for (const t of TABELAS_DA_VERSAO) {
        for (const evento of ['INSERT', 'UPDATE', 'DELETE']) {
          await sql`CREATE TRIGGER ${sql.id(`${t}_versao_${evento.toLowerCase()}_tg`)} AFTER ${sql.raw(evento)} ON ${sql.table(t)}
            BEGIN UPDATE versaodados SET versao = versao + 1 WHERE id = 1; END`.execute(db);
        }
      }
    }
  },
  async down(db) {
    for (const t of TABELAS_DA_VERSAO) {
      if (ctx.dialeto === 'postgres') await sql`DROP TRIGGER IF EXISTS ${sql.id(`${t}_versao_tg`)} ON ${sql.table(t)}`.execute(db);
      else for (const e of ['insert', 'update', 'delete']) await sql`DROP TRIGGER IF EXISTS ${sql.id(`${t}_versao_${e}_tg`)}`.execute(db);
    }
    if (ctx.dialeto === 'postgres') await sql`DROP FUNCTION IF EXISTS cestaria_mudou_versao()`.execute(db);
    await db.schema.dropTable('versaodados').ifExists().execute();
  },
});
