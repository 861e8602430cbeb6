/**
 * Reads of subscriptions: load one or a consumer's (with their pauses), the one an actor may act
 * on, each with its next cycles and what became of them, who is served in a cycle, and the
 * choices a subscription page offers. The coordinator's panel is in painel.ts.
 */
import { ehConsumidor, ehGestor, type Ator } from '../acesso.ts';
import type { Db } from '../../db/banco.ts';
import { NaoEncontrado } from '../erros.ts';
import { tiposQue } from '../tipos-de-mercado.ts';
import type { Assinatura, SituacaoDoCiclo, SituacaoNoCiclo } from './modelo.ts';
import { candidatosDe, ciclosAplicaveis, type CicloCandidato } from './regras.ts';

// ---------------------------------------------------------------------------------------------
// Reads

export async function carregarAssinaturas(
  db: Db,
  filtro: { id?: number; usuarioid?: number; ativasDasCestas?: readonly number[] },
): Promise<Assinatura[]> {
  let q = db
    .selectFrom('assinatura')
    .select([
      'id',
      'usuarioid',
      'cestaId',
      'quantidade',
      'pontoEntregaId',
      'frequencia',
      'inicio',
      'fim',
      'mercadoId',
      'ativa',
      'createdAt',
    ]);
  if (filtro.id !== undefined) q = q.where('id', '=', filtro.id);
  if (filtro.ativasDasCestas !== undefined) {
    if (filtro.ativasDasCestas.length === 0) return [];
    q = q.where('ativa', '=', true).where('cestaId', 'in', [...filtro.ativasDasCestas]);
  }
  if (filtro.usuarioid !== undefined) q = q.where('usuarioid', '=', filtro.usuarioid);
  const linhas = await q.orderBy('createdAt').orderBy('id').execute();
  if (linhas.length === 0) return [];
  const pausas = await db
    .selectFrom('assinaturapausa')
    .select(['id', 'assinaturaId', 'inicio', 'fim'])
    .where(
      'assinaturaId',
      'in',
      linhas.map((l) => l.id),
    )
    .orderBy('inicio')
    .orderBy('id')
    .execute();
  return linhas.map((l) => ({
    ...l,
    ativa: Boolean(l.ativa),
    pausas: pausas.filter((p) => p.assinaturaId === l.id).map(({ id, inicio, fim }) => ({ id, inicio, fim })),
  }));
}

/**
 * A subscription the actor may act on: their own, or anyone's for admins. Anything else is "not
 * found" (deny by default; a stranger's id reveals nothing).
 */
export async function assinaturaDoAtor(db: Db, ator: Ator, id: number): Promise<Assinatura> {
  const [a] = await carregarAssinaturas(db, { id });
  if (a === undefined || !(ehGestor(ator) || (ator.usuarioid === a.usuarioid && ehConsumidor(ator)))) {
    throw new NaoEncontrado('ASSINATURA_NAO_ENCONTRADA', 'Assinatura não encontrada');
  }
  return a;
}

/** One subscription the actor may see (their own; anyone's for admins). */
export function assinaturaVisivel(db: Db, ator: Ator, assinaturaId: number): Promise<Assinatura> {
  return assinaturaDoAtor(db, ator, assinaturaId);
}

/** The cycles offering a basket type (in a market, when given), active ones, with their dates. */
export async function ciclosComACesta(
  db: Db,
  cestaIds: readonly number[],
): Promise<Array<CicloCandidato & { cestaId: number; mercadoId: number | null; nome: string }>> {
  if (cestaIds.length === 0) return [];
  return db
    .selectFrom('ciclocesta as cc')
    .innerJoin('ciclo as c', 'c.id', 'cc.cicloid')
    .select([
      'c.id as cicloid',
      'c.nome',
      'c.dataPedidoInicio',
      'c.dataRetiradaInicio',
      'c.dataRetiradaFim',
      'cc.cestaId',
      'cc.mercadoId',
    ])
    .where('cc.cestaId', 'in', [...new Set(cestaIds)])
    .where('c.ativo', '=', true)
    .orderBy('c.dataPedidoInicio')
    .orderBy('c.id')
    .execute();
}

