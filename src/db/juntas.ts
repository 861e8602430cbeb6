import { CompiledQuery, PostgresAdapter, type Kysely } from 'kysely';
import type { DB } from './tipos.ts';

/**
 * A statement of a batch and how its rows are read: what a use case would have awaited alone.
 * `consulta` null: nothing to ask (an empty list of ids), and `ler` gets no rows.
 */
export interface Leitura<T> {
  readonly consulta: CompiledQuery | null;
  readonly ler: (linhas: unknown[]) => T;
}

/** A Leitura whose reader gets the rows its own query gives. */
export function leitura<R, T>(consulta: CompiledQuery<R> | null, ler: (linhas: R[]) => T): Leitura<T> {
  // The rows juntas hands `ler` are the ones `consulta` returned, so they are R.
  return { consulta, ler: ler as (linhas: unknown[]) => T };
}

/**
 * The statements of one batch, as the PostgreSQL pool's connection receives them (banco.ts,
 * poolComNomes): it sends them one behind the other without waiting for each answer.
 */
export class Lote {
  readonly consultas: readonly CompiledQuery[];

  constructor(consultas: readonly CompiledQuery[]) {
    this.consultas = consultas;
  }
}

type Lidas<L extends readonly Leitura<unknown>[]> = {
  -readonly [K in keyof L]: L[K] extends Leitura<infer T> ? T : never;
};

/**
 * Runs statements that do not depend on each other's answers, in the order given, and reads
 * each with its own reader, in the same order (the first reader that throws stops the rest).
 * On PostgreSQL they go to the server together, in one round trip (the pool's pipeline mode):
 * the server still runs them one after the other on the one connection, so the locks they take
 * are taken in the order given, but a transaction no longer waits a round trip for each one.
 * NOTE: a round trip is what a write under load waits for most (docs/performance.md, "Idas ao
 * banco numa escrita"); SQLite answers in the process, so there they simply run in turn.
 */
export async function juntas<const L extends readonly Leitura<unknown>[]>(
  db: Kysely<DB>,
  leituras: L,
): Promise<Lidas<L>> {
  const consultas = leituras.flatMap((l) => l.consulta ?? []);
  let respostas: unknown[][];
  if (consultas.length > 1 && db.getExecutor().adapter instanceof PostgresAdapter) {
    const texto = consultas.map((c) => c.sql).join(';\n');
    respostas = (await db.executeQuery<unknown[]>(CompiledQuery.raw(texto, [new Lote(consultas)]))).rows;
  } else {
    respostas = [];
    for (const c of consultas) respostas.push((await db.executeQuery(c)).rows);
  }
  let i = 0;
  // Stryker disable next-line ArrayDeclaration: a reader with no query reads no rows
  return leituras.map((l) => l.ler(l.consulta === null ? [] : (respostas[i++] ?? []))) as Lidas<L>;
}
