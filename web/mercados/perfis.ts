/**
 * The four profiles as people read them. The names mirror PROFILES and the descriptions
 * DESCRICOES_PERFIS of src/domain/contas.ts (a test keeps them equal); the client cannot import
 * the server's domain module, which pulls in the database.
 */
export const PERFIS = ['Administrador', 'AdminMercado', 'Fornecedor', 'Consumidor'] as const;
export type NomePerfil = (typeof PERFIS)[number];

export const DESCRICOES_PERFIS: Readonly<Record<NomePerfil, string>> = {
  Administrador: 'Administração geral: todas as funções',
  AdminMercado: 'Administração de um mercado: o próprio mercado, seus produtos e preços',
  Fornecedor: 'Produtor ou fornecedor: registra ofertas e vê os próprios pedidos',
  Consumidor: 'Consumidor: faz pedidos e vê os ciclos disponíveis',
};

/** What a page requires: one profile, or a list of which any one suffices (spec 5.B.10). */
export type Exigencia = NomePerfil | readonly NomePerfil[];

export function temPerfil(perfis: readonly NomePerfil[], exigido: Exigencia): boolean {
  const aceitos: readonly NomePerfil[] = typeof exigido === 'string' ? [exigido] : exigido;
  return aceitos.length === 0 || perfis.some((p) => aceitos.includes(p));
}
