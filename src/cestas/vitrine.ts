import type { Banco, Db } from '../db/banco.ts';
import { VERSAO_DOS_CICLOS, versaoDosDados } from '../db/versoes.ts';
import { cicloDasJanelas } from '../domain/ciclos.ts';
import { catalogoDoCiclo, type CatalogoDoCiclo } from '../domain/pedidos.ts';

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

/** Everything the order page shows of a cycle that orders do not change. */
export interface PaginaDoCiclo {
  readonly ciclo: Awaited<ReturnType<typeof cicloDasJanelas>>;
  readonly catalogo: CatalogoDoCiclo;
  readonly pontosEntrega: readonly PontoParaPedido[];
}

/**
 * Where a cycle's orders may pick up: the active points it lists, by day, hour and name, or every
 * active point by name when it lists none (one query either way).
 */
export async function pontosParaPedido(db: Db, cicloid: number): Promise<PontoParaPedido[]> {
  const linhas = await db
    .selectFrom('pontoentrega as pe')
    .leftJoin('ciclopontoentrega as cp', (j) => j.onRef('cp.pontoEntregaId', '=', 'pe.id').on('cp.cicloid', '=', cicloid))
    .select(['pe.id', 'pe.nome', 'pe.endereco', 'pe.cidade', 'cp.id as linha', 'cp.dataRetirada', 'cp.horaInicio', 'cp.horaFim'])
    .where('pe.ativo', '=', true)
    .orderBy('pe.nomeChave')
    .execute();
  const doCiclo = linhas.filter((l) => l.linha !== null);
  const escolhidos = doCiclo.length > 0 ? doCiclo.sort((a, b) => chave(a).localeCompare(chave(b))) : linhas;
  return escolhidos.map(({ linha: _, ...p }) => p);
}

/** The cycle's order of its points: day, then start hour (unset last), then the name order already given. */
const chave = (p: { dataRetirada: string | null; horaInicio: string | null }) => `${p.dataRetirada ?? '9999-99-99'} ${p.horaInicio ?? '99:99'}`;

/** Cycles kept per process; the least recently read go first. */
const MAXIMO_DE_CICLOS = 32;

/**
 * The order page's view of each cycle, kept per version of the cycle data.
 *
 * NOTE: when an order window opens, a whole community opens the same page within the hour. The
 * cycle, its baskets with their compositions, its extras and the pickup points cost five queries
 * and change only when a coordinator edits them, so they are kept and reused while
 * `versaodados` row 2 has not moved (database triggers move it on every write to those tables,
 * src/db/migrations/20261121_2200_versao_dos_ciclos.ts). What orders reserve is never kept: every
 * page reads it fresh. The version is read before building, so what is kept is never older than
 * the version it is kept under.
 */
export class VitrineDosCiclos {
  readonly #porCiclo = new Map<number, { versao: number; pagina: Promise<PaginaDoCiclo> }>();

  /**
   * The cycle's view as of `versao`, the cycle data's version read before calling (by default
   * here; the order page reads it with the reservations, in the same statement).
   */
  async ler(banco: Banco, cicloid: number, versao?: number): Promise<PaginaDoCiclo> {
    versao ??= await versaoDosDados(banco, VERSAO_DOS_CICLOS);
    const guardada = this.#porCiclo.get(cicloid);
    this.#porCiclo.delete(cicloid);
    if (guardada?.versao === versao) {
      this.#porCiclo.set(cicloid, guardada); // most recently read last
      return guardada.pagina;
    }
    // Requests that arrive while it is being built wait for the same build.
    const pagina = Promise.all([cicloDasJanelas(banco, cicloid), catalogoDoCiclo(banco, cicloid), pontosParaPedido(banco, cicloid)])
      .then(([ciclo, catalogo, pontosEntrega]) => ({ ciclo, catalogo, pontosEntrega }));
    const entrada = { versao, pagina };
    this.#porCiclo.set(cicloid, entrada);
    if (this.#porCiclo.size > MAXIMO_DE_CICLOS) {
      const maisAntigo = this.#porCiclo.keys().next().value;
      if (maisAntigo !== undefined) this.#porCiclo.delete(maisAntigo);
    }
    // A failed build (no such cycle, the database down) is not kept.
    pagina.catch(() => {
      if (this.#porCiclo.get(cicloid) === entrada) this.#porCiclo.delete(cicloid);
    });
    return pagina;
  }
}
