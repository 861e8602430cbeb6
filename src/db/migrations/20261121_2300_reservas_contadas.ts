import { sql } from 'kysely';
import type { FabricaMigracao } from './dialeto.ts';

/**
 * What saved orders reserve of each cycle basket and extra, kept as a counter on the row
 * (`reservadoMilesimos`, in thousandths) instead of summed over every order line on each read.
 * Row triggers on `pedidoproduto` keep it, in the same transaction as the order line, so every
 * writer counts (the order routes, the demo and bench data, a test's direct insert). The counters
 * start from the sums of the lines already there.
 */
const LINHAS = [
  { tabela: 'ciclocesta', coluna: 'cicloCestaId' },
  { tabela: 'cicloproduto', coluna: 'cicloProdutoId' },
] as const;

export const reservasContadas: FabricaMigracao = (ctx) => ({
  async up(db) {
    for (const { tabela, coluna } of LINHAS) {
      await db.schema.alterTable(tabela).addColumn('reservadoMilesimos', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`UPDATE ${sql.table(tabela)} SET "reservadoMilesimos" = (
        SELECT COALESCE(SUM(pp."quantidadeMilesimos"), 0) FROM pedidoproduto pp WHERE pp.${sql.id(coluna)} = ${sql.table(tabela)}.id)`.execute(db);
    }
    const somar = (sinal: '+' | '-', linha: 'NEW' | 'OLD') => sql.join(
      LINHAS.map(({ tabela, coluna }) => sql`UPDATE ${sql.table(tabela)} SET "reservadoMilesimos" = "reservadoMilesimos" ${sql.raw(sinal)} ${sql.raw(linha)}."quantidadeMilesimos" WHERE id = ${sql.raw(linha)}.${sql.id(coluna)};`),
      sql` `,
    );
    if (ctx.dialeto === 'postgres') {
      await sql`CREATE FUNCTION cestaria_conta_reserva() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP IN ('UPDATE', 'DELETE') THEN ${somar('-', 'OLD')} END IF;
          IF TG_OP IN ('UPDATE', 'INSERT') THEN ${somar('+', 'NEW')} END IF;
          RETURN NULL;
        END $$`.execute(db);
      await sql`CREATE TRIGGER pedidoproduto_reserva_tg AFTER INSERT OR UPDATE OF "quantidadeMilesimos", "cicloCestaId", "cicloProdutoId" OR DELETE ON pedidoproduto
        FOR EACH ROW EXECUTE FUNCTION cestaria_conta_reserva()`.execute(db);
    } else {
      await sql`CREATE TRIGGER pedidoproduto_reserva_insert_tg AFTER INSERT ON pedidoproduto BEGIN ${somar('+', 'NEW')} END`.execute(db);
      await sql`CREATE TRIGGER pedidoproduto_reserva_delete_tg AFTER DELETE ON pedidoproduto BEGIN ${somar('-', 'OLD')} END`.execute(db);
      await sql`CREATE TRIGGER pedidoproduto_reserva_update_tg AFTER UPDATE OF "quantidadeMilesimos", "cicloCestaId", "cicloProdutoId" ON pedidoproduto
        BEGIN ${somar('-', 'OLD')} ${somar('+', 'NEW')} END`.execute(db);
    }
  },
  async down(db) {
    if (ctx.dialeto === 'postgres') {
      await sql`DROP TRIGGER IF EXISTS pedidoproduto_reserva_tg ON pedidoproduto`.execute(db);
      await sql`DROP FUNCTION IF EXISTS cestaria_conta_reserva()`.execute(db);
    } else {
      for (const e of ['insert', 'delete', 'update']) await sql`DROP TRIGGER IF EXISTS ${sql.id(`pedidoproduto_reserva_${e}_tg`)}`.execute(db);
    }
    for (const { tabela } of LINHAS) await db.schema.alterTable(tabela).dropColumn('reservadoMilesimos').execute();
  },
});
