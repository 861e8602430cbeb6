/** Reading cycles: one cycle with its lists, the points it serves, and a page of cycles. */
import { sql } from 'kysely';
import { contem, totalDaLista } from '../../db/consultas.ts';
import type { Db } from '../../db/banco.ts';
import { linhasOfertadas } from '../alocacao.ts';
import { cestaComposta } from '../conteudo-das-cestas.ts';
import { NaoEncontrado } from '../erros.ts';
import { voluntariosDoCiclo } from '../retirada/voluntarios.ts';
import { montarPagina, type Pagina, type PedidoDePagina } from '../registros.ts';
import { chaveDeNome } from '../textos.ts';
import { CAMPOS_DATA, faseDoCiclo } from './calendario.ts';
import type { Ciclo, CicloPonto, CicloResumo } from './modelo.ts';
import { sobrasPorProduto } from './regras.ts';
import type { DiaDeEntrega } from '../tempo.ts';

/** Loads a cycle with its lists: seven queries, whatever its size. */
export async function obterCiclo(db: Db, id: number, hoje: string): Promise<Ciclo> {
  const l = await db.selectFrom('ciclo').selectAll().where('id', '=', id).executeTakeFirst();
  if (l === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${id}`);
  const [entregas, pontos, voluntarios, cestas, produtos, ofertadas] = await Promise.all([
    db
      .selectFrom('cicloentrega')
      .select(['id', 'dataEntrega', 'observacao'])
      .where('cicloid', '=', id)
      .orderBy('dataEntrega')
      .orderBy('id')
      .execute(),
    pontosDoCiclo(db, id),
    voluntariosDoCiclo(db, id),
    db
      .selectFrom('ciclocesta as cc')
      .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
      .select(['cc.id', 'cc.cestaId', 'cesta.nome', 'cc.quantidadeCestas', 'cc.reservadoMilesimos as pedidoMilesimos'])
      .select((eb) => cestaComposta(eb).as('composta'))
      .where('cc.cicloid', '=', id)
      .orderBy('cc.id')
      .execute(),
    db
      .selectFrom('cicloproduto')
      .innerJoin('produto', 'produto.id', 'cicloproduto.produtoId')
      .select([
        'cicloproduto.id',
        'cicloproduto.produtoId',
        'produto.nome',
        'produto.unidade',
        'cicloproduto.quantidadeMilesimos',
        'cicloproduto.valorCentavos',
      ])
      .where('cicloproduto.cicloid', '=', id)
      // Items released to venda_direta markets have their own page (src/domain/mercados-do-ciclo/venda-direta.ts).
      .where('cicloproduto.mercadoId', 'is', null)
      .orderBy('cicloproduto.id')
      .execute(),
    linhasOfertadas(db, id),
  ]);
  return {
    id: l.id,
    nome: l.nome,
    dataOfertaInicio: l.dataOfertaInicio,
    dataOfertaFim: l.dataOfertaFim,
    dataPedidoInicio: l.dataPedidoInicio,
    dataPedidoFim: l.dataPedidoFim,
    dataRetiradaInicio: l.dataRetiradaInicio,
    dataRetiradaFim: l.dataRetiradaFim,
    fase: faseDoCiclo(l, hoje),
    ativo: l.ativo,
    fechadoEm: l.fechadoEm,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
    cicloEntregas: entregas,
    cicloPontos: pontos.map((p) => ({ ...p, voluntarios: voluntarios.get(p.pontoEntregaId) ?? [] })),
    cicloCestas: cestas.map((c) => ({
      id: c.id,
      cestaId: c.cestaId,
      nome: c.nome,
      quantidadeCestas: c.quantidadeCestas,
      quantidadePedida: Math.round(Number(c.pedidoMilesimos) / 1000),
      composta: Boolean(Number(c.composta)),
    })),
    sobras: sobrasPorProduto(ofertadas),
    cicloProdutos: produtos.map((p) => ({
      id: p.id,
      produtoId: p.produtoId,
      nome: p.nome,
      unidade: p.unidade,
      quantidadeMilesimos: p.quantidadeMilesimos,
      valorCentavos: p.valorCentavos,
    })),
  };
}

/** The points a cycle serves, by pickup day, hour and name, with the orders at each (obterCiclo adds their volunteers). */
export async function pontosDoCiclo(db: Db, cicloid: number): Promise<Array<Omit<CicloPonto, 'voluntarios'>>> {
  const linhas = await db
    .selectFrom('ciclopontoentrega as cp')
    .innerJoin('pontoentrega as pe', 'pe.id', 'cp.pontoEntregaId')
    .select([
      'cp.id',
      'cp.pontoEntregaId',
      'pe.nome',
      'pe.endereco',
      'pe.cidade',
      'cp.dataRetirada',
      'cp.horaInicio',
      'cp.horaFim',
    ])
    .select((eb) =>
      eb
        .selectFrom('pedido as p')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('p.cicloid', '=', 'cp.cicloid')
        .whereRef('p.pontoEntregaId', '=', 'cp.pontoEntregaId')
        .as('pedidos'),
    )
    .where('cp.cicloid', '=', cicloid)
    // Unset day and hours go last on both dialects (they sort nulls differently).
    .orderBy(sql`coalesce(${sql.ref('cp.dataRetirada')}, '9999-12-31')`)
    .orderBy(sql`coalesce(${sql.ref('cp.horaInicio')}, '99:99')`)
    .orderBy('pe.nomeChave')
    .execute();
  return linhas.map((l) => ({ ...l, pedidos: Number(l.pedidos ?? 0) }));
}

export interface CicloDaLista extends CicloResumo {
  readonly ativo: boolean;
}

/** One page of cycles, newest first by default, with their phase. */
export async function listarCiclos(db: Db, pedido: PedidoDePagina, hoje: string): Promise<Pagina<CicloDaLista>> {
  let q = db
    .selectFrom('ciclo')
    .select(['id', 'nome', 'ativo', ...CAMPOS_DATA])
    .select(totalDaLista);
  if (pedido.busca !== null) q = q.where(contem('nomeChave', chaveDeNome(pedido.busca)));
  const linhas = await q
    .orderBy(pedido.ordem as 'dataOfertaInicio', pedido.direcao)
    .orderBy('id', 'desc')
    .limit(pedido.porPagina)
    .offset((pedido.pagina - 1) * pedido.porPagina)
    .execute();
  const pagina = montarPagina(linhas, pedido, 0);
  return { ...pagina, itens: pagina.itens.map((c) => ({ ...c, fase: faseDoCiclo(c, hoje) })) };
}

export const ORDENS_CICLO = ['dataOfertaInicio', 'nome', 'dataPedidoInicio', 'dataRetiradaInicio', 'ativo'] as const;

/** The days suppliers deliver in each of these cycles, in date order (one query; none for no cycles). */
export async function diasDeEntregaDosCiclos(
  db: Db,
  cicloids: readonly number[],
): Promise<Map<number, DiaDeEntrega[]>> {
  const dias = new Map<number, DiaDeEntrega[]>();
  if (cicloids.length === 0) return dias;
  const linhas = await db
    .selectFrom('cicloentrega')
    .select(['cicloid', 'dataEntrega', 'observacao'])
    .where('cicloid', 'in', [...cicloids])
    .orderBy('dataEntrega')
    .orderBy('id')
    .execute();
  for (const l of linhas) dias.set(l.cicloid, [...(dias.get(l.cicloid) ?? []), l]);
  return dias;
}
