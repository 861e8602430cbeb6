import { sql, type Kysely } from 'kysely';
import { comDatas, comId, type FabricaMigracao } from './dialeto.ts';

/**
 * Markets inside cycles (DOMAIN.md, "Markets in cycles"):
 * - `ciclomercado`: the markets a cycle serves, in their order of service (unique in the cycle),
 *   and `ciclomercadoponto`, the pickup points of each;
 * - `ciclocesta.mercadoId`: the cesta market a cycle basket is sold in (null: the classic cycle);
 * - `cicloproduto.mercadoId`: an extra released to a venda_direta market, priced at that market's
 *   price (null: a classic extra);
 * - `pedidoproduto.mercadoId` and `taxaCentesimos`: the market of each order line and that
 *   market's fee when the line was written, so a later change of the fee never rewrites an order;
 * - `lote` and `loteproduto`: lots for a named buyer of a lote market, drawn from offer lines.
 * The order page shows the cycle's markets and their points: writes to the two new cycle tables
 * move row 2 of `versaodados`, as `ciclopontoentrega` does.
 */
const VERSAO = ['ciclomercado', 'ciclomercadoponto'] as const;

async function gatilhosDeVersao(db: Kysely<unknown>, postgres: boolean, tabela: string): Promise<void> {
  if (postgres) {
    await sql`CREATE TRIGGER ${sql.id(`${tabela}_versao_ciclos_tg`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(tabela)}
      FOR EACH STATEMENT EXECUTE FUNCTION cestaria_mudou_versao_dos_ciclos()`.execute(db);
    return;
  }
  for (const evento of ['insert', 'update', 'delete']) {
    await sql`CREATE TRIGGER ${sql.id(`${tabela}_versao_ciclos_${evento}_tg`)} AFTER ${sql.raw(evento.toUpperCase())} ON ${sql.table(tabela)}
      BEGIN UPDATE versaodados SET versao = versao + 1 WHERE id = 2; END`.execute(db);
  }
}

export const mercadosNosCiclos: FabricaMigracao = (ctx) => ({
  async up(db) {
    await comDatas(
      comId(ctx, db.schema.createTable('ciclomercado'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('mercadoId', 'integer', (c) => c.notNull().references('mercado.id'))
        .addColumn('ordemAtendimento', 'integer', (c) => c.notNull())
        .addUniqueConstraint('ciclomercado_uq', ['cicloid', 'mercadoId'])
        .addUniqueConstraint('ciclomercado_ordem_uq', ['cicloid', 'ordemAtendimento'])
        .addCheckConstraint('ciclomercado_ordem_ck', sql`"ordemAtendimento" >= 1`),
    ).execute();
    await db.schema.createIndex('ciclomercado_mercado_ix').on('ciclomercado').column('mercadoId').execute();
    await comDatas(
      comId(ctx, db.schema.createTable('ciclomercadoponto'))
        .addColumn('cicloMercadoId', 'integer', (c) => c.notNull().references('ciclomercado.id'))
        .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
        .addUniqueConstraint('ciclomercadoponto_uq', ['cicloMercadoId', 'pontoEntregaId']),
    ).execute();
    await db.schema.createIndex('ciclomercadoponto_ponto_ix').on('ciclomercadoponto').column('pontoEntregaId').execute();
    for (const t of VERSAO) await gatilhosDeVersao(db, ctx.dialeto === 'postgres', t);

    await db.schema.alterTable('ciclocesta').addColumn('mercadoId', 'integer', (c) => c.references('mercado.id')).execute();
    await db.schema.alterTable('cicloproduto').addColumn('mercadoId', 'integer', (c) => c.references('mercado.id')).execute();
    await db.schema.alterTable('pedidoproduto').addColumn('mercadoId', 'integer', (c) => c.references('mercado.id')).execute();
    await db.schema.alterTable('pedidoproduto').addColumn('taxaCentesimos', 'integer').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('lote'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('mercadoId', 'integer', (c) => c.notNull().references('mercado.id'))
        .addColumn('comprador', 'text', (c) => c.notNull())
        .addColumn('compradorUsuarioId', 'integer', (c) => c.references('usuario.id'))
        .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
        .addColumn('valorAlvoCentavos', 'integer', (c) => c.notNull())
        .addCheckConstraint('lote_alvo_ck', sql`"valorAlvoCentavos" > 0`),
    ).execute();
    await db.schema.createIndex('lote_ciclo_ix').on('lote').column('cicloid').execute();
    await comDatas(
      comId(ctx, db.schema.createTable('loteproduto'))
        .addColumn('loteid', 'integer', (c) => c.notNull().references('lote.id'))
        .addColumn('ofertaProdutoId', 'integer', (c) => c.notNull().references('ofertaproduto.id'))
        .addColumn('quantidadeMilesimos', 'integer', (c) => c.notNull())
        .addUniqueConstraint('loteproduto_uq', ['loteid', 'ofertaProdutoId'])
        .addCheckConstraint('loteproduto_qtd_ck', sql`"quantidadeMilesimos" > 0`),
    ).execute();
    await db.schema.createIndex('loteproduto_oferta_ix').on('loteproduto').column('ofertaProdutoId').execute();
  },
  // NOTE: SQLite cannot drop a column that has a foreign key: there the way back is the backup
  // taken before the update (docs/operations.md, "Atualizações").
  async down(db) {
    await db.schema.dropTable('loteproduto').execute();
    await db.schema.dropTable('lote').execute();
    await db.schema.alterTable('pedidoproduto').dropColumn('taxaCentesimos').execute();
    await db.schema.alterTable('pedidoproduto').dropColumn('mercadoId').execute();
    await db.schema.alterTable('cicloproduto').dropColumn('mercadoId').execute();
    await db.schema.alterTable('ciclocesta').dropColumn('mercadoId').execute();
    await db.schema.dropTable('ciclomercadoponto').execute();
    await db.schema.dropTable('ciclomercado').execute();
  },
});
