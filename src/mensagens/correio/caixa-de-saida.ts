/**
 * The outbox: a message is a row of `mensagem`, written inside the transaction of the change that
 * causes it (a rolled-back change sends nothing), once per key (`chave`, ON CONFLICT DO NOTHING).
 * `Remessa` is what the writers of messages (eventos.ts, lembretes.ts) use of the Correio.
 */
import type { Config } from '../../config.ts';
import { depoisDoCommit, type Banco, type Db } from '../../db/banco.ts';
import type { TipoDeAviso } from '../../domain/avisos.ts';
import type { Relogio } from '../../domain/tempo.ts';
import type * as modelos from '../modelos.ts';

/** A message ready for the outbox. */
export interface MensagemNova {
  readonly chave: string;
  readonly tipo: TipoDeAviso;
  readonly usuarioid: number | null;
  readonly cicloid: number | null;
  readonly para: string;
  readonly conteudo: modelos.Conteudo;
  readonly cancelar: string | null;
}

/** What writes messages (the domain's events, the daily reminders) uses of the outbox. */
export interface Remessa {
  readonly config: Config;
  readonly banco: Banco;
  readonly relogio: Relogio;
  /** The Cestas address the messages link to. */
  baseUrl(): string;
  /** Writes a message unless one with its key exists; true when written. */
  enfileirar(db: Db, m: MensagemNova): Promise<boolean>;
  /** The unsubscribe link of an optional kind; null for the mandatory ones. */
  cancelar(usuarioid: number, tipo: TipoDeAviso): string | null;
  /** An order's pickup QR code for its receipt: the signed address of its QR page, and its image. */
  qrDaRetirada(pedidoId: number): modelos.QrDaRetirada;
}

/** Writes a message unless one with its key exists; true when written. Once committed, `acordar` wakes the sender. */
export async function escreverNaCaixa(db: Db, m: MensagemNova, agora: Date, acordar: () => void): Promise<boolean> {
  const iso = agora.toISOString();
  const r = await db
    .insertInto('mensagem')
    .values({
      chave: m.chave,
      tipo: m.tipo,
      usuarioid: m.usuarioid,
      cicloid: m.cicloid,
      para: m.para,
      assunto: m.conteudo.assunto,
      texto: m.conteudo.texto,
      html: m.conteudo.html,
      cancelar: m.cancelar,
      proximaTentativa: iso,
      createdAt: iso,
      updatedAt: iso,
    })
    .onConflict((oc) => oc.column('chave').doNothing())
    .executeTakeFirst();
  const escrita = Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  // The sender runs on another connection: it can see the message only once it is committed.
  if (escrita) depoisDoCommit(db, acordar);
  return escrita;
}
