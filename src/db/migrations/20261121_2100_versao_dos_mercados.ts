import { apagarGatilhosDeVersao, criarGatilhosDeVersao, type FabricaMigracao } from './dialeto.ts';

/**
 * A counter that moves whenever anything a Mercados read query shows may have changed: markets,
 * their prices, the shared product catalogue and its categories, accounts and their profiles.
 * Triggers keep it, so every writer counts (both faces, the command line, a restore) without any
 * code remembering to. The GraphQL response cache (src/mercados/graphql/cache.ts) keys on it.
 */
export const TABELAS_DA_VERSAO = ['mercado', 'precomercado', 'produto', 'categoria', 'appuser', 'appuserprofile', 'profile'] as const;

const GATILHOS = { id: 1, nome: 'versao', funcao: 'cestaria_mudou_versao', tabelas: TABELAS_DA_VERSAO };

export const versaoDosMercados: FabricaMigracao = (ctx) => ({
  async up(db) {
    await db.schema
      .createTable('versaodados')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('versao', 'bigint', (c) => c.notNull())
      .execute();
    await db.insertInto('versaodados').values({ id: 1, versao: 1 }).execute();
    await criarGatilhosDeVersao(db, ctx, GATILHOS);
  },
  async down(db) {
    await apagarGatilhosDeVersao(db, ctx, GATILHOS);
    await db.schema.dropTable('versaodados').ifExists().execute();
  },
});
