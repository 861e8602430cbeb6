import { sql } from 'kysely';
import { comDatas, comId, naoNulo, type FabricaMigracao } from './dialeto.ts';

/**
 * The e-mail outbox (`mensagem`) and each person's opted-out kinds (`usuario.avisosDesligados`).
 * - A message is written, already rendered, in the transaction of the change that causes it, so
 *   a rolled-back change sends nothing, and what is kept is exactly what goes out.
 * - `chave` is unique: one message per (kind, cycle, person) for reminders, one per
 *   confirmation for receipts. A second writer's insert changes nothing.
 * - `estado`: pendente → enviando (held by one sender until `travadaAte`) → enviada, or back to
 *   pendente with a later `proximaTentativa`, or falhou after the last try.
 * - `avisosDesligados`: a JSON list of the optional kinds the person does not want; null: none.
 */
export const mensagens: FabricaMigracao = (ctx) => ({
  async up(db) {
    await comDatas(
      comId(ctx, db.schema.createTable('mensagem'))
        .addColumn('chave', 'text', (c) => c.notNull().unique())
        .addColumn('tipo', 'text', naoNulo)
        .addColumn('usuarioid', 'integer', (c) => c.references('usuario.id'))
        .addColumn('cicloid', 'integer', (c) => c.references('ciclo.id'))
        .addColumn('para', 'text', naoNulo)
        .addColumn('assunto', 'text', naoNulo)
        .addColumn('texto', 'text', naoNulo)
        .addColumn('html', 'text', naoNulo)
        .addColumn('cancelar', 'text')
        .addColumn('estado', 'text', (c) => c.notNull().defaultTo('pendente'))
        .addColumn('tentativas', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('proximaTentativa', 'text', naoNulo)
        .addColumn('travadaAte', 'text')
        .addColumn('ultimoErro', 'text')
        .addColumn('enviadaEm', 'text')
        .addCheckConstraint('mensagem_estado_ck', sql`estado in ('pendente', 'enviando', 'enviada', 'falhou')`),
    ).execute();
    // The senders' claim: the due messages, oldest first.
    await db.schema.createIndex('mensagem_fila_ix').on('mensagem').columns(['estado', 'proximaTentativa']).execute();
    await db.schema.createIndex('mensagem_usuario_ix').on('mensagem').column('usuarioid').execute();
    await db.schema.createIndex('mensagem_ciclo_ix').on('mensagem').column('cicloid').execute();
    await db.schema.alterTable('usuario').addColumn('avisosDesligados', 'text').execute();
  },
  async down(db) {
    await db.schema.alterTable('usuario').dropColumn('avisosDesligados').execute();
    await db.schema.dropTable('mensagem').execute();
  },
});
