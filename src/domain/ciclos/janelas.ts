/**
 * The windows enforced at write time: a cycle's dates and state read (and locked) for the check,
 * and the refusals once it is closed or outside the window.
 */
import { ehPostgres, type Db } from '../../db/banco.ts';
import { juntas, leitura, type Leitura } from '../../db/juntas.ts';
import { consultaPreparada } from '../../db/preparadas.ts';
import { Conflito, NaoEncontrado } from '../erros.ts';
import { CAMPOS_DATA, JANELAS, janelaAberta, type DatasCiclo, type Janela } from './calendario.ts';

/**
 * How a write holds its cycle until it commits (PostgreSQL; SQLite serialises every writer):
 * - `escrita`: alone (FOR UPDATE). Compositions, lots, extras, removing an offer's line, edits of
 *   the cycle and its closing change what the capacity rule and the closing read, so they take
 *   turns, with each other and with offers and orders.
 * - `oferta`: beside other offers and orders (FOR SHARE), never beside an `escrita`. Saving an
 *   offer changes only its own products' lines, so two offers take turns only on the products
 *   they share: the offer takes those locks itself (salvarOferta in ofertas.ts).
 * - `pedido`: beside other orders and offers (FOR KEY SHARE, which only FOR UPDATE waits for). An
 *   order or a confirmation never overlaps a closing, so the closing debits exactly what was
 *   ordered and nothing is ordered in a closed cycle. An offer changes nothing an order reads (the
 *   baskets' numbers and the extras' quantities are the coordination's).
 */
export type TravaDoCiclo = 'escrita' | 'oferta' | 'pedido';

const TRAVAS = {
  escrita: (q) => q.forUpdate(),
  oferta: (q) => q.forShare(),
  pedido: (q) => q.forKeyShare(),
} satisfies Record<TravaDoCiclo, <Q extends { forUpdate(): Q; forShare(): Q; forKeyShare(): Q }>(q: Q) => Q>;

/** The cycle's dates and state, locked as `trava` says (PostgreSQL) or not at all. */
function cicloTravado(trava: TravaDoCiclo | undefined) {
  return (db: Db, cicloid: number) => {
    const q = db
      .selectFrom('ciclo')
      .select(['id', 'nome', 'ativo', 'fechadoEm', ...CAMPOS_DATA])
      .where('id', '=', cicloid);
    // Stryker disable next-line all: row locks exist only on PostgreSQL (test/fluxo/travas.test.ts fails without them)
    return trava === undefined || !ehPostgres(db) ? q : TRAVAS[trava](q);
  };
}

// Every write reads its cycle first: compiled once per lock, not per request (consultaPreparada).
const CICLO_POR_TRAVA = {
  nenhuma: consultaPreparada(cicloTravado(undefined), 1),
  escrita: consultaPreparada(cicloTravado('escrita'), 1),
  oferta: consultaPreparada(cicloTravado('oferta'), 1),
  pedido: consultaPreparada(cicloTravado('pedido'), 1),
};

/** A cycle as the window checks read it. */
export type CicloDasJanelas = DatasCiclo & { id: number; nome: string; ativo: boolean; fechadoEm: string | null };

/** cicloDasJanelas as one statement of a batch (juntas.ts). */
export function leituraDoCiclo(db: Db, cicloid: number, trava?: TravaDoCiclo): Leitura<CicloDasJanelas> {
  return leitura(CICLO_POR_TRAVA[trava ?? 'nenhuma'].compilada(db, cicloid), ([c]) => {
    if (c === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${cicloid}`);
    return c;
  });
}

/**
 * The dates and state of a cycle, for window checks. With a lock, the cycle is read after the
 * lock is held, so the state checked is the state the write commits against.
 */
export async function cicloDasJanelas(db: Db, cicloid: number, trava?: TravaDoCiclo): Promise<CicloDasJanelas> {
  const [c] = await juntas(db, [leituraDoCiclo(db, cicloid, trava)]);
  return c;
}

export function exigirAberto(ciclo: { fechadoEm: string | null }): void {
  if (ciclo.fechadoEm !== null)
    throw new Conflito('CICLO_FECHADO', 'Este ciclo já foi fechado: nada nele muda, a não ser que um master o reabra');
}

/**
 * The server enforces the windows: suppliers change offers and consumers change orders only
 * inside them. Admins act at any time; the result says whether they acted outside, for the audit.
 * A closed cycle changes for nobody: its movements were computed from its orders and offers, and
 * corrections are new movements.
 */
export function exigirJanela(
  ciclo: DatasCiclo & { ativo: boolean; fechadoEm: string | null },
  hoje: string,
  janela: Janela,
  gestor: boolean,
): { foraDaJanela: boolean } {
  exigirAberto(ciclo);
  const j = JANELAS[janela];
  const dentro = ciclo.ativo && janelaAberta(ciclo, hoje, janela);
  if (dentro || gestor) return { foraDaJanela: !dentro };
  if (!ciclo.ativo) throw new Conflito('CICLO_INATIVO', 'Este ciclo está desativado');
  // Stryker disable next-line EqualityOperator: outside the window, today is never its first day, so < and <= agree
  const antes = hoje < ciclo[j.inicio];
  const [a, m, d] = (antes ? ciclo[j.inicio] : ciclo[j.fim]).split('-');
  throw new Conflito(
    'JANELA_FECHADA',
    antes
      ? `O período ${j.nome} deste ciclo começa em ${d}/${m}/${a}`
      : `O período ${j.nome} deste ciclo terminou em ${d}/${m}/${a}`,
  );
}
