import type { Config } from './config.ts';
import type { Banco } from './db/banco.ts';
import { gerarOndeAberto } from './domain/assinaturas/geracao.ts';
import type { Avisos } from './domain/avisos.ts';
import { diaLocal, type Relogio } from './domain/tempo.ts';

/** The periodic generation of subscription orders, as a service runs it. */
export interface GeracaoDasAssinaturas {
  /** One round now: every cycle whose order window is open today; returns how many orders were generated. */
  rodar(): Promise<number>;
  fechar(): Promise<void>;
}

/**
 * Generates the subscription orders of every cycle whose order window is open, at start and then
 * every EMAIL_INTERVAL (the reminders' cadence), whether or not e-mail is on. Generation is
 * idempotent and exactly once per (subscription, cycle) across processes, so every process (and
 * every worker of a cluster) may run it. A failed round waits for the next one.
 */
export function iniciarGeracaoDasAssinaturas(o: {
  config: Config;
  banco: Banco;
  relogio: Relogio;
  avisos?: Avisos;
}): GeracaoDasAssinaturas {
  let rodando: Promise<number> | null = null;
  const rodar = (): Promise<number> => {
    rodando ??= (async () => {
      try {
        const agora = o.relogio.agora();
        const resumos = await gerarOndeAberto(o.banco, null, {
          agora,
          hoje: diaLocal(agora, o.config.tz),
          taxa: o.config.taxa,
          tz: o.config.tz,
          ...(o.avisos === undefined ? {} : { avisos: o.avisos }),
        });
        return [...resumos.values()].reduce((t, r) => t + r.gerados, 0);
      } finally {
        rodando = null;
      }
    })();
    return rodando;
  };
  const timer = setInterval(() => void rodar().catch(() => undefined), o.config.email.intervaloMs);
  timer.unref();
  void rodar().catch(() => undefined);
  return {
    rodar,
    async fechar() {
      clearInterval(timer);
      await rodando?.catch(() => undefined);
    },
  };
}
