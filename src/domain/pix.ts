/**
 * What each person owes, and the Pix that pays it. The amount due is the ledger balance plus the
 * confirmed orders of cycles not closed yet (their movements are written only at closing): a
 * debt left from one cycle is added to the next charge, and a credit is subtracted. Each charge
 * has a static BR Code with the amount and a txid that names the person and the cycle.
 */
import { createStaticPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';
import { sql } from 'kysely';
import type { Db } from '../db/banco.ts';
import { valorDaQuantidade } from '../decimal.ts';
import { podeNoRegistro, type Ator } from './acesso.ts';
import { NaoEncontrado, Proibido } from './erros.ts';
import { TIPOS } from './financeiro.ts';
import type { RecebedorPix } from '../pix-chave.ts';
import { partesDoPedido, type Taxa, type ValorNoMercado } from './pedidos/taxa.ts';

// ---------------------------------------------------------------------------------------------
// The txid: CST<person>C<cycle>, letters and digits only, at most 25 characters.

const PREFIXO_TXID = 'CST';
/** Ids up to 10 digits each: 3 + 10 + 1 + 10 = 24 characters, within the standard's 25. */
export const TAMANHO_MAXIMO_TXID = 25;

/**
 * The txid of a charge: deterministic, so the same person, cycle and amount always give the same
 * code, and readable back from a bank statement (`txidNoTexto`). Cycle 0: a debt with no cycle.
 */
export function txidDe(usuarioid: number, cicloid: number): string {
  return `${PREFIXO_TXID}${usuarioid}C${cicloid}`;
}

/** The person and cycle of a Cestaria txid found anywhere in a statement's text; null if none. */
export function txidNoTexto(texto: string): { txid: string; usuarioid: number; cicloid: number } | null {
  const m = /(?:^|[^A-Za-z0-9])CST(\d{1,10})C(\d{1,10})(?![A-Za-z0-9])/i.exec(texto);
  if (m === null) return null;
  const usuarioid = Number(m[1]);
  const cicloid = Number(m[2]);
  return { txid: txidDe(usuarioid, cicloid), usuarioid, cicloid };
}

// ---------------------------------------------------------------------------------------------
// The charge: line by line, what makes up the amount due.

/** One line of a charge. `valorCentavos` is what it adds to the amount due (a credit subtracts). */
export interface LinhaDaCobranca {
  readonly tipo: 'saldo' | 'pedido';
  /** For `pedido`: the confirmed order of a cycle not closed yet. */
  readonly cicloid: number | null;
  readonly cicloNome: string | null;
  readonly pedidoId: number | null;
  /** For `pedido` in a reopened cycle: what its first closing already wrote is discounted. */
  readonly reaberto: boolean;
  readonly valorCentavos: number;
}

export interface Cobranca {
  readonly usuarioid: number;
  readonly nome: string;
  readonly linhas: readonly LinhaDaCobranca[];
  /** The sum of the lines: what the person owes (zero or less: nothing to pay). */
  readonly devidoCentavos: number;
  /** The cycle the txid names: the latest cycle among the lines, else of the ledger; 0 if none. */
  readonly cicloid: number;
  readonly txid: string;
}

interface Acumulado {
  nome: string;
  saldo: number;
  ultimoCiclo: number;
  pedidos: Map<number, { cicloNome: string; pedidoId: number | null; linhas: ValorNoMercado[]; lancado: number }>;
}

/**
 * Everyone's charge (or one person's), from three grouped queries: the ledger balance, the
 * confirmed orders of open cycles, and what an earlier closing of a reopened cycle already wrote.
 */
async function calcularCobrancas(db: Db, taxa: Taxa, usuarioid: number | null): Promise<Cobranca[]> {
  const um = usuarioid !== null;
  const alvo = usuarioid ?? 0;
  const [livro, itens, lancados] = await Promise.all([
    db
      .selectFrom('movimentacao as m')
      .innerJoin('usuario as u', 'u.id', 'm.usuarioid')
      .select(['m.usuarioid', 'u.nome'])
      .select(
        sql<number>`sum(case when m.sentido = 'credito' then m."valorCentavos" else -m."valorCentavos" end)`.as(
          'saldo',
        ),
      )
      .select(sql<number | null>`max(m.cicloid)`.as('ultimoCiclo'))
      .$if(um, (q) => q.where('m.usuarioid', '=', alvo))
      .groupBy(['m.usuarioid', 'u.nome'])
      .execute(),
    db
      .selectFrom('pedido as p')
      .innerJoin('ciclo as c', 'c.id', 'p.cicloid')
      .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
      .innerJoin('pedidoproduto as pp', 'pp.pedidoid', 'p.id')
      .select([
        'p.id as pedidoId',
        'p.usuarioid',
        'u.nome',
        'p.cicloid',
        'c.nome as cicloNome',
        'pp.quantidadeMilesimos',
        'pp.valorCentavos',
        'pp.mercadoId',
        'pp.taxaCentesimos',
      ])
      .where('p.finalizado', '=', true)
      .where('c.fechadoEm', 'is', null)
      .$if(um, (q) => q.where('p.usuarioid', '=', alvo))
      .execute(),
    // A reopened cycle keeps the movements of its first closing: only the difference is pending.
    db
      .selectFrom('movimentacao as m')
      .innerJoin('ciclo as c', 'c.id', 'm.cicloid')
      .innerJoin('tipomovimentacao as t', 't.id', 'm.tipoMovimentacaoId')
      .innerJoin('usuario as u', 'u.id', 'm.usuarioid')
      .select(['m.usuarioid', 'u.nome', 'm.cicloid', 'c.nome as cicloNome'])
      .select(
        sql<number>`sum(case when m.sentido = 'credito' then m."valorCentavos" else -m."valorCentavos" end)`.as(
          'lancado',
        ),
      )
      .where('c.fechadoEm', 'is', null)
      .where('m.chave', 'like', 'fechamento:%')
      .where('t.nome', 'in', [TIPOS.pedido, TIPOS.taxa])
      .$if(um, (q) => q.where('m.usuarioid', '=', alvo))
      .groupBy(['m.usuarioid', 'u.nome', 'm.cicloid', 'c.nome'])
      .execute(),
  ]);
  const pessoas = new Map<number, Acumulado>();
  const pessoa = (id: number, nome: string): Acumulado => {
    let p = pessoas.get(id);
    if (p === undefined) {
      p = { nome, saldo: 0, ultimoCiclo: 0, pedidos: new Map() };
      pessoas.set(id, p);
    }
    return p;
  };
  for (const l of livro) {
    const p = pessoa(l.usuarioid, l.nome);
    p.saldo = Number(l.saldo);
    p.ultimoCiclo = Number(l.ultimoCiclo ?? 0);
  }
  const pedidoDe = (p: Acumulado, cicloid: number, cicloNome: string) => {
    let x = p.pedidos.get(cicloid);
    if (x === undefined) {
      x = { cicloNome, pedidoId: null, linhas: [], lancado: 0 };
      p.pedidos.set(cicloid, x);
    }
    return x;
  };
  for (const i of itens) {
    const x = pedidoDe(pessoa(i.usuarioid, i.nome), i.cicloid, i.cicloNome);
    x.pedidoId = i.pedidoId;
    x.linhas.push({
      subtotalCentavos: valorDaQuantidade(i.valorCentavos, i.quantidadeMilesimos),
      mercadoId: i.mercadoId,
      taxaCentesimos: i.taxaCentesimos,
    });
  }
  for (const l of lancados) {
    if (l.cicloid === null) continue;
    pedidoDe(pessoa(l.usuarioid, l.nome), l.cicloid, l.cicloNome).lancado = Number(l.lancado);
  }
  const cobrancas: Cobranca[] = [];
  for (const [id, p] of pessoas) {
    const linhas: LinhaDaCobranca[] = [];
    // The ledger's balance is signed for the person (credits positive): owed to the community is negative.
    if (p.saldo !== 0)
      linhas.push({
        tipo: 'saldo',
        cicloid: null,
        cicloNome: null,
        pedidoId: null,
        reaberto: false,
        valorCentavos: -p.saldo,
      });
    let ultimo = p.ultimoCiclo;
    for (const [cicloid, x] of [...p.pedidos].sort(([a], [b]) => a - b)) {
      // The same total and fee the closing will debit (contasDoCiclo), less what a closing wrote.
      // Per market, as the order shows it and the closing charges it (partesDoPedido).
      const devido =
        partesDoPedido(x.linhas, taxa).reduce((t, parte) => t + parte.subtotalCentavos + parte.taxaCentavos, 0) +
        x.lancado;
      if (devido === 0) continue;
      linhas.push({
        tipo: 'pedido',
        cicloid,
        cicloNome: x.cicloNome,
        pedidoId: x.pedidoId,
        reaberto: x.lancado !== 0,
        valorCentavos: devido,
      });
      ultimo = Math.max(ultimo, cicloid);
    }
    const devidoCentavos = linhas.reduce((t, l) => t + l.valorCentavos, 0);
    cobrancas.push({ usuarioid: id, nome: p.nome, linhas, devidoCentavos, cicloid: ultimo, txid: txidDe(id, ultimo) });
  }
  return cobrancas.sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR') || a.usuarioid - b.usuarioid);
}

/** One person's charge (no lines, nothing due, when they have no movements nor open orders). */
export async function cobrancaDe(db: Db, usuarioid: number, taxa: Taxa): Promise<Cobranca> {
  const [c] = await calcularCobrancas(db, taxa, usuarioid);
  if (c !== undefined) return c;
  const u = await db.selectFrom('usuario').select('nome').where('id', '=', usuarioid).executeTakeFirst();
  if (u === undefined) throw new NaoEncontrado('USUARIO_NAO_ENCONTRADO', 'Pessoa não encontrada');
  return { usuarioid, nome: u.nome, linhas: [], devidoCentavos: 0, cicloid: 0, txid: txidDe(usuarioid, 0) };
}

/** The charge a person's page shows: their own, or anyone's for whoever sees everything. */
export async function cobrancaVisivel(db: Db, ator: Ator, usuarioid: number | null, taxa: Taxa): Promise<Cobranca> {
  const alvo = usuarioid ?? ator.usuarioid;
  if (alvo === null) throw new Proibido('SEM_CADASTRO', 'Complete seu cadastro antes de continuar');
  if (!podeNoRegistro(ator, 'verDe', { usuarioid: alvo }))
    throw new Proibido('SALDO_DE_OUTRA_PESSOA', 'Você só pode ver o seu próprio saldo');
  return cobrancaDe(db, alvo, taxa);
}

/** Who owes what, for the coordination: everyone whose amount due is above zero. */
export async function cobrancasEmAberto(db: Db, taxa: Taxa): Promise<Cobranca[]> {
  return (await calcularCobrancas(db, taxa, null)).filter((c) => c.devidoCentavos > 0);
}

/** Everyone's amount due by person id (credits included), for matching a statement's credits. */
export async function devidosPorPessoa(db: Db, taxa: Taxa): Promise<Map<number, number>> {
  return new Map((await calcularCobrancas(db, taxa, null)).map((c) => [c.usuarioid, c.devidoCentavos]));
}

// ---------------------------------------------------------------------------------------------
// The BR Code.

/** A static Pix for an amount: the copy-and-paste text, its QR code as SVG, the amount and the txid. */
export interface Pix {
  readonly copiaECola: string;
  readonly qrSvg: string;
  readonly valorCentavos: number;
  readonly txid: string;
}

/** The BR Code text (EMV, with its CRC) of a static Pix, built by pix-utils. */
export function brCode(recebedor: RecebedorPix, valorCentavos: number, txid: string): string {
  // NOTE: an integer number of centavos over 100 is the double nearest to the decimal, and
  // pix-utils writes it with toFixed(2): the text has the exact centavos.
  const pix = createStaticPix({
    merchantName: recebedor.nome,
    merchantCity: recebedor.cidade,
    pixKey: recebedor.chave,
    txid,
    transactionAmount: valorCentavos / 100,
  });
  // Stryker disable next-line ConditionalExpression: the configuration checked the name, city and key at start
  if (hasError(pix)) throw new Error(`BR Code recusado: ${pix.message}`);
  // NOTE: pix-utils computes the CRC after stripping every trailing "6304xxxx" it finds, so a
  // txid that ends in 6304 (cycle 6304, 16304, …) got a CRC over the wrong text, and bank apps
  // refuse such a code. The CRC is computed here, over everything up to the final "6304".
  const semCrc = pix.toBRCode().slice(0, -4);
  return `${semCrc}${crc16(semCrc)}`;
}

/** CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over the UTF-8 bytes, as 4 hex digits. */
function crc16(texto: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(texto, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = (crc & 0x8000) === 0 ? (crc << 1) & 0xffff : ((crc << 1) ^ 0x1021) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The Pix that pays a charge; null when nothing is due, or the community has no Pix receiver. */
export async function pixDaCobranca(
  c: Pick<Cobranca, 'devidoCentavos' | 'txid'>,
  recebedor: RecebedorPix | null,
): Promise<Pix | null> {
  if (recebedor === null || c.devidoCentavos <= 0) return null;
  const copiaECola = brCode(recebedor, c.devidoCentavos, c.txid);
  const qrSvg = await QRCode.toString(copiaECola, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { copiaECola, qrSvg, valorCentavos: c.devidoCentavos, txid: c.txid };
}
