import DataLoader from 'dataloader';
import type { FastifyBaseLogger } from 'fastify';
import type { Banco, Db } from '../../db/banco.ts';
import { contasPorIds, type Conta } from '../../domain/contas.ts';
import {
  mercadosDosAdmins,
  precosDosMercados,
  produtosPorIds,
  type Mercado,
  type PrecoMercado,
  type ProdutoDoCatalogo,
} from '../../domain/mercados.ts';
import type { Avisos } from '../../domain/avisos.ts';
import type { Taxa } from '../../domain/pedidos/taxa.ts';
import type { RecebedorPix } from '../../pix-chave.ts';
import type { ContextoGraphql } from '../acesso.ts';
import { naoAutenticado } from './acesso.ts';
import type { TrabalhoDaRequisicao } from './trabalho.ts';

/**
 * Per-request batching: every nested field (a market's admin and prices, a price's product, a
 * user's markets) goes through one of these, so a list of any length costs one query per kind
 * of thing, never one per row.
 */
export interface Carregadores {
  readonly contas: DataLoader<number, Conta | null>;
  readonly precosDoMercado: DataLoader<number, PrecoMercado[]>;
  readonly produtos: DataLoader<number, ProdutoDoCatalogo | null>;
  readonly mercadosDoAdmin: DataLoader<number, Mercado[]>;
  /**
   * Products already loaded in this request, readable without a promise. NOTE: a price's product
   * through `produtos.load` costs several promises per price (4,000 in the markets query), and
   * they were the largest item in its profile; `precos` fills this in one batch instead.
   */
  readonly produtosProntos: Map<number, ProdutoDoCatalogo | null>;
}

function porChave<V>(buscar: (ids: readonly number[]) => Promise<Map<number, V>>, vazio: V) {
  return async (ids: readonly number[]): Promise<V[]> => {
    const mapa = await buscar(ids);
    return ids.map((id) => mapa.get(id) ?? vazio);
  };
}

export function criarCarregadores(db: Db): Carregadores {
  return {
    contas: new DataLoader(porChave<Conta | null>((ids) => contasPorIds(db, ids), null)),
    precosDoMercado: new DataLoader(porChave<PrecoMercado[]>((ids) => precosDosMercados(db, ids), [])),
    produtos: new DataLoader(porChave<ProdutoDoCatalogo | null>((ids) => produtosPorIds(db, ids), null)),
    mercadosDoAdmin: new DataLoader(porChave<Mercado[]>((ids) => mercadosDosAdmins(db, ids), [])),
    produtosProntos: new Map(),
  };
}

/** Forgets what the loaders and the memo hold: after a write, the same request must read the new state. */
export function esquecerCarregados(ctx: Pick<ContextoResolvers, 'carregadores' | 'trabalho'>): void {
  const c = ctx.carregadores;
  ctx.trabalho.esquecer();
  c.contas.clearAll();
  c.precosDoMercado.clearAll();
  c.produtos.clearAll();
  c.mercadosDoAdmin.clearAll();
  c.produtosProntos.clear();
}

/** What every resolver receives: the spec's context plus the request's database, clock and loaders. */
export interface ContextoResolvers extends ContextoGraphql {
  readonly banco: Banco;
  readonly agora: Date;
  readonly carregadores: Carregadores;
  /** The request's deadline and its memo of computations (trabalho.ts). */
  readonly trabalho: TrabalhoDaRequisicao;
  /** Whether the service sends e-mail (SMTP_URL, or the development catcher). */
  readonly emailLigado: boolean;
  readonly requestId: string;
  readonly log: FastifyBaseLogger;
  /** The community's fee outside markets (TAXA_*), and its time zone: what the cycle workflow needs. */
  readonly taxa: Taxa;
  readonly tz: string;
  /** The community's Pix receiver (PIX_*); null when Pix is not configured. */
  readonly pix: RecebedorPix | null;
  /**
   * The key of the receipts' pickup tokens (src/domain/retirada/token.ts, from SESSION_SECRET);
   * the service always sets it, tests of the schema alone may leave it out.
   */
  readonly chaveDaRetirada?: Buffer | undefined;
  /** Receipts and notices of orders, as on the Cestas face; absent when that face does not run here. */
  readonly avisos?: Avisos | undefined;
}

/** The logged-in account; @auth has already let only logged-in callers through. */
export function atorDe(ctx: ContextoResolvers): Conta {
  if (ctx.user === null) throw naoAutenticado();
  return ctx.user;
}
