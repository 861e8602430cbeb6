import { sql } from 'kysely';
import { comDatas, comId, naoNulo, type ContextoMigracao, type Db, type FabricaMigracao } from './dialeto.ts';

/**
 * The Mercados face (Variant B): its users (the spec's User), the four access profiles (Profile)
 * and their join, and the server-side session store. The tables are named `appuser`, `profile`,
 * `appuserprofile` and `appsession`: `user` is a reserved word in PostgreSQL, and `usuario` is
 * the Cestas table.
 */
const PERFIS: ReadonlyArray<readonly [string, string]> = [
  ['Administrador', 'Administração geral: todas as funções'],
  ['AdminMercado', 'Administração de um mercado: o próprio mercado, seus produtos e preços'],
  ['Fornecedor', 'Produtor ou fornecedor: registra ofertas e vê os próprios pedidos'],
  ['Consumidor', 'Consumidor: faz pedidos e vê os ciclos disponíveis'],
];

export const mercados: FabricaMigracao = (ctx: ContextoMigracao) => ({
  async up(db: Db) {
    await comDatas(
      comId(ctx, db.schema.createTable('appuser'))
        // The provider's subject: the identity survives an e-mail change at the provider.
        .addColumn('providerId', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', naoNulo)
        // Lower-cased e-mail: uniqueness must not depend on how the provider capitalises it.
        .addColumn('emailChave', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', naoNulo)
        .addColumn('avatar', 'text'),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('profile'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('description', 'text')
        .addCheckConstraint('profile_name_ck', sql`name in ('Administrador', 'AdminMercado', 'Fornecedor', 'Consumidor')`),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('appuserprofile'))
        .addColumn('userId', 'integer', (c) => c.notNull().references('appuser.id').onDelete('cascade'))
        .addColumn('profileId', 'integer', (c) => c.notNull().references('profile.id'))
        .addUniqueConstraint('appuserprofile_uq', ['userId', 'profileId']),
    ).execute();
    await db.schema.createIndex('appuserprofile_profile_ix').on('appuserprofile').column('profileId').execute();

    // NOTE: `id` holds a SHA-256 of the token the cookie carries, never the token itself, so a
    // leaked copy of this table opens no session. Only the user id is kept with it.
    await comDatas(
      db.schema
        .createTable('appsession')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('userId', 'integer', (c) => c.notNull().references('appuser.id').onDelete('cascade'))
        // ISO-8601 UTC text: compares in time order as text on both dialects.
        .addColumn('expiresAt', 'text', naoNulo),
    ).execute();
    // The purge deletes by expiry; logout and lookups go by the primary key.
    await db.schema.createIndex('appsession_expires_ix').on('appsession').column('expiresAt').execute();
    await db.schema.createIndex('appsession_user_ix').on('appsession').column('userId').execute();

    const iso = new Date().toISOString();
    await db
      .insertInto('profile')
      .values(PERFIS.map(([name, description]) => ({ name, description, createdAt: iso, updatedAt: iso })))
      .execute();
  },

  async down(db: Db) {
    for (const t of ['appsession', 'appuserprofile', 'profile', 'appuser']) {
      await db.schema.dropTable(t).ifExists().execute();
    }
  },
});
