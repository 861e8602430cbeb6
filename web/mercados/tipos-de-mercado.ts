/**
 * The kinds of market, as the server's table says them (GraphQL `tiposDeMercado`, from
 * src/domain/tipos-de-mercado.ts): their names and what each can do. The client keeps no copy of
 * its own: the first query of every page that names kinds brings them along (CAMPO_TIPOS), so a
 * page draws them with its own data.
 */

/** A kind's name as the server stores it (cesta, lote, venda_direta, …). */
export type TipoMercado = string;

export interface TipoDeMercado {
  readonly tipo: TipoMercado;
  readonly nome: string;
  readonly descricao: string;
  /** cestas: the cycle's baskets; itens: surplus released at the market's price; lotes: lots for a named buyer. */
  readonly vende: 'cestas' | 'itens' | 'lotes';
  readonly exigeValorMaximoCesta: boolean;
  readonly vendeAConsumidores: boolean;
  readonly precosDaLista: boolean;
  readonly aceitaAssinaturas: boolean;
}

/**
 * The field a page's query adds to bring the kinds along: no request of its own (each page still
 * asks one question), and the server answers it from its table, not the database.
 */
export const CAMPO_TIPOS =
  'tiposDeMercado { tipo nome descricao vende exigeValorMaximoCesta vendeAConsumidores precosDaLista aceitaAssinaturas }';

let lidos: readonly TipoDeMercado[] | null = null;

/** Keeps the kinds a query brought, for every page after it. */
export function guardarTipos<T extends { readonly tiposDeMercado: readonly TipoDeMercado[] }>(r: T): T {
  lidos = r.tiposDeMercado;
  return r;
}

/** Every kind, in the server's order (empty until they arrive). */
export function tiposDeMercado(): readonly TipoDeMercado[] {
  return lidos ?? [];
}

/** One kind; a kind the client was not told of reads as its own name and can do nothing special. */
export function tipoDeMercado(tipo: TipoMercado): TipoDeMercado {
  return (
    lidos?.find((t) => t.tipo === tipo) ?? {
      tipo,
      nome: tipo,
      descricao: '',
      vende: 'itens',
      exigeValorMaximoCesta: false,
      vendeAConsumidores: false,
      precosDaLista: false,
      aceitaAssinaturas: false,
    }
  );
}

/** The name people read for a kind. */
export function nomeDoTipo(tipo: TipoMercado): string {
  return tipoDeMercado(tipo).nome;
}
