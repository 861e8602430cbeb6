import { sql, type RawBuilder } from 'kysely';

/** SQL pieces the lists share, the same in both dialects. */

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

/** `count(*) over ()`: the total of the filtered list, in the same query as the page. */
export const totalDaLista = sql<number>`count(*) over ()`.as('total');
