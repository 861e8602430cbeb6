/** What every page of the cycle workflow reads of a cycle: its phase, open windows and dates (schema.graphql Ciclo). */

export type FaseCiclo = 'planejado' | 'oferta' | 'composicao' | 'pedido' | 'retirada' | 'encerrado';
export type JanelaCiclo = 'oferta' | 'pedido';

/** The phases as people read them: the same words as the Cestas face (NOMES_FASES of src/domain/ciclos/calendario.ts; a test keeps them equal). */
export const NOMES_FASES: Readonly<Record<FaseCiclo, string>> = {
  planejado: 'Planejado',
  oferta: 'Ofertas abertas',
  composicao: 'Composição das cestas',
  pedido: 'Pedidos abertos',
  retirada: 'Entrega e retirada',
  encerrado: 'Encerrado',
};

/** A cycle's name, phase, the windows open today (both may be) and its dates in AAAA-MM-DD. */
export interface CicloComDatas {
  readonly id: string;
  readonly nome: string;
  readonly fase: FaseCiclo;
  readonly janelasAbertas: readonly JanelaCiclo[];
  readonly dataOfertaInicio: string;
  readonly dataOfertaFim: string;
  readonly dataPedidoInicio: string;
  readonly dataPedidoFim: string;
  readonly dataRetiradaInicio: string;
  readonly dataRetiradaFim: string;
}

/** The GraphQL selection of CicloComDatas. */
export const CAMPOS_CICLO_COM_DATAS =
  'id nome fase janelasAbertas dataOfertaInicio dataOfertaFim dataPedidoInicio dataPedidoFim dataRetiradaInicio dataRetiradaFim';
