/**
 * The cycle record: a cycle with its four child lists (deliveries, pickup points, baskets, extras)
 * as the domain returns it, and as the edge reads it to save.
 */
import type { Voluntario } from '../retirada/voluntarios.ts';
import type { CAMPOS_DATA, DatasCiclo, Fase } from './calendario.ts';

export interface CicloResumo extends DatasCiclo {
  readonly id: number;
  readonly nome: string;
  readonly fase: Fase;
}

export interface CicloEntrega {
  readonly id: number;
  readonly dataEntrega: string;
  readonly observacao: string | null;
}

/**
 * A pickup point the cycle serves, with its own day and hours ("HH:MM"); any of them may be
 * unset. A cycle that lists none serves every active point.
 */
export interface CicloPonto {
  readonly id: number;
  readonly pontoEntregaId: number;
  readonly nome: string;
  readonly endereco: string | null;
  readonly cidade: string | null;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  /** Orders of this cycle that pick up here. */
  readonly pedidos: number;
  /** Who the coordination named to run the pickup here in this cycle, by name. */
  readonly voluntarios: readonly Voluntario[];
}

export interface CicloCesta {
  readonly id: number;
  readonly cestaId: number;
  readonly nome: string;
  readonly quantidadeCestas: number;
  /** Baskets already in saved orders. */
  readonly quantidadePedida: number;
  /** Something is composed in it: only then is it for sale. */
  readonly composta: boolean;
}

/** What the finalised offers leave over of a product once the baskets are composed: the cap of its extras. */
export interface SobraDoProduto {
  readonly produtoId: number;
  readonly nome: string;
  readonly unidade: string;
  readonly sobraMilesimos: number;
}

export interface CicloProduto {
  readonly id: number;
  readonly produtoId: number;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
}

export interface Ciclo extends CicloResumo {
  readonly ativo: boolean;
  readonly fechadoEm: string | null;
  readonly cicloEntregas: CicloEntrega[];
  readonly cicloPontos: CicloPonto[];
  readonly cicloCestas: CicloCesta[];
  readonly cicloProdutos: CicloProduto[];
  /** Per offered product, what baskets leave over (extras may publish up to it). */
  readonly sobras: SobraDoProduto[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const ROTULOS_DATAS: Readonly<Record<(typeof CAMPOS_DATA)[number], string>> = {
  dataOfertaInicio: 'início das ofertas',
  dataOfertaFim: 'fim das ofertas',
  dataPedidoInicio: 'início dos pedidos',
  dataPedidoFim: 'fim dos pedidos',
  dataRetiradaInicio: 'início da retirada',
  dataRetiradaFim: 'fim da retirada',
};

export const LISTAS_DO_CICLO = ['cicloEntregas', 'cicloPontos', 'cicloCestas', 'cicloProdutos'] as const;
export type ListaDoCiclo = (typeof LISTAS_DO_CICLO)[number];

/** Rows of a cycle's lists as the edge reads them; `campo` is where a refusal is reported. */
export interface EntregaLida {
  readonly id: number | null;
  readonly dataEntrega: string;
  readonly observacao: string | null;
  readonly campo: string;
}
export interface PontoLido {
  readonly id: number | null;
  readonly pontoEntregaId: number;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  /** The e-mails of the point's volunteers in this cycle; absent: the row did not send them, and they stay. */
  readonly voluntarios?: readonly string[];
  /** The row's point field; its other fields are reported beside it (`….dataRetirada`, `….horaFim`). */
  readonly campo: string;
}
export interface CestaLida {
  readonly id: number | null;
  readonly cestaId: number;
  readonly quantidadeCestas: number;
  readonly campo: string;
}
export interface ProdutoLido {
  readonly id: number | null;
  readonly produtoId: number;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly campo: string;
}

/** A cycle as the edge reads it; a list left null is kept as it is. */
export interface CicloLido {
  readonly dados: {
    nome: string;
    dataOfertaInicio: string;
    dataOfertaFim: string;
    dataPedidoInicio: string;
    dataPedidoFim: string;
    dataRetiradaInicio: string;
    dataRetiradaFim: string;
    /** null: not sent. A new cycle is active; an edit keeps what the cycle was. */
    ativo: boolean | null;
  };
  readonly cicloEntregas: EntregaLida[] | null;
  readonly cicloPontos: PontoLido[] | null;
  readonly cicloCestas: CestaLida[] | null;
  readonly cicloProdutos: ProdutoLido[] | null;
}
