import { sql } from 'kysely';
import { comDatas, comId, naoNulo, type ContextoMigracao, type Db, type FabricaMigracao } from './dialeto.ts';

/**
 * Mercados (Variant B): the markets and each market's prices over the shared product catalogue.
 * Money is integer cents and the administrative fee integer hundredths of a percentage point
 * (12.50 % → 1250), so both dialects store and return exactly the same values.
 */
export const mercadoPrecos: FabricaMigracao = (ctx: ContextoMigracao) => ({
  async up(db: Db) {
    await comDatas(
      comId(ctx, db.schema.createTable('mercado'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('descricao', 'text')
        .addColumn('tipo', 'text', naoNulo)
        .addColumn('taxaAdministrativaCentesimos', 'integer')
        .addColumn('valorMaximoCestaCentavos', 'integer')
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(sql`true`))
        .addColumn('adminId', 'integer', (c) => c.notNull().references('appuser.id'))
        .addCheckConstraint('mercado_tipo_ck', sql`tipo in ('cesta', 'lote', 'venda_direta')`)
        .addCheckConstraint(
          'mercado_taxa_ck',
          sql`"taxaAdministrativaCentesimos" is null or ("taxaAdministrativaCentesimos" >= 0 and "taxaAdministrativaCentesimos" <= 10000)`,
        )
        .addCheckConstraint('mercado_valor_maximo_ck', sql`"valorMaximoCestaCentavos" is null or "valorMaximoCestaCentavos" >= 0`)
        // A basket market without a ceiling would let any basket through: the rule lives here too.
        .addCheckConstraint('mercado_cesta_ck', sql`tipo <> 'cesta' or "valorMaximoCestaCentavos" is not null`),
    ).execute();
    // "The markets of a user" (User.mercados, ownership checks) go by adminId.
    await db.schema.createIndex('mercado_admin_ix').on('mercado').column('adminId').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('precomercado'))
        .addColumn('mercadoId', 'integer', (c) => c.notNull().references('mercado.id'))
        .addColumn('produtoId', 'integer', (c) => c.notNull().references('produto.id'))
        .addColumn('precoCentavos', 'integer', naoNulo)
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(sql`true`))
        .addCheckConstraint('precomercado_preco_ck', sql`"precoCentavos" >= 0`)
        // One price per product and market: the batch update upserts on exactly this key, and
        // the index serves "the prices of these markets" too.
        .addUniqueConstraint('precomercado_mercado_produto_uq', ['mercadoId', 'produtoId']),
    ).execute();
    // The foreign key to the catalogue: removing a product looks its prices up by product.
    await db.schema.createIndex('precomercado_produto_ix').on('precomercado').column('produtoId').execute();
  },

  async down(db: Db) {
    for (const t of ['precomercado', 'mercado']) await db.schema.dropTable(t).ifExists().execute();
  },
});
