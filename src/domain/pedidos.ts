import { sql } from 'kysely';
import { ehPostgres, emTransacao, type Banco, type Db } from '../db/banco.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import { VERSAO_DOS_CICLOS } from '../db/versoes.ts';
import { ehConsumidor, ehGestor, exigirAgirPor, podeNoRegistro, veTudo, type Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { cicloDasJanelas, exigirJanela } from './ciclos/janelas.ts';
import { pontosDoCiclo } from './ciclos/leitura.ts';
import { naUnidadeEscolhida } from './composicao.ts';
import { ESCALA_QUANTIDADE, formatarQuantidadeComUnidade, paraNumero, valorDaQuantidade } from '../decimal.ts';
import { Conflito, Invalido, NaoEncontrado, Proibido } from './erros.ts';
import { unidadeTrocada, type Unidade } from './catalogo.ts';
import { cestaComposta, itensDasCestas } from './conteudo-das-cestas.ts';
import { lerPerfis } from './perfis.ts';
import { reservadoDaLinha, reservadoDaLinhaHoje, soConfirmadosSeguram, vendaveisDaCesta } from './reservas.ts';
import { dataHoraLocal } from './tempo.ts';

/** The community's administrative fee on an order: a percentage plus a fixed amount (TAXA_*). */
export interface Taxa {
  readonly percentualCentesimos: number;
  readonly fixaCentavos: number;
}

/** The fee of an order total, rounded half-up to the cent; no order, no fee. */
export function taxaDoPedido(totalCentavos: number, taxa: Taxa): number {
  if (totalCentavos <= 0) return 0;
  return Math.floor((totalCentavos * taxa.percentualCentesimos + 5000) / 10000) + taxa.fixaCentavos;
}

/** A line's value, the market it was bought in (null: none) and that market's fee when it was written. */
export interface ValorNoMercado {
  readonly subtotalCentavos: number;
  readonly mercadoId: number | null;
  readonly taxaCentesimos: number | null;
}

/** What an order buys in one market (mercadoId null: outside any market) and the fee on it. */
export interface ParteDoPedido {
  readonly mercadoId: number | null;
  readonly subtotalCentavos: number;
  readonly taxaCentavos: number;
  /** The market's fee, in hundredths of a percent; null outside markets (the TAXA_* settings). */
  readonly taxaCentesimos: number | null;
}

/**
 * The fee of an order (DOMAIN.md, "Fees"): each market's `taxaAdministrativa` on what is bought in
 * it, rounded half-up per market; the TAXA_* settings on what is bought outside any market, as
 * in a cycle without markets. Parts come in the order their first line does.
 */
export function partesDoPedido(linhas: readonly ValorNoMercado[], taxa: Taxa): ParteDoPedido[] {
  const por = new Map<number | null, { subtotal: number; centesimos: number }>();
  for (const l of linhas) {
    const atual = por.get(l.mercadoId) ?? { subtotal: 0, centesimos: l.taxaCentesimos ?? 0 };
    atual.subtotal += l.subtotalCentavos;
    por.set(l.mercadoId, atual);
  }
  return [...por].map(([mercadoId, p]) => ({
    mercadoId,
    subtotalCentavos: p.subtotal,
    taxaCentesimos: mercadoId === null ? null : p.centesimos,
    taxaCentavos:
      mercadoId === null
        ? taxaDoPedido(p.subtotal, taxa)
        : taxaDoPedido(p.subtotal, { percentualCentesimos: p.centesimos, fixaCentavos: 0 }),
  }));
}

export interface LinhaDoPedido {
  readonly id: number;
  readonly tipo: 'cesta' | 'extra';
  readonly cicloCestaId: number | null;
  readonly cicloProdutoId: number | null;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  /** Price per unit (per basket), as ordered. */
  readonly valorCentavos: number;
  readonly subtotalCentavos: number;
  /** The market it is bought in, with that market's fee then; null in a cycle without markets. */
  readonly mercadoId: number | null;
  readonly mercado: string | null;
  readonly taxaCentesimos: number | null;
  /** The subscription that put this basket line in the order; null for a one-off line. */
  readonly assinaturaId: number | null;
}

export interface Pedido {
  readonly pedidoId: number;
  readonly cicloid: number;
  /** The consumer's id, under the interface's name; `usuario` carries it with the name. */
  readonly usuarioid: number;
  readonly usuario: { readonly id: number; readonly nome: string };
  /** The point, with the cycle's day and hours there when the cycle lists its points. */
  readonly pontoEntrega: HorarioDeRetirada & { readonly id: number; readonly nome: string };
  readonly pontoEntregaId: number;
  readonly finalizado: boolean;
  readonly dataConfirmacao: string | null;
  readonly produtos: LinhaDoPedido[];
  readonly totalCentavos: number;
  readonly taxaCentavos: number;
  readonly totalComTaxaCentavos: number;
  /** What is bought in each market and its fee, shown apart (one part in a cycle without markets). */
  readonly partes: ReadonlyArray<ParteDoPedido & { readonly mercado: string | null }>;
}

/** When to pick up at a point in a cycle; any part may be unset. */
export interface HorarioDeRetirada {
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
}

/** An order's row as the loaders read it: the order, its consumer's name and its delivery point's name and hours. */
interface LinhaPedidoLida extends HorarioDeRetirada {
  readonly id: number;
  readonly cicloid: number;
  readonly usuarioid: number;
  readonly usuarioNome: string;
  readonly pontoEntregaId: number;
  readonly pontoNome: string;
  readonly finalizado: boolean;
  readonly dataConfirmacao: string | null;
}

/** An order line as the loaders read it, with the basket's or the product's name. */
interface ItemLido {
  readonly id: number;
  readonly cicloCestaId: number | null;
  readonly cicloProdutoId: number | null;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly cestaNome: string | null;
  readonly produtoNome: string | null;
  readonly unidade: string | null;
  readonly mercadoId: number | null;
  readonly mercadoNome: string | null;
  readonly taxaCentesimos: number | null;
  readonly assinaturaId: number | null;
}

/** An order with its lines (in the order they were written) and its totals. */
function montarPedido(p: LinhaPedidoLida, linhas: readonly ItemLido[], taxa: Taxa): Pedido {
  const produtos = linhas.map((l): LinhaDoPedido => {
    const cesta = l.cicloCestaId !== null;
    return {
      id: l.id,
      tipo: cesta ? 'cesta' : 'extra',
      cicloCestaId: l.cicloCestaId,
      cicloProdutoId: l.cicloProdutoId,
      nome: (cesta ? l.cestaNome : l.produtoNome) ?? '',
      unidade: cesta ? 'cesta' : (l.unidade ?? ''),
      quantidadeMilesimos: l.quantidadeMilesimos,
      valorCentavos: l.valorCentavos,
      subtotalCentavos: valorDaQuantidade(l.valorCentavos, l.quantidadeMilesimos),
      mercadoId: l.mercadoId,
      mercado: l.mercadoNome,
      taxaCentesimos: l.taxaCentesimos,
      assinaturaId: l.assinaturaId,
    };
  });
  const total = produtos.reduce((s, i) => s + i.subtotalCentavos, 0);
  const partes = partesDoPedido(produtos, taxa).map((x) => ({
    ...x,
    mercado: produtos.find((l) => l.mercadoId === x.mercadoId)?.mercado ?? null,
  }));
  const t = partes.reduce((s, x) => s + x.taxaCentavos, 0);
  return {
    pedidoId: p.id,
    cicloid: p.cicloid,
    usuarioid: p.usuarioid,
    usuario: { id: p.usuarioid, nome: p.usuarioNome },
    pontoEntrega: {
      id: p.pontoEntregaId,
      nome: p.pontoNome,
      dataRetirada: p.dataRetirada,
      horaInicio: p.horaInicio,
      horaFim: p.horaFim,
    },
    pontoEntregaId: p.pontoEntregaId,
    finalizado: p.finalizado,
    dataConfirmacao: p.dataConfirmacao,
    produtos,
    totalCentavos: total,
    taxaCentavos: t,
    totalComTaxaCentavos: total + t,
    partes,
  };
}

/** Loads orders with their lines in two queries, whatever their number. */
async function carregarPedidos(db: Db, filtro: { cicloid: number; usuarioid?: number }, taxa: Taxa): Promise<Pedido[]> {
  let q = db
    .selectFrom('pedido as p')
    .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
    .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
    .leftJoin('ciclopontoentrega as cpe', (j) =>
      j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'),
    )
    .select([
      'p.id',
      'p.cicloid',
      'p.usuarioid',
      'u.nome as usuarioNome',
      'p.pontoEntregaId',
      'pe.nome as pontoNome',
      'p.finalizado',
      'p.dataConfirmacao',
    ])
    .select(['cpe.dataRetirada', 'cpe.horaInicio', 'cpe.horaFim']);
  q = q.where('p.cicloid', '=', filtro.cicloid);
  if (filtro.usuarioid !== undefined) q = q.where('p.usuarioid', '=', filtro.usuarioid);
  const pedidos = await q.orderBy('u.nome').orderBy('p.id').execute();
  // Stryker disable next-line ConditionalExpression: a shortcut that saves a query; the lines query finds nothing either way
  if (pedidos.length === 0) return [];
  // NOTE: the lines are filtered like the orders (a join), not by an IN list of their ids: a
  // cycle's report would otherwise bind thousands of parameters.
  let ql = db
    .selectFrom('pedidoproduto as pp')
    .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
    .leftJoin('ciclocesta as cc', 'cc.id', 'pp.cicloCestaId')
    .leftJoin('cesta', 'cesta.id', 'cc.cestaId')
    .leftJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
    .leftJoin('produto as pr', 'pr.id', 'cp.produtoId')
    .leftJoin('mercado as m', 'm.id', 'pp.mercadoId')
    .select([
      'pp.id',
      'pp.pedidoid',
      'pp.cicloCestaId',
      'pp.cicloProdutoId',
      'pp.quantidadeMilesimos',
      'pp.valorCentavos',
      'cesta.nome as cestaNome',
      'pr.nome as produtoNome',
      'pr.unidade',
    ])
    .select(['pp.mercadoId', 'm.nome as mercadoNome', 'pp.taxaCentesimos', 'pp.assinaturaId']);
  ql = ql.where('p.cicloid', '=', filtro.cicloid);
  // Stryker disable next-line ConditionalExpression: lines are grouped by order, so other people's lines are read but never shown
  if (filtro.usuarioid !== undefined) ql = ql.where('p.usuarioid', '=', filtro.usuarioid);
  const linhas = await ql.orderBy('pp.pedidoid').orderBy('pp.id').execute();
  const porPedido = new Map<number, ItemLido[]>();
  for (const l of linhas) {
    const doPedido = porPedido.get(l.pedidoid);
    if (doPedido === undefined) porPedido.set(l.pedidoid, [l]);
    else doPedido.push(l);
  }
  // Stryker disable next-line ArrayDeclaration: every saved order has lines
  return pedidos.map((p) => montarPedido(p, porPedido.get(p.id) ?? [], taxa));
}

/**
 * One order (a consumer's in a cycle, or by id) with its lines, in a single query: the lines are
 * left-joined to the order, so an order without lines is one row with null line columns.
 */
function consultaDoPedido(db: Db) {
  return db
    .selectFrom('pedido as p')
    .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
    .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
    .leftJoin('ciclopontoentrega as cpe', (j) =>
      j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'),
    )
    .leftJoin('pedidoproduto as pp', 'pp.pedidoid', 'p.id')
    .leftJoin('ciclocesta as cc', 'cc.id', 'pp.cicloCestaId')
    .leftJoin('cesta', 'cesta.id', 'cc.cestaId')
    .leftJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
    .leftJoin('produto as pr', 'pr.id', 'cp.produtoId')
    .leftJoin('mercado as m', 'm.id', 'pp.mercadoId')
    .select([
      'p.id',
      'p.cicloid',
      'p.usuarioid',
      'u.nome as usuarioNome',
      'p.pontoEntregaId',
      'pe.nome as pontoNome',
      'p.finalizado',
      'p.dataConfirmacao',
    ])
    .select(['cpe.dataRetirada', 'cpe.horaInicio', 'cpe.horaFim'])
    .select([
      'pp.id as itemId',
      'pp.cicloCestaId',
      'pp.cicloProdutoId',
      'pp.quantidadeMilesimos',
      'pp.valorCentavos',
      'cesta.nome as cestaNome',
      'pr.nome as produtoNome',
      'pr.unidade',
    ])
    .select(['pp.mercadoId', 'm.nome as mercadoNome', 'pp.taxaCentesimos', 'pp.assinaturaId'])
    .orderBy('pp.id');
}

// Every order page and every confirmation runs one of these: compiled once, not per request.
const pedidoPorId = consultaPreparada(
  (db: Db, pedidoId: number) => consultaDoPedido(db).where('p.id', '=', pedidoId),
  1,
);
const pedidoDoConsumidor = consultaPreparada(
  (db: Db, cicloid: number, usuarioid: number) =>
    consultaDoPedido(db).where('p.cicloid', '=', cicloid).where('p.usuarioid', '=', usuarioid),
  2,
);

async function carregarUmPedido(
  db: Db,
  filtro: { cicloid: number; usuarioid: number } | { pedidoId: number },
  taxa: Taxa,
): Promise<Pedido | null> {
  const linhas =
    'pedidoId' in filtro
      ? await pedidoPorId(db, filtro.pedidoId)
      : await pedidoDoConsumidor(db, filtro.cicloid, filtro.usuarioid);
  const primeira = linhas[0];
  if (primeira === undefined) return null;
  const itens: ItemLido[] = [];
  for (const l of linhas) {
    // Stryker disable next-line all: only an order without lines gives null line columns, and a save always writes at least one line
    if (l.itemId === null || l.quantidadeMilesimos === null || l.valorCentavos === null) continue;
    itens.push({
      id: l.itemId,
      cicloCestaId: l.cicloCestaId,
      cicloProdutoId: l.cicloProdutoId,
      quantidadeMilesimos: l.quantidadeMilesimos,
      valorCentavos: l.valorCentavos,
      cestaNome: l.cestaNome,
      produtoNome: l.produtoNome,
      unidade: l.unidade,
      mercadoId: l.mercadoId,
      mercadoNome: l.mercadoNome,
      taxaCentesimos: l.taxaCentesimos,
      assinaturaId: l.assinaturaId,
    });
  }
  return montarPedido(primeira, itens, taxa);
}

export interface CestaParaPedir {
  readonly cicloCestaId: number;
  readonly cestaId: number;
  readonly nome: string;
  readonly descricao: string | null;
  readonly valorCentavos: number;
  /** Whole baskets still free. */
  readonly disponivel: number;
  readonly composicao: Array<{ produto: string; quantidadeMilesimos: number; unidade: string }>;
  /** Nothing composed in it yet: not for sale until the coordinator composes it. */
  readonly emComposicao: boolean;
  /** The cesta market that sells it; null in a cycle without markets. */
  readonly mercado: string | null;
}

export interface ExtraParaPedir {
  readonly cicloProdutoId: number;
  readonly produtoId: number;
  readonly nome: string;
  readonly unidade: string;
  readonly valorCentavos: number;
  readonly disponivelMilesimos: number;
  /** The venda_direta market it was released to; null for a classic extra. */
  readonly mercado: string | null;
}

/** A basket of a cycle as the order page shows it, before availability; `quantidadeCestas` is its composition's (0 with none). */
export type CestaDoCatalogo = Omit<CestaParaPedir, 'disponivel'> & { readonly quantidadeCestas: number };
/** An extra of a cycle as the order page shows it, before availability. */
export type ExtraDoCatalogo = Omit<ExtraParaPedir, 'disponivelMilesimos'> & { readonly quantidadeMilesimos: number };

/** What a cycle offers for ordering, apart from what orders already reserved: it moves only when the catalogue does. */
export interface CatalogoDoCiclo {
  readonly cestas: readonly CestaDoCatalogo[];
  readonly extras: readonly ExtraDoCatalogo[];
}

/** A cycle's baskets (active ones, with what is inside each) and extras (three queries). */
export async function catalogoDoCiclo(db: Db, cicloid: number): Promise<CatalogoDoCiclo> {
  const [cestas, extras, itens] = await Promise.all([
    db
      .selectFrom('ciclocesta as cc')
      .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
      .leftJoin('mercado as m', 'm.id', 'cc.mercadoId')
      // What may be sold is what will be packed: the composition's number, not the cycle's ceiling.
      .leftJoin('composicao as co', 'co.cicloCestaId', 'cc.id')
      .select([
        'cc.id as cicloCestaId',
        'cc.cestaId',
        'cesta.nome',
        'cesta.descricao',
        'cesta.valorReferenciaCentavos',
        'co.quantidadeCestas',
        'm.nome as mercado',
      ])
      .where('cc.cicloid', '=', cicloid)
      .where('cesta.ativo', '=', true)
      .orderBy('cc.id')
      .execute(),
    db
      .selectFrom('cicloproduto as cp')
      .innerJoin('produto as p', 'p.id', 'cp.produtoId')
      .leftJoin('mercado as m', 'm.id', 'cp.mercadoId')
      .select([
        'cp.id as cicloProdutoId',
        'cp.produtoId',
        'p.nome',
        'p.unidade',
        'cp.valorCentavos',
        'cp.quantidadeMilesimos',
        'm.nome as mercado',
      ])
      .where('cp.cicloid', '=', cicloid)
      .orderBy('p.nome')
      .execute(),
    itensDasCestas(db, { cicloid }, 'produto'),
  ]);
  // The same product from two suppliers is one item inside the basket, shown in the unit the
  // coordinator composed it in when all its lines agree (6 unidade of eggs, not 0,5 dúzia).
  type Item = { produto: string; unidade: string; escolhidas: Set<string>; mil: number };
  const dentro = new Map<number, Map<string, Item>>();
  for (const i of itens) {
    const m = dentro.get(i.cicloCestaId) ?? new Map<string, Item>();
    const atual = m.get(i.produto) ?? { produto: i.produto, unidade: i.unidade, escolhidas: new Set<string>(), mil: 0 };
    atual.mil += i.quantidadePorCestaMilesimos;
    atual.escolhidas.add(i.unidadeEscolhida);
    m.set(i.produto, atual);
    dentro.set(i.cicloCestaId, m);
  }
  const paraMostrar = (x: Item) => {
    const [unica] = x.escolhidas;
    const visto =
      x.escolhidas.size === 1 && unica !== undefined
        ? naUnidadeEscolhida(x.mil, x.unidade, unica)
        : { milesimos: x.mil, unidade: x.unidade };
    return { produto: x.produto, quantidadeMilesimos: visto.milesimos, unidade: visto.unidade };
  };
  return {
    cestas: cestas.map((c) => ({
      cicloCestaId: c.cicloCestaId,
      cestaId: c.cestaId,
      nome: c.nome,
      descricao: c.descricao,
      valorCentavos: c.valorReferenciaCentavos,
      quantidadeCestas: c.quantidadeCestas ?? 0,
      composicao: [...(dentro.get(c.cicloCestaId)?.values() ?? [])].map(paraMostrar),
      emComposicao: !dentro.has(c.cicloCestaId),
      mercado: c.mercado,
    })),
    extras: extras.map((e) => ({
      cicloProdutoId: e.cicloProdutoId,
      produtoId: e.produtoId,
      nome: e.nome,
      unidade: e.unidade,
      valorCentavos: e.valorCentavos,
      quantidadeMilesimos: e.quantidadeMilesimos,
      mercado: e.mercado,
    })),
  };
}

// Each half filters by the cycle, and a prepared value fills one place: the cycle id goes in twice.
// The cycle data's version rides along (one primary-key row), so the order page's cached
// catalogue is checked in the same round trip (src/cestas/vitrine.ts).
// Today goes in once per half too: what an unconfirmed order holds depends on the window (reservadoDaLinhaHoje).
const reservasPorLinha = consultaPreparada(
  (db: Db, cicloDasCestas: number, hojeDasCestas: string, cicloDosExtras: number, hojeDosExtras: string) =>
    db
      .selectFrom('ciclocesta as cc')
      .select((eb) => [
        eb.lit(0).$castTo<number>().as('extra'),
        'cc.id',
        reservadoDaLinhaHoje('ciclocesta', 'cc', hojeDasCestas).as('m'),
      ])
      .where('cc.cicloid', '=', cicloDasCestas)
      .unionAll((db2) =>
        db2
          .selectFrom('cicloproduto as cp')
          .select((eb) => [
            eb.lit(1).$castTo<number>().as('extra'),
            'cp.id',
            reservadoDaLinhaHoje('cicloproduto', 'cp', hojeDosExtras).as('m'),
          ])
          .where('cp.cicloid', '=', cicloDosExtras),
      )
      .unionAll((db2) =>
        db2
          .selectFrom('versaodados')
          .select((eb) => [eb.lit(2).$castTo<number>().as('extra'), 'id', 'versao as m'])
          .where('id', '=', VERSAO_DOS_CICLOS),
      ),
  4,
);

/** What a cycle's saved orders reserve, per line, in thousandths; and the version of the cycle data read with it. */
export interface ReservasDoCiclo {
  readonly cestas: Map<number, number>;
  readonly extras: Map<number, number>;
  /** `versaodados` row VERSAO_DOS_CICLOS, read in the same statement. */
  readonly versaoDosCiclos: number;
}

/**
 * What the saved orders of a cycle reserve today, per basket line and per extra line, in
 * thousandths (one query over the cycle's own rows: the counters that triggers keep, see
 * migrations/20261121_2300_reservas_contadas.ts; once the order window has closed, only
 * confirmed orders, see reservadoDaLinha), with the version of the cycle data.
 */
export async function reservasDoCiclo(db: Db, cicloid: number, hoje: string): Promise<ReservasDoCiclo> {
  const linhas = await reservasPorLinha(db, cicloid, hoje, cicloid, hoje);
  const cestas = new Map<number, number>();
  const extras = new Map<number, number>();
  let versaoDosCiclos = 0;
  for (const l of linhas) {
    const tipo = Number(l.extra);
    if (tipo === 2) versaoDosCiclos = Number(l.m);
    else (tipo === 1 ? extras : cestas).set(l.id, Number(l.m));
  }
  return { cestas, extras, versaoDosCiclos };
}

/** The catalogue with what is still free of each line, given what orders reserved. */
export function comDisponibilidade(
  catalogo: CatalogoDoCiclo,
  reservas: { cestas: ReadonlyMap<number, number>; extras: ReadonlyMap<number, number> },
): { cestas: CestaParaPedir[]; extras: ExtraParaPedir[] } {
  return {
    cestas: catalogo.cestas.map(({ quantidadeCestas, ...c }) => ({
      ...c,
      disponivel: Math.max(0, quantidadeCestas - Math.ceil((reservas.cestas.get(c.cicloCestaId) ?? 0) / 1000)),
    })),
    extras: catalogo.extras.map(({ quantidadeMilesimos, ...e }) => ({
      ...e,
      disponivelMilesimos: Math.max(0, quantidadeMilesimos - (reservas.extras.get(e.cicloProdutoId) ?? 0)),
    })),
  };
}

/** What can still be ordered in a cycle today: baskets (up to their composition) and extras with availability. */
export async function disponibilidade(
  db: Db,
  cicloid: number,
  hoje: string,
): Promise<{ cestas: CestaParaPedir[]; extras: ExtraParaPedir[] }> {
  const [catalogo, reservas] = await Promise.all([catalogoDoCiclo(db, cicloid), reservasDoCiclo(db, cicloid, hoje)]);
  return comDisponibilidade(catalogo, reservas);
}

/** A consumer's order in a cycle, or null (one query). */
export async function pedidoDe(db: Db, cicloid: number, usuarioid: number, taxa: Taxa): Promise<Pedido | null> {
  return carregarUmPedido(db, { cicloid, usuarioid }, taxa);
}

/**
 * The consumer an actor orders for: themselves (named or not), or, for admins, the consumer they
 * name. Whoever is named must have the consumidor profile, the actor included.
 */
export async function consumidorAlvo(
  db: Db,
  ator: Ator,
  usuarioid: number | null,
): Promise<{ id: number; nome: string }> {
  const eu = exigirAgirPor(ator, usuarioid, 'pedido');
  if (ehConsumidor(ator) && (usuarioid === null || usuarioid === eu)) return { id: eu, nome: ator.nome };
  if (!ehGestor(ator)) throw new Proibido('SEM_PERMISSAO', 'Só consumidores fazem pedidos');
  if (usuarioid === null)
    throw new Invalido('VALIDACAO', 'Informe o consumidor', { usuarioid: 'Informe o consumidor do pedido' });
  const u = await db.selectFrom('usuario').select(['perfil', 'nome']).where('id', '=', usuarioid).executeTakeFirst();
  if (u === undefined || !ehConsumidor({ perfil: lerPerfis(u.perfil) }))
    throw new Invalido('VALIDACAO', 'Consumidor inválido', { usuarioid: 'Não há consumidor com este id' });
  return { id: usuarioid, nome: u.nome };
}

/** What identifies a line inside an order: its basket or its extra (an order holds each once). */
function chaveDaLinha(l: { readonly cicloCestaId: number | null; readonly cicloProdutoId: number | null }): string {
  return l.cicloCestaId !== null ? `c${l.cicloCestaId}` : `e${l.cicloProdutoId ?? 0}`;
}

/** One basket or extra of an order, in thousandths of its unit (baskets are whole). */
export interface LinhaPedida {
  readonly cicloCestaId: number | null;
  readonly cicloProdutoId: number | null;
  readonly quantidadeMilesimos: number;
  /** The unit a person wrote after an extra's quantity ("1,5 kg"), which must be the product's. */
  readonly unidadeEscrita?: Unidade | null;
  /** Where a refusal of this line is reported (the edge names it). */
  readonly campo: string;
}

/** An order as the edge reads it: for whom (null: the actor), where to pick up, and its lines. */
export interface EntradaPedido {
  readonly usuarioid: number | null;
  readonly cicloid: number;
  readonly pontoEntregaId: number;
  readonly linhas: readonly LinhaPedida[];
}

/** An order holds each basket and each extra once, and holds something: the broken rules, by field. */
export function regrasDasLinhas(linhas: readonly LinhaPedida[]): Record<string, string> {
  const erros: Record<string, string> = {};
  const vistos = new Set<string>();
  for (const l of linhas) {
    const chave = chaveDaLinha(l);
    if (vistos.has(chave)) erros[l.campo] = 'Item repetido no pedido';
    vistos.add(chave);
  }
  if (linhas.length === 0) erros.produtos = 'Escolha pelo menos uma cesta ou um extra';
  return erros;
}

/** The order's pickup point as lerPontoDoPedido reads it (undefined: no such active point). */
type PontoLido = Awaited<ReturnType<typeof lerPontoDoPedido>>;

/**
 * The order's pickup point, read in one query. NOTE: it is read before the baskets and extras are
 * locked, and checked (pontoDoPedido) where it always was: a point locks nothing, and every round
 * trip taken while the row locks are held makes other orders of the same baskets wait longer.
 */
export function lerPontoDoPedido(trx: Db, cicloid: number, pontoEntregaId: number) {
  return trx
    .selectFrom('pontoentrega as pe')
    .leftJoin('ciclopontoentrega as cp', (j) =>
      j.onRef('cp.pontoEntregaId', '=', 'pe.id').on('cp.cicloid', '=', cicloid),
    )
    .select(['pe.id', 'pe.nome', 'cp.id as linha', 'cp.dataRetirada', 'cp.horaInicio', 'cp.horaFim'])
    .select((eb) =>
      eb
        .exists(eb.selectFrom('ciclopontoentrega as todos').select('todos.id').where('todos.cicloid', '=', cicloid))
        .as('cicloTemPontos'),
    )
    .where('pe.id', '=', pontoEntregaId)
    .where('pe.ativo', '=', true)
    .executeTakeFirst();
}

/**
 * The order's pickup point: active, and one the cycle serves when it lists its points (a cycle
 * with none serves every active point). The names are read only on a refusal. When the order
 * buys in the cycle's markets, the markets decide (pontoDosMercados) instead.
 */
export async function pontoDoPedido(
  trx: Db,
  cicloid: number,
  ponto: PontoLido,
  mercadosDecidem: boolean,
): Promise<HorarioDeRetirada & { id: number; nome: string }> {
  if (ponto === undefined)
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
      pontoEntregaId: 'Ponto de entrega inexistente ou inativo',
    });
  if (!mercadosDecidem && ponto.linha === null && Boolean(Number(ponto.cicloTemPontos))) {
    const doCiclo = await pontosDoCiclo(trx, cicloid);
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
      pontoEntregaId: `Este ciclo não entrega em ${ponto.nome}. Escolha um dos pontos do ciclo: ${doCiclo.map((p) => p.nome).join(', ')}`,
    });
  }
  return {
    id: ponto.id,
    nome: ponto.nome,
    dataRetirada: ponto.dataRetirada,
    horaInicio: ponto.horaInicio,
    horaFim: ponto.horaFim,
  };
}

