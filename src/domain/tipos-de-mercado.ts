/**
 * The kinds of market and what each can do: the one place a kind lives (docs/decisions.md, "Onde
 * mora um tipo de mercado"). Both faces read it: the Cestas pages, the GraphQL schema (the query
 * `tiposDeMercado`, which the browser client reads instead of keeping a copy) and the domain rules,
 * which ask a kind what it can do (`podeTipo`) instead of comparing its name.
 *
 * Adding a kind: a row here, the value in the `TipoMercado` enum of schema.graphql (a test compares
 * the two), and a migration widening the `mercado_tipo_ck` check. What a new way of selling needs
 * beyond that (its own page, its own table) is a new capability, not a new name to compare.
 */

/** What a market of the kind sells in a cycle. */
export const VENDAS = ['cestas', 'itens', 'lotes'] as const;
export type VendaDoMercado = (typeof VENDAS)[number];

export interface CapacidadesDoTipo {
  /** The label people read ("Venda direta"). */
  readonly nome: string;
  /** The label inside a sentence: "não é um mercado de venda direta". */
  readonly nomeNaFrase: string;
  /** One line on what it is for. */
  readonly descricao: string;
  /** cestas: the cycle's baskets; itens: surplus released to it at its price; lotes: lots for a named buyer. */
  readonly vende: VendaDoMercado;
  /** Needs the most a basket may cost (`valorMaximoCesta`), checked against each basket's cost. */
  readonly exigeValorMaximoCesta: boolean;
  /** Consumers order from it (a lote market sells to a named buyer instead). */
  readonly vendeAConsumidores: boolean;
  /** What it sells is priced from its price list (released items take the market's active price). */
  readonly precosDaLista: boolean;
  /** Subscriptions may name it as the market of their basket. */
  readonly aceitaAssinaturas: boolean;
}

export const TIPOS_DE_MERCADO = {
  cesta: {
    nome: 'Cesta',
    nomeNaFrase: 'de cestas',
    descricao: 'venda de cestas',
    vende: 'cestas',
    exigeValorMaximoCesta: true,
    vendeAConsumidores: true,
    precosDaLista: false,
    aceitaAssinaturas: true,
  },
  lote: {
    nome: 'Lote',
    nomeNaFrase: 'de lotes',
    descricao: 'lotes a granel (compras públicas de merenda, por exemplo)',
    vende: 'lotes',
    exigeValorMaximoCesta: false,
    vendeAConsumidores: false,
    precosDaLista: false,
    aceitaAssinaturas: false,
  },
  venda_direta: {
    nome: 'Venda direta',
    nomeNaFrase: 'de venda direta',
    descricao: 'venda direta das sobras, ao preço do mercado',
    vende: 'itens',
    exigeValorMaximoCesta: false,
    vendeAConsumidores: true,
    precosDaLista: true,
    aceitaAssinaturas: false,
  },
} as const satisfies Record<string, CapacidadesDoTipo>;

export type TipoMercado = keyof typeof TIPOS_DE_MERCADO;
export const TIPOS_MERCADO = Object.keys(TIPOS_DE_MERCADO) as readonly TipoMercado[];

/** A capability that is a yes or no. */
export type Capacidade = {
  [K in keyof CapacidadesDoTipo]: CapacidadesDoTipo[K] extends boolean ? K : never;
}[keyof CapacidadesDoTipo];

export function ehTipoMercado(t: string): t is TipoMercado {
  return Object.hasOwn(TIPOS_DE_MERCADO, t);
}

/** What a kind can do. */
export function capacidadesDoTipo(tipo: TipoMercado): CapacidadesDoTipo {
  return TIPOS_DE_MERCADO[tipo];
}

/** Whether a kind has a yes-or-no capability. */
export function podeTipo(tipo: TipoMercado, capacidade: Capacidade): boolean {
  return TIPOS_DE_MERCADO[tipo][capacidade];
}

/** Whether a kind sells that. */
export function vendeDoTipo(tipo: TipoMercado, venda: VendaDoMercado): boolean {
  return TIPOS_DE_MERCADO[tipo].vende === venda;
}

/** The kinds with a capability, for a query's `tipo IN (…)` (never empty: a query needs a list). */
export function tiposQue(teste: (c: CapacidadesDoTipo) => boolean): TipoMercado[] {
  return TIPOS_MERCADO.filter((t) => teste(TIPOS_DE_MERCADO[t]));
}

/** The kinds as the clients read them, in the table's order. */
export function listaDeTipos(): Array<CapacidadesDoTipo & { readonly tipo: TipoMercado }> {
  return TIPOS_MERCADO.map((tipo) => ({ tipo, ...TIPOS_DE_MERCADO[tipo] }));
}
