/**
 * Reading orders: one (pedidoDe, pedidoVisivel) in a single prepared query, or a cycle's
 * (pedidosVisiveis, carregarPedidosDoCiclo) in two queries whatever their number; and which
 * orders changed after a confirmation (alteradosAposConfirmar).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/banco.ts';
import { leitura, type Leitura } from '../../db/juntas.ts';
import { consultaPreparada } from '../../db/preparadas.ts';
import { podeNoRegistro, veTudo, type Ator } from '../acesso.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { NaoEncontrado } from '../erros.ts';
import { montarPedido, type ItemLido, type Pedido } from './modelo.ts';
import type { Taxa } from './taxa.ts';

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

/** A row of consultaDoPedido: the order with one of its lines (null line columns for an order without lines). */
type LinhaDaConsulta = Awaited<ReturnType<ReturnType<typeof consultaDoPedido>['execute']>>[number];

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

// Saving an order reads it with whether the pickup has records of it, in the same query.
const pedidoParaMudarPreparada = consultaPreparada(
  (db: Db, cicloid: number, usuarioid: number) =>
    consultaDoPedido(db)
      .select((eb) =>
        eb
          .exists(eb.selectFrom('acaoretirada as ar').select('ar.id').whereRef('ar.pedidoid', '=', 'p.id'))
          .as('comRetirada'),
      )
      .where('p.cicloid', '=', cicloid)
      .where('p.usuarioid', '=', usuarioid),
  2,
);

async function carregarUmPedido(
  db: Db,
  filtro: { cicloid: number; usuarioid: number } | { pedidoId: number },
  taxa: Taxa,
): Promise<Pedido | null> {
  return montarDasLinhas(
    'pedidoId' in filtro
      ? await pedidoPorId(db, filtro.pedidoId)
      : await pedidoDoConsumidor(db, filtro.cicloid, filtro.usuarioid),
    taxa,
  );
}

/** The order the rows of consultaDoPedido make (one row per line), or null with no row. */
function montarDasLinhas(linhas: ReadonlyArray<LinhaDaConsulta>, taxa: Taxa): Pedido | null {
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

/** A consumer's order in a cycle, or null (one query). */
export async function pedidoDe(db: Db, cicloid: number, usuarioid: number, taxa: Taxa): Promise<Pedido | null> {
  return carregarUmPedido(db, { cicloid, usuarioid }, taxa);
}

/**
 * A consumer's order in a cycle, about to be saved, with whether the pickup has records of it
 * (`comRetirada`: then it can no longer change), or null: one query.
 */
export function leituraDoPedidoParaMudar(
  db: Db,
  cicloid: number,
  usuarioid: number,
  taxa: Taxa,
): Leitura<{ pedido: Pedido; comRetirada: boolean } | null> {
  return leitura(pedidoParaMudarPreparada.compilada(db, cicloid, usuarioid), (linhas) => {
    const pedido = montarDasLinhas(linhas, taxa);
    return pedido === null ? null : { pedido, comRetirada: linhas.some((l) => Boolean(Number(l.comRetirada))) };
  });
}

/** Finds an order the actor may see: their own, or any for admins and info. Others are "not found". */
export async function pedidoVisivel(db: Db, ator: Ator, pedidoId: number, taxa: Taxa): Promise<Pedido> {
  const p = await carregarUmPedido(db, { pedidoId }, taxa);
  if (p === null || !podeNoRegistro(ator, 'verDe', { usuarioid: p.usuario.id }))
    throw new NaoEncontrado('PEDIDO_NAO_ENCONTRADO', 'Pedido não encontrado');
  return p;
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
  // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it, and its suite covers the empty case
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
