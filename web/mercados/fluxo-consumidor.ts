/**
 * The Consumidor's side of the cycle workflow (schema.graphql: ciclos, ciclo, meusPedidos,
 * fazerPedido, confirmarPedido): the operations, the shapes they return, a pickup point's
 * day and place, and a market's fee (dates and quantities: formatos.ts).
 */
import { graphql } from './api.ts';
import { CAMPOS_CICLO_COM_DATAS, type CicloComDatas, type FaseCiclo } from './ciclo-comum.ts';
import { CAMPO_TIPOS, guardarTipos, type TipoDeMercado, type TipoMercado } from './tipos-de-mercado.ts';
import { dataBr } from './formatos.ts';

export interface AcoesDoCiclo {
  readonly ofertar: boolean;
  readonly pedir: boolean;
  readonly definirMercados: boolean;
}

export interface PontoDeRetirada {
  readonly id: string;
  readonly nome: string;
  readonly endereco: string | null;
  readonly cidade: string | null;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
}

export interface MercadoDoCiclo {
  readonly mercadoId: string;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly ordemAtendimento: number;
  readonly taxaAdministrativa: string | null;
  readonly pontosEntrega: ReadonlyArray<{ readonly id: string; readonly nome: string }>;
  readonly cicloCestaIds: readonly string[];
}

/** The person's own order in a cycle, in short (Ciclo.meuPedido). */
export interface MeuPedidoNoCiclo {
  readonly id: string;
  readonly finalizado: boolean;
  readonly alteradoAposConfirmar: boolean;
}

export interface ResumoCiclo extends CicloComDatas {
  readonly mercados: readonly MercadoDoCiclo[];
  readonly pontosEntrega: readonly PontoDeRetirada[];
  readonly acoes: AcoesDoCiclo;
  /** Null: no order of the person's in the cycle. */
  readonly meuPedido: MeuPedidoNoCiclo | null;
}

export interface CestaDoCiclo {
  readonly cicloCestaId: string;
  readonly nome: string;
  readonly descricao: string | null;
  readonly valor: string;
  readonly disponivel: number;
  readonly emComposicao: boolean;
  readonly mercado: string | null;
  readonly composicao: ReadonlyArray<{
    readonly produto: string;
    readonly quantidade: string;
    readonly unidade: string;
  }>;
}

export interface ItemDoCiclo {
  readonly cicloProdutoId: string;
  readonly nome: string;
  readonly unidade: string;
  readonly valor: string;
  readonly disponivel: string;
  readonly mercado: string | null;
}

export interface Ciclo extends ResumoCiclo {
  readonly cestas: readonly CestaDoCiclo[];
  readonly itens: readonly ItemDoCiclo[];
}

export interface LinhaDoPedido {
  readonly id: string;
  readonly tipo: string;
  readonly cicloCestaId: string | null;
  readonly cicloProdutoId: string | null;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidade: string;
  readonly valor: string;
  readonly subtotal: string;
  readonly mercado: string | null;
}

export interface ParteDoPedido {
  readonly mercadoId: string | null;
  readonly mercado: string | null;
  readonly subtotal: string;
  readonly taxaAdministrativa: string | null;
  readonly taxa: string;
}

export interface Pedido {
  readonly id: string;
  readonly cursor: string;
  readonly cicloId: string;
  readonly pontoEntrega: PontoDeRetirada;
  readonly finalizado: boolean;
  readonly alteradoAposConfirmar: boolean;
  readonly dataConfirmacao: string | null;
  readonly produtos: readonly LinhaDoPedido[];
  readonly total: string;
  readonly taxa: string;
  readonly totalComTaxa: string;
  readonly partes: readonly ParteDoPedido[];
}

/** A static Pix with its amount: the copy-and-paste text, the QR code (SVG) and the amount in reais. */
export interface Pix {
  readonly copiaECola: string;
  readonly qrSvg: string;
  readonly valor: string;
}

/** What the person owes today, line by line, and the one Pix that pays it all (minhaCobranca). */
export interface Cobranca {
  readonly devido: string;
  readonly linhas: ReadonlyArray<{ readonly tipo: string; readonly descricao: string; readonly valor: string }>;
  readonly pix: Pix | null;
}

const PONTO = 'id nome endereco cidade dataRetirada horaInicio horaFim';
const RESUMO_CICLO = `${CAMPOS_CICLO_COM_DATAS}
  mercados { mercadoId nome tipo ordemAtendimento taxaAdministrativa pontosEntrega { id nome } cicloCestaIds }
  pontosEntrega { ${PONTO} } acoes { ofertar pedir definirMercados } meuPedido { id finalizado alteradoAposConfirmar }`;
const CICLO = `${RESUMO_CICLO}
  cestas { cicloCestaId nome descricao valor disponivel emComposicao mercado composicao { produto quantidade unidade } }
  itens { cicloProdutoId nome unidade valor disponivel mercado }`;
const PEDIDO = `id cursor cicloId finalizado alteradoAposConfirmar dataConfirmacao total taxa totalComTaxa pontoEntrega { ${PONTO} }
  produtos { id tipo cicloCestaId cicloProdutoId nome unidade quantidade valor subtotal mercado }
  partes { mercadoId mercado subtotal taxaAdministrativa taxa }`;

