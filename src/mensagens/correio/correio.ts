/**
 * The e-mail outbox and its sender, one per process (src/servicos.ts builds it): what the faces
 * and the subscription generator reach through the ServicoDeAvisos port.
 *
 * - `emitir` (the domain's Avisos port) renders a message and writes it to `mensagem` inside the
 *   transaction of the change that causes it (eventos.ts, caixa-de-saida.ts).
 * - `lembrar` writes the reminders due today (lembretes.ts).
 * - `enviarPendentes` claims due messages and hands them to SMTP, retrying with a growing wait
 *   (remetente.ts).
 * - unsubscribe links are signed (cancelar.ts).
 */
import type { Config } from '../../config.ts';
import type { Banco, Db } from '../../db/banco.ts';
import type { Evento, TipoDeAviso } from '../../domain/avisos.ts';
import { enderecoDoQr, qrPngDoEndereco } from '../../domain/retirada/recibo.ts';
import { chaveDaRetirada, tokenDoPedido } from '../../domain/retirada/token.ts';
import type { Relogio } from '../../domain/tempo.ts';
import type { ServicoDeAvisos } from '../servico.ts';
import { escreverNaCaixa, type MensagemNova, type Remessa } from './caixa-de-saida.ts';
import { abrirTokenDeCancelar, chaveDeCancelar, linkDeCancelar, tokenDeCancelar } from './cancelar.ts';
import { emitirEvento } from './eventos.ts';
import { lembrarHoje } from './lembretes.ts';
import { Remetente, type MetricasDoCorreio } from './remetente.ts';

export class Correio implements ServicoDeAvisos {
  /** False when e-mail is off (production without SMTP_URL): nothing is written nor sent. */
  readonly ligado: boolean;
  readonly metricas: MetricasDoCorreio;
  readonly #config: Config;
  readonly #relogio: Relogio;
  readonly #chaveCancelar: Buffer;
  readonly #remetente: Remetente;
  readonly #remessa: Remessa;
  #timer: NodeJS.Timeout | null = null;

  constructor(o: { config: Config; banco: Banco; relogio: Relogio; baseUrl: () => string; smtp: string | null }) {
    this.#config = o.config;
    this.#relogio = o.relogio;
    this.ligado = o.smtp !== null;
    this.#remetente = new Remetente({ config: o.config, banco: o.banco, relogio: o.relogio, smtp: o.smtp });
    this.metricas = this.#remetente.metricas;
    this.#chaveCancelar = chaveDeCancelar(o.config.sessionSecret);
    const chaveDaRetiradaDoPedido = chaveDaRetirada(o.config.sessionSecret);
    this.#remessa = {
      config: o.config,
      banco: o.banco,
      relogio: o.relogio,
      baseUrl: o.baseUrl,
      enfileirar: (db, m) => this.enfileirar(db, m),
      cancelar: (usuarioid, tipo) => linkDeCancelar(this.#chaveCancelar, o.baseUrl(), usuarioid, tipo),
      // The QR page is the Cestas face's, like every page the messages link to.
      qrDaRetirada(pedidoId) {
        const url = enderecoDoQr(o.baseUrl(), tokenDoPedido(chaveDaRetiradaDoPedido, pedidoId));
        return { url, png: qrPngDoEndereco(url) };
      },
    };
  }

  tokenDeCancelar(usuarioid: number, tipo: TipoDeAviso): string {
    return tokenDeCancelar(this.#chaveCancelar, usuarioid, tipo);
  }

  /** The person and kind a token names, or null when it is malformed or forged. */
  abrirTokenDeCancelar(token: string): { usuarioid: number; tipo: TipoDeAviso } | null {
    return abrirTokenDeCancelar(this.#chaveCancelar, token);
  }

  /** Writes a message unless one with its key exists; true when written. */
  async enfileirar(db: Db, m: MensagemNova): Promise<boolean> {
    if (!this.ligado) return false;
    return escreverNaCaixa(db, m, this.#relogio.agora(), () => this.cutucar());
  }

  /** The domain's events: the receipt of a confirmation, the notice of a change after one. */
  async emitir(trx: Db, evento: Evento): Promise<void> {
    if (!this.ligado) return;
    await emitirEvento(this.#remessa, trx, evento);
  }

  /** Writes today's due reminders; returns how many were written. */
  async lembrar(): Promise<number> {
    if (!this.ligado) return 0;
    return lembrarHoje(this.#remessa);
  }

  /** Soon after a committed write, the sender runs (several writes in a row wake it once). */
  cutucar(): void {
    this.#remetente.cutucar();
  }

  /** Sends what is due until nothing is; returns how many went out (remetente.ts). */
  enviarPendentes(): Promise<number> {
    return this.#remetente.enviarPendentes();
  }

  /** An admin's resend: a failed (or sent) message goes back to the queue, with its tries reset. */
  reenviar(id: number): Promise<boolean> {
    return this.#remetente.reenviar(id);
  }

  /** Every `intervaloMs`: today's reminders, then the queue. A failure waits for the next round. */
  iniciar(): void {
    if (!this.ligado || this.#timer !== null) return;
    const rodada = async () => {
      try {
        await this.lembrar();
        await this.enviarPendentes();
      } catch {
        // The database or SMTP is away: the next round tries again; nothing is lost.
      }
    };
    this.#timer = setInterval(() => void rodada(), this.#config.email.intervaloMs);
    this.#timer.unref();
    void rodada();
  }

  async fechar(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    await this.#remetente.fechar();
  }
}
