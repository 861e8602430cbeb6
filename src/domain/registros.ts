import { sql } from 'kysely';
import type { Db } from '../db/banco.ts';
import type { DB } from '../db/tipos.ts';
import { Conflito } from './erros.ts';

/** A page of a list, with what the page links need. */
export interface Pagina<T> {
  readonly itens: T[];
  readonly total: number;
  readonly pagina: number;
  readonly porPagina: number;
  readonly paginas: number;
  readonly ordem: string;
  readonly direcao: 'asc' | 'desc';
  readonly busca: string | null;
}

export interface PedidoDePagina {
  readonly pagina: number;
  readonly porPagina: number;
  readonly ordem: string;
  readonly direcao: 'asc' | 'desc';
  readonly busca: string | null;
}

export const POR_PAGINA_PADRAO = 50;
export const POR_PAGINA_MAXIMO = 200;

/** Builds the page from rows that carry the window count `total` (one query per page). */
export function montarPagina<T>(
  linhas: ReadonlyArray<T & { total: number | string }>,
  pedido: PedidoDePagina,
  totalSemLinhas: number,
): Pagina<T> {
  const total = linhas.length > 0 ? Number(linhas[0]?.total) : totalSemLinhas;
  const itens = linhas.map((l) => {
    const { total: _ignorado, ...resto } = l;
    return resto as unknown as T;
  });
  return {
    itens,
    total,
    pagina: pedido.pagina,
    porPagina: pedido.porPagina,
    paginas: Math.max(1, Math.ceil(total / pedido.porPagina)),
    ordem: pedido.ordem,
    direcao: pedido.direcao,
    busca: pedido.busca,
  };
}

/** Something that refers to a record and so prevents deleting it. */
export interface Referencia {
  readonly tabela: keyof DB;
  readonly coluna: string;
  /** Plural noun used in the message: "produtos", "pedidos". */
  readonly descricao: string;
}

/**
 * Counts what refers to the record; a delete of something in use is refused with 409 naming
 * what uses it, and never cascades.
 */
export async function exigirSemReferencias(
  db: Db,
  referencias: readonly Referencia[],
  id: number,
  rotulo: string,
): Promise<void> {
  const usos: Record<string, number> = {};
  for (const r of referencias) {
    // NOTE: table and column names come from our own constant lists, never from input.
    const linha = await sql<{
      n: number;
    }>`select count(*) as n from ${sql.table(r.tabela)} where ${sql.ref(r.coluna)} = ${id}`
      .execute(db)
      .then((x) => x.rows[0]);
    const n = Number(linha?.n ?? 0);
    if (n > 0) usos[r.descricao] = n;
  }
  const partes = Object.entries(usos).map(([d, n]) => `${n} ${d}`);
  if (partes.length > 0) {
    throw new Conflito(
      'EM_USO',
      `Não é possível apagar ${rotulo}: em uso por ${partes.join(', ')}. Desative em vez de apagar.`,
      { referencias: usos },
    );
  }
}
