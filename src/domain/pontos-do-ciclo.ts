/**
 * Where a cycle's orders may pick up: read by the order page of the Cestas face (through its
 * cycle view, src/cestas/vitrine.ts) and by the Mercados face's `Ciclo.pontosEntrega`.
 */
import type { Db } from '../db/banco.ts';

export interface PontoParaPedido {
  readonly id: number;
  readonly nome: string;
  readonly endereco: string | null;
  readonly cidade: string | null;
  /** The cycle's day and hours at this point, when it lists its points. */
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
}

/**
 * Where a cycle's orders may pick up: the active points it lists, by day, hour and name, or every
 * active point by name when it lists none (one query either way).
 */
export async function pontosParaPedido(db: Db, cicloid: number): Promise<PontoParaPedido[]> {
  const linhas = await db
    .selectFrom('pontoentrega as pe')
    .leftJoin('ciclopontoentrega as cp', (j) =>
      j.onRef('cp.pontoEntregaId', '=', 'pe.id').on('cp.cicloid', '=', cicloid),
    )
    .select([
      'pe.id',
      'pe.nome',
      'pe.endereco',
      'pe.cidade',
      'cp.id as linha',
      'cp.dataRetirada',
      'cp.horaInicio',
      'cp.horaFim',
    ])
    .where('pe.ativo', '=', true)
    .orderBy('pe.nomeChave')
    .execute();
  const doCiclo = linhas.filter((l) => l.linha !== null);
  const escolhidos = doCiclo.length > 0 ? doCiclo.sort((a, b) => chave(a).localeCompare(chave(b))) : linhas;
  return escolhidos.map(({ linha: _, ...p }) => p);
}

/** The cycle's order of its points: day, then start hour (unset last), then the name order already given. */
const chave = (p: { dataRetirada: string | null; horaInicio: string | null }) =>
  `${p.dataRetirada ?? '9999-99-99'} ${p.horaInicio ?? '99:99'}`;
