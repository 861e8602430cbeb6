import { sql } from 'kysely';
import type { Db } from '../../db/banco.ts';

/**
 * How long each list that grows with the data really is, by `Tipo.campo`: the cost of a query is
 * measured with these (limites.ts), so nesting a list under another costs what it will return.
 * A nested list uses its largest instance (the market with most prices, the admin with most
 * markets), which keeps the measure an upper bound.
 */
export type TamanhosDasListas = Readonly<Record<string, number>>;

const contar = (n: unknown): number => Number(n ?? 0);

/** One statement, read at most once per version of the Mercados data (see CacheDeTamanhos). */
export async function lerTamanhos(db: Db): Promise<TamanhosDasListas> {
  const { rows } = await sql<{
    mercados: unknown;
    precos: unknown;
    porAdmin: unknown;
    contas: unknown;
    produtos: unknown;
  }>`
    SELECT
      (SELECT count(*) FROM mercado) AS mercados,
      (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM precomercado GROUP BY "mercadoId") p) AS precos,
      (SELECT coalesce(max(n), 0) FROM (SELECT count(*) AS n FROM mercado GROUP BY "adminId") a) AS "porAdmin",
      (SELECT count(*) FROM appuser) AS contas,
      (SELECT count(*) FROM produto) AS produtos`.execute(db);
  const r = rows[0];
  return {
    'Query.mercados': contar(r?.mercados),
    'Query.usuarios': contar(r?.contas),
    'Query.produtos': contar(r?.produtos),
    'Mercado.precos': contar(r?.precos),
    'User.mercados': contar(r?.porAdmin),
  };
}

/** The sizes at one data version: every write to the tables behind them moves the version. */
export class CacheDeTamanhos {
  #versao = -1;
  #tamanhos: Promise<TamanhosDasListas> | null = null;

  ler(db: Db, versao: number): Promise<TamanhosDasListas> {
    if (this.#tamanhos === null || versao !== this.#versao) {
      this.#versao = versao;
      this.#tamanhos = lerTamanhos(db);
      this.#tamanhos.catch(() => {
        this.#tamanhos = null;
      });
    }
    return this.#tamanhos;
  }
}
