import { comDatas, comId, type FabricaMigracao } from './dialeto.ts';

/**
 * One bank transaction, one statement line, whatever the format it came in.
 * - `extratochave`: the keys that identify a line's bank transaction, each unique:
 *   `ofx:<conta>:<FITID>`, `doc:<data>:<centavos>:<número do documento>` and
 *   `seq:<data>:<centavos>:<n>` (src/domain/transacoes-do-banco.ts says how they are matched).
 *   Before, a CSV line's id hashed its description, so the same credit imported as OFX and as
 *   CSV, or as CSV with another description column, became two lines and two credits.
 * - `mapeamentoextrato.colunaDocumento`: the CSV column with the bank's document number.
 *
 * Backfill: each existing line gets its keys. An OFX line (`ofx:<banco>:<conta>:<FITID>`) its
 * FITID key and the FITID as a document number; every line a place among the lines of its day
 * and amount, in id order. Lines already duplicated stay as they are (each keeps its own place).
 */
export const transacaoDoBanco: FabricaMigracao = (ctx) => ({
  async up(db) {
    await comDatas(
      comId(ctx, db.schema.createTable('extratochave'))
        .addColumn('chave', 'text', (c) => c.notNull().unique())
        .addColumn('extratolinhaid', 'integer', (c) => c.notNull().references('extratolinha.id')),
    ).execute();
    await db.schema.createIndex('extratochave_linha_ix').on('extratochave').column('extratolinhaid').execute();
    await db.schema.alterTable('mapeamentoextrato').addColumn('colunaDocumento', 'text').execute();

    const linhas = (await db.selectFrom('extratolinha').select(['id', 'idBanco', 'data', 'valorCentavos', 'createdAt']).orderBy('id').execute()) as Array<{ id: number; idBanco: string; data: string; valorCentavos: number; createdAt: string }>;
    const lugares = new Map<string, number>();
    const chaves: Array<{ chave: string; extratolinhaid: number; createdAt: string; updatedAt: string }> = [];
    const vistas = new Set<string>();
    const acrescentar = (chave: string, l: (typeof linhas)[number]) => {
      if (vistas.has(chave)) return;
      vistas.add(chave);
      chaves.push({ chave, extratolinhaid: l.id, createdAt: l.createdAt, updatedAt: l.createdAt });
    };
    for (const l of linhas) {
      const valor = Number(l.valorCentavos);
      const dia = `${l.data}:${valor}`;
      const n = (lugares.get(dia) ?? 0) + 1;
      lugares.set(dia, n);
      const partes = l.idBanco.split(':');
      if (partes[0] === 'ofx') {
        acrescentar(l.idBanco, l);
        // The document number as src/domain/transacoes-do-banco.ts normalises it (copied: migrations stay frozen).
        const numero = partes.slice(3).join(':').toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^0+/, '');
        if (partes.length >= 4 && numero !== '') acrescentar(`doc:${dia}:${numero}`, l);
      }
      acrescentar(`seq:${dia}:${n}`, l);
    }
    for (let i = 0; i < chaves.length; i += 200) await db.insertInto('extratochave').values(chaves.slice(i, i + 200)).execute();
  },
  async down(db) {
    await db.schema.alterTable('mapeamentoextrato').dropColumn('colunaDocumento').execute();
    await db.schema.dropTable('extratochave').execute();
  },
});
