/** The perfil values of a Usuario (spec, section 2). */
export const PERFIS = ['info', 'master', 'admin', 'fornecedor', 'consumidor'] as const;
export type Perfil = (typeof PERFIS)[number];

/** What self-registration may choose. */
export const PERFIS_AUTOCADASTRO = ['consumidor', 'fornecedor'] as const satisfies readonly Perfil[];

export const NOMES_PERFIS: Readonly<Record<Perfil, string>> = {
  info: 'Informação (somente leitura)',
  master: 'Master',
  admin: 'Administração',
  fornecedor: 'Fornecedor',
  consumidor: 'Consumidor',
};

/** Reads the stored JSON array, ignoring anything that is not a known perfil. */
export function lerPerfis(texto: string): Perfil[] {
  try {
    const v: unknown = JSON.parse(texto);
    return Array.isArray(v) ? v.filter((p): p is Perfil => (PERFIS as readonly unknown[]).includes(p)) : [];
  } catch {
    return [];
  }
}

/** Stored form: the set in the canonical order of PERFIS. */
export function gravarPerfis(perfis: readonly Perfil[]): string {
  return JSON.stringify(PERFIS.filter((p) => perfis.includes(p)));
}
