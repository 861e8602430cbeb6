/**
 * A cycle's calendar: its phase and its writing windows, derived from its dates and today (never
 * stored). Pure, below the cycle record (the other modules of this folder) and the policy
 * (acesso.ts), which both read it.
 */
/** A cycle's phase, derived from its dates and today; never stored. */
export const FASES = ['planejado', 'oferta', 'composicao', 'pedido', 'retirada', 'encerrado'] as const;
export type Fase = (typeof FASES)[number];

export const NOMES_FASES: Readonly<Record<Fase, string>> = {
  planejado: 'Planejado',
  oferta: 'Ofertas abertas',
  composicao: 'Composição das cestas',
  pedido: 'Pedidos abertos',
  retirada: 'Entrega e retirada',
  encerrado: 'Encerrado',
};

/** The cycle's six dates, in their order: what every read of its calendar selects. */
export const CAMPOS_DATA = [
  'dataOfertaInicio',
  'dataOfertaFim',
  'dataPedidoInicio',
  'dataPedidoFim',
  'dataRetiradaInicio',
  'dataRetiradaFim',
] as const;

export interface DatasCiclo {
  readonly dataOfertaInicio: string;
  readonly dataOfertaFim: string;
  readonly dataPedidoInicio: string;
  readonly dataPedidoFim: string;
  readonly dataRetiradaInicio: string;
  readonly dataRetiradaFim: string;
}

/** Windows include both of their days. */
export function faseDoCiclo(c: DatasCiclo, hoje: string): Fase {
  if (hoje < c.dataOfertaInicio) return 'planejado';
  if (hoje <= c.dataOfertaFim) return 'oferta';
  if (hoje < c.dataPedidoInicio) return 'composicao';
  if (hoje <= c.dataPedidoFim) return 'pedido';
  if (hoje <= c.dataRetiradaFim) return 'retirada';
  return 'encerrado';
}

/** The windows in which people write: suppliers their offers, consumers their orders. */
export const JANELAS = {
  oferta: { nome: 'de ofertas', inicio: 'dataOfertaInicio', fim: 'dataOfertaFim' },
  pedido: { nome: 'de pedidos', inicio: 'dataPedidoInicio', fim: 'dataPedidoFim' },
} as const;
export type Janela = keyof typeof JANELAS;

/**
 * Each window on its own, both days included. The phase names one stage; when the offer and
 * order windows share a day both are open, and the rules and the pages both say so.
 */
export function janelaAberta(c: DatasCiclo, hoje: string, janela: Janela): boolean {
  const j = JANELAS[janela];
  return hoje >= c[j.inicio] && hoje <= c[j.fim];
}

export function janelasAbertas(c: DatasCiclo, hoje: string): Janela[] {
  return (Object.keys(JANELAS) as Janela[]).filter((j) => janelaAberta(c, hoje, j));
}

/** The stage as people read it: both windows when both are open, else the phase. */
// Stryker disable next-line ArrayDeclaration: a default of one made-up window is still not two, so the name is the phase's either way
export function nomeDoMomento(fase: Fase, abertas: readonly Janela[] = []): string {
  return abertas.length > 1 ? 'Ofertas e pedidos abertos' : NOMES_FASES[fase];
}

/** What the rules about editing need of a cycle today (see JanelaDoCiclo in acesso.ts). */
export function situacaoDoCiclo(
  c: DatasCiclo & { readonly ativo: boolean; readonly fechadoEm: string | null },
  hoje: string,
) {
  return { fase: faseDoCiclo(c, hoje), abertas: janelasAbertas(c, hoje), ativo: c.ativo, fechadoEm: c.fechadoEm };
}
