import type { Banco } from '../db/banco.ts';
import { VERSAO_DOS_CICLOS, versaoDosDados } from '../db/versoes.ts';
import { cicloDasJanelas } from '../domain/ciclos/janelas.ts';
import { catalogoDoCiclo, type CatalogoDoCiclo } from '../domain/pedidos/disponibilidade.ts';
import { pontosParaPedido, type PontoParaPedido } from '../domain/pontos-do-ciclo.ts';

/** Everything the order page shows of a cycle that orders do not change. */
export interface PaginaDoCiclo {
  readonly ciclo: Awaited<ReturnType<typeof cicloDasJanelas>>;
  readonly catalogo: CatalogoDoCiclo;
  readonly pontosEntrega: readonly PontoParaPedido[];
}

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
    const pagina = Promise.all([
      cicloDasJanelas(banco, cicloid),
      catalogoDoCiclo(banco, cicloid),
      pontosParaPedido(banco, cicloid),
    ]).then(([ciclo, catalogo, pontosEntrega]) => ({ ciclo, catalogo, pontosEntrega }));
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
