import { sql } from 'kysely';
import { comDatas, comId, naoNulo, type FabricaMigracao } from './dialeto.ts';

/**
 * Subscriptions (DOMAIN.md, "Subscriptions (assinaturas)").
 * - `assinatura`: a consumer's standing order of `quantidade` baskets of one basket type
 *   (`cestaId`), picked up at `pontoEntregaId`, every cycle or every other cycle, between `inicio`
 *   and `fim` (AAAA-MM-DD), optionally in one cesta market. At most one ACTIVE subscription per
 *   (consumer, basket type): a partial unique index.
 * - `assinaturapausa`: the periods a subscription is paused (deleted with it).
 * - `assinaturaciclo`: what became of a subscription in a cycle (`gerado`, `pulado`, `pausado`,
 *   `faltou`), unique per (assinaturaId, cicloid): inserting it first is what makes generation
 *   happen exactly once per (subscription, cycle), across processes and restarts.
 * - `pedidoproduto.assinaturaId`: the basket line a subscription put in an order.
 * - `cesta.limiteAssinaturas`: the cap on active subscriptions of a basket type (null: none).
 */
export const assinaturas: FabricaMigracao = (ctx) => ({
  async up(db) {
    await comDatas(
      comId(ctx, db.schema.createTable('assinatura'))
        .addColumn('usuarioid', 'integer', (c) => c.notNull().references('usuario.id'))
        .addColumn('cestaId', 'integer', (c) => c.notNull().references('cesta.id'))
        .addColumn('quantidade', 'integer', naoNulo)
        .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
        .addColumn('frequencia', 'text', naoNulo)
        .addColumn('inicio', 'text', naoNulo)
        .addColumn('fim', 'text', naoNulo)
        .addColumn('mercadoId', 'integer', (c) => c.references('mercado.id'))
        .addColumn('ativa', 'boolean', (c) => c.notNull().defaultTo(sql`true`))
        .addCheckConstraint('assinatura_quantidade_ck', sql`quantidade >= 1`)
        .addCheckConstraint('assinatura_frequencia_ck', sql`frequencia in ('cada_ciclo', 'ciclo_sim_ciclo_nao')`)
        .addCheckConstraint('assinatura_datas_ck', sql`inicio <= fim`),
    ).execute();
    await db.schema.createIndex('assinatura_ativa_uq').on('assinatura').columns(['usuarioid', 'cestaId']).unique().where(sql.ref('ativa'), '=', sql`true`).execute();
    await db.schema.createIndex('assinatura_cesta_ix').on('assinatura').columns(['cestaId', 'ativa']).execute();
    await comDatas(
      comId(ctx, db.schema.createTable('assinaturapausa'))
        .addColumn('assinaturaId', 'integer', (c) => c.notNull().references('assinatura.id').onDelete('cascade'))
        .addColumn('inicio', 'text', naoNulo)
        .addColumn('fim', 'text', naoNulo)
        .addCheckConstraint('assinaturapausa_datas_ck', sql`inicio <= fim`),
    ).execute();
    await db.schema.createIndex('assinaturapausa_assinatura_ix').on('assinaturapausa').column('assinaturaId').execute();
    await comDatas(
      comId(ctx, db.schema.createTable('assinaturaciclo'))
        .addColumn('assinaturaId', 'integer', (c) => c.notNull().references('assinatura.id'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('situacao', 'text', naoNulo)
        .addColumn('quantidade', 'integer', naoNulo)
        .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
        .addColumn('pedidoId', 'integer', (c) => c.references('pedido.id'))
        .addColumn('motivo', 'text')
        .addUniqueConstraint('assinaturaciclo_uq', ['assinaturaId', 'cicloid'])
        .addCheckConstraint('assinaturaciclo_situacao_ck', sql`situacao in ('gerado', 'pulado', 'pausado', 'faltou')`)
        .addCheckConstraint('assinaturaciclo_quantidade_ck', sql`quantidade >= 1`),
    ).execute();
    await db.schema.createIndex('assinaturaciclo_ciclo_ix').on('assinaturaciclo').column('cicloid').execute();
    await db.schema.createIndex('assinaturaciclo_pedido_ix').on('assinaturaciclo').column('pedidoId').execute();
    await db.schema.alterTable('pedidoproduto').addColumn('assinaturaId', 'integer', (c) => c.references('assinatura.id')).execute();
    await db.schema.createIndex('pedidoproduto_assinatura_ix').on('pedidoproduto').column('assinaturaId').execute();
    await db.schema.alterTable('cesta').addColumn('limiteAssinaturas', 'integer').execute();
  },
  async down(db) {
    await db.schema.alterTable('cesta').dropColumn('limiteAssinaturas').execute();
    await db.schema.dropIndex('pedidoproduto_assinatura_ix').execute();
    await db.schema.alterTable('pedidoproduto').dropColumn('assinaturaId').execute();
    await db.schema.dropTable('assinaturaciclo').execute();
    await db.schema.dropTable('assinaturapausa').execute();
    await db.schema.dropTable('assinatura').execute();
  },
});
