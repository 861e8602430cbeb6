import { sql } from 'kysely';
import { comDatas, comId, type FabricaMigracao } from './dialeto.ts';

/**
 * The pickup points a cycle serves, each with its own day and hours (`ciclopontoentrega`). A cycle
 * with no rows serves every active point, as before. `dataRetirada` falls inside the cycle's
 * pickup window; `horaInicio`/`horaFim` are "HH:MM" text, which compares in time order on both
 * dialects. The order page shows these rows, so a write to them moves row 2 of `versaodados`
 * (the order page's cache key, 20261121_2200_versao_dos_ciclos.ts), through that migration's
 * function on PostgreSQL.
 */
const TABELA = 'ciclopontoentrega';

export const pontosDoCiclo: FabricaMigracao = (ctx) => ({
  async up(db) {
    await comDatas(
      comId(ctx, db.schema.createTable(TABELA))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
        .addColumn('dataRetirada', 'text')
        .addColumn('horaInicio', 'text')
        .addColumn('horaFim', 'text')
        .addUniqueConstraint('ciclopontoentrega_uq', ['cicloid', 'pontoEntregaId'])
        .addCheckConstraint('ciclopontoentrega_horas_ck', sql`"horaInicio" is null or "horaFim" is null or "horaInicio" < "horaFim"`),
    ).execute();
    await db.schema.createIndex('ciclopontoentrega_ponto_ix').on(TABELA).column('pontoEntregaId').execute();
    if (ctx.dialeto === 'postgres') {
      await sql`CREATE TRIGGER ciclopontoentrega_versao_ciclos_tg AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ciclopontoentrega
        FOR EACH STATEMENT EXECUTE FUNCTION cestaria_mudou_versao_dos_ciclos()`.execute(db);
      return;
    }
    for (const evento of ['insert', 'update', 'delete']) {
      await sql`CREATE TRIGGER ${sql.id(`ciclopontoentrega_versao_ciclos_${evento}_tg`)} AFTER ${sql.raw(evento.toUpperCase())} ON ciclopontoentrega
        BEGIN UPDATE versaodados SET versao = versao + 1 WHERE id = 2; END`.execute(db);
    }
  },
  async down(db) {
    // Dropping the table drops its triggers on both dialects.
    await db.schema.dropTable(TABELA).execute();
  },
});
