import type { FabricaMigracao } from './dialeto.ts';

/**
 * Search keys for cycle and user names. SQLite's lower() folds ASCII only ("Índice" would not
 * match "índice"), so names get a normalised key, as catalogue names already have.
 * Expand (nullable column) and backfill here; the application writes the key from now on.
 */
function chave(nome: string): string {
  return nome.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('pt-BR');
}

export const chavesDeBusca: FabricaMigracao = () => ({
  async up(db) {
    for (const tabela of ['ciclo', 'usuario'] as const) {
      await db.schema.alterTable(tabela).addColumn('nomeChave', 'text').execute();
      const linhas = await db.selectFrom(tabela).select(['id', 'nome']).execute();
      for (const l of linhas as Array<{ id: number; nome: string }>) {
        await db.updateTable(tabela).set({ nomeChave: chave(l.nome) }).where('id', '=', l.id).execute();
      }
    }
  },
  async down(db) {
    for (const tabela of ['ciclo', 'usuario'] as const) await db.schema.alterTable(tabela).dropColumn('nomeChave').execute();
  },
});
