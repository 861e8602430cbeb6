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

/**
 * Whether an account may be named a market's administrator: a fact about that account's data (its
 * profiles), shown in the form's choice of administrators, not a permission of whoever is logged in.
 */
export function podeAdministrarMercado(perfis: readonly NomePerfil[]): boolean {
  return perfis.includes('Administrador') || perfis.includes('AdminMercado');
}
