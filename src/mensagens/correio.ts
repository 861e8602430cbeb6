/**
 * The e-mail outbox and its sender.
 *
 * - `emitir` (the domain's Avisos port) renders a message and writes it to `mensagem` inside the
 *   transaction of the change that causes it: a rolled-back change sends nothing.
 * - `lembrar` writes the reminders due today (src/domain/avisos.ts); the unique `chave` makes a
 *   second tick, here or in another process, write nothing.
 * - `enviarPendentes` claims due messages and hands them to SMTP. On PostgreSQL the claim is
 *   `FOR UPDATE SKIP LOCKED`, so several processes never take the same message; SQLite has one
 *   writer at a time. A claimed message is held until `travadaAte`: if the process dies while
 *   sending, another takes it once that passes (the one case where a message may go out twice).
 *   SMTP failures are retried with a growing wait; after the last try the message is `falhou`
 *   and the admins' outbox page shows it with a resend button.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import { depoisDoCommit, ehPostgres, emTransacao, type Banco, type Db } from '../db/banco.ts';
import { faltasDoCiclo } from '../domain/assinaturas.ts';
import {
  avisosDevidos,
  chaveDoAviso,
  ehTipoDeAviso,
  TIPOS_DE_AVISO,
  type AvisoDevido,
  type Evento,
  type TipoDeAviso,
} from '../domain/avisos.ts';
import { cobrancaDe, pixDaCobranca, type Cobranca } from '../domain/pix.ts';
import { pedidoDe, type Pedido } from '../domain/pedidos.ts';
import { oQueOFornecedorEntrega } from '../domain/relatorios/fornecedores.ts';
import { diaLocal, horarioDeRetiradaTexto, type Relogio } from '../domain/tempo.ts';
import * as modelos from './modelos.ts';
import type { ServicoDeAvisos } from './servico.ts';
import { dataBr, linhasEmTexto, quantidade, reais } from '../formatos.ts';

/**
 * What one transaction already read for its messages. A subscription generation writes thousands
 * of receipts in one transaction, all of the same cycle and a handful of points, which nothing in
 * it changes: each is read once. Outside a transaction nothing is kept.
 */
const lidosNaTransacao = new WeakMap<Db, Map<string, Promise<unknown>>>();

function umaVezNaTransacao<T>(db: Db, chave: string, ler: () => Promise<T>): Promise<T> {
  if (!db.isTransaction) return ler();
  let lidos = lidosNaTransacao.get(db);
  if (lidos === undefined) {
    lidos = new Map();
    lidosNaTransacao.set(db, lidos);
  }
  let lido = lidos.get(chave) as Promise<T> | undefined;
  if (lido === undefined) {
    lido = ler();
    lidos.set(chave, lido);
  }
  return lido;
}

/** What one sender takes at a time, and how long a claim holds. */
const LOTE = 20;
const TRAVA_MS = 5 * 60_000;
/** Tries before a message is given up: waits of 1, 2, 4 … 64 minutes (about two hours in all). */
export const TENTATIVAS = 8;

export function esperaAntesDaTentativa(tentativas: number): number {
  return 60_000 * 2 ** Math.min(tentativas - 1, 6);
}

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
  }): Promise<unknown>;
  close(): void;
}

export class Correio implements ServicoDeAvisos {
  /** False when e-mail is off (production without SMTP_URL): nothing is written nor sent. */
  readonly ligado: boolean;
  readonly metricas: MetricasDoCorreio = { enviadas: 0, falhas: 0, desistencias: 0 };
  readonly #config: Config;
  readonly #banco: Banco;
  readonly #relogio: Relogio;
  readonly #baseUrl: () => string;
  readonly #transporte: Transporte | null;
  readonly #chaveCancelar: Buffer;
  #timer: NodeJS.Timeout | null = null;
  #enviando: Promise<number> | null = null;
  #deNovo = false;
  #cutucada: NodeJS.Timeout | null = null;
  #fechado = false;

