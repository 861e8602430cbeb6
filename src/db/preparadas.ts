import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './banco.ts';

interface Compilada<R> {
  readonly consulta: CompiledQuery<R>;
  /** Where each value goes in the compiled query's parameters. */
  readonly posicoes: readonly number[];
}

/** A prepared query: run it, or take its statement with the values in place. */
export interface ConsultaPreparada<A extends readonly unknown[], R> {
  (db: Db, ...valores: A): Promise<R[]>;
  /** The statement with these values, not run: for a batch (juntas.ts). */
  compilada(db: Db, ...valores: A): CompiledQuery<R>;
}

/**
 * A query that every request runs, built and compiled once per dialect instead of once per call.
 * NOTE: Kysely builds the operation tree and compiles it to SQL on every call, and for a lookup by
 * key that costs more CPU than SQLite takes to answer it. The SQL of these queries never changes,
 * only their values: the query is built once with a marker for each value, compiled, and each call
 * copies the parameters with the markers replaced. A value must be a plain parameter (not a list
 * for `in`), and each marker must land in exactly one place, or the first call throws.
 */
export function consultaPreparada<A extends readonly unknown[], R>(
  montar: (db: Db, ...valores: A) => Compilable<R>,
  quantosValores: A['length'],
): ConsultaPreparada<A, R> {
  // One compilation per adapter (the database and its transactions share it; the dialects differ).
  const porAdaptador = new WeakMap<object, Compilada<R>>();
  const compilar = (db: Db): Compilada<R> => {
    const marcas = Array.from({ length: quantosValores }, (_, i) => Symbol(`valor ${i}`));
    const consulta = montar(db, ...(marcas as unknown as A)).compile();
    const posicoes = marcas.map((m) => {
      const i = consulta.parameters.indexOf(m);
      if (i < 0 || consulta.parameters.lastIndexOf(m) !== i)
        throw new Error(`consulta preparada: o valor ${m.description ?? ''} não é um parâmetro único`);
      return i;
    });
    return { consulta, posicoes };
  };
  const compilada = (db: Db, ...valores: A): CompiledQuery<R> => {
    const adaptador = db.getExecutor().adapter;
    let c = porAdaptador.get(adaptador);
    if (c === undefined) {
      c = compilar(db);
      porAdaptador.set(adaptador, c);
    }
    const parameters = [...c.consulta.parameters];
    c.posicoes.forEach((posicao, i) => {
      parameters[posicao] = valores[i];
    });
    return { ...c.consulta, parameters };
  };
  const executar = async (db: Db, ...valores: A): Promise<R[]> =>
    (await db.executeQuery<R>(compilada(db, ...valores))).rows;
  return Object.assign(executar, { compilada });
}
