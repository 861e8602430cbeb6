import { sql } from 'kysely';
import { comId, type ContextoMigracao, type FabricaMigracao } from './dialeto.ts';

/**
 * The pickup day (docs/retirada.md).
 *
 * - `voluntario`: the people the coordination names to run one pickup point in one cycle. The
 *   right is that narrow: that point's orders in that cycle, and recording pickups there.
 * - `acaoretirada`: each action recorded at a pickup point, as the device made it. `chave` is the
 *   id the device gave the action: it is unique, so an action sent again is never applied twice.
 *   `feitoEm` is the moment on the device, `recebidoEm` the moment it reached the server.
 * - the movement kind "Falta na retirada", for what a short item gives back to the consumer and
 *   takes from the supplier.
 */
export const retirada: FabricaMigracao = (ctx: ContextoMigracao) => ({
  async up(db) {
    await comId(ctx, db.schema.createTable('voluntario'))
      .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id').onDelete('cascade'))
      .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
      .addColumn('usuarioid', 'integer', (c) => c.notNull().references('usuario.id').onDelete('cascade'))
      .addColumn('createdAt', 'text', (c) => c.notNull())
      .addUniqueConstraint('voluntario_uq', ['cicloid', 'pontoEntregaId', 'usuarioid'])
      .execute();
    await db.schema.createIndex('voluntario_usuario_ix').on('voluntario').column('usuarioid').execute();

    await comId(ctx, db.schema.createTable('acaoretirada'))
      .addColumn('chave', 'text', (c) => c.notNull().unique())
      .addColumn('dispositivo', 'text', (c) => c.notNull())
      .addColumn('usuarioid', 'integer', (c) => c.notNull().references('usuario.id'))
      .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
      .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
      .addColumn('pedidoid', 'integer', (c) => c.notNull().references('pedido.id'))
      .addColumn('tipo', 'text', (c) => c.notNull().check(sql`tipo IN ('retirada', 'falta', 'pagamento', 'nota')`))
      .addColumn('pedidoProdutoId', 'integer', (c) => c.references('pedidoproduto.id'))
      .addColumn('produtoId', 'integer', (c) => c.references('produto.id'))
      .addColumn('quantidadeMilesimos', 'integer')
      .addColumn('substituto', 'text')
      .addColumn('valorCentavos', 'integer')
      .addColumn('forma', 'text', (c) => c.check(sql`forma IS NULL OR forma IN ('dinheiro', 'pix')`))
      .addColumn('texto', 'text')
      .addColumn('feitoEm', 'text', (c) => c.notNull())
      .addColumn('recebidoEm', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('acaoretirada_ponto_ix').on('acaoretirada').columns(['cicloid', 'pontoEntregaId']).execute();
    await db.schema.createIndex('acaoretirada_pedido_ix').on('acaoretirada').column('pedidoid').execute();

    const iso = new Date().toISOString();
    await db.insertInto('tipomovimentacao').values({ nome: 'Falta na retirada', sentido: 'ambos', createdAt: iso, updatedAt: iso }).execute();
  },
  async down(db) {
    await db.deleteFrom('tipomovimentacao').where('nome', '=', 'Falta na retirada').execute();
    await db.schema.dropTable('acaoretirada').execute();
    await db.schema.dropTable('voluntario').execute();
  },
});
