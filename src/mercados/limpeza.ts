import type { FastifyBaseLogger } from 'fastify';
import type { Banco } from '../db/banco.ts';
import { purgarSessoesExpiradas } from '../domain/contas.ts';
import type { Relogio } from '../domain/tempo.ts';

/** How often expired sessions are purged (spec, section 8). */
export const INTERVALO_LIMPEZA_MS = 15 * 60 * 1000;

export interface LimpezaDeSessoes {
  /** Purges now; resolves to how many sessions were removed. Never rejects. */
  executar(): Promise<number>;
  /** Starts the periodic purge; calling it again changes nothing. */
  iniciar(): void;
  parar(): void;
  /** The running timer, null when stopped. */
  readonly timer: NodeJS.Timeout | null;
}

/**
 * The periodic purge of expired sessions. The timer is unref()'d so that it never keeps a
 * process alive on its own; the purge is idempotent, so every process may run it.
 */
export function criarLimpezaDeSessoes(
  banco: Banco,
  relogio: Relogio,
  log: FastifyBaseLogger,
  intervaloMs: number = INTERVALO_LIMPEZA_MS,
): LimpezaDeSessoes {
  let timer: NodeJS.Timeout | null = null;

  async function executar(): Promise<number> {
    try {
      const removidas = await purgarSessoesExpiradas(banco, relogio.agora());
      if (removidas > 0) log.info({ removidas }, 'sessões expiradas removidas');
      return removidas;
    } catch (e) {
      // A failed purge is retried at the next tick; it must never crash the process.
      log.error({ err: e }, 'falha ao remover sessões expiradas');
      return 0;
    }
  }

  return {
    executar,
    iniciar() {
      if (timer !== null) return;
      timer = setInterval(() => void executar(), intervaloMs);
      timer.unref();
    },
    parar() {
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
    get timer() {
      return timer;
    },
  };
}
