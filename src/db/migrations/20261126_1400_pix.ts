import { sql } from 'kysely';
import { comDatas, comId, naoNulo, type FabricaMigracao } from './dialeto.ts';

/**
 * Bank statements and the payments they settle.
 * - `extratolinha`: each credit of an imported statement. `idBanco` is the bank's transaction id
 *   (`ofx:<conta>:<FITID>`, or `csv:<hash of date, amount, description and occurrence>`), unique:
 *   importing the same statement twice, or two overlapping ones, adds nothing. A line is
 *   `pendente` (maybe with a proposed person), `conciliada` (it became the movement
 *   `movimentacaoid`) or `descartada` (with the coordinator's `motivo`).
 * - `mapeamentoextrato`: a saved CSV column mapping, by name (`nomeChave` unique).
 */
export const pix: FabricaMigracao = (ctx) => ({
  async up(db) {
    await comDatas(
      comId(ctx, db.schema.createTable('extratolinha'))
        .addColumn('idBanco', 'text', (c) => c.notNull().unique())
        .addColumn('data', 'text', naoNulo)
        .addColumn('valorCentavos', 'integer', naoNulo)
        .addColumn('descricao', 'text', naoNulo)
        .addColumn('pagador', 'text')
        .addColumn('txid', 'text')
        .addColumn('arquivo', 'text', naoNulo)
        .addColumn('estado', 'text', (c) => c.notNull().defaultTo('pendente'))
        .addColumn('proposta', 'text')
        .addColumn('usuarioid', 'integer', (c) => c.references('usuario.id'))
        .addColumn('candidatos', 'text')
        .addColumn('cicloid', 'integer', (c) => c.references('ciclo.id'))
        .addColumn('movimentacaoid', 'integer', (c) => c.unique().references('movimentacao.id'))
        .addColumn('motivo', 'text')
        .addColumn('importadoPor', 'integer', (c) => c.references('usuario.id'))
        .addCheckConstraint('extratolinha_estado_ck', sql`estado in ('pendente', 'conciliada', 'descartada')`)
        .addCheckConstraint('extratolinha_proposta_ck', sql`proposta is null or proposta in ('txid', 'nome', 'ambigua')`)
        .addCheckConstraint('extratolinha_valor_ck', sql`"valorCentavos" > 0`),
    ).execute();
    await db.schema.createIndex('extratolinha_estado_ix').on('extratolinha').columns(['estado', 'data']).execute();
    await db.schema.createIndex('extratolinha_usuario_ix').on('extratolinha').column('usuarioid').execute();
    await db.schema.createIndex('extratolinha_ciclo_ix').on('extratolinha').column('cicloid').execute();
    await comDatas(
      comId(ctx, db.schema.createTable('mapeamentoextrato'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('nomeChave', 'text', (c) => c.notNull().unique())
        .addColumn('separador', 'text', naoNulo)
        .addColumn('colunaData', 'text', naoNulo)
        .addColumn('colunaValor', 'text', naoNulo)
        .addColumn('colunaDescricao', 'text', naoNulo)
        .addColumn('colunaPagador', 'text')
        .addCheckConstraint('mapeamentoextrato_separador_ck', sql`separador in (';', ',', 'tab')`),
    ).execute();
  },
  async down(db) {
    await db.schema.dropTable('mapeamentoextrato').execute();
    await db.schema.dropTable('extratolinha').execute();
  },
});
