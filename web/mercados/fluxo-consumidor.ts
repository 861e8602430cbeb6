/**
 * The Consumidor's side of the cycle workflow (schema.graphql: ciclos, ciclo, meusPedidos,
 * fazerPedido, confirmarPedido): the operations, the shapes they return, and how quantities and
 * dates are read and shown. Quantities travel as dot-decimal text with 3 places ("1.500"); people
 * type and read commas ("1,5"). They are kept in integer thousandths, never as floats.
 */
import { useState } from 'react';
import { graphql, mensagemDe } from './api.ts';
import { useCarga, type Estado } from './componentes.tsx';
import type { TipoMercado } from './consultas.ts';

export type FaseCiclo = 'planejado' | 'oferta' | 'composicao' | 'pedido' | 'retirada' | 'encerrado';
export const NOMES_FASES: Readonly<Record<FaseCiclo, string>> = {
  planejado: 'Planejado',
  oferta: 'Ofertas abertas',
  composicao: 'Montagem das cestas',
  pedido: 'Pedidos abertos',
  retirada: 'Retirada',
  encerrado: 'Encerrado',
};

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

export interface ResumoCiclo {
  readonly id: string;
  readonly nome: string;
  readonly fase: FaseCiclo;
  readonly janelasAbertas: ReadonlyArray<'oferta' | 'pedido'>;
  readonly dataOfertaInicio: string;
  readonly dataOfertaFim: string;
  readonly dataPedidoInicio: string;
  readonly dataPedidoFim: string;
  readonly dataRetiradaInicio: string;
  readonly dataRetiradaFim: string;
  readonly mercados: readonly MercadoDoCiclo[];
  readonly pontosEntrega: readonly PontoDeRetirada[];
  readonly acoes: AcoesDoCiclo;
}

export interface CestaDoCiclo {
  readonly cicloCestaId: string;
  readonly nome: string;
  readonly descricao: string | null;
  readonly valor: string;
  readonly disponivel: number;
  readonly emComposicao: boolean;
  readonly mercado: string | null;
  readonly composicao: ReadonlyArray<{ readonly produto: string; readonly quantidade: string; readonly unidade: string }>;
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
  readonly pix: { readonly copiaECola: string; readonly qrSvg: string; readonly valor: string } | null;
}

const PONTO = 'id nome endereco cidade dataRetirada horaInicio horaFim';
const RESUMO_CICLO = `id nome fase janelasAbertas dataOfertaInicio dataOfertaFim dataPedidoInicio dataPedidoFim dataRetiradaInicio dataRetiradaFim
  mercados { mercadoId nome tipo ordemAtendimento taxaAdministrativa pontosEntrega { id nome } cicloCestaIds }
  pontosEntrega { ${PONTO} } acoes { ofertar pedir definirMercados }`;
const CICLO = `${RESUMO_CICLO}
  cestas { cicloCestaId nome descricao valor disponivel emComposicao mercado composicao { produto quantidade unidade } }
  itens { cicloProdutoId nome unidade valor disponivel mercado }`;
const PEDIDO = `id cursor cicloId finalizado alteradoAposConfirmar dataConfirmacao total taxa totalComTaxa pontoEntrega { ${PONTO} }
  produtos { id tipo cicloCestaId cicloProdutoId nome unidade quantidade valor subtotal mercado }
  partes { mercadoId mercado subtotal taxaAdministrativa taxa }`;

/** How many a list page shows; one more is asked for, to know whether there is a next page. */
export const POR_PAGINA = 20;

export interface PaginaDe<T> {
  readonly itens: readonly T[];
  /** Where the next page starts; null when this is the last one. */
  readonly proxima: string | null;
}

function paginar<T>(recebidos: readonly T[], cursor: (t: T) => string): PaginaDe<T> {
  const itens = recebidos.slice(0, POR_PAGINA);
  const ultimo = itens[itens.length - 1];
  return { itens, proxima: recebidos.length > POR_PAGINA && ultimo !== undefined ? cursor(ultimo) : null };
}

/**
 * A list loaded page by page: the first page as a page load (loading, error, retry), the next
 * ones appended by `carregarMais`, with their own state so the list already shown stays.
 */
export function usePaginas<T>(
  carregar: (after: string | null) => Promise<PaginaDe<T>>,
  chaves: readonly unknown[],
): {
  estado: Estado<readonly T[]>;
  recarregar: () => void;
  haMais: boolean;
  carregandoMais: boolean;
  erroMais: string | null;
  carregarMais: () => void;
} {
  const primeira = useCarga(() => carregar(null), chaves);
  const [mais, setMais] = useState<{ de: PaginaDe<T>; itens: readonly T[]; proxima: string | null } | null>(null);
  const [carregandoMais, setCarregandoMais] = useState(false);
  const [erroMais, setErroMais] = useState<string | null>(null);
  if (primeira.estado.fase !== 'pronto') {
    return { estado: primeira.estado, recarregar: primeira.recarregar, haMais: false, carregandoMais: false, erroMais: null, carregarMais: () => undefined };
  }
  const base = primeira.estado.dados;
  // Pages loaded after an older first page (before a reload) are dropped with it.
  const extra = mais !== null && mais.de === base ? mais : null;
  const itens = extra === null ? base.itens : [...base.itens, ...extra.itens];
  const proxima = extra === null ? base.proxima : extra.proxima;
  const carregarMais = () => {
    if (proxima === null || carregandoMais) return;
    setCarregandoMais(true);
    setErroMais(null);
    carregar(proxima).then(
      (p) => setMais({ de: base, itens: [...(extra?.itens ?? []), ...p.itens], proxima: p.proxima }),
      (e: unknown) => setErroMais(mensagemDe(e)),
    ).finally(() => setCarregandoMais(false));
  };
  return { estado: { fase: 'pronto', dados: itens }, recarregar: primeira.recarregar, haMais: proxima !== null, carregandoMais, erroMais, carregarMais };
}