export interface ProximoCiclo {
  readonly cicloid: number;
  readonly nome: string;
  readonly dataPedidoInicio: string;
  readonly dataRetiradaInicio: string;
  /** What became of it (null: not generated yet); `pausado` before generation when a pause covers it. */
  readonly situacao: SituacaoNoCiclo | null;
  readonly quantidade: number;
  /** Where it is picked up: the order's point once served, else the point chosen for the cycle (or the subscription's). */
  readonly pontoEntregaId: number;
  readonly pontoEntrega: string;
  readonly pedidoId: number | null;
  readonly motivo: string | null;
}

export interface AssinaturaComCiclos extends Assinatura {
  readonly cesta: string;
  readonly pontoEntrega: string;
  readonly mercado: string | null;
  /** The cycles it takes whose pickup has not ended (today on), in order. */
  readonly proximosCiclos: readonly ProximoCiclo[];
}

/** A consumer's subscriptions (active first, then ended), each with its next cycles and their situacao. */
export async function assinaturasDe(db: Db, usuarioid: number, hoje: string): Promise<AssinaturaComCiclos[]> {
  const lista = await carregarAssinaturas(db, { usuarioid });
  return comCiclos(db, lista, hoje);
}

async function comCiclos(db: Db, lista: readonly Assinatura[], hoje: string): Promise<AssinaturaComCiclos[]> {
  if (lista.length === 0) return [];
  const [ciclos, nomes, linhas] = await Promise.all([
    ciclosComACesta(
      db,
      lista.map((a) => a.cestaId),
    ),
    db
      .selectFrom('assinatura as a')
      .innerJoin('cesta', 'cesta.id', 'a.cestaId')
      .innerJoin('pontoentrega as pe', 'pe.id', 'a.pontoEntregaId')
      .leftJoin('mercado as m', 'm.id', 'a.mercadoId')
      .select(['a.id', 'cesta.nome as cesta', 'pe.nome as ponto', 'm.nome as mercado'])
      .where(
        'a.id',
        'in',
        lista.map((a) => a.id),
      )
      .execute(),
    // The point a served cycle is picked up at is its order's (the order keeps its own point, and
    // the order page may change it); before that, the cycle's row's.
    db
      .selectFrom('assinaturaciclo as ac')
      .innerJoin('pontoentrega as pc', 'pc.id', 'ac.pontoEntregaId')
      .leftJoin('pedido as p', 'p.id', 'ac.pedidoId')
      .leftJoin('pontoentrega as pp', 'pp.id', 'p.pontoEntregaId')
      .selectAll('ac')
      .select(['pc.nome as pontoDoCiclo', 'p.pontoEntregaId as pontoDoPedidoId', 'pp.nome as pontoDoPedido'])
      .where(
        'ac.assinaturaId',
        'in',
        lista.map((a) => a.id),
      )
      .execute(),
  ]);
  return lista
    .map((a) => {
      const n = nomes.find((x) => x.id === a.id);
      const proximos = ciclosAplicaveis(a, candidatosDe(a, ciclos)).flatMap((x): ProximoCiclo[] => {
        const c = ciclos.find((y) => y.cicloid === x.cicloid);
        if (c === undefined || c.dataRetiradaFim < hoje) return [];
        const r = linhas.find((l) => l.assinaturaId === a.id && l.cicloid === x.cicloid);
        return [
          {
            cicloid: c.cicloid,
            nome: c.nome,
            dataPedidoInicio: c.dataPedidoInicio,
            dataRetiradaInicio: c.dataRetiradaInicio,
            situacao: r?.situacao ?? (x.situacao === 'pausado' ? 'pausado' : null),
            quantidade: r?.quantidade ?? a.quantidade,
            pontoEntregaId: r?.pontoDoPedidoId ?? r?.pontoEntregaId ?? a.pontoEntregaId,
            pontoEntrega: r?.pontoDoPedido ?? r?.pontoDoCiclo ?? n?.ponto ?? '',
            pedidoId: r?.pedidoId ?? null,
            motivo: r?.motivo ?? null,
          },
        ];
      });
      return {
        ...a,
        cesta: n?.cesta ?? '',
        pontoEntrega: n?.ponto ?? '',
        mercado: n?.mercado ?? null,
        proximosCiclos: a.ativa ? proximos : [],
      };
    })
    .sort((x, y) => Number(y.ativa) - Number(x.ativa));
}

