/**
 * An order's pickup point: read before the lines are locked (lerPontoDoPedido), checked against
 * the cycle's points (pontoDoPedido), or against the points of the markets the order buys in
 * (pontoDosMercados).
 */
import { sql } from 'kysely';
import { ehPostgres, type Db } from '../../db/banco.ts';
import { leitura, type Leitura } from '../../db/juntas.ts';
import { consultaPreparada } from '../../db/preparadas.ts';
import { pontosDoCiclo } from '../ciclos/leitura.ts';
import { Invalido } from '../erros.ts';
import type { HorarioDeRetirada } from './modelo.ts';

/** The order's pickup point as lerPontoDoPedido reads it (undefined: no such active point). */
export type PontoLido = Awaited<ReturnType<typeof lerPontoDoPedido>>;

/** The point with its hours in the cycle, and whether the cycle lists its points. */
function pontoNoCiclo(trx: Db, cicloid: number, pontoEntregaId: number, cicloidDeNovo: number) {
  return trx
    .selectFrom('pontoentrega as pe')
    .leftJoin('ciclopontoentrega as cp', (j) =>
      j.onRef('cp.pontoEntregaId', '=', 'pe.id').on('cp.cicloid', '=', cicloid),
    )
    .select(['pe.id', 'pe.nome', 'cp.id as linha', 'cp.dataRetirada', 'cp.horaInicio', 'cp.horaFim'])
    .select((eb) =>
      eb
        .exists(
          eb.selectFrom('ciclopontoentrega as todos').select('todos.id').where('todos.cicloid', '=', cicloidDeNovo),
        )
        .as('cicloTemPontos'),
    )
    .where('pe.id', '=', pontoEntregaId)
    .where('pe.ativo', '=', true);
}

// Compiled once, not per request (consultaPreparada). The cycle's id goes in twice, because each
// value of a prepared query fills one parameter.
const pontoPreparado = consultaPreparada(pontoNoCiclo, 3);
const pontoNaVezPreparado = consultaPreparada(
  (trx: Db, cicloid: number, pontoEntregaId: number, cicloidDeNovo: number, grupo: number, usuarioid: number) =>
    pontoNoCiclo(trx, cicloid, pontoEntregaId, cicloidDeNovo).select(
      sql<unknown>`pg_advisory_xact_lock(${grupo}::integer, ${usuarioid}::integer)`.as('vez'),
    ),
  5,
);

/**
 * The order's pickup point, read in one query. NOTE: it is read before the baskets and extras are
 * locked, and checked (pontoDoPedido) where it always was: a point locks nothing, and every round
 * trip taken while the row locks are held makes other orders of the same baskets wait longer.
 */
export async function lerPontoDoPedido(trx: Db, cicloid: number, pontoEntregaId: number) {
  const [ponto] = await pontoPreparado(trx, cicloid, pontoEntregaId, cicloid);
  return ponto;
}

/**
 * The same, for a save of the consumer's order, taking the consumer's turn in the cycle on the
 * way (PostgreSQL; SQLite has one writer): the advisory lock (−cycle, consumer), held until the
 * transaction ends. NOTE: two saves of one consumer whose lines share no basket or extra take no
 * common row lock, and each deletes lines the other locked, so without a turn taken before any
 * row lock they deadlock (test/fluxo/reserva.test.ts). With no such point the query gives no row
 * and takes no turn; the save is refused before it writes anything, so it waits for no one while
 * it holds its row locks.
 */
export function leituraDoPontoNaVezDoConsumidor(
  trx: Db,
  cicloid: number,
  pontoEntregaId: number,
  usuarioid: number,
): Leitura<PontoLido> {
  return leitura(
    // Stryker disable next-line ConditionalExpression: SQLite has no advisory locks (nor any need of them)
    ehPostgres(trx)
      ? pontoNaVezPreparado.compilada(trx, cicloid, pontoEntregaId, cicloid, -cicloid, usuarioid)
      : pontoPreparado.compilada(trx, cicloid, pontoEntregaId, cicloid),
    ([ponto]) => ponto,
  );
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
