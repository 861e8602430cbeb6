/**
 * A person's roles, stored once (`usuario.perfil`) and read by each face in its own words: the
 * Cestas perfil values, and the Mercados profiles (DOMAIN.md, "Markets in cycles"). The stored
 * set is the perfil values plus `adminMercado`, the Mercados role with no Cestas perfil.
 *
 * | Mercados      | stored (Cestas perfil)             |
 * |---------------|------------------------------------|
 * | Administrador | admin, or master (which keeps it)  |
 * | AdminMercado  | adminMercado (no Cestas perfil)    |
 * | Fornecedor    | fornecedor                         |
 * | Consumidor    | consumidor                         |
 * | (none)        | info                               |
 */
import { Conflito, recusarInvalidos } from './erros.ts';
import { PERFIS, type Perfil } from './perfis.ts';
import { PROFILES, type NomePerfil } from './politica-mercados.ts';

export const PAPEIS = [...PERFIS, 'adminMercado'] as const;
export type Papel = (typeof PAPEIS)[number];

const ehPapel = (p: unknown): p is Papel => (PAPEIS as readonly unknown[]).includes(p);

/** Reads the stored JSON array, ignoring anything that is not a known role. */
export function lerPapeis(texto: string): Papel[] {
  try {
    const v: unknown = JSON.parse(texto);
    return Array.isArray(v) ? v.filter(ehPapel) : [];
  } catch {
    return [];
  }
}

/** Stored form: the set in the canonical order of PAPEIS. */
export function gravarPapeis(papeis: readonly Papel[]): string {
  return JSON.stringify(PAPEIS.filter((p) => papeis.includes(p)));
}

/** The Mercados profiles the roles give. */
export function perfisDoMercados(papeis: readonly Papel[]): NomePerfil[] {
  const tem = (...ps: Papel[]) => ps.some((p) => papeis.includes(p));
  const dados: Readonly<Record<NomePerfil, boolean>> = {
    Administrador: tem('admin', 'master'),
    AdminMercado: tem('adminMercado'),
    Fornecedor: tem('fornecedor'),
    Consumidor: tem('consumidor'),
  };
  return PROFILES.filter((p) => dados[p]);
}

const PAPEL_DO_PERFIL: Readonly<Record<Exclude<NomePerfil, 'Administrador'>, Papel>> = {
  AdminMercado: 'adminMercado',
  Fornecedor: 'fornecedor',
  Consumidor: 'consumidor',
};

/** The roles a set of Mercados profiles gives, for a person who had `papeis` (nothing is taken away). */
export function somarPerfisDoMercados(papeis: readonly Papel[], perfis: readonly NomePerfil[]): Papel[] {
  const novos = new Set<Papel>(papeis);
  for (const p of perfis) {
    if (p === 'Administrador') {
      if (!novos.has('master')) novos.add('admin');
    } else novos.add(PAPEL_DO_PERFIL[p]);
  }
  return PAPEIS.filter((p) => novos.has(p));
}

/**
 * The roles after an Administrador sets a person's Mercados profiles: the Mercados part is
 * replaced, info and master stay. master is granted and revoked only in Cestas, by a master, so
 * dropping Administrador from a master is refused; and a person with a Cestas record keeps at
 * least one Cestas perfil (DOMAIN.md: perfil is never empty).
 */
export function papeisComPerfisDoMercados(papeis: readonly Papel[], perfis: readonly NomePerfil[]): Papel[] {
  if (papeis.includes('master') && !perfis.includes('Administrador')) {
    throw new Conflito(
      'MASTER_NA_FACE_CESTAS',
      'Esta pessoa tem o perfil master na face Cestas, que inclui Administrador: só quem tem master o retira, lá',
    );
  }
  const fixos = papeis.filter((p) => p === 'info' || p === 'master');
  const novos = somarPerfisDoMercados(fixos, perfis);
  if (!novos.some((p) => (PERFIS as readonly string[]).includes(p))) {
    recusarInvalidos({
      perfis:
        'Esta pessoa tem cadastro na face Cestas, que pede pelo menos um perfil de lá: inclua Administrador, Fornecedor ou Consumidor',
    });
  }
  return novos;
}

/** The roles after a Cestas write sets the perfil values: the Mercados-only role stays. */
export function papeisComPerfisDaCestas(papeis: readonly Papel[], perfil: readonly Perfil[]): Papel[] {
  return PAPEIS.filter((p) => (p === 'adminMercado' ? papeis.includes(p) : perfil.includes(p)));
}
