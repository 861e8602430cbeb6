/** The cycles a dashboard shows, each with its phase and the writing windows open today. */
import type { Db } from '../../db/banco.ts';
import { consultaPreparada } from '../../db/preparadas.ts';
import { somarDias } from '../tempo.ts';
import { CAMPOS_DATA, faseDoCiclo, janelasAbertas, type DatasCiclo, type Janela } from './calendario.ts';
import type { CicloResumo } from './modelo.ts';

/** The cycles a dashboard shows: active, current, upcoming, or ended since `desde`, oldest first. */
export function ciclosRecentes(db: Db, desde: string) {
  return db
    .selectFrom('ciclo')
    .select(['id', 'nome', ...CAMPOS_DATA])
    .where('ativo', '=', true)
    .where('dataRetiradaFim', '>=', desde)
    .orderBy('dataOfertaInicio')
    .orderBy('id')
    .limit(50);
}

/** How far back the dashboard looks: cycles whose pickup ended in the last 30 days. */
export const desdeDoPainel = (hoje: string): string => somarDias(hoje, -30);

/** A cycle on the dashboard: its phase and the writing windows open today (they may be two). */
export interface CicloNoPainel extends CicloResumo {
  readonly abertas: readonly Janela[];
}

export function noPainel(l: DatasCiclo & { readonly id: number; readonly nome: string }, hoje: string): CicloNoPainel {
  return { ...l, fase: faseDoCiclo(l, hoje), abertas: janelasAbertas(l, hoje) };
}

// Every dashboard without a person (an identity not registered yet) runs it: compiled once.
const ciclosRecentesPreparada = consultaPreparada(ciclosRecentes, 1);

/** A recent cycle as the dashboard reads it: its name and dates. */
export type CicloRecente = DatasCiclo & { readonly id: number; readonly nome: string };

/**
 * The recent cycles of each database, kept per version of the cycle data and per day.
 *
 * NOTE: every dashboard shows the same list of cycles, and it changes only when a cycle is written
 * (`versaodados` row 2 moves, by triggers) or when the day turns (the 30 days it looks back). Each
 * person's dashboard reads only what is theirs, with the version in the same statement
 * (src/domain/andamento.ts), and takes the list from here: read per request, the list and its sort
 * cost the dashboard's statement five times what the person's rows cost (docs/performance.md).
 * The version is read before the list is built, so what is kept is never older than the version
 * it is kept under.
 */
const recentesGuardados = new WeakMap<
  Db,
  { readonly versao: number; readonly desde: string; readonly ciclos: Promise<readonly CicloRecente[]> }
>();

/** The recent cycles since `desde`, as of `versao` (the cycle data's version, read before calling). */
export function ciclosRecentesDaVersao(db: Db, desde: string, versao: number): Promise<readonly CicloRecente[]> {
  const guardados = recentesGuardados.get(db);
  if (guardados !== undefined && guardados.versao === versao && guardados.desde === desde) return guardados.ciclos;
  // Requests that arrive while it is being read wait for the same read; a failed read is not kept.
  const entrada = { versao, desde, ciclos: ciclosRecentesPreparada(db, desde) };
  recentesGuardados.set(db, entrada);
  entrada.ciclos.catch(() => {
    if (recentesGuardados.get(db) === entrada) recentesGuardados.delete(db);
  });
  return entrada.ciclos;
}

/** Active cycles that are current, upcoming, or ended in the last 30 days, oldest first. */
export async function ciclosDoPainel(db: Db, hoje: string): Promise<CicloNoPainel[]> {
  return (await ciclosRecentesPreparada(db, desdeDoPainel(hoje))).map((l) => noPainel(l, hoje));
}