  constructor(o: { config: Config; banco: Banco; relogio: Relogio; baseUrl: () => string; smtp: string | null }) {
    this.#config = o.config;
    this.#banco = o.banco;
    this.#relogio = o.relogio;
    this.#baseUrl = o.baseUrl;
    this.ligado = o.smtp !== null;
    this.#transporte =
      o.smtp === null ? null : nodemailer.createTransport(comPool(o.smtp), { from: o.config.email.remetente });
    this.#chaveCancelar = Buffer.from(hkdfSync('sha256', o.config.sessionSecret, 'cestaria-avisos', 'cancelar', 32));
  }

  // -------------------------------------------------------------------------------------------
  // Unsubscribe links: no login, a signed (person, kind).

  tokenDeCancelar(usuarioid: number, tipo: TipoDeAviso): string {
    return `${usuarioid}.${tipo}.${this.#assinar(usuarioid, tipo)}`;
  }

  /** The person and kind a token names, or null when it is malformed or forged. */
  abrirTokenDeCancelar(token: string): { usuarioid: number; tipo: TipoDeAviso } | null {
    const m = /^(\d{1,15})\.([a-z_]{1,40})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (m === null) return null;
    const usuarioid = Number(m[1]);
    const tipo = m[2] ?? '';
    if (!ehTipoDeAviso(tipo) || !TIPOS_DE_AVISO[tipo].opcional) return null;
    const esperado = Buffer.from(this.#assinar(usuarioid, tipo));
    const recebido = Buffer.from(m[3] ?? '');
    return esperado.length === recebido.length && timingSafeEqual(esperado, recebido) ? { usuarioid, tipo } : null;
  }

  #assinar(usuarioid: number, tipo: string): string {
    return createHmac('sha256', this.#chaveCancelar).update(`${usuarioid}:${tipo}`).digest('base64url');
  }

  #cancelar(usuarioid: number, tipo: TipoDeAviso): string | null {
    return TIPOS_DE_AVISO[tipo].opcional
      ? `${this.#baseUrl()}/avisos/sair/${this.tokenDeCancelar(usuarioid, tipo)}`
      : null;
  }

  // -------------------------------------------------------------------------------------------
  // Writing to the outbox.

  /** Writes a message unless one with its key exists; true when written. */
  async enfileirar(db: Db, m: MensagemNova): Promise<boolean> {
    if (!this.ligado) return false;
    const iso = this.#relogio.agora().toISOString();
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
    if (escrita) depoisDoCommit(db, () => this.cutucar());
    return escrita;
  }

  /** The domain's events: the receipt of a confirmation, the notice of a change after one. */
  async emitir(trx: Db, evento: Evento): Promise<void> {
    if (!this.ligado) return;
    if (evento.tipo === 'coordenacao') {
      const ciclo = await cicloDoAviso(trx, evento.cicloid);
      // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite; PostgreSQL refuses it
      const pessoas =
        evento.usuarioids.length === 0
          ? []
          : await trx
              .selectFrom('usuario')
              .select(['id', 'nome', 'email'])
              .where('id', 'in', [...evento.usuarioids])
              .orderBy('id')
              .execute();
      for (const u of pessoas) {
        await this.enfileirar(trx, {
          chave: `coordenacao:${evento.cicloid}:${u.id}:${evento.momento}`,
          tipo: 'coordenacao',
          usuarioid: u.id,
          cicloid: evento.cicloid,
          para: u.email,
          conteudo: modelos.daCoordenacao(
            u.nome,
            ciclo,
            evento.assunto,
            evento.texto,
            evento.remetente,
            this.#baseUrl(),
          ),
          cancelar: null,
        });
      }
      return;
    }
    const p = evento.pedido;
    const [pessoa, ciclo, retirada] = await Promise.all([
      trx.selectFrom('usuario').select(['nome', 'email']).where('id', '=', p.usuario.id).executeTakeFirstOrThrow(),
      umaVezNaTransacao(trx, `ciclo:${p.cicloid}`, () => cicloDoAviso(trx, p.cicloid)),
      retiradaDo(trx, p),
    ]);
    const base = this.#baseUrl();
    const conteudo =
      evento.tipo === 'recibo'
        ? modelos.recibo(pessoa.nome, ciclo, p, retirada, base, await this.#pagamento(trx, p.usuario.id))
        : modelos.pedidoAlterado(pessoa.nome, ciclo, p, base);
    // One receipt per confirmation; one notice per change.
    const momento = evento.tipo === 'recibo' ? (p.dataConfirmacao ?? '') : this.#relogio.agora().toISOString();
    await this.enfileirar(trx, {
      chave: `${evento.tipo}:${p.pedidoId}:${momento}`,
      tipo: evento.tipo,
      usuarioid: p.usuario.id,
      cicloid: p.cicloid,
      para: pessoa.email,
      conteudo,
      cancelar: null,
    });
  }

  /** How to pay what the person owes now (this order included), when the community receives by Pix. */
  async #pagamento(trx: Db, usuarioid: number): Promise<modelos.Pagamento | null> {
    return this.#config.pix === null ? null : this.#pixDa(await cobrancaDe(trx, usuarioid, this.#config.taxa));
  }