/**
 * DOMAIN.md, "Orders": the pickup point must be one that every line's market offers (a market of
 * the cycle with no points of its own, and the lines bought outside any market, go by the cycle's
 * points). Refused with 400 naming the points that would serve them all, or saying none does.
 */
export async function pontoDosMercados(
  trx: Db,
  cicloid: number,
  pontoEntregaId: number,
  mercadoIds: ReadonlySet<number>,
  temLinhasSemMercado: boolean,
): Promise<void> {
  const [doCiclo, ativos, dosMercados] = await Promise.all([
    pontosDoCiclo(trx, cicloid),
    trx.selectFrom('pontoentrega').select(['id', 'nome']).where('ativo', '=', true).orderBy('nomeChave').execute(),
    trx
      .selectFrom('ciclomercado as cm')
      .innerJoin('mercado as m', 'm.id', 'cm.mercadoId')
      .leftJoin('ciclomercadoponto as cmp', 'cmp.cicloMercadoId', 'cm.id')
      .select(['cm.mercadoId', 'm.nome', 'cmp.pontoEntregaId'])
      .where('cm.cicloid', '=', cicloid)
      .where('cm.mercadoId', 'in', [...mercadoIds])
      .execute(),
  ]);
  const nomes = new Map(ativos.map((p) => [p.id, p.nome]));
  const pontosDoCicloIds = doCiclo.length > 0 ? doCiclo.map((p) => p.pontoEntregaId) : ativos.map((p) => p.id);
  const grupos: Array<{ nome: string; pontos: Set<number> }> = [];
  for (const mercadoId of mercadoIds) {
    const linhas = dosMercados.filter((l) => l.mercadoId === mercadoId);
    const proprios = linhas.flatMap((l) => (l.pontoEntregaId === null ? [] : [l.pontoEntregaId]));
    grupos.push({
      nome: linhas[0]?.nome ?? String(mercadoId),
      pontos: new Set(proprios.length > 0 ? proprios : pontosDoCicloIds),
    });
  }
  if (temLinhasSemMercado) grupos.push({ nome: 'os itens fora dos mercados', pontos: new Set(pontosDoCicloIds) });
  const servem = pontosDoCicloIds
    .concat(ativos.map((p) => p.id))
    .filter((id, i, todos) => todos.indexOf(id) === i && nomes.has(id) && grupos.every((g) => g.pontos.has(id)));
  if (servem.includes(pontoEntregaId)) return;
  const nome = (id: number) => nomes.get(id) ?? String(id);
  const mensagem =
    servem.length > 0
      ? `Este ponto não serve todos os itens do pedido. Pontos que servem: ${servem.map(nome).join(', ')}`
      : `Nenhum ponto serve todos os itens do pedido: ${grupos.map((g) => `${g.nome} entrega em ${[...g.pontos].map(nome).join(', ')}`).join('; ')}. Tire do pedido os itens de um dos mercados`;
  throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
    pontoEntregaId: mensagem,
    pontosQueServem: servem,
  });
}

