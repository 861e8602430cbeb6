/**
 * The shapes of a subscription: what the edge enters, what is saved, what became of it
 * in a cycle, what a generation did, and the options every write takes. Types and the list of
 * frequencies only; the rules are in regras.ts.
 */
import type { Frequencia, SituacaoNoCiclo } from '../../db/tipos.ts';
import type { AvisosDoPedido } from '../pedidos/modelo.ts';
import type { Taxa } from '../pedidos/taxa.ts';

export const FREQUENCIAS: readonly Frequencia[] = ['cada_ciclo', 'ciclo_sim_ciclo_nao'];
export type { Frequencia, SituacaoNoCiclo };

/** The time and settings every subscription write takes (the order's, plus the time zone for confirmations). */
export interface OpcoesAssinatura {
  readonly agora: Date;
  /** Today in the community's time zone (AAAA-MM-DD). */
  readonly hoje: string;
  readonly taxa: Taxa;
  readonly tz: string;
  /** Where the receipts of generated orders go, in the generation's own transaction. */
  readonly avisos?: AvisosDoPedido;
}

/** A subscription as the edge reads it: for whom (null: the actor), and the standing order. */
export interface EntradaAssinatura {
  /** null: a new subscription. */
  readonly id: number | null;
  readonly usuarioid: number | null;
  readonly cestaId: number;
  /** Whole baskets, ≥ 1. */
  readonly quantidade: number;
  readonly pontoEntregaId: number;
  readonly frequencia: Frequencia;
  /** AAAA-MM-DD, inicio ≤ fim. */
  readonly inicio: string;
  readonly fim: string;
  readonly mercadoId: number | null;
  /** false ends the subscription. */
  readonly ativa: boolean;
}

export interface Pausa {
  readonly id: number;
  readonly inicio: string;
  readonly fim: string;
}

/** A saved subscription: what was entered, with its id, its consumer, when it began and its pauses. */
export interface Assinatura extends Omit<EntradaAssinatura, 'id' | 'usuarioid'> {
  readonly id: number;
  readonly usuarioid: number;
  readonly createdAt: string;
  readonly pausas: readonly Pausa[];
}

/** What generation did in a cycle (this call's counts; `pulados` is the cycle's skips so far). */
export interface ResumoDaGeracao {
  readonly gerados: number;
  readonly faltaram: ReadonlyArray<{
    readonly assinaturaId: number;
    readonly consumidor: string;
    readonly motivo: string;
  }>;
  readonly pulados: number;
  readonly pausados: number;
}

/** What became of a subscription in one cycle. */
export interface SituacaoDoCiclo {
  readonly assinaturaId: number;
  readonly cicloid: number;
  readonly situacao: SituacaoNoCiclo;
  readonly quantidade: number;
  readonly pontoEntregaId: number;
  readonly pedidoId: number | null;
  readonly motivo: string | null;
}