/** The cycles the person can act in now, newest first. */
export async function listarCiclos(after: string | null): Promise<PaginaDe<ResumoCiclo>> {
  const r = await graphql<{ ciclos: ResumoCiclo[] }>(`query Ciclos($first: Int, $after: String) { ciclos(first: $first, after: $after) { ${RESUMO_CICLO} } }`, {
    first: POR_PAGINA + 1,
    after,
  });
  return paginar(r.ciclos, (c) => c.id);
}

/** A cycle with what it sells, and the person's own order in it (null: none yet). */
export async function lerCiclo(id: string): Promise<Ciclo | null> {
  const r = await graphql<{ ciclo: Ciclo | null }>(`query Ciclo($id: ID!) { ciclo(id: $id) { ${CICLO} } }`, { id });
  return r.ciclo;
}

export async function lerMeuPedido(cicloId: string): Promise<Pedido | null> {
  const r = await graphql<{ meusPedidos: Pedido[] }>(`query MeuPedido($c: ID) { meusPedidos(cicloId: $c) { ${PEDIDO} } }`, { c: cicloId });
  return r.meusPedidos[0] ?? null;
}

/** A page of the person's orders of every cycle, newest first, with the Pix to pay them. */
export async function listarMeusPedidos(after: string | null): Promise<PaginaDe<Pedido>> {
  const r = await graphql<{ meusPedidos: Pedido[] }>(
    `query MeusPedidos($first: Int, $after: String) { meusPedidos(first: $first, after: $after) { ${PEDIDO} pix { copiaECola qrSvg valor } } }`,
    { first: POR_PAGINA + 1, after },
  );
  return paginar(r.meusPedidos, (p) => p.cursor);
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
  const campos = unicos.map((id) => `c${id}: ciclo(id: "${id}") { id nome fase dataPedidoFim dataRetiradaInicio dataRetiradaFim acoes { pedir } }`).join('\n');
  const r = await graphql<Record<string, CicloDoPedido | null>>(`query CiclosDosPedidos { ${campos} }`);
  return new Map(Object.values(r).flatMap((c) => (c === null ? [] : [[c.id, c] as const])));
}

export interface LinhaPedida {
  readonly cicloCestaId?: string;
  readonly cicloProdutoId?: string;
  readonly quantidade: string;
}

export async function fazerPedido(cicloId: string, pontoEntregaId: string, produtos: readonly LinhaPedida[]): Promise<Pedido> {
  const r = await graphql<{ fazerPedido: Pedido }>(`mutation FazerPedido($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { ${PEDIDO} } }`, {
    c: cicloId,
    i: { pontoEntregaId, produtos },
  });
  return r.fazerPedido;
}

export async function confirmarPedido(pedidoId: string): Promise<Pedido> {
  const r = await graphql<{ confirmarPedido: Pedido }>(`mutation ConfirmarPedido($p: ID!) { confirmarPedido(pedidoId: $p) { ${PEDIDO} } }`, { p: pedidoId });
  return r.confirmarPedido;
}

/** "2026-11-27" → "27/11/2026"; anything else as it came. */
export function dataBr(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m === null ? iso : `${m[3] ?? ''}/${m[2] ?? ''}/${m[1] ?? ''}`;
}

/** "2026-11-27T14:05:09" (local time) → "27/11/2026 14:05". */
export function dataHoraBr(iso: string): string {
  const hora = /T(\d{2}:\d{2})/.exec(iso)?.[1];
  return hora === undefined ? dataBr(iso) : `${dataBr(iso)} ${hora}`;
}

/** "1,5" or "1.500" → 1500 thousandths; null when it is not a non-negative quantity with up to 3 places. */
export function paraMilesimos(texto: string): number | null {
  const m = /^(\d{1,7})(?:[.,](\d{1,3}))?$/.exec(texto.trim());
  if (m === null) return null;
  return Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0'));
}

/** 1500 → "1.500", the API's format. */
export function deMilesimos(milesimos: number): string {
  return `${Math.trunc(milesimos / 1000)}.${String(milesimos % 1000).padStart(3, '0')}`;
}

/** "1.500" → "1,5"; "2.000" → "2": as people read and type it. */
export function quantidadeLegivel(valor: string): string {
  const [inteira = '0', fracao = ''] = valor.split('.');
  const casas = fracao.replace(/0+$/, '');
  return casas === '' ? inteira : `${inteira},${casas}`;
}

/** "2.000" cesta → "2 cestas"; "1.500" kg → "1,5 kg". */
export function quantidadeComUnidade(quantidade: string, unidade: string): string {
  const q = quantidadeLegivel(quantidade);
  return `${q} ${unidade === 'cesta' && q !== '1' ? 'cestas' : unidade}`;
}

/** A price of a quantity, rounded half-up to the cent (the server's rule, decimal.ts valorDaQuantidade). */
export function valorDaQuantidade(centavos: number, milesimos: number): number {
  return Math.floor((centavos * milesimos + 500) / 1000);
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