/** What saving or confirming an order tells its consumer (one of the kinds in avisos.ts). */
export type EventoDoPedido =
  { readonly tipo: 'recibo'; readonly pedido: Pedido } | { readonly tipo: 'pedido_alterado'; readonly pedido: Pedido };

/**
 * Where an order's events go, in the order's own transaction. NOTE: declared here, by the side
 * that emits, so that orders need not know every kind of message; the outbox (`Avisos`, which
 * takes every `Evento`) fits it.
 */
export interface AvisosDoPedido {
  emitir(trx: Db, evento: EventoDoPedido): Promise<void>;
}

export interface OpcoesPedido {
  readonly agora: Date;
  readonly hoje: string;
  readonly taxa: Taxa;
  /** Where the receipt and the "confirm again" notice go, in the order's own transaction. */
  readonly avisos?: AvisosDoPedido;
  /** The community's time zone (TZ), for the time of a confirmation (finalizarPedido needs it). */
  readonly tz?: string;
}

/**
 * Saves an order and reserves its baskets and extras (`criado`: the consumer had none in the
 * cycle). The check and the write happen in one transaction holding locks on the cycle baskets
 * and extras involved, so concurrent orders can never sell more than there is. Prices are
 * snapshotted; a client-sent `valor` is ignored. Subscriptions go first: the use case that
 * saves a one-off order calls `gerarAntesDoPedido` (assinaturas.ts) before this, once its input
 * is read, so that the cycle's subscription orders take their stock before a one-off order does.
 */
