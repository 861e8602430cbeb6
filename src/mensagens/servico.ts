/**
 * The e-mail service as the faces see it. src/servicos.ts builds one outbox (src/mensagens/
 * correio/correio.ts) per process, starts its timers, and hands it to each face that runs, and to the
 * subscription generator, through this port: a face depends on what it does, not on the class.
 */
import type { Avisos, TipoDeAviso } from '../domain/avisos.ts';

export interface ServicoDeAvisos extends Avisos {
  /** False when e-mail is off (production without SMTP_URL): nothing is written nor sent. */
  readonly ligado: boolean;
  /** The person and kind an unsubscribe link names, or null when it is malformed or forged. */
  abrirTokenDeCancelar(token: string): { usuarioid: number; tipo: TipoDeAviso } | null;
  /** An admin's resend: a failed (or sent) message goes back to the queue; false when there is none such. */
  reenviar(id: number): Promise<boolean>;
}

/** No e-mail: what a face gets when it is built without the service (a test building one face alone). */
export const semAvisos: ServicoDeAvisos = {
  ligado: false,
  emitir: () => Promise.resolve(),
  abrirTokenDeCancelar: () => null,
  reenviar: () => Promise.resolve(false),
};
