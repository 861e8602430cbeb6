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

/** Active cycles that are current, upcoming, or ended in the last 30 days, oldest first. */
export async function ciclosDoPainel(db: Db, hoje: string): Promise<CicloNoPainel[]> {
  return (await ciclosRecentesPreparada(db, desdeDoPainel(hoje))).map((l) => noPainel(l, hoje));
}
