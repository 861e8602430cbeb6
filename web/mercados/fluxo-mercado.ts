/**
 * The GraphQL operations of the market administration pages (a market's cycles and orders, a
 * cycle's markets), the shapes they return (schema.graphql), and their pt-BR formatting.
 */
import { graphql } from './api.ts';
import {
  CAMPOS_CICLO_COM_DATAS,
  NOMES_FASES,
  type CicloComDatas,
  type FaseCiclo,
  type JanelaCiclo,
} from './ciclo-comum.ts';
import { CAMPO_TIPOS, guardarTipos, type TipoDeMercado, type TipoMercado } from './tipos-de-mercado.ts';
import { paraCentavos } from './dinheiro.ts';
import type { LinhaDoPedido } from './fluxo-consumidor.ts';
import { paraMilesimos } from './formatos.ts';

/** What a cycle's card says of it: its phase, and the order window when it is open too (both windows may be). */
export function etiquetasDoCiclo(c: {
  readonly fase: FaseCiclo;
  readonly janelasAbertas: readonly JanelaCiclo[];
}): string[] {
  const etiquetas = [NOMES_FASES[c.fase]];
  if (c.fase !== 'pedido' && c.janelasAbertas.includes('pedido')) etiquetas.push(NOMES_FASES.pedido);
  return etiquetas;
}

const centavos = (valor: string): number => paraCentavos(valor) ?? 0;

/* ---------- A market's cycles (/mercados/:id) ---------- */

/** A cycle as a market's pages show it. */
export type CicloDoMercado = CicloComDatas;

const CAMPOS_CICLO = CAMPOS_CICLO_COM_DATAS;

/** A page of the cycles that serve the market (those the person may see), newest first. */
/** How many cycles a market's page shows at a time. */
export const CICLOS_DO_MERCADO_POR_PAGINA = 10;

export async function ciclosDoMercado(
  mercadoId: string,
  first: number,
  after: string | null,
): Promise<readonly CicloDoMercado[]> {
  const r = await graphql<{ ciclos: CicloDoMercado[] }>(
    `query CiclosDoMercado($m: ID!, $first: Int, $after: String) { ciclos(mercadoId: $m, first: $first, after: $after) { ${CAMPOS_CICLO} } }`,
    { m: mercadoId, first, after },
  );
  return r.ciclos;
}

/* ---------- A market's orders in a cycle (/mercados/:id/ciclos/:cicloId/pedidos) ---------- */

/** An order's line as the market sees it: the consumer's line without the market's name (it is this market). */
export type LinhaPedidoMercado = Omit<LinhaDoPedido, 'mercado'>;

export interface PedidoDoMercado {
  readonly id: string;
  readonly cursor: string;
  readonly consumidor: string;
  readonly pontoEntrega: { readonly nome: string };
  readonly finalizado: boolean;
  readonly dataConfirmacao: string | null;
  readonly produtos: readonly LinhaPedidoMercado[];
  readonly total: string;
  readonly taxa: string;
  readonly totalComTaxa: string;
}

const CAMPOS_PEDIDO =
  'id cursor consumidor pontoEntrega { nome } finalizado dataConfirmacao produtos { id tipo cicloCestaId cicloProdutoId nome unidade quantidade valor subtotal } total taxa totalComTaxa';
const PEDIDOS_DO_MERCADO = `query PedidosDoMercado($m: ID!, $c: ID!, $first: Int, $after: String) {
  pedidosDoMercado(mercadoId: $m, cicloId: $c, first: $first, after: $after) { ${CAMPOS_PEDIDO} }
}`;

export async function pedidosDoMercado(
  mercadoId: string,
  cicloId: string,
  first: number,
  after: string | null,
): Promise<readonly PedidoDoMercado[]> {
  const r = await graphql<{ pedidosDoMercado: PedidoDoMercado[] }>(PEDIDOS_DO_MERCADO, {
    m: mercadoId,
    c: cicloId,
    first,
    after,
  });
  return r.pedidosDoMercado;
}

/** The API's largest page: the totals read every order in pages of this size. */
const PAGINA_MAXIMA = 100;

/** Every order of the market in the cycle, page after page (for the totals). */
export async function todosOsPedidosDoMercado(mercadoId: string, cicloId: string): Promise<readonly PedidoDoMercado[]> {
  const todos: PedidoDoMercado[] = [];
  for (;;) {
    const pagina = await pedidosDoMercado(mercadoId, cicloId, PAGINA_MAXIMA, todos.at(-1)?.cursor ?? null);
    todos.push(...pagina);
    if (pagina.length < PAGINA_MAXIMA) return todos;
  }
}

export interface TotalDoProduto {
  readonly chave: string;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  readonly subtotalCentavos: number;
}

export interface TotaisDoMercado {
  readonly pedidos: number;
  readonly confirmados: number;
  readonly subtotalCentavos: number;
  readonly taxaCentavos: number;
  readonly totalCentavos: number;
  /** Per basket or item of the cycle, by name. */
  readonly produtos: readonly TotalDoProduto[];
}

