import { apagarGatilhosDeVersao, criarGatilhosDeVersao, type FabricaMigracao } from './dialeto.ts';

/**
 * A second counter in `versaodados` (row 2) that moves whenever anything the order page shows of a
 * cycle's catalogue may have changed: the cycle and its baskets and extras, the basket
 * compositions, the offer lines they use, the basket and product catalogue and the pickup points.
 * Orders do not move it: availability is always read fresh. Triggers keep it, as for row 1, so
 * every writer counts. The order page's cycle catalogue cache (src/domain/vitrine.ts) keys on it.
 */
export const TABELAS_DA_VERSAO_DOS_CICLOS = ['ciclo', 'ciclocesta', 'cicloproduto', 'cesta', 'produto', 'composicao', 'composicaoproduto', 'ofertaproduto', 'pontoentrega'] as const;

/** Row 2 of `versaodados` (VERSAO_DOS_CICLOS in src/db/versoes.ts). */
const GATILHOS = {
  id: 2, nome: 'versao_ciclos', funcao: 'cestaria_mudou_versao_dos_ciclos', tabelas: TABELAS_DA_VERSAO_DOS_CICLOS,
  // The columns the order page shows: the reservation counters of 20261121_2300 move on every
  // order and must not count as a change of the catalogue.
  colunasDoUpdate: {
    ciclocesta: ['id', 'cicloid', 'cestaId', 'quantidadeCestas', 'createdAt', 'updatedAt'],
    cicloproduto: ['id', 'cicloid', 'produtoId', 'quantidadeMilesimos', 'valorCentavos', 'createdAt', 'updatedAt'],
  },
};

export const versaoDosCiclos: FabricaMigracao = (ctx) => ({
  async up(db) {
    await db.insertInto('versaodados').values({ id: GATILHOS.id, versao: 1 }).execute();
    await criarGatilhosDeVersao(db, ctx, GATILHOS);
  },
  async down(db) {
    await apagarGatilhosDeVersao(db, ctx, GATILHOS);
    await db.deleteFrom('versaodados').where('id', '=', GATILHOS.id).execute();
  },
});