export async function salvarPedido(
  banco: Banco,
  ator: Ator,
  entrada: EntradaPedido,
  opcoes: OpcoesPedido,
): Promise<{ pedido: Pedido; criado: boolean; reaberto: boolean }> {
  const { cicloid, pontoEntregaId, linhas } = entrada;
  exigirAgirPor(ator, entrada.usuarioid, 'pedido');
  const erros = regrasDasLinhas(linhas);
  if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
  return emTransacao(banco, async (trx) => {
    const consumidor = await consumidorAlvo(trx, ator, entrada.usuarioid);
    const usuarioid = consumidor.id;
    const ciclo = await cicloDasJanelas(trx, cicloid, 'pedido');
    const { foraDaJanela } = exigirJanela(ciclo, opcoes.hoje, 'pedido', ehGestor(ator));
    // Once the window has closed (an admin's change), unconfirmed orders hold nothing.
    const soConfirmados = soConfirmadosSeguram(ciclo, opcoes.hoje);
    // Stryker disable next-line ArrayDeclaration: a bogus id matches no row (and locks none on SQLite)
    const idsCestas = linhas.flatMap((l) => l.cicloCestaId ?? []);
    // Stryker disable next-line ArrayDeclaration: see above
    const idsExtras = linhas.flatMap((l) => l.cicloProdutoId ?? []);
    const pontoLido = await lerPontoDoPedido(trx, cicloid, pontoEntregaId);
    // NOTE: on PostgreSQL the baskets and the extras are locked by the very queries that read
    // them (FOR UPDATE of their own rows, in id order, so two orders never deadlock), and what
    // they reserve is read under that lock: the newest committed counter. SQLite's transaction
    // is already exclusive.
    const travando = ehPostgres(trx);
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it, and its suite covers the empty case
    const cestas =
      idsCestas.length === 0
        ? []
        : await trx
            .selectFrom('ciclocesta as cc')
            .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
            .leftJoin('mercado as m', 'm.id', 'cc.mercadoId')
            .select(['cc.id', 'cc.cicloid', 'cesta.nome', 'cesta.valorReferenciaCentavos', 'cesta.ativo'])
            .select(['cc.mercadoId', 'm.nome as mercadoNome', 'm.taxaAdministrativaCentesimos as taxaCentesimos'])
            // What may be sold is the composition's number (what will be packed), read under the row's
            // lock; a composition changes only under the cycle's lock, which this transaction shares.
            .select([
              vendaveisDaCesta('cc').as('quantidadeCestas'),
              reservadoDaLinha('ciclocesta', 'cc', soConfirmados).as('reservadoMilesimos'),
            ])
            .select((eb) => cestaComposta(eb).as('composta'))
            .where('cc.id', 'in', idsCestas)
            .orderBy('cc.id')
            .$if(travando, (q) => q.forUpdate('cc'))
            .execute();
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it, and its suite covers the empty case
    const extras =
      idsExtras.length === 0
        ? []
        : await trx
            .selectFrom('cicloproduto as cp')
            .innerJoin('produto as p', 'p.id', 'cp.produtoId')
            .leftJoin('mercado as m', 'm.id', 'cp.mercadoId')
            .select(['cp.id', 'cp.cicloid', 'cp.quantidadeMilesimos', 'cp.valorCentavos', 'p.nome', 'p.unidade'])
            .select(['cp.mercadoId', 'm.nome as mercadoNome', 'm.taxaAdministrativaCentesimos as taxaCentesimos'])
            .select(reservadoDaLinha('cicloproduto', 'cp', soConfirmados).as('reservadoMilesimos'))
            .where('cp.id', 'in', idsExtras)
            .orderBy('cp.id')
            .$if(travando, (q) => q.forUpdate('cp'))
            .execute();
    const antes = await pedidoDe(trx, cicloid, usuarioid, opcoes.taxa);
    // Each line's basket or extra, on sale in this very cycle (an inactive basket is not).
    type Alvo =
      | { readonly l: LinhaPedida; readonly cesta: (typeof cestas)[number]; readonly extra?: undefined }
      | { readonly l: LinhaPedida; readonly cesta?: undefined; readonly extra: (typeof extras)[number] };
    const alvos: Alvo[] = [];
    const fora: Record<string, string> = {};
    for (const l of linhas) {
      const cesta = cestas.find((x) => x.id === l.cicloCestaId && x.cicloid === cicloid && x.ativo);
      const extra = extras.find((x) => x.id === l.cicloProdutoId && x.cicloid === cicloid);
      if (cesta !== undefined) alvos.push({ l, cesta });
      else if (extra !== undefined) alvos.push({ l, extra });
      else
        fora[`${l.campo}.${l.cicloCestaId !== null ? 'cicloCestaId' : 'cicloProdutoId'}`] =
          'Não está à venda neste ciclo';
    }
    if (Object.keys(fora).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', fora);
    const noutraUnidade = alvos.flatMap((a) =>
      unidadeTrocada(a.l.unidadeEscrita, a.extra?.unidade, `${a.l.campo}.quantidade`),
    );
    if (noutraUnidade.length > 0)
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', Object.fromEntries(noutraUnidade));
    const mercadoIds = new Set(alvos.flatMap((a) => (a.cesta ?? a.extra).mercadoId ?? []));
    const ponto = await pontoDoPedido(trx, cicloid, pontoLido, mercadoIds.size > 0);
    if (mercadoIds.size > 0)
      await pontoDosMercados(
        trx,
        cicloid,
        pontoEntregaId,
        mercadoIds,
        alvos.some((a) => (a.cesta ?? a.extra).mercadoId === null),
      );
    // What everyone else reserves: the row's counter (kept by triggers, read under the row lock)
    // minus what this consumer's own saved order holds of the same line.
    const somaDe = (linhasDoPedido: readonly LinhaDoPedido[], chave: string) =>
      linhasDoPedido.filter((p) => chaveDaLinha(p) === chave).reduce((t, p) => t + p.quantidadeMilesimos, 0);
    // Stryker disable next-line ArrayDeclaration: a bogus earlier line keys to no line of the order
    const jaNoPedido = (chave: string) => somaDe(antes?.produtos ?? [], chave);
    // Once the window has closed, an unconfirmed order of one's own is not in the count either.
    const contado = antes !== null && (antes.finalizado || !soConfirmados) ? antes.produtos : [];
    const proprio = (chave: string) => somaDe(contado, chave);
    // A basket with nothing composed in it is not for sale; what an order already holds of one
    // (composed before its items were taken out) may stay, but not grow.
    const semComposicao = alvos.flatMap(({ l, cesta }) =>
      cesta !== undefined && !Number(cesta.composta) && l.quantidadeMilesimos > jaNoPedido(chaveDaLinha(l))
        ? [cesta.nome]
        : [],
    );
    if (semComposicao.length > 0) {
      throw new Conflito('EM_COMPOSICAO', `Ainda em composição, não pode ser pedida: ${semComposicao.join(', ')}`, {
        cestas: semComposicao,
      });
    }
    const faltas: Array<{ nome: string; livre: number; pedido: number; unidade: string }> = [];
    for (const { l, cesta, extra } of alvos) {
      if (cesta !== undefined) {
        const livre =
          Number(cesta.quantidadeCestas) * 1000 - (Number(cesta.reservadoMilesimos) - proprio(chaveDaLinha(l)));
        if (l.quantidadeMilesimos > livre)
          faltas.push({ nome: cesta.nome, livre: Math.max(0, livre), pedido: l.quantidadeMilesimos, unidade: 'cesta' });
      } else {
        const livre = extra.quantidadeMilesimos - (Number(extra.reservadoMilesimos) - proprio(chaveDaLinha(l)));
        if (l.quantidadeMilesimos > livre)
          faltas.push({
            nome: extra.nome,
            livre: Math.max(0, livre),
            pedido: l.quantidadeMilesimos,
            unidade: extra.unidade,
          });
      }
    }
    if (faltas.length > 0) {
      // The refusal's details are the error envelope's wire data: the contract's decimal numbers.
      throw new Conflito(
        'SEM_ESTOQUE',
        `Não há o suficiente: ${faltas.map((f) => `${f.nome} (disponível: ${formatarQuantidadeComUnidade(f.livre, f.unidade)})`).join('; ')}`,
        {
          disponivel: faltas.map((f) => ({
            nome: f.nome,
            disponivel: paraNumero(f.livre, ESCALA_QUANTIDADE),
            pedido: paraNumero(f.pedido, ESCALA_QUANTIDADE),
            unidade: f.unidade,
          })),
        },
      );
    }
    const iso = opcoes.agora.toISOString();
    // Changing an order re-opens it; it must be confirmed again.
    const reaberto = { pontoEntregaId, finalizado: false, dataConfirmacao: null, updatedAt: iso };
    let pedidoId: number;
    let criado = false;
    // Stryker disable next-line ConditionalExpression: the insert below upserts on (cycle, consumer), which for an existing order is this same update
    if (antes !== null) {
      await trx.updateTable('pedido').set(reaberto).where('id', '=', antes.pedidoId).execute();
      pedidoId = antes.pedidoId;
    } else {
      // An order created meanwhile by the same consumer (PostgreSQL, two tabs) is updated instead.
      const gravado = await trx
        .insertInto('pedido')
        .values({ cicloid, usuarioid, ...reaberto, createdAt: iso })
        .onConflict((oc) => oc.columns(['cicloid', 'usuarioid']).doUpdateSet(reaberto))
        .returning(['id', 'createdAt'])
        .executeTakeFirstOrThrow();
      pedidoId = gravado.id;
      // This save created the order only if the row carries its own creation time (an upsert
      // into a row another save made keeps that save's).
      // Stryker disable next-line ConditionalExpression: only a simultaneous first save of the same person (PostgreSQL) meets an existing row here; test/fluxo/reserva.test.ts counts one 201 among ten there
      criado = gravado.createdAt === iso;
    }
    // Stryker disable next-line ArrayDeclaration: a bogus earlier line keys to no line of the order
    const anterior = new Map((antes?.produtos ?? []).map((p) => [chaveDaLinha(p), p]));
    await trx.deleteFrom('pedidoproduto').where('pedidoid', '=', pedidoId).execute();
    // A line already ordered keeps the price, and the market's fee, it was ordered at.
    const itens = alvos.map(({ l, cesta, extra }) => {
      const ja = anterior.get(chaveDaLinha(l));
      const vendido = cesta ?? extra;
      return {
        l,
        valorCentavos: ja?.valorCentavos ?? (cesta !== undefined ? cesta.valorReferenciaCentavos : extra.valorCentavos),
        cestaNome: cesta?.nome ?? null,
        produtoNome: extra?.nome ?? null,
        unidade: extra?.unidade ?? null,
        mercadoId: vendido.mercadoId,
        mercadoNome: vendido.mercadoNome,
        taxaCentesimos:
          vendido.mercadoId === null
            ? null
            : ja !== undefined && ja.mercadoId === vendido.mercadoId
              ? ja.taxaCentesimos
              : (vendido.taxaCentesimos ?? 0),
        // A basket line a subscription put in the order stays its line when the order is edited.
        assinaturaId: ja?.assinaturaId ?? null,
      };
    });
    const escritos = await trx
      .insertInto('pedidoproduto')
      .values(
        itens.map(({ l, valorCentavos, mercadoId, taxaCentesimos, assinaturaId }) => ({
          pedidoid: pedidoId,
          cicloCestaId: l.cicloCestaId,
          cicloProdutoId: l.cicloProdutoId,
          quantidadeMilesimos: l.quantidadeMilesimos,
          valorCentavos,
          mercadoId,
          taxaCentesimos,
          assinaturaId,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .returning(['id', 'cicloCestaId', 'cicloProdutoId'])
      .execute();
    // NOTE: the saved order is built from what was just written instead of read back: every name
    // and price is already in hand. RETURNING promises no row order, so lines are matched by key
    // (unique in an order) and sorted by id, as the loaders sort them.
    const idPorChave = new Map(escritos.map((e) => [chaveDaLinha(e), e.id]));
    const lidos: ItemLido[] = itens.map(({ l, ...item }) => {
      const id = idPorChave.get(chaveDaLinha(l));
      // Stryker disable next-line ConditionalExpression: every line written comes back; this only narrows the type
      if (id === undefined) throw new Error('linha do pedido gravada sem id');
      return {
        id,
        cicloCestaId: l.cicloCestaId,
        cicloProdutoId: l.cicloProdutoId,
        quantidadeMilesimos: l.quantidadeMilesimos,
        ...item,
      };
    });
    // Stryker disable next-line all: SQLite returns rows in insertion order, so only PostgreSQL could tell
    lidos.sort((a, b) => a.id - b.id);
    const depois = montarPedido(
      {
        id: pedidoId,
        cicloid,
        usuarioid,
        usuarioNome: consumidor.nome,
        pontoEntregaId,
        pontoNome: ponto.nome,
        dataRetirada: ponto.dataRetirada,
        horaInicio: ponto.horaInicio,
        horaFim: ponto.horaFim,
        finalizado: false,
        dataConfirmacao: null,
      },
      lidos,
      opcoes.taxa,
    );
    await auditar(trx, ator, opcoes.agora, {
      acao: `salvar${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'pedido',
      entidadeId: pedidoId,
      antes,
      depois,
    });
    if (antes?.finalizado === true) await opcoes.avisos?.emitir(trx, { tipo: 'pedido_alterado', pedido: depois });
    // A confirmed order that changes must be confirmed again (docs/dominio.md): the answer says so.
    return { pedido: depois, criado, reaberto: antes?.finalizado === true };
  });
}

/** Finds an order the actor may see: their own, or any for admins and info. Others are "not found". */
export async function pedidoVisivel(db: Db, ator: Ator, pedidoId: number, taxa: Taxa): Promise<Pedido> {
  const p = await carregarUmPedido(db, { pedidoId }, taxa);
  if (p === null || !podeNoRegistro(ator, 'verDe', { usuarioid: p.usuario.id }))
    throw new NaoEncontrado('PEDIDO_NAO_ENCONTRADO', 'Pedido não encontrado');
  return p;
}

/**
 * An unconfirmed order confirmed after its window closed (by an admin) held no stock until now:
 * what confirmed orders hold of each of its lines, read under the lines' row locks (as salvarPedido
 * locks them), must leave room for it. 409 SEM_ESTOQUE with what is still available.
 */
async function conferirEstoqueAoConfirmar(trx: Db, pedido: Pedido): Promise<void> {
  const travando = ehPostgres(trx);
  const idsCestas = pedido.produtos.flatMap((l) => l.cicloCestaId ?? []);
  const idsExtras = pedido.produtos.flatMap((l) => l.cicloProdutoId ?? []);
  const cestas =
    idsCestas.length === 0
      ? []
      : await trx
          .selectFrom('ciclocesta as cc')
          .select([
            'cc.id',
            vendaveisDaCesta('cc').as('livre'),
            reservadoDaLinha('ciclocesta', 'cc', true).as('reservado'),
          ])
          .where('cc.id', 'in', idsCestas)
          .orderBy('cc.id')
          .$if(travando, (q) => q.forUpdate('cc'))
          .execute();
  const extras =
    idsExtras.length === 0
      ? []
      : await trx
          .selectFrom('cicloproduto as cp')
          .select([
            'cp.id',
            'cp.quantidadeMilesimos as livre',
            reservadoDaLinha('cicloproduto', 'cp', true).as('reservado'),
          ])
          .where('cp.id', 'in', idsExtras)
          .orderBy('cp.id')
          .$if(travando, (q) => q.forUpdate('cp'))
          .execute();
  const faltas = pedido.produtos.flatMap((l) => {
    const linha =
      l.cicloCestaId !== null
        ? cestas.find((c) => c.id === l.cicloCestaId)
        : extras.find((e) => e.id === l.cicloProdutoId);
    const teto = linha === undefined ? 0 : Number(linha.livre) * (l.cicloCestaId !== null ? 1000 : 1);
    const livre = Math.max(0, teto - Number(linha?.reservado ?? 0));
    return l.quantidadeMilesimos > livre
      ? [{ nome: l.nome, livre, pedido: l.quantidadeMilesimos, unidade: l.unidade }]
      : [];
  });
  if (faltas.length > 0) {
    throw new Conflito(
      'SEM_ESTOQUE',
      `O período de pedidos terminou e este pedido não foi confirmado a tempo; agora não há o suficiente: ${faltas.map((f) => `${f.nome} (disponível: ${formatarQuantidadeComUnidade(f.livre, f.unidade)})`).join('; ')}`,
      {
        disponivel: faltas.map((f) => ({
          nome: f.nome,
          disponivel: paraNumero(f.livre, ESCALA_QUANTIDADE),
          pedido: paraNumero(f.pedido, ESCALA_QUANTIDADE),
          unidade: f.unidade,
        })),
      },
    );
  }
}

/** Confirms an order (finalizado, dataConfirmacao in local time). Confirming twice changes nothing. */
export async function finalizarPedido(
  banco: Banco,
  ator: Ator,
  pedidoId: number,
  opcoes: OpcoesPedido & { tz: string },
): Promise<Pedido> {
  return emTransacao(banco, async (trx) => {
    const antes = await pedidoVisivel(trx, ator, pedidoId, opcoes.taxa);
    if (!podeNoRegistro(ator, 'confirmarPedido', { usuarioid: antes.usuario.id }))
      throw new Proibido('PEDIDO_DE_OUTRA_PESSOA', 'Você só pode confirmar os seus próprios pedidos');
    if (antes.finalizado) return antes;
    const ciclo = await cicloDasJanelas(trx, antes.cicloid, 'pedido');
    const { foraDaJanela } = exigirJanela(ciclo, opcoes.hoje, 'pedido', ehGestor(ator));
    // After the window, this order held nothing: it takes its stock now, if there is still some.
    if (soConfirmadosSeguram(ciclo, opcoes.hoje)) await conferirEstoqueAoConfirmar(trx, antes);
    await trx
      .updateTable('pedido')
      .set({
        finalizado: true,
        dataConfirmacao: dataHoraLocal(opcoes.agora, opcoes.tz),
        updatedAt: opcoes.agora.toISOString(),
      })
      .where('id', '=', pedidoId)
      .where('finalizado', '=', false)
      .execute();
    const depois = await pedidoVisivel(trx, ator, pedidoId, opcoes.taxa);
    await auditar(trx, ator, opcoes.agora, {
      acao: `finalizar${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'pedido',
      entidadeId: pedidoId,
      antes,
      depois,
    });
    await opcoes.avisos?.emitir(trx, { tipo: 'recibo', pedido: depois });
    return depois;
  });
}

/** All orders of a cycle for admins and info; one's own for a consumer (scoped in SQL). */
export async function pedidosVisiveis(db: Db, ator: Ator, cicloid: number, taxa: Taxa): Promise<Pedido[]> {
  await cicloDasJanelas(db, cicloid);
  return carregarPedidos(db, veTudo(ator) ? { cicloid } : { cicloid, usuarioid: ator.usuarioid ?? -1 }, taxa);
}

/** A cycle's orders, all or one consumer's, loaded in two queries (for reports). */
export function carregarPedidosDoCiclo(
  db: Db,
  cicloid: number,
  usuarioid: number | null,
  taxa: Taxa,
): Promise<Pedido[]> {
  return carregarPedidos(db, usuarioid === null ? { cicloid } : { cicloid, usuarioid }, taxa);
}

/**
 * Of these orders, the ones changed after a confirmation: not finalizado now, but confirmed at
 * some point. A save re-opens a confirmed order (salvarPedido) and every confirmation leaves a
 * 'finalizar' row in the audit trail (finalizarPedido), which is never deleted, so the trail
 * tells it without a column of its own. One query, whatever the number of orders.
 */
export async function alteradosAposConfirmar(db: Db, pedidoIds: readonly number[]): Promise<Set<number>> {
  if (pedidoIds.length === 0) return new Set();
  const linhas = await db
    .selectFrom('pedido as p')
    .select('p.id')
    .where('p.id', 'in', [...pedidoIds])
    .where('p.finalizado', '=', false)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('auditoria as a')
          .select('a.id')
          .where('a.entidade', '=', 'pedido')
          // The trail keeps ids as text (it records every kind of entity).
          .where(sql<boolean>`${sql.ref('a.entidadeId')} = cast(${sql.ref('p.id')} as text)`)
          .where((e) => e.or([e('a.acao', '=', 'finalizar'), e('a.acao', 'like', 'finalizar (%')])),
      ),
    )
    .execute();
  return new Set(linhas.map((l) => l.id));
}

/** One basket line a subscription puts in a consumer's order (prices and the fee as salvarPedido records them). */
export interface LinhaDeAssinatura {
  readonly cicloid: number;
  readonly usuarioid: number;
  readonly pontoEntregaId: number;
  readonly cicloCestaId: number;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly mercadoId: number | null;
  /** The market's fee now; kept only when the line has a market, as salvarPedido keeps it. */
  readonly taxaCentesimos: number | null;
  readonly assinaturaId: number;
}

/**
 * Adds a subscription's basket line to the consumer's order in the cycle, inside the caller's
 * transaction (which holds the cycle basket's lock and checked what is free). With no order yet,
 * the order is created at the subscription's point and confirmed, as finalizarPedido confirms;
 * an existing order keeps its point and state. When the order already holds that basket, the
 * line grows and is marked as the subscription's (an order holds each basket once).
 * Two statements, whatever was there: the order and the line are each written with ON CONFLICT
 * on their unique keys (the counting triggers are AFTER triggers, so an upsert counts once).
 * Returns the order's id.
 */
export async function gravarLinhaDeAssinatura(
  trx: Db,
  l: LinhaDeAssinatura,
  opcoes: { agora: Date; tz: string },
): Promise<{ pedidoId: number }> {
  const iso = opcoes.agora.toISOString();
  const pedido = await trx
    .insertInto('pedido')
    .values({
      cicloid: l.cicloid,
      usuarioid: l.usuarioid,
      pontoEntregaId: l.pontoEntregaId,
      finalizado: true,
      dataConfirmacao: dataHoraLocal(opcoes.agora, opcoes.tz),
      createdAt: iso,
      updatedAt: iso,
    })
    .onConflict((oc) => oc.columns(['cicloid', 'usuarioid']).doUpdateSet({ updatedAt: iso }))
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('pedidoproduto')
    .values({
      pedidoid: pedido.id,
      cicloCestaId: l.cicloCestaId,
      cicloProdutoId: null,
      quantidadeMilesimos: l.quantidadeMilesimos,
      valorCentavos: l.valorCentavos,
      mercadoId: l.mercadoId,
      taxaCentesimos: l.mercadoId === null ? null : (l.taxaCentesimos ?? 0),
      assinaturaId: l.assinaturaId,
      createdAt: iso,
      updatedAt: iso,
    })
    .onConflict((oc) =>
      oc.columns(['pedidoid', 'cicloCestaId']).doUpdateSet((eb) => ({
        quantidadeMilesimos: eb(
          eb.ref('pedidoproduto.quantidadeMilesimos'),
          '+',
          eb.ref('excluded.quantidadeMilesimos'),
        ),
        assinaturaId: eb.ref('excluded.assinaturaId'),
        updatedAt: eb.ref('excluded.updatedAt'),
      })),
    )
    .execute();
  return { pedidoId: pedido.id };
}

/**
 * Takes `quantidadeMilesimos` of a subscription's basket line out of its order (releasing the
 * reservation through the counting triggers); the line goes when nothing is left of it, and the
 * order when it has no line left. Returns whether the order was deleted.
 */
export async function retirarLinhaDeAssinatura(
  trx: Db,
  pedidoId: number,
  assinaturaId: number,
  quantidadeMilesimos: number,
  agora: Date,
): Promise<boolean> {
  const iso = agora.toISOString();
  const linha = await trx
    .selectFrom('pedidoproduto')
    .select(['id', 'quantidadeMilesimos'])
    .where('pedidoid', '=', pedidoId)
    .where('assinaturaId', '=', assinaturaId)
    .executeTakeFirst();
  if (linha !== undefined) {
    if (linha.quantidadeMilesimos > quantidadeMilesimos) {
      await trx
        .updateTable('pedidoproduto')
        .set({
          quantidadeMilesimos: linha.quantidadeMilesimos - quantidadeMilesimos,
          assinaturaId: null,
          updatedAt: iso,
        })
        .where('id', '=', linha.id)
        .execute();
    } else {
      await trx.deleteFrom('pedidoproduto').where('id', '=', linha.id).execute();
    }
  }
  const resta = await trx.selectFrom('pedidoproduto').select('id').where('pedidoid', '=', pedidoId).executeTakeFirst();
  if (resta !== undefined) {
    await trx.updateTable('pedido').set({ updatedAt: iso }).where('id', '=', pedidoId).execute();
    return false;
  }
  await trx
    .updateTable('assinaturaciclo')
    .set({ pedidoId: null, updatedAt: iso })
    .where('pedidoId', '=', pedidoId)
    .execute();
  await trx.deleteFrom('pedido').where('id', '=', pedidoId).execute();
  return true;
}