  async #pixDa(cobranca: Cobranca): Promise<modelos.Pagamento | null> {
    const pix = await pixDaCobranca(cobranca, this.#config.pix);
    return pix === null
      ? null
      : {
          linhas: linhasEmTexto(cobranca),
          total: reais(pix.valorCentavos),
          copiaECola: pix.copiaECola,
          txid: pix.txid,
        };
  }

  /**
   * How a subscriber's cycle is paid: what the person owes now (the ledger's balance and the
   * confirmed orders of open cycles, this one included). Nothing owed: the credit paid in advance
   * covers it, and what is left of it; else the amount, with its Pix.
   */
  async #pagamentoDoCiclo(db: Db, usuarioid: number): Promise<modelos.PagamentoDoCiclo> {
    const cobranca = await cobrancaDe(db, usuarioid, this.#config.taxa);
    if (cobranca.devidoCentavos <= 0) return { coberto: true, restanteCentavos: -cobranca.devidoCentavos };
    return { coberto: false, devidoCentavos: cobranca.devidoCentavos, pix: await this.#pixDa(cobranca) };
  }

  /** Writes today's due reminders; returns how many were written. */
  async lembrar(): Promise<number> {
    if (!this.ligado) return 0;
    const agora = this.#relogio.agora();
    const hoje = diaLocal(agora, this.#config.tz);
    let escritas = 0;
    for (const aviso of await avisosDevidos(this.#banco, hoje)) {
      const m = await this.#lembrete(aviso);
      if (m !== null && (await this.enfileirar(this.#banco, m))) escritas++;
    }
    return escritas;
  }

  async #lembrete(a: AvisoDevido): Promise<MensagemNova | null> {
    const db = this.#banco;
    const [pessoa, ciclo] = await Promise.all([
      db
        .selectFrom('usuario')
        .select(['nome', 'email', 'perfil'])
        .where('id', '=', a.usuarioid)
        .executeTakeFirstOrThrow(),
      cicloDoAviso(db, a.cicloid),
    ]);
    const base = this.#baseUrl();
    const cancelar = this.#cancelar(a.usuarioid, a.tipo) ?? '';
    const conteudo = await (async (): Promise<modelos.Conteudo | null> => {
      switch (a.tipo) {
        case 'oferta_aberta':
          return modelos.ofertaAberta(pessoa.nome, ciclo, base, cancelar);
        case 'oferta_lembrete': {
          const oferta = await db
            .selectFrom('oferta')
            .select('id')
            .where('cicloid', '=', a.cicloid)
            .where('usuarioid', '=', a.usuarioid)
            .executeTakeFirst();
          return modelos.ofertaLembrete(pessoa.nome, ciclo, oferta !== undefined, base, cancelar);
        }
        case 'pedido_aberto':
          return modelos.pedidoAberto(pessoa.nome, ciclo, base, cancelar);
        case 'assinatura_ciclo':
          return modelos.assinaturaNoCiclo(pessoa.nome, ciclo, base, cancelar);
        case 'assinatura_falta': {
          const faltas = await faltasDoCiclo(db, a.cicloid);
          const dele = faltas.filter((f) => f.usuarioid === a.usuarioid);
          if (dele.length > 0) return modelos.faltaNaAssinatura(pessoa.nome, ciclo, dele, base);
          return faltas.length === 0 ? null : modelos.faltasParaCoordenacao(pessoa.nome, ciclo, faltas, base);
        }
        case 'assinatura_recibo': {
          const p = await pedidoDe(db, a.cicloid, a.usuarioid, this.#config.taxa);
          if (p === null || !p.finalizado) return null;
          return modelos.reciboDaAssinatura(
            pessoa.nome,
            ciclo,
            p,
            await retiradaDo(db, p),
            base,
            await this.#pagamentoDoCiclo(db, a.usuarioid),
          );
        }
        case 'pedido_lembrete': {
          const pedido = await db
            .selectFrom('pedido')
            .select('id')
            .where('cicloid', '=', a.cicloid)
            .where('usuarioid', '=', a.usuarioid)
            .executeTakeFirst();
          return modelos.pedidoLembrete(pessoa.nome, ciclo, pedido?.id ?? null, base, cancelar);
        }
        case 'entregas': {
          const linhas = await oQueOFornecedorEntrega(db, a.cicloid, a.usuarioid);
          if (linhas.length === 0) return null;
          const dias = await db
            .selectFrom('cicloentrega')
            .select(['dataEntrega', 'observacao'])
            .where('cicloid', '=', a.cicloid)
            .orderBy('dataEntrega')
            .execute();
          const quando = dias
            .map(
              (d) =>
                `${dataBr(d.dataEntrega)}${d.observacao === null || d.observacao === '' ? '' : `: ${d.observacao}`}`,
            )
            .join('; ');
          const total = linhas.reduce((s, l) => s + l.valorCentavos, 0);
          return modelos.entregas(
            pessoa.nome,
            ciclo,
            linhas.map((l) => ({
              produto: l.produto,
              quantidade: quantidade(l.pedidoMilesimos, l.unidade),
              valor: reais(l.valorCentavos),
            })),
            reais(total),
            quando,
            base,
            cancelar,
          );
        }
        case 'retirada': {
          const p = await db
            .selectFrom('pedido as p')
            .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
            .leftJoin('ciclopontoentrega as cpe', (j) =>
              j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'),
            )
            .select([
              'p.id',
              'pe.nome',
              'pe.endereco',
              'pe.cidade',
              'cpe.dataRetirada',
              'cpe.horaInicio',
              'cpe.horaFim',
            ])
            .where('p.cicloid', '=', a.cicloid)
            .where('p.usuarioid', '=', a.usuarioid)
            .executeTakeFirstOrThrow();
          return modelos.retirada(
            pessoa.nome,
            ciclo,
            p.id,
            { nome: p.nome, endereco: p.endereco, cidade: p.cidade, quando: horarioDeRetiradaTexto(p) },
            base,
            cancelar,
          );
        }
      }
    })();
    // A reminder that cannot be turned off (a subscription's shortage) carries no unsubscribe link.
    return conteudo === null
      ? null
      : {
          chave: chaveDoAviso(a),
          tipo: a.tipo,
          usuarioid: a.usuarioid,
          cicloid: a.cicloid,
          para: pessoa.email,
          conteudo,
          cancelar: cancelar === '' ? null : cancelar,
        };
  }

  // -------------------------------------------------------------------------------------------
  // Sending.

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
    this.#fechado = true;
    if (this.#timer !== null) clearInterval(this.#timer);
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

/** Where and when an order is picked up: its point's address and the cycle's day and hours there. */
async function retiradaDo(db: Db, p: Pedido): Promise<modelos.Retirada> {
  const ponto = await umaVezNaTransacao(db, `ponto:${p.pontoEntrega.id}`, () =>
    db
      .selectFrom('pontoentrega')
      .select(['nome', 'endereco', 'cidade'])
      .where('id', '=', p.pontoEntrega.id)
      .executeTakeFirstOrThrow(),
  );
  return { ...ponto, quando: horarioDeRetiradaTexto(p.pontoEntrega) };
}

async function cicloDoAviso(db: Db, cicloid: number): Promise<modelos.CicloDoAviso> {
  return db
    .selectFrom('ciclo')
    .select([
      'id',
      'nome',
      'dataOfertaFim',
      'dataPedidoInicio',
      'dataPedidoFim',
      'dataRetiradaInicio',
      'dataRetiradaFim',
    ])
    .where('id', '=', cicloid)
    .executeTakeFirstOrThrow();
}