/** The market's figures in the cycle, summed in integer cents and thousandths. */
export function totaisDoMercado(pedidos: readonly PedidoDoMercado[]): TotaisDoMercado {
  const produtos = new Map<string, TotalDoProduto>();
  for (const p of pedidos) {
    for (const l of p.produtos) {
      const chave = l.cicloCestaId !== null ? `c${l.cicloCestaId}` : `e${l.cicloProdutoId ?? l.nome}`;
      const antes = produtos.get(chave);
      produtos.set(chave, {
        chave,
        nome: l.nome,
        unidade: l.unidade,
        quantidadeMilesimos: (antes?.quantidadeMilesimos ?? 0) + (paraMilesimos(l.quantidade) ?? 0),
        subtotalCentavos: (antes?.subtotalCentavos ?? 0) + centavos(l.subtotal),
      });
    }
  }
  return {
    pedidos: pedidos.length,
    confirmados: pedidos.filter((p) => p.finalizado).length,
    subtotalCentavos: pedidos.reduce((s, p) => s + centavos(p.total), 0),
    taxaCentavos: pedidos.reduce((s, p) => s + centavos(p.taxa), 0),
    totalCentavos: pedidos.reduce((s, p) => s + centavos(p.totalComTaxa), 0),
    produtos: [...produtos.values()].sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR')),
  };
}

/** The page's heading: the market's and the cycle's names (either null when it does not exist). */
export async function nomesDoMercadoECiclo(
  mercadoId: string,
  cicloId: string,
): Promise<{ mercado: string | null; ciclo: CicloDoMercado | null }> {
  const r = await graphql<{ mercado: { nome: string } | null; ciclo: CicloDoMercado | null }>(
    `query MercadoECiclo($m: ID!, $c: ID!) { mercado(id: $m) { nome } ciclo(id: $c) { ${CAMPOS_CICLO} } }`,
    { m: mercadoId, c: cicloId },
  );
  return { mercado: r.mercado?.nome ?? null, ciclo: r.ciclo };
}

/* ---------- A cycle's markets (/ciclos/:id/mercados) ---------- */

export interface MercadoNoCiclo {
  readonly mercadoId: string;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly ordemAtendimento: number;
  readonly taxaAdministrativa: string | null;
  readonly valorMaximoCesta: string | null;
  readonly pontosEntrega: ReadonlyArray<{ readonly id: string; readonly nome: string }>;
  readonly cicloCestaIds: readonly string[];
}

export interface CicloParaMercados {
  readonly id: string;
  readonly nome: string;
  readonly fase: FaseCiclo;
  readonly acoes: { readonly definirMercados: boolean };
  readonly mercados: readonly MercadoNoCiclo[];
  readonly cestas: ReadonlyArray<{
    readonly cicloCestaId: string;
    readonly nome: string;
    readonly valor: string;
    readonly emComposicao: boolean;
  }>;
  readonly pontosEntrega: ReadonlyArray<{ readonly id: string; readonly nome: string; readonly cidade: string | null }>;
}

/** An active market that may be added to the cycle. */
export interface MercadoAtivo {
  readonly id: string;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly taxaAdministrativa: string | null;
  readonly valorMaximoCesta: string | null;
}

const CAMPOS_CICLO_MERCADOS = `id nome fase acoes { definirMercados }
  mercados { mercadoId nome tipo ordemAtendimento taxaAdministrativa valorMaximoCesta pontosEntrega { id nome } cicloCestaIds }
  cestas { cicloCestaId nome valor emComposicao }
  pontosEntrega { id nome cidade }`;

/** The cycle with its markets, baskets and points, and the active markets (null when there is no such cycle). */
export async function lerMercadosDoCiclo(
  cicloId: string,
): Promise<{ ciclo: CicloParaMercados; ativos: readonly MercadoAtivo[] } | null> {
  const r = guardarTipos(
    await graphql<{ ciclo: CicloParaMercados | null; mercados: MercadoAtivo[]; tiposDeMercado: TipoDeMercado[] }>(
      `query MercadosDoCiclo($c: ID!) { ciclo(id: $c) { ${CAMPOS_CICLO_MERCADOS} } mercados(ativo: true) { id nome tipo taxaAdministrativa valorMaximoCesta } ${CAMPO_TIPOS} }`,
      { c: cicloId },
    ),
  );
  return r.ciclo === null ? null : { ciclo: r.ciclo, ativos: r.mercados };
}

/** One market of CicloMercadoInput. */
export interface EntradaMercadoDoCiclo {
  readonly mercadoId: string;
  readonly ordemAtendimento: number;
  readonly pontoEntregaIds: readonly string[];
  readonly cicloCestaIds: readonly string[];
}

/** Replaces the whole list of the cycle's markets; returns the cycle as saved. */
export async function definirMercadosDoCiclo(
  cicloId: string,
  input: readonly EntradaMercadoDoCiclo[],
): Promise<CicloParaMercados> {
  const r = await graphql<{ definirMercadosDoCiclo: CicloParaMercados }>(
    `mutation DefinirMercadosDoCiclo($c: ID!, $input: [CicloMercadoInput!]!) { definirMercadosDoCiclo(cicloId: $c, input: $input) { ${CAMPOS_CICLO_MERCADOS} } }`,
    { c: cicloId, input },
  );
  return r.definirMercadosDoCiclo;
}
