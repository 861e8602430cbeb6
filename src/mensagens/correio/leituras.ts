/**
 * What the messages read besides the event itself: the cycle and the pickup of an order (each
 * read once per transaction: a subscription generation writes thousands of receipts in one), and
 * how the person pays, with its Pix when the community receives by Pix.
 */
import type { Config } from '../../config.ts';
import type { Db } from '../../db/banco.ts';
import { cobrancaDe, pixDaCobranca, type Cobranca } from '../../domain/pix.ts';
import type { Pedido } from '../../domain/pedidos/modelo.ts';
import { horarioDeRetiradaTexto } from '../../domain/tempo.ts';
import { linhasEmTexto, reais } from '../../formatos.ts';
import type * as modelos from '../modelos.ts';

/**
 * What one transaction already read for its messages. A subscription generation writes thousands
 * of receipts in one transaction, all of the same cycle and a handful of points, which nothing in
 * it changes: each is read once. Outside a transaction nothing is kept.
 */
const lidosNaTransacao = new WeakMap<Db, Map<string, Promise<unknown>>>();

export function umaVezNaTransacao<T>(db: Db, chave: string, ler: () => Promise<T>): Promise<T> {
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

/** How to pay what the person owes now (this order included), when the community receives by Pix. */
export async function pagamentoDe(trx: Db, config: Config, usuarioid: number): Promise<modelos.Pagamento | null> {
  return config.pix === null ? null : pixDa(config, await cobrancaDe(trx, usuarioid, config.taxa));
}

async function pixDa(config: Config, cobranca: Cobranca): Promise<modelos.Pagamento | null> {
  const pix = await pixDaCobranca(cobranca, config.pix);
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
export async function pagamentoDoCiclo(db: Db, config: Config, usuarioid: number): Promise<modelos.PagamentoDoCiclo> {
  const cobranca = await cobrancaDe(db, usuarioid, config.taxa);
  if (cobranca.devidoCentavos <= 0) return { coberto: true, restanteCentavos: -cobranca.devidoCentavos };
  return { coberto: false, devidoCentavos: cobranca.devidoCentavos, pix: await pixDa(config, cobranca) };
}

/** Where and when an order is picked up: its point's address and the cycle's day and hours there. */
export async function retiradaDo(db: Db, p: Pedido): Promise<modelos.Retirada> {
  const ponto = await umaVezNaTransacao(db, `ponto:${p.pontoEntrega.id}`, () =>
    db
      .selectFrom('pontoentrega')
      .select(['nome', 'endereco', 'cidade'])
      .where('id', '=', p.pontoEntrega.id)
      .executeTakeFirstOrThrow(),
  );
  return { ...ponto, quando: horarioDeRetiradaTexto(p.pontoEntrega) };
}

export async function cicloDoAviso(db: Db, cicloid: number): Promise<modelos.CicloDoAviso> {
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
