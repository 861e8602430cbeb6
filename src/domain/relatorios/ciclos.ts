/** Which cycles a report covers: looked up by id, offered on the selection pages, the current one. */
import { CAMPOS_DATA, faseDoCiclo, type Fase } from '../ciclos/calendario.ts';
import type { Db } from '../../db/banco.ts';
import { NaoEncontrado } from '../erros.ts';

export async function ciclosPorId(
  db: Db,
  ids: readonly number[],
): Promise<
  Array<{
    id: number;
    nome: string;
    dataOfertaInicio: string;
    dataOfertaFim: string;
    dataPedidoInicio: string;
    dataPedidoFim: string;
    dataRetiradaInicio: string;
    dataRetiradaFim: string;
  }>
> {
  const linhas = await db
    .selectFrom('ciclo')
    .select(['id', 'nome', ...CAMPOS_DATA])
    .where('id', 'in', [...ids])
    .execute();
  const faltando = ids.filter((i) => !linhas.some((l) => l.id === i));
  if (faltando.length > 0)
    throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o(s) ciclo(s) ${faltando.join(', ')}`);
  return ids.map((i) => linhas.find((l) => l.id === i)).filter((l) => l !== undefined);
}

/** Recent cycles for the selection pages. */
export async function ciclosParaEscolher(db: Db, hoje: string) {
  const linhas = await db
    .selectFrom('ciclo')
    .select(['id', 'nome', ...CAMPOS_DATA])
    .orderBy('dataOfertaInicio', 'desc')
    .limit(60)
    .execute();
  return linhas.map((l) => ({ id: l.id, nome: l.nome, fase: faseDoCiclo(l, hoje) }));
}

/**
 * The current cycle, for a report asked for without naming one: the latest cycle that has already
 * begun (its offer window opened), else the nearest one still to come; null when there is none.
 */
export function cicloAtual(ciclos: ReadonlyArray<{ id: number; fase: Fase }>): number | null {
  const comecado = ciclos.find((c) => c.fase !== 'planejado');
  return comecado?.id ?? ciclos.at(-1)?.id ?? null;
}
