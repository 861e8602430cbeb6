import { sql } from 'kysely';
import type { Db } from './banco.ts';

export interface Tentativa {
  readonly permitido: boolean;
  readonly contagem: number;
  /** When the current window ends, in epoch milliseconds. */
  readonly fimDaJanela: number;
}

/**
 * Counts one attempt against a fixed window, atomically in the database, so the limit holds
 * across processes: `limite` attempts per `janelaMs` for the key.
 */
export async function contarTentativa(
  db: Db,
  chave: string,
  limite: number,
  janelaMs: number,
  agora: Date,
): Promise<Tentativa> {
  const agoraMs = agora.getTime();
  const corte = agoraMs - janelaMs;
  const linha = await db
    .insertInto('limitetentativa')
    .values({ chave, janelaInicio: agoraMs, contagem: 1 })
    .onConflict((oc) =>
      oc.column('chave').doUpdateSet({
        contagem: sql<number>`case when limitetentativa."janelaInicio" <= ${corte} then 1 else limitetentativa.contagem + 1 end`,
        janelaInicio: sql<number>`case when limitetentativa."janelaInicio" <= ${corte} then ${agoraMs} else limitetentativa."janelaInicio" end`,
      }),
    )
    .returning(['contagem', 'janelaInicio'])
    .executeTakeFirstOrThrow();
  return {
    permitido: linha.contagem <= limite,
    contagem: linha.contagem,
    fimDaJanela: Number(linha.janelaInicio) + janelaMs,
  };
}

/** Removes windows that ended long ago; idempotent, safe to run from every process. */
export async function limparTentativas(db: Db, agora: Date, janelaMs: number): Promise<void> {
  await db
    .deleteFrom('limitetentativa')
    .where('janelaInicio', '<', agora.getTime() - janelaMs)
    .execute();
}

/**
 * Where login attempts are counted. The database is the default; with REDIS_URL, Redis
 * (src/db/redis.ts). Either way every process of every machine shares the count.
 */
export interface Limitador {
  /** Counts one attempt for the key: `limite` attempts per `janelaMs`. */
  contar(chave: string, limite: number, janelaMs: number, agora: Date): Promise<Tentativa>;
  /** Forgets the key's attempts (a login that completed: the address is not guessing). */
  zerar(chave: string): Promise<void>;
  fechar(): Promise<void>;
}

/**
 * Counts in the database. Windows that ended are purged by the counting itself, at most once per
 * window length in each process, so the table holds only addresses seen recently.
 */
export function limitadorNoBanco(db: Db): Limitador {
  let ultimaLimpeza = 0;
  return {
    async contar(chave, limite, janelaMs, agora) {
      const tentativa = await contarTentativa(db, chave, limite, janelaMs, agora);
      if (agora.getTime() - ultimaLimpeza >= janelaMs) {
        ultimaLimpeza = agora.getTime();
        await limparTentativas(db, agora, janelaMs);
      }
      return tentativa;
    },
    async zerar(chave) {
      await db.deleteFrom('limitetentativa').where('chave', '=', chave).execute();
    },
    fechar: async () => undefined,
  };
}
