import type { FabricaMigracao } from './dialeto.ts';

/**
 * Binds a Usuario to the login that first opened it, and lets an account end all its sessions.
 * - `loginEmissor`/`loginSub`: the OpenID issuer and subject of the account's first login. A later
 *   login for the same e-mail with another subject is refused until a master resets the binding.
 * - `sessoesDesde`: sessions that started until this instant are over (every device), set when
 *   the account's e-mail changes and by "sair de todos os aparelhos".
 * All three start empty: existing accounts bind at their next login.
 */
export const vinculoDeLogin: FabricaMigracao = () => ({
  async up(db) {
    await db.schema.alterTable('usuario').addColumn('loginEmissor', 'text').execute();
    await db.schema.alterTable('usuario').addColumn('loginSub', 'text').execute();
    await db.schema.alterTable('usuario').addColumn('sessoesDesde', 'text').execute();
  },
  async down(db) {
    await db.schema.alterTable('usuario').dropColumn('sessoesDesde').execute();
    await db.schema.alterTable('usuario').dropColumn('loginSub').execute();
    await db.schema.alterTable('usuario').dropColumn('loginEmissor').execute();
  },
});