/**
 * The people whose subscription basket comes in a cycle: an active subscription that takes the
 * cycle and is served or still to be served there (not skipped, paused or short). For the
 * reminder when the cycle's order window opens.
 */
export async function assinantesComCestaNoCiclo(db: Db, cicloid: number, hoje: string): Promise<number[]> {
  const cestas = await db.selectFrom('ciclocesta').select('cestaId').where('cicloid', '=', cicloid).execute();
  const lista = await carregarAssinaturas(db, { ativasDasCestas: [...new Set(cestas.map((c) => c.cestaId))] });
  const comProximos = await comCiclos(db, lista, hoje);
  const vem = comProximos.filter((a) =>
    a.proximosCiclos.some((c) => c.cicloid === cicloid && (c.situacao === null || c.situacao === 'gerado')),
  );
  return [...new Set(vem.map((a) => a.usuarioid))].sort((x, y) => x - y);
}

/**
 * The people whose subscription basket was served in a cycle: a row `gerado` whose order is
 * confirmed. For the subscriber's receipt once the cycle's order window is over.
 */
export async function assinantesServidosNoCiclo(db: Db, cicloid: number): Promise<number[]> {
  const linhas = await db
    .selectFrom('assinaturaciclo as ac')
    .innerJoin('pedido as p', 'p.id', 'ac.pedidoId')
    .select('p.usuarioid')
    .distinct()
    .where('ac.cicloid', '=', cicloid)
    .where('ac.situacao', '=', 'gerado')
    .where('p.finalizado', '=', true)
    .orderBy('p.usuarioid')
    .execute();
  return linhas.map((l) => l.usuarioid);
}

/** What became of a subscription in a cycle, or null when nothing yet. */
export async function situacaoNoCiclo(db: Db, assinaturaId: number, cicloid: number): Promise<SituacaoDoCiclo | null> {
  const r = await db
    .selectFrom('assinaturaciclo')
    .select(['assinaturaId', 'cicloid', 'situacao', 'quantidade', 'pontoEntregaId', 'pedidoId', 'motivo'])
    .where('assinaturaId', '=', assinaturaId)
    .where('cicloid', '=', cicloid)
    .executeTakeFirst();
  return r ?? null;
}

// ---------------------------------------------------------------------------------------------
// What the subscription pages offer

/** The choices of a subscription form: active basket types (with their cap), active points and active cesta markets, by name. */
export async function escolhasDaAssinatura(db: Db): Promise<{
  cestas: Array<{ id: number; nome: string; limiteAssinaturas: number | null }>;
  pontosEntrega: Array<{ id: number; nome: string }>;
  mercados: Array<{ id: number; nome: string }>;
}> {
  const [cestas, pontosEntrega, mercados] = await Promise.all([
    db
      .selectFrom('cesta')
      .select(['id', 'nome', 'limiteAssinaturas'])
      .where('ativo', '=', true)
      .orderBy('nome')
      .execute(),
    db.selectFrom('pontoentrega').select(['id', 'nome']).where('ativo', '=', true).orderBy('nome').execute(),
    db
      .selectFrom('mercado')
      .select(['id', 'nome'])
      .where('ativo', '=', true)
      .where(
        'tipo',
        'in',
        tiposQue((t) => t.aceitaAssinaturas),
      )
      .orderBy('nome')
      .execute(),
  ]);
  return { cestas, pontosEntrega, mercados };
}

/** Of the given cycles, those whose order window is open today (active, not closed): where a subscriber may still skip or change. */
export async function ciclosComPedidoAberto(db: Db, cicloids: readonly number[], hoje: string): Promise<Set<number>> {
  if (cicloids.length === 0) return new Set();
  const linhas = await db
    .selectFrom('ciclo')
    .select('id')
    .where('id', 'in', [...new Set(cicloids)])
    .where('ativo', '=', true)
    .where('fechadoEm', 'is', null)
    .where('dataPedidoInicio', '<=', hoje)
    .where('dataPedidoFim', '>=', hoje)
    .execute();
  return new Set(linhas.map((l) => l.id));
}
