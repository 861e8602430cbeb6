import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/banco.ts';
import type { DB } from '../db/tipos.ts';
import { Conflito } from './erros.ts';
import { Campos, type Entrada } from './validacao.ts';

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

/** Reads ?pagina, ?porPagina, ?ordem, ?direcao, ?busca, refusing what is not in the lists. */
export function lerPedidoDePagina(query: Entrada, ordens: readonly string[], ordemPadrao: string): PedidoDePagina {
  const c = new Campos(query);
  const pagina = c.inteiro('pagina', { min: 1, max: 1_000_000 }) ?? 1;
  const porPagina = c.inteiro('porPagina', { min: 1, max: POR_PAGINA_MAXIMO }) ?? POR_PAGINA_PADRAO;
  const ordem = c.umDe('ordem', ordens) ?? ordemPadrao;
  const direcao = c.umDe('direcao', ['asc', 'desc'] as const) ?? 'asc';
  const busca = c.texto('busca', { max: 100 });
  c.concluir();
  return { pagina, porPagina, ordem, direcao, busca: busca === '' ? null : busca };
}

/** LIKE pattern for a search term, with its wildcards escaped (used with ESCAPE '\'). */
function padraoDeBusca(termo: string): string {
  return `%${termo.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * "column contains term", wildcards in the term taken literally. NOTE: SQLite has no default
 * LIKE escape character, so the ESCAPE clause is spelled out for both dialects.
 */
export function contem(coluna: string | RawBuilder<unknown>, termo: string): RawBuilder<boolean> {
  const alvo = typeof coluna === 'string' ? sql.ref(coluna) : coluna;
  return sql<boolean>`${alvo} like ${padraoDeBusca(termo)} escape '\\'`;
}

/** Builds the page from rows that carry the window count `total` (one query per page). */
export function montarPagina<T>(linhas: ReadonlyArray<T & { total: number | string }>, pedido: PedidoDePagina, totalSemLinhas: number): Pagina<T> {
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

/** `count(*) over ()`: the total of the filtered list, in the same query as the page. */
export const totalDaLista = sql<number>`count(*) over ()`.as('total');

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
export async function exigirSemReferencias(db: Db, referencias: readonly Referencia[], id: number, rotulo: string): Promise<void> {
  const usos: Record<string, number> = {};
  for (const r of referencias) {
    // NOTE: table and column names come from our own constant lists, never from input.
    const linha = await sql<{ n: number }>`select count(*) as n from ${sql.table(r.tabela)} where ${sql.ref(r.coluna)} = ${id}`
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
