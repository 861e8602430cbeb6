import type { FabricaMigracao } from './dialeto.ts';

/**
 * Ended Cestas sessions. The appSession cookie is sealed and stateless; a copy taken before logout
 * would stay valid until it expires. Logging out records the session's id here until then, and
 * every request checks it (a primary-key lookup).
 */
export const sessoesEncerradas: FabricaMigracao = () => ({
  async up(db) {
    await db.schema
      .createTable('sessaoencerrada')
      .addColumn('sid', 'text', (c) => c.primaryKey())
      .addColumn('expiraEm', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessaoencerrada_expira_ix').on('sessaoencerrada').column('expiraEm').execute();
  },
  async down(db) {
    await db.schema.dropTable('sessaoencerrada').ifExists().execute();
  },
});
