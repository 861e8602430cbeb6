/**
 * The sender: claims due messages of the outbox and hands them to SMTP. On PostgreSQL the claim
 * is `FOR UPDATE SKIP LOCKED`, so several processes never take the same message; SQLite has one
 * writer at a time. A claimed message is held until `travadaAte`: if the process dies while
 * sending, another takes it once that passes (the one case where a message may go out twice).
 * SMTP failures are retried with a growing wait; after the last try the message is `falhou` and
 * the admins' outbox page shows it with a resend button.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../../config.ts';
import { ehPostgres, emTransacao, type Banco } from '../../db/banco.ts';
import type { Relogio } from '../../domain/tempo.ts';

/** What one sender takes at a time, and how long a claim holds. */
const LOTE = 20;
const TRAVA_MS = 5 * 60_000;
/** Tries before a message is given up: waits of 1, 2, 4 … 64 minutes (about two hours in all). */
export const TENTATIVAS = 8;

export function esperaAntesDaTentativa(tentativas: number): number {
  return 60_000 * 2 ** Math.min(tentativas - 1, 6);
}

export interface MetricasDoCorreio {
  enviadas: number;
  falhas: number;
  desistencias: number;
}

interface Transporte {
  sendMail(m: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    headers: Record<string, string>;
    attachDataUrls: boolean;
  }): Promise<unknown>;
  close(): void;
}

/** One per Correio: its SMTP transport (none when e-mail is off), one run at a time, and its counts. */
export class Remetente {
  readonly metricas: MetricasDoCorreio = { enviadas: 0, falhas: 0, desistencias: 0 };
  readonly #config: Config;
  readonly #banco: Banco;
  readonly #relogio: Relogio;
  readonly #transporte: Transporte | null;
  #enviando: Promise<number> | null = null;
  #deNovo = false;
  #cutucada: NodeJS.Timeout | null = null;
  #fechado = false;

  constructor(o: { config: Config; banco: Banco; relogio: Relogio; smtp: string | null }) {
    this.#config = o.config;
    this.#banco = o.banco;
    this.#relogio = o.relogio;
    this.#transporte =
      o.smtp === null ? null : nodemailer.createTransport(comPool(o.smtp), { from: o.config.email.remetente });
  }

  /** Soon after a committed write, the sender runs (several writes in a row wake it once). */
  cutucar(): void {
    if (this.#transporte === null || this.#fechado || this.#cutucada !== null) return;
    this.#cutucada = setTimeout(() => {
      this.#cutucada = null;
      void this.enviarPendentes().catch(() => undefined);
    }, 50);
    this.#cutucada.unref();
  }

  /**
   * Sends what is due until nothing is; returns how many went out. One run at a time per process:
   * a call during a run makes that run look once more before it ends, so a message committed
   * after the run's last look is not left for the next tick.
   */
  enviarPendentes(): Promise<number> {
    this.#deNovo = true;
    if (this.#enviando !== null) return this.#enviando;
    this.#enviando = (async () => {
      let total = 0;
      try {
        while (this.#deNovo) {
          this.#deNovo = false;
          for (;;) {
            const lote = await this.#reservar();
            if (lote.length === 0) break;
            for (const m of lote) if (await this.#enviar(m)) total++;
          }
        }
        return total;
      } finally {
        this.#enviando = null;
      }
    })();
    return this.#enviando;
  }

  async #reservar() {
    if (this.#transporte === null || this.#fechado) return [];
    const agora = this.#relogio.agora();
    const iso = agora.toISOString();
    return emTransacao(this.#banco, async (trx) => {
      let devidas = trx
        .selectFrom('mensagem')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('estado', '=', 'pendente'), eb('proximaTentativa', '<=', iso)]),
            eb.and([eb('estado', '=', 'enviando'), eb('travadaAte', '<', iso)]),
          ]),
        )
        .orderBy('id')
        .limit(LOTE);
      if (ehPostgres(trx)) devidas = devidas.forUpdate().skipLocked();
      const ids = (await devidas.execute()).map((m) => m.id);
      // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite; PostgreSQL refuses it
      if (ids.length === 0) return [];
      return trx
        .updateTable('mensagem')
        .set({ estado: 'enviando', travadaAte: new Date(agora.getTime() + TRAVA_MS).toISOString(), updatedAt: iso })
        .where('id', 'in', ids)
        .returning(['id', 'para', 'assunto', 'texto', 'html', 'cancelar', 'tentativas'])
        .execute();
    });
  }

  async #enviar(m: {
    id: number;
    para: string;
    assunto: string;
    texto: string;
    html: string;
    cancelar: string | null;
    tentativas: number;
  }): Promise<boolean> {
    const transporte = this.#transporte;
    if (transporte === null) return false;
    const headers: Record<string, string> =
      m.cancelar === null
        ? {}
        : { 'List-Unsubscribe': `<${m.cancelar}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    try {
      await transporte.sendMail({
        from: this.#config.email.remetente,
        to: m.para,
        subject: m.assunto,
        text: m.texto,
        html: m.html,
        headers,
        // A receipt's pickup QR code is a data: image in the stored HTML; it goes as an image
        // attached to the message (cid:), which the mail programs that refuse data: images show.
        attachDataUrls: true,
      });
    } catch (e) {
      const tentativas = m.tentativas + 1;
      const desiste = tentativas >= TENTATIVAS;
      const agora = this.#relogio.agora();
      await this.#banco
        .updateTable('mensagem')
        .set({
          estado: desiste ? 'falhou' : 'pendente',
          tentativas,
          travadaAte: null,
          updatedAt: agora.toISOString(),
          proximaTentativa: new Date(agora.getTime() + esperaAntesDaTentativa(tentativas)).toISOString(),
          ultimoErro: (e instanceof Error ? e.message : String(e)).slice(0, 500),
        })
        .where('id', '=', m.id)
        .execute();
      this.metricas.falhas++;
      if (desiste) this.metricas.desistencias++;
      return false;
    }
    const iso = this.#relogio.agora().toISOString();
    await this.#banco
      .updateTable('mensagem')
      .set({
        estado: 'enviada',
        enviadaEm: iso,
        travadaAte: null,
        ultimoErro: null,
        tentativas: m.tentativas + 1,
        updatedAt: iso,
      })
      .where('id', '=', m.id)
      .execute();
    this.metricas.enviadas++;
    return true;
  }

  /** An admin's resend: a failed (or sent) message goes back to the queue, with its tries reset. */
  async reenviar(id: number): Promise<boolean> {
    const iso = this.#relogio.agora().toISOString();
    const r = await this.#banco
      .updateTable('mensagem')
      .set({ estado: 'pendente', tentativas: 0, proximaTentativa: iso, travadaAte: null, updatedAt: iso })
      .where('id', '=', id)
      .where('estado', 'in', ['falhou', 'enviada'])
      .executeTakeFirst();
    const ok = Number(r.numUpdatedRows) > 0;
    if (ok) this.cutucar();
    return ok;
  }

  /** Stops waking, lets a run in progress end, and closes the SMTP pool. */
  async fechar(): Promise<void> {
    this.#fechado = true;
    if (this.#cutucada !== null) clearTimeout(this.#cutucada);
    await this.#enviando?.catch(() => undefined);
    this.#transporte?.close();
  }
}

/** The SMTP address with nodemailer's connection pool on: a batch reuses its connections. */
function comPool(smtp: string): string {
  const u = new URL(smtp);
  if (!u.searchParams.has('pool')) u.searchParams.set('pool', 'true');
  return u.href;
}