/** The cycles the person can act in now, newest first. */
export async function listarCiclos(first: number, after: string | null): Promise<readonly ResumoCiclo[]> {
  const r = await graphql<{ ciclos: ResumoCiclo[]; tiposDeMercado: TipoDeMercado[] }>(
    `query Ciclos($first: Int, $after: String) { ciclos(first: $first, after: $after) { ${RESUMO_CICLO} } ${CAMPO_TIPOS} }`,
    { first, after },
  );
  return guardarTipos(r).ciclos;
}

/** A cycle with what it sells, and the person's own order in it (null: none yet). */
export async function lerCiclo(id: string): Promise<Ciclo | null> {
  const r = await graphql<{ ciclo: Ciclo | null; tiposDeMercado: TipoDeMercado[] }>(
    `query Ciclo($id: ID!) { ciclo(id: $id) { ${CICLO} } ${CAMPO_TIPOS} }`,
    { id },
  );
  return guardarTipos(r).ciclo;
}

export async function lerMeuPedido(cicloId: string): Promise<Pedido | null> {
  const r = await graphql<{ meusPedidos: Pedido[] }>(
    `query MeuPedido($c: ID) { meusPedidos(cicloId: $c) { ${PEDIDO} } }`,
    { c: cicloId },
  );
  return r.meusPedidos[0] ?? null;
}

/** What the person owes and its Pix: the balance, not one order, so it is shown once. */
export async function lerMinhaCobranca(): Promise<Cobranca> {
  const r = await graphql<{ minhaCobranca: Cobranca }>(
    `query MinhaCobranca { minhaCobranca { devido linhas { tipo descricao valor } pix { copiaECola qrSvg valor } } }`,
  );
  return r.minhaCobranca;
}

/** A page of the person's orders of every cycle, newest first. */
export async function listarMeusPedidos(first: number, after: string | null): Promise<readonly Pedido[]> {
  const r = await graphql<{ meusPedidos: Pedido[] }>(
    `query MeusPedidos($first: Int, $after: String) { meusPedidos(first: $first, after: $after) { ${PEDIDO} } }`,
    { first, after },
  );
  return r.meusPedidos;
}

/** The cycles of a list of orders: name, windows and whether the person may still order there (one request). */
export interface CicloDoPedido {
  readonly id: string;
  readonly nome: string;
  readonly fase: FaseCiclo;
  readonly dataPedidoFim: string;
  readonly dataRetiradaInicio: string;
  readonly dataRetiradaFim: string;
  readonly acoes: { readonly pedir: boolean };
}

export async function ciclosPorIds(ids: readonly string[]): Promise<ReadonlyMap<string, CicloDoPedido>> {
  const unicos = [...new Set(ids)].filter((id) => /^\d+$/.test(id));
  if (unicos.length === 0) return new Map();
  const campos = unicos
    .map(
      (id) =>
        `c${id}: ciclo(id: "${id}") { id nome fase dataPedidoFim dataRetiradaInicio dataRetiradaFim acoes { pedir } }`,
    )
    .join('\n');
  const r = await graphql<Record<string, CicloDoPedido | null>>(`query CiclosDosPedidos { ${campos} }`);
  return new Map(Object.values(r).flatMap((c) => (c === null ? [] : [[c.id, c] as const])));
}

export interface LinhaPedida {
  readonly cicloCestaId?: string;
  readonly cicloProdutoId?: string;
  readonly quantidade: string;
}

export async function fazerPedido(
  cicloId: string,
  pontoEntregaId: string,
  produtos: readonly LinhaPedida[],
): Promise<Pedido> {
  const r = await graphql<{ fazerPedido: Pedido }>(
    `mutation FazerPedido($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { ${PEDIDO} } }`,
    {
      c: cicloId,
      i: { pontoEntregaId, produtos },
    },
  );
  return r.fazerPedido;
}

export async function confirmarPedido(pedidoId: string): Promise<Pedido> {
  const r = await graphql<{ confirmarPedido: Pedido }>(
    `mutation ConfirmarPedido($p: ID!) { confirmarPedido(pedidoId: $p) { ${PEDIDO} } }`,
    { p: pedidoId },
  );
  return r.confirmarPedido;
}

/** A market's fee on a subtotal, rounded half-up to the cent (the server's rule, pedidos.ts taxaDoPedido). */
export function taxaSobre(subtotalCentavos: number, centesimos: number): number {
  return subtotalCentavos <= 0 ? 0 : Math.floor((subtotalCentavos * centesimos + 5000) / 10000);
}

/** When to pick up at a point ("28/11/2026, das 08:00 às 12:00"), from whatever the point has. */
export function quandoRetirar(p: PontoDeRetirada): string | null {
  const partes: string[] = [];
  if (p.dataRetirada !== null) partes.push(dataBr(p.dataRetirada));
  if (p.horaInicio !== null && p.horaFim !== null) partes.push(`das ${p.horaInicio} às ${p.horaFim}`);
  else if (p.horaInicio !== null) partes.push(`a partir das ${p.horaInicio}`);
  else if (p.horaFim !== null) partes.push(`até as ${p.horaFim}`);
  return partes.length === 0 ? null : partes.join(', ');
}

/** The address line of a point, when it has one. */
export function enderecoDe(p: PontoDeRetirada): string | null {
  const partes = [p.endereco, p.cidade].filter((x): x is string => x !== null && x.trim() !== '');
  return partes.length === 0 ? null : partes.join(' · ');
}
