import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { emTransacao, ehPostgres, travar, type Banco, type Db } from '../db/banco.ts';
import type { DB, Frequencia, SituacaoNoCiclo } from '../db/tipos.ts';
import { autorizar, ehConsumidor, ehGestor, exigirAgirPor, type Ator } from './acesso.ts';
import { auditar, type RegistroAuditoria } from './auditoria.ts';
import { janelaAberta } from './ciclos/calendario.ts';
import { cicloDasJanelas, exigirJanela } from './ciclos/janelas.ts';
import { Conflito, Invalido, NaoEncontrado, recusarInvalidos } from './erros.ts';
import {
  consumidorAlvo,
  gravarLinhaDeAssinatura,
  lerPontoDoPedido,
  pedidoDe,
  pontoDoPedido,
  pontoDosMercados,
  retirarLinhaDeAssinatura,
  type AvisosDoPedido,
  type Taxa,
} from './pedidos.ts';
import { cestaComposta } from './conteudo-das-cestas.ts';
import { reservadoDaLinha, soConfirmadosSeguram, vendaveisDaCesta } from './reservas.ts';
import { podeTipo, tiposQue } from './tipos-de-mercado.ts';

export const FREQUENCIAS: readonly Frequencia[] = ['cada_ciclo', 'ciclo_sim_ciclo_nao'];
export type { Frequencia, SituacaoNoCiclo };

/** The time and settings every subscription write takes (the order's, plus the time zone for confirmations). */
export interface OpcoesAssinatura {
  readonly agora: Date;
  /** Today in the community's time zone (AAAA-MM-DD). */
  readonly hoje: string;
  readonly taxa: Taxa;
  readonly tz: string;
  /** Where the receipts of generated orders go, in the generation's own transaction. */
  readonly avisos?: AvisosDoPedido;
}

/** A subscription as the edge reads it: for whom (null: the actor), and the standing order. */
export interface EntradaAssinatura {
  /** null: a new subscription. */
  readonly id: number | null;
  readonly usuarioid: number | null;
  readonly cestaId: number;
  /** Whole baskets, ≥ 1. */
  readonly quantidade: number;
  readonly pontoEntregaId: number;
  readonly frequencia: Frequencia;
  /** AAAA-MM-DD, inicio ≤ fim. */
  readonly inicio: string;
  readonly fim: string;
  readonly mercadoId: number | null;
  /** false ends the subscription. */
  readonly ativa: boolean;
}

export interface Pausa {
  readonly id: number;
  readonly inicio: string;
  readonly fim: string;
}

/** A saved subscription: what was entered, with its id, its consumer, when it began and its pauses. */
export interface Assinatura extends Omit<EntradaAssinatura, 'id' | 'usuarioid'> {
  readonly id: number;
  readonly usuarioid: number;
  readonly createdAt: string;
  readonly pausas: readonly Pausa[];
}

/** What generation did in a cycle (this call's counts; `pulados` is the cycle's skips so far). */
export interface ResumoDaGeracao {
  readonly gerados: number;
  readonly faltaram: ReadonlyArray<{
    readonly assinaturaId: number;
    readonly consumidor: string;
    readonly motivo: string;
  }>;
  readonly pulados: number;
  readonly pausados: number;
}

/** What became of a subscription in one cycle. */
export interface SituacaoDoCiclo {
  readonly assinaturaId: number;
  readonly cicloid: number;
  readonly situacao: SituacaoNoCiclo;
  readonly quantidade: number;
  readonly pontoEntregaId: number;
  readonly pedidoId: number | null;
  readonly motivo: string | null;
}

// ---------------------------------------------------------------------------------------------
// Which cycles a subscription takes (pure)

/** A cycle that offers the subscription's basket type (in its market, when it names one). */
export interface CicloCandidato {
  readonly cicloid: number;
  readonly dataPedidoInicio: string;
  readonly dataRetiradaInicio: string;
  readonly dataRetiradaFim: string;
}

/** The parts of a subscription that decide which cycles it takes. */
export interface RegraDeCiclos {
  readonly frequencia: Frequencia;
  readonly inicio: string;
  readonly fim: string;
  readonly pausas: ReadonlyArray<{ readonly inicio: string; readonly fim: string }>;
}

/**
 * The cycles a subscription takes, among the cycles offering its basket type, in order of their
 * order windows (dataPedidoInicio, then id): `servir`, or `pausado` when the order window opens
 * inside a pause. A cycle applies when its pickup dates fall inside [inicio, fim]. For
 * `ciclo_sim_ciclo_nao`, the 1st, 3rd, 5th… applicable cycles are taken, counting from the first
 * applicable one; a paused cycle still counts for the alternation (pausing does not shift which
 * cycles are "sim"), so the subscriber's rhythm is the same before and after a pause.
 */
export function ciclosAplicaveis(
  regra: RegraDeCiclos,
  ciclos: readonly CicloCandidato[],
): Array<{ cicloid: number; situacao: 'servir' | 'pausado' }> {
  const naTemporada = ciclos
    .filter((c) => c.dataRetiradaInicio >= regra.inicio && c.dataRetiradaFim <= regra.fim)
    .sort((a, b) =>
      a.dataPedidoInicio < b.dataPedidoInicio
        ? -1
        : a.dataPedidoInicio > b.dataPedidoInicio
          ? 1
          : a.cicloid - b.cicloid,
    );
  const escolhidos = regra.frequencia === 'cada_ciclo' ? naTemporada : naTemporada.filter((_, i) => i % 2 === 0);
  return escolhidos.map((c) => ({
    cicloid: c.cicloid,
    situacao: regra.pausas.some((p) => c.dataPedidoInicio >= p.inicio && c.dataPedidoInicio <= p.fim)
      ? 'pausado'
      : 'servir',
  }));
}

// ---------------------------------------------------------------------------------------------
// Validation

const DATA = /^\d{4}-\d{2}-\d{2}$/;

function dataValida(d: string): boolean {
  if (!DATA.test(d)) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
}

/** The rules of a period's dates, by field. */
function regrasDoPeriodo(p: { inicio: string; fim: string }): Record<string, string> {
  const erros: Record<string, string> = {};
  if (!dataValida(p.inicio)) erros.inicio = 'Informe a data de início (AAAA-MM-DD)';
  if (!dataValida(p.fim)) erros.fim = 'Informe a data de fim (AAAA-MM-DD)';
  if (erros.inicio === undefined && erros.fim === undefined && p.inicio > p.fim)
    erros.fim = 'O fim não pode ser antes do início';
  return erros;
}

/** A subscription's broken rules of shape and range, by field. */
export function regrasDaAssinatura(e: Omit<EntradaAssinatura, 'id' | 'usuarioid'>): Record<string, string> {
  const erros = regrasDoPeriodo(e);
  if (!Number.isInteger(e.quantidade) || e.quantidade < 1)
    erros.quantidade = 'A quantidade deve ser um número inteiro de cestas, pelo menos 1';
  if (!FREQUENCIAS.includes(e.frequencia)) erros.frequencia = 'Escolha a frequência: cada_ciclo ou ciclo_sim_ciclo_nao';
  return erros;
}

// ---------------------------------------------------------------------------------------------
// Reads

async function carregarAssinaturas(
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
async function assinaturaDoAtor(db: Db, ator: Ator, id: number): Promise<Assinatura> {
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
async function ciclosComACesta(
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

/** The candidate cycles of one subscription: those offering its basket type, in its market when it names one; each cycle once. */
function candidatosDe(
  a: { cestaId: number; mercadoId: number | null },
  ciclos: ReadonlyArray<CicloCandidato & { cestaId: number; mercadoId: number | null }>,
): CicloCandidato[] {
  const vistos = new Set<number>();
  return ciclos.filter(
    (c) =>
      c.cestaId === a.cestaId &&
      (a.mercadoId === null || c.mercadoId === a.mercadoId) &&
      !vistos.has(c.cicloid) &&
      vistos.add(c.cicloid) !== undefined,
  );
}

export interface ProximoCiclo {
  readonly cicloid: number;
  readonly nome: string;
  readonly dataPedidoInicio: string;
  readonly dataRetiradaInicio: string;
  /** What became of it (null: not generated yet); `pausado` before generation when a pause covers it. */
  readonly situacao: SituacaoNoCiclo | null;
  readonly quantidade: number;
  readonly pontoEntregaId: number;
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
    db
      .selectFrom('assinaturaciclo')
      .selectAll()
      .where(
        'assinaturaId',
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
            pontoEntregaId: r?.pontoEntregaId ?? a.pontoEntregaId,
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

export interface PainelDeAssinaturas {
  readonly assinaturas: ReadonlyArray<
    Assinatura & {
      readonly consumidor: string;
      readonly cesta: string;
      readonly pontoEntrega: string;
      readonly mercado: string | null;
      /** The season payments recorded for the subscription (registrarPagamentoDaTemporada), summed. */
      readonly pagoAdiantadoCentavos: number;
    }
  >;
  /** Active subscriptions and baskets per cycle, per basket type (with its cap). */
  readonly porCesta: ReadonlyArray<{
    readonly cestaId: number;
    readonly nome: string;
    readonly assinaturas: number;
    readonly cestas: number;
    readonly limite: number | null;
  }>;
  /** Active subscriptions and baskets per cycle, per pickup point. */
  readonly porPonto: ReadonlyArray<{
    readonly pontoEntregaId: number;
    readonly nome: string;
    readonly assinaturas: number;
    readonly cestas: number;
  }>;
}

/** Every subscription (active first) with totals per basket type and per pickup point, for the coordinator. */
export async function assinaturasParaAdmin(db: Db): Promise<PainelDeAssinaturas> {
  const linhas = await db
    .selectFrom('assinatura as a')
    .innerJoin('usuario as u', 'u.id', 'a.usuarioid')
    .innerJoin('cesta', 'cesta.id', 'a.cestaId')
    .innerJoin('pontoentrega as pe', 'pe.id', 'a.pontoEntregaId')
    .leftJoin('mercado as m', 'm.id', 'a.mercadoId')
    .select([
      'a.id',
      'a.usuarioid',
      'a.cestaId',
      'a.quantidade',
      'a.pontoEntregaId',
      'a.frequencia',
      'a.inicio',
      'a.fim',
      'a.mercadoId',
      'a.ativa',
      'a.createdAt',
    ])
    .select([
      'u.nome as consumidor',
      'cesta.nome as cesta',
      'cesta.limiteAssinaturas',
      'pe.nome as pontoEntrega',
      'm.nome as mercado',
    ])
    .orderBy('a.ativa', 'desc')
    .orderBy('a.createdAt')
    .orderBy('a.id')
    .execute();
  const [pausas, pagamentos] =
    linhas.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom('assinaturapausa')
            .select(['id', 'assinaturaId', 'inicio', 'fim'])
            .orderBy('inicio')
            .orderBy('id')
            .execute(),
          db
            .selectFrom('movimentacao')
            .select(['chave', 'valorCentavos'])
            .where('chave', 'like', `${PREFIXO_DO_PAGAMENTO}%`)
            .where('sentido', '=', 'credito')
            .execute(),
        ]);
  const pagoAdiantado = new Map<number, number>();
  for (const m of pagamentos) {
    const id = assinaturaDoPagamento(m.chave);
    if (id !== null) pagoAdiantado.set(id, (pagoAdiantado.get(id) ?? 0) + m.valorCentavos);
  }
  const porCesta = new Map<
    number,
    { cestaId: number; nome: string; assinaturas: number; cestas: number; limite: number | null }
  >();
  const porPonto = new Map<number, { pontoEntregaId: number; nome: string; assinaturas: number; cestas: number }>();
  for (const l of linhas) {
    if (!l.ativa) continue;
    const c = porCesta.get(l.cestaId) ?? {
      cestaId: l.cestaId,
      nome: l.cesta,
      assinaturas: 0,
      cestas: 0,
      limite: l.limiteAssinaturas,
    };
    c.assinaturas++;
    c.cestas += l.quantidade;
    porCesta.set(l.cestaId, c);
    const p = porPonto.get(l.pontoEntregaId) ?? {
      pontoEntregaId: l.pontoEntregaId,
      nome: l.pontoEntrega,
      assinaturas: 0,
      cestas: 0,
    };
    p.assinaturas++;
    p.cestas += l.quantidade;
    porPonto.set(l.pontoEntregaId, p);
  }
  const porNome = <T extends { nome: string }>(a: T, b: T) => a.nome.localeCompare(b.nome, 'pt-BR');
  return {
    assinaturas: linhas.map(({ limiteAssinaturas: _limite, ...l }) => ({
      ...l,
      ativa: Boolean(l.ativa),
      pausas: pausas.filter((p) => p.assinaturaId === l.id).map(({ id, inicio, fim }) => ({ id, inicio, fim })),
      pagoAdiantadoCentavos: pagoAdiantado.get(l.id) ?? 0,
    })),
    porCesta: [...porCesta.values()].sort(porNome),
    porPonto: [...porPonto.values()].sort(porNome),
  };
}

export interface FaltaNoCiclo {
  readonly assinaturaId: number;
  readonly usuarioid: number;
  readonly consumidor: string;
  readonly cesta: string;
  readonly quantidade: number;
  readonly pontoEntregaId: number;
  readonly motivo: string;
}

/** Who was not served in a cycle and why (situacao faltou), in order of subscription, for the coordinator. */
export async function faltasDoCiclo(db: Db, cicloid: number): Promise<FaltaNoCiclo[]> {
  const linhas = await db
    .selectFrom('assinaturaciclo as ac')
    .innerJoin('assinatura as a', 'a.id', 'ac.assinaturaId')
    .innerJoin('usuario as u', 'u.id', 'a.usuarioid')
    .innerJoin('cesta', 'cesta.id', 'a.cestaId')
    .select([
      'ac.assinaturaId',
      'a.usuarioid',
      'u.nome as consumidor',
      'cesta.nome as cesta',
      'ac.quantidade',
      'ac.pontoEntregaId',
      'ac.motivo',
    ])
    .where('ac.cicloid', '=', cicloid)
    .where('ac.situacao', '=', 'faltou')
    .orderBy('a.createdAt')
    .orderBy('a.id')
    .execute();
  return linhas.map((l) => ({ ...l, motivo: l.motivo ?? '' }));
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
// Writes

/** Locks the basket type's row (PostgreSQL) so the cap and the one-active rule are checked against what commits. */
async function travarCesta(trx: Transaction<DB>, cestaId: number): Promise<void> {
  if (ehPostgres(trx)) await trx.selectFrom('cesta').select('id').where('id', '=', cestaId).forUpdate().execute();
}

/**
 * Creates (id null) or changes a subscription: consumers their own, admins anyone's (naming the
 * consumer). Checks the basket type (active), the point (active), the market (an active cesta
 * market), the basket type's cap on active subscriptions (409 naming both) and the one active
 * subscription per basket type (409). Changes apply to cycles not generated yet; a generated
 * cycle changes only through alterarNoCiclo. Audited. When a cycle's order window is open, the
 * subscription is served in it at once (gerarPedidosDoCiclo).
 */
export async function salvarAssinatura(
  banco: Banco,
  ator: Ator,
  entrada: EntradaAssinatura,
  opcoes: OpcoesAssinatura,
): Promise<Assinatura> {
  exigirAgirPor(ator, entrada.usuarioid, 'pedido');
  recusarInvalidos(regrasDaAssinatura(entrada));
  const salva = await emTransacao(banco, async (trx) => {
    const antes = entrada.id === null ? null : await assinaturaDoAtor(trx, ator, entrada.id);
    const consumidor = await consumidorAlvo(trx, ator, antes?.usuarioid ?? entrada.usuarioid);
    await travarCesta(trx, entrada.cestaId);
    const [cesta, ponto, mercado] = await Promise.all([
      trx
        .selectFrom('cesta')
        .select(['id', 'nome', 'ativo', 'limiteAssinaturas'])
        .where('id', '=', entrada.cestaId)
        .executeTakeFirst(),
      trx
        .selectFrom('pontoentrega')
        .select(['id', 'ativo'])
        .where('id', '=', entrada.pontoEntregaId)
        .executeTakeFirst(),
      entrada.mercadoId === null
        ? null
        : trx
            .selectFrom('mercado')
            .select(['id', 'tipo', 'ativo'])
            .where('id', '=', entrada.mercadoId)
            .executeTakeFirst(),
    ]);
    const erros: Record<string, string> = {};
    // A subscription being ended may keep a basket or point deactivated meanwhile.
    const exigeAtivos = entrada.ativa;
    if (cesta === undefined || (exigeAtivos && !cesta.ativo)) erros.cestaId = 'Cesta inexistente ou inativa';
    if (ponto === undefined || (exigeAtivos && !ponto.ativo))
      erros.pontoEntregaId = 'Ponto de entrega inexistente ou inativo';
    if (
      entrada.mercadoId !== null &&
      (mercado === undefined ||
        mercado === null ||
        !podeTipo(mercado.tipo, 'aceitaAssinaturas') ||
        (exigeAtivos && !mercado.ativo))
    ) {
      erros.mercadoId = 'O mercado deve ser um mercado de cestas ativo';
    }
    recusarInvalidos(erros);
    if (cesta === undefined) throw new Error('cesta conferida acima');
    if (entrada.ativa) {
      const outras = await trx
        .selectFrom('assinatura')
        .select(['id', 'usuarioid'])
        .where('cestaId', '=', entrada.cestaId)
        .where('ativa', '=', true)
        .$if(antes !== null, (q) => q.where('id', '!=', antes?.id ?? 0))
        .execute();
      if (outras.some((o) => o.usuarioid === consumidor.id)) {
        throw new Conflito(
          'ASSINATURA_REPETIDA',
          `Já existe uma assinatura ativa da ${cesta.nome} para esta pessoa: altere a que existe`,
          { cestaId: entrada.cestaId },
        );
      }
      if (cesta.limiteAssinaturas !== null && outras.length >= cesta.limiteAssinaturas) {
        throw new Conflito(
          'LIMITE_DE_ASSINATURAS',
          `A ${cesta.nome} aceita no máximo ${cesta.limiteAssinaturas} assinaturas ativas, e todas estão tomadas`,
          { cesta: cesta.nome, limite: cesta.limiteAssinaturas },
        );
      }
    }
    const iso = opcoes.agora.toISOString();
    const valores = {
      usuarioid: consumidor.id,
      cestaId: entrada.cestaId,
      quantidade: entrada.quantidade,
      pontoEntregaId: entrada.pontoEntregaId,
      frequencia: entrada.frequencia,
      inicio: entrada.inicio,
      fim: entrada.fim,
      mercadoId: entrada.mercadoId,
      ativa: entrada.ativa,
      updatedAt: iso,
    };
    let id: number;
    if (antes === null) {
      id = (
        await trx
          .insertInto('assinatura')
          .values({ ...valores, createdAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      await trx.updateTable('assinatura').set(valores).where('id', '=', antes.id).execute();
      id = antes.id;
    }
    const [depois] = await carregarAssinaturas(trx, { id });
    if (depois === undefined) throw new Error('assinatura gravada e não lida');
    await auditar(trx, ator, opcoes.agora, {
      acao: antes === null ? 'criar' : 'salvar',
      entidade: 'assinatura',
      entidadeId: id,
      antes,
      depois,
    });
    return depois;
  });
  esquecerGeracoes(banco);
  if (salva.ativa) await gerarOndeAberto(banco, [salva.cestaId], opcoes);
  return salva;
}

/** Pauses a subscription over [inicio, fim]: every cycle it takes whose order window opens inside is skipped. Audited. */
export async function pausar(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  periodo: { inicio: string; fim: string },
  opcoes: { agora: Date },
): Promise<Assinatura> {
  recusarInvalidos(regrasDoPeriodo(periodo));
  const r = await emTransacao(banco, async (trx) => {
    const antes = await assinaturaDoAtor(trx, ator, assinaturaId);
    const iso = opcoes.agora.toISOString();
    const sobrepostas = antes.pausas.filter((p) => p.inicio <= periodo.fim && periodo.inicio <= p.fim);
    if (sobrepostas.length > 0)
      throw new Conflito('PAUSA_SOBREPOSTA', 'Esta pausa se sobrepõe a outra: altere ou remova a que existe', {
        pausas: sobrepostas,
      });
    await trx
      .insertInto('assinaturapausa')
      .values({ assinaturaId, inicio: periodo.inicio, fim: periodo.fim, createdAt: iso, updatedAt: iso })
      .execute();
    const [depois] = await carregarAssinaturas(trx, { id: assinaturaId });
    await auditar(trx, ator, opcoes.agora, {
      acao: 'pausar',
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes,
      depois,
    });
    return depois ?? antes;
  });
  esquecerGeracoes(banco);
  return r;
}

/** Removes a pause; cycles not generated yet are served again. Audited. */
export async function removerPausa(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  pausaId: number,
  opcoes: OpcoesAssinatura,
): Promise<Assinatura> {
  const r = await emTransacao(banco, async (trx) => {
    const antes = await assinaturaDoAtor(trx, ator, assinaturaId);
    if (!antes.pausas.some((p) => p.id === pausaId))
      throw new NaoEncontrado('PAUSA_NAO_ENCONTRADA', 'Pausa não encontrada');
    await trx
      .deleteFrom('assinaturapausa')
      .where('id', '=', pausaId)
      .where('assinaturaId', '=', assinaturaId)
      .execute();
    const [depois] = await carregarAssinaturas(trx, { id: assinaturaId });
    await auditar(trx, ator, opcoes.agora, {
      acao: 'remover pausa',
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes,
      depois,
    });
    return depois ?? antes;
  });
  esquecerGeracoes(banco);
  if (r.ativa) await gerarOndeAberto(banco, [r.cestaId], opcoes);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Generation

/** The generation's own actor in the audit trail. */
const GERACAO: Ator = {
  email: 'sistema:assinaturas',
  nome: 'Geração das assinaturas',
  usuarioid: null,
  perfil: [],
  ativo: true,
};

type CestaDoCiclo = {
  id: number;
  cestaId: number;
  nome: string;
  ativo: boolean;
  quantidadeCestas: number;
  reservadoMilesimos: number;
  valorReferenciaCentavos: number;
  mercadoId: number | null;
  taxaCentesimos: number | null;
  composta: boolean;
};

async function cestasDoCiclo(trx: Transaction<DB>, cicloid: number, soConfirmados: boolean): Promise<CestaDoCiclo[]> {
  const ids = (await trx.selectFrom('ciclocesta').select('id').where('cicloid', '=', cicloid).execute()).map(
    (c) => c.id,
  );
  await travar(trx, 'ciclocesta', ids);
  const linhas = await trx
    .selectFrom('ciclocesta as cc')
    .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
    .leftJoin('mercado as m', 'm.id', 'cc.mercadoId')
    .select([
      'cc.id',
      'cc.cestaId',
      'cesta.nome',
      'cesta.ativo',
      'cesta.valorReferenciaCentavos',
      'cc.mercadoId',
      'm.taxaAdministrativaCentesimos as taxaCentesimos',
    ])
    // What may be sold is the composition's number (what will be packed), as for any order;
    // once the window has closed (an admin's change), unconfirmed orders hold nothing.
    .select([
      vendaveisDaCesta('cc').as('quantidadeCestas'),
      reservadoDaLinha('ciclocesta', 'cc', soConfirmados).as('reservadoMilesimos'),
    ])
    .select((eb) => cestaComposta(eb).as('composta'))
    .where('cc.cicloid', '=', cicloid)
    .orderBy('cc.id')
    .execute();
  return linhas.map((l) => ({
    ...l,
    ativo: Boolean(l.ativo),
    quantidadeCestas: Number(l.quantidadeCestas),
    reservadoMilesimos: Number(l.reservadoMilesimos),
    composta: Boolean(Number(l.composta)),
  }));
}

function cestaDaAssinatura(
  a: { cestaId: number; mercadoId: number | null },
  cestas: readonly CestaDoCiclo[],
): CestaDoCiclo | undefined {
  return cestas.find((c) => c.cestaId === a.cestaId && (a.mercadoId === null || c.mercadoId === a.mercadoId));
}

const plural = (n: number) => `${n} ${n === 1 ? 'cesta' : 'cestas'}`;

/**
 * Why a subscription cannot be served `quantidade` baskets at `pontoEntregaId` in the cycle, or
 * null when it can: the basket active and composed, the point one the cycle (and the basket's
 * market) serves, and enough free baskets for the whole quantity (never a partial order).
 * `ja`: what the subscription already holds in the cycle (its own reservation, when changing it).
 * `pontos`: what a generation already learnt of each (point, market) in its transaction, where
 * nothing changes the points.
 */
async function motivoParaNaoServir(
  trx: Db,
  cicloid: number,
  cc: CestaDoCiclo,
  quantidade: number,
  pontoEntregaId: number,
  ja: number,
  pontos?: Map<string, string | null>,
): Promise<string | null> {
  if (!cc.ativo) return `A ${cc.nome} está desativada`;
  if (!cc.composta) return `A ${cc.nome} ainda está em composição`;
  const chave = `${pontoEntregaId}:${cc.mercadoId ?? ''}`;
  let doPonto = pontos?.get(chave);
  if (doPonto === undefined) {
    doPonto = await motivoDoPonto(trx, cicloid, pontoEntregaId, cc.mercadoId);
    pontos?.set(chave, doPonto);
  }
  if (doPonto !== null) return doPonto;
  const livre = cc.quantidadeCestas * 1000 - cc.reservadoMilesimos + ja * 1000;
  if (quantidade * 1000 > livre)
    return `Não há cestas para todas: pedidas ${plural(quantidade)} da ${cc.nome}, disponíveis ${plural(Math.max(0, Math.floor(livre / 1000)))}`;
  return null;
}

/** Why the point does not serve the cycle (and the basket's market), as the order rule says it; null when it does. */
async function motivoDoPonto(
  trx: Db,
  cicloid: number,
  pontoEntregaId: number,
  mercadoId: number | null,
): Promise<string | null> {
  try {
    await pontoDoPedido(trx, cicloid, await lerPontoDoPedido(trx, cicloid, pontoEntregaId), mercadoId !== null);
    if (mercadoId !== null) await pontoDosMercados(trx, cicloid, pontoEntregaId, new Set([mercadoId]), false);
    return null;
  } catch (e) {
    if (e instanceof Invalido) return String(e.detalhes?.pontoEntregaId ?? e.message);
    throw e;
  }
}

/**
 * Generates the cycle's subscription orders, once per (subscription, cycle), while its order
 * window is open (outside it, nothing happens). In ONE transaction holding the locks the order
 * rule uses (the cycle, then its baskets), each active subscription the cycle applies to and that
 * has no row for the cycle yet, in order of subscription (createdAt, id): its assinaturaciclo row
 * goes in first (ON CONFLICT DO NOTHING: when it was already there another process did it, and it
 * is skipped), then it is `pausado`, `faltou` (with the reason; no partial order, and later
 * subscriptions may still be served) or `gerado`: its basket line, at the basket's price and with
 * the market's fee as salvarPedido records them, in the consumer's order (created at its point
 * and confirmed, or the existing one). Audited; the receipt goes out when `avisos` is given.
 */
export async function gerarPedidosDoCiclo(
  banco: Banco,
  cicloid: number,
  opcoes: OpcoesAssinatura,
): Promise<ResumoDaGeracao> {
  let aberto = false;
  const resumo = await emTransacao(banco, async (trx) => {
    const ciclo = await cicloDasJanelas(trx, cicloid, 'pedido');
    const nada = { gerados: 0, faltaram: [], pulados: 0, pausados: 0 };
    if (!ciclo.ativo || ciclo.fechadoEm !== null || !janelaAberta(ciclo, opcoes.hoje, 'pedido')) return nada;
    aberto = true;
    const cestas = await cestasDoCiclo(trx, cicloid, false);
    if (cestas.length === 0) return nada;
    const pendentes = await trx
      .selectFrom('assinatura as a')
      .innerJoin('usuario as u', 'u.id', 'a.usuarioid')
      .select([
        'a.id',
        'a.usuarioid',
        'u.nome as consumidor',
        'a.cestaId',
        'a.quantidade',
        'a.pontoEntregaId',
        'a.frequencia',
        'a.inicio',
        'a.fim',
        'a.mercadoId',
      ])
      .where('a.ativa', '=', true)
      .where('a.cestaId', 'in', [...new Set(cestas.map((c) => c.cestaId))])
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('assinaturaciclo as ac')
              .select('ac.id')
              .whereRef('ac.assinaturaId', '=', 'a.id')
              .where('ac.cicloid', '=', cicloid),
          ),
        ),
      )
      .orderBy('a.createdAt')
      .orderBy('a.id')
      .execute();
    const pulados = Number(
      (
        await trx
          .selectFrom('assinaturaciclo')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('cicloid', '=', cicloid)
          .where('situacao', '=', 'pulado')
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (pendentes.length === 0) return { ...nada, pulados };
    const [ciclos, pausas] = await Promise.all([
      ciclosComACesta(
        trx,
        pendentes.map((a) => a.cestaId),
      ),
      trx
        .selectFrom('assinaturapausa')
        .select(['assinaturaId', 'inicio', 'fim'])
        .where(
          'assinaturaId',
          'in',
          pendentes.map((a) => a.id),
        )
        .execute(),
    ]);
    const iso = opcoes.agora.toISOString();
    let gerados = 0;
    let pausados = 0;
    const faltaram: Array<{ assinaturaId: number; consumidor: string; motivo: string }> = [];
    const pontos = new Map<string, string | null>();
    const registros: RegistroAuditoria[] = [];
    for (const a of pendentes) {
      const cc = cestaDaAssinatura(a, cestas);
      const aqui = ciclosAplicaveis(
        { ...a, pausas: pausas.filter((p) => p.assinaturaId === a.id) },
        candidatosDe(a, ciclos),
      ).find((x) => x.cicloid === cicloid);
      if (cc === undefined || aqui === undefined) continue;
      const motivo =
        aqui.situacao === 'pausado'
          ? null
          : await motivoParaNaoServir(trx, cicloid, cc, a.quantidade, a.pontoEntregaId, 0, pontos);
      const situacao: SituacaoNoCiclo = aqui.situacao === 'pausado' ? 'pausado' : motivo !== null ? 'faltou' : 'gerado';
      const linha = await trx
        .insertInto('assinaturaciclo')
        .values({
          assinaturaId: a.id,
          cicloid,
          situacao,
          quantidade: a.quantidade,
          pontoEntregaId: a.pontoEntregaId,
          motivo,
          pedidoId: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .onConflict((oc) => oc.columns(['assinaturaId', 'cicloid']).doNothing())
        .returning('id')
        .executeTakeFirst();
      // Another process generated this one meanwhile.
      if (linha === undefined) continue;
      if (situacao === 'pausado') pausados++;
      else if (situacao === 'faltou')
        faltaram.push({ assinaturaId: a.id, consumidor: a.consumidor, motivo: motivo ?? '' });
      else {
        const { pedidoId } = await gravarLinhaDeAssinatura(
          trx,
          {
            cicloid,
            usuarioid: a.usuarioid,
            pontoEntregaId: a.pontoEntregaId,
            cicloCestaId: cc.id,
            quantidadeMilesimos: a.quantidade * 1000,
            valorCentavos: cc.valorReferenciaCentavos,
            mercadoId: cc.mercadoId,
            taxaCentesimos: cc.taxaCentesimos,
            assinaturaId: a.id,
          },
          opcoes,
        );
        cc.reservadoMilesimos += a.quantidade * 1000;
        await trx.updateTable('assinaturaciclo').set({ pedidoId }).where('id', '=', linha.id).execute();
        gerados++;
        if (opcoes.avisos !== undefined) {
          const pedido = await pedidoDe(trx, cicloid, a.usuarioid, opcoes.taxa);
          if (pedido !== null) await opcoes.avisos.emitir(trx, { tipo: 'recibo', pedido });
        }
      }
      registros.push({
        acao: `gerar (${situacao})`,
        entidade: 'assinatura',
        entidadeId: a.id,
        depois: { cicloid, situacao, quantidade: a.quantidade, motivo },
      });
    }
    await auditar(trx, GERACAO, opcoes.agora, registros);
    return { gerados, faltaram, pulados, pausados };
  });
  // Only a generation inside the window settles the cycle: before it opens, nothing was generated.
  if (aberto) marcarGerado(banco, cicloid);
  return resumo;
}

/** Generation for every cycle whose order window is open today (offering one of `cestaIds`, when given). */
export async function gerarOndeAberto(
  banco: Banco,
  cestaIds: readonly number[] | null,
  opcoes: OpcoesAssinatura,
): Promise<Map<number, ResumoDaGeracao>> {
  let q = banco
    .selectFrom('ciclo as c')
    .select('c.id')
    .where('c.ativo', '=', true)
    .where('c.fechadoEm', 'is', null)
    .where('c.dataPedidoInicio', '<=', opcoes.hoje)
    .where('c.dataPedidoFim', '>=', opcoes.hoje)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('assinatura as a')
          .innerJoin('ciclocesta as cc', 'cc.cestaId', 'a.cestaId')
          .select('a.id')
          .whereRef('cc.cicloid', '=', 'c.id')
          .where('a.ativa', '=', true),
      ),
    );
  if (cestaIds !== null)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('ciclocesta as cc')
          .select('cc.id')
          .whereRef('cc.cicloid', '=', 'c.id')
          .where('cc.cestaId', 'in', [...cestaIds, -1]),
      ),
    );
  const resumos = new Map<number, ResumoDaGeracao>();
  for (const c of await q.orderBy('c.dataPedidoInicio').orderBy('c.id').execute())
    resumos.set(c.id, await gerarPedidosDoCiclo(banco, c.id, opcoes));
  return resumos;
}

// Per process and database: the cycles whose subscriptions were generated since the last
// subscription change here. A one-off order in one of them needs no look at the subscriptions.
const gerados = new WeakMap<Banco, Set<number>>();

function marcarGerado(banco: Banco, cicloid: number): void {
  const s = gerados.get(banco) ?? new Set<number>();
  s.add(cicloid);
  gerados.set(banco, s);
}

function esquecerGeracoes(banco: Banco): void {
  gerados.delete(banco);
}

/**
 * Subscriptions go first: called by fazerPedido before a one-off order takes stock. Once per
 * process and cycle (until a subscription changes here) it reads the cycle with one indexed
 * EXISTS: an active subscription of a basket the cycle offers with no row for the cycle yet; with
 * the order window open, it generates the cycle when there is one. Only an open window is
 * remembered: from then on a subscription saved in any process is generated there at once, so
 * nothing can be pending here that this process does not know of (the periodic round catches
 * the rest, such as a basket added to the cycle later).
 */
export async function gerarAntesDoPedido(banco: Banco, cicloid: number, opcoes: OpcoesAssinatura): Promise<void> {
  if (gerados.get(banco)?.has(cicloid) === true) return;
  const ciclo = await banco
    .selectFrom('ciclo as c')
    .select(['c.ativo', 'c.fechadoEm', 'c.dataPedidoInicio', 'c.dataPedidoFim'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('ciclocesta as cc')
            .innerJoin('assinatura as a', 'a.cestaId', 'cc.cestaId')
            .select('a.id')
            .whereRef('cc.cicloid', '=', 'c.id')
            .where('a.ativa', '=', true)
            .where((eb2) =>
              eb2.not(
                eb2.exists(
                  eb2
                    .selectFrom('assinaturaciclo as ac')
                    .select('ac.id')
                    .whereRef('ac.assinaturaId', '=', 'a.id')
                    .where('ac.cicloid', '=', cicloid),
                ),
              ),
            ),
        )
        .as('pendente'),
    )
    .where('c.id', '=', cicloid)
    .executeTakeFirst();
  if (
    ciclo === undefined ||
    !ciclo.ativo ||
    ciclo.fechadoEm !== null ||
    !(opcoes.hoje >= ciclo.dataPedidoInicio && opcoes.hoje <= ciclo.dataPedidoFim)
  )
    return;
  if (Number(ciclo.pendente) !== 0) await gerarPedidosDoCiclo(banco, cicloid, opcoes);
  else marcarGerado(banco, cicloid);
}

// ---------------------------------------------------------------------------------------------
// One cycle of one subscription

/** The subscription, the cycle inside its window (admins: any time, flagged) and its basket there, all under the order locks. */
async function noCiclo(trx: Transaction<DB>, ator: Ator, assinaturaId: number, cicloid: number, hoje: string) {
  const a = await assinaturaDoAtor(trx, ator, assinaturaId);
  const ciclo = await cicloDasJanelas(trx, cicloid, 'pedido');
  const { foraDaJanela } = exigirJanela(ciclo, hoje, 'pedido', ehGestor(ator));
  const cestas = await cestasDoCiclo(trx, cicloid, soConfirmadosSeguram(ciclo, hoje));
  const cc = cestaDaAssinatura(a, cestas);
  if (cc === undefined)
    throw new Conflito('CICLO_SEM_A_CESTA', `O ciclo ${ciclo.nome} não oferece a cesta desta assinatura`);
  const linha = await trx
    .selectFrom('assinaturaciclo')
    .selectAll()
    .where('assinaturaId', '=', assinaturaId)
    .where('cicloid', '=', cicloid)
    .executeTakeFirst();
  return { a, ciclo, foraDaJanela, cc, linha };
}

const situacaoDe = (r: {
  assinaturaId: number;
  cicloid: number;
  situacao: SituacaoNoCiclo;
  quantidade: number;
  pontoEntregaId: number;
  pedidoId: number | null;
  motivo: string | null;
}): SituacaoDoCiclo => ({
  assinaturaId: r.assinaturaId,
  cicloid: r.cicloid,
  situacao: r.situacao,
  quantidade: r.quantidade,
  pontoEntregaId: r.pontoEntregaId,
  pedidoId: r.pedidoId,
  motivo: r.motivo,
});

/**
 * The subscriber (or an admin) skips a cycle. Before generation, the cycle's row says `pulado`
 * and generation leaves it; after it, the subscription's baskets leave the order (the reservation
 * is released; the order goes when nothing is left). Inside the order window only; admins any
 * time (audited as outside the window); others get 409 JANELA_FECHADA.
 */
export async function pularCiclo(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  cicloid: number,
  opcoes: OpcoesAssinatura,
): Promise<SituacaoDoCiclo> {
  return emTransacao(banco, async (trx) => {
    const { a, foraDaJanela, linha } = await noCiclo(trx, ator, assinaturaId, cicloid, opcoes.hoje);
    const iso = opcoes.agora.toISOString();
    if (linha?.situacao === 'pulado') return situacaoDe(linha);
    if (linha === undefined) {
      await trx
        .insertInto('assinaturaciclo')
        .values({
          assinaturaId,
          cicloid,
          situacao: 'pulado',
          quantidade: a.quantidade,
          pontoEntregaId: a.pontoEntregaId,
          pedidoId: null,
          motivo: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    } else {
      if (linha.situacao === 'gerado' && linha.pedidoId !== null)
        await retirarLinhaDeAssinatura(trx, linha.pedidoId, assinaturaId, linha.quantidade * 1000, opcoes.agora);
      await trx
        .updateTable('assinaturaciclo')
        .set({ situacao: 'pulado', pedidoId: null, motivo: null, updatedAt: iso })
        .where('id', '=', linha.id)
        .execute();
    }
    const depois = await situacaoNoCiclo(trx, assinaturaId, cicloid);
    if (depois === null) throw new Error('situação gravada e não lida');
    await auditar(trx, ator, opcoes.agora, {
      acao: `pular ciclo${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes: linha ?? null,
      depois,
    });
    return depois;
  });
}

/**
 * Changes one cycle of a subscription (quantity and point), generated or not, skipped or not:
 * the cycle is then served with these, under the same reservation rule as any order (409
 * SEM_ESTOQUE saying what is left). Changing the point of a generated cycle moves the order's
 * point. Inside the order window only; admins any time (audited). The subscription itself is
 * unchanged.
 */
export async function alterarNoCiclo(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  cicloid: number,
  mudanca: { quantidade: number; pontoEntregaId: number },
  opcoes: OpcoesAssinatura,
): Promise<SituacaoDoCiclo> {
  if (!Number.isInteger(mudanca.quantidade) || mudanca.quantidade < 1)
    recusarInvalidos({ quantidade: 'A quantidade deve ser um número inteiro de cestas, pelo menos 1' });
  return emTransacao(banco, async (trx) => {
    const { a, foraDaJanela, cc, linha } = await noCiclo(trx, ator, assinaturaId, cicloid, opcoes.hoje);
    const iso = opcoes.agora.toISOString();
    const servida = linha?.situacao === 'gerado' && linha.pedidoId !== null ? linha : null;
    const motivo = await motivoParaNaoServir(
      trx,
      cicloid,
      cc,
      mudanca.quantidade,
      mudanca.pontoEntregaId,
      servida?.quantidade ?? 0,
    );
    if (motivo !== null) {
      const livre = Math.max(
        0,
        Math.floor((cc.quantidadeCestas * 1000 - cc.reservadoMilesimos) / 1000) + (servida?.quantidade ?? 0),
      );
      if (mudanca.quantidade > livre)
        throw new Conflito('SEM_ESTOQUE', motivo, {
          disponivel: [{ nome: cc.nome, disponivel: livre, pedido: mudanca.quantidade, unidade: 'cesta' }],
        });
      throw new Conflito('NAO_PODE_SERVIR', motivo);
    }
    let pedidoId: number;
    if (servida?.pedidoId != null) {
      pedidoId = servida.pedidoId;
      const delta = (mudanca.quantidade - servida.quantidade) * 1000;
      const l = await trx
        .selectFrom('pedidoproduto')
        .select(['id', 'quantidadeMilesimos'])
        .where('pedidoid', '=', pedidoId)
        .where('assinaturaId', '=', assinaturaId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('pedidoproduto')
        .set({ quantidadeMilesimos: l.quantidadeMilesimos + delta, updatedAt: iso })
        .where('id', '=', l.id)
        .execute();
      await trx
        .updateTable('pedido')
        .set({ pontoEntregaId: mudanca.pontoEntregaId, updatedAt: iso })
        .where('id', '=', pedidoId)
        .execute();
    } else {
      pedidoId = (
        await gravarLinhaDeAssinatura(
          trx,
          {
            cicloid,
            usuarioid: a.usuarioid,
            pontoEntregaId: mudanca.pontoEntregaId,
            cicloCestaId: cc.id,
            quantidadeMilesimos: mudanca.quantidade * 1000,
            valorCentavos: cc.valorReferenciaCentavos,
            mercadoId: cc.mercadoId,
            taxaCentesimos: cc.taxaCentesimos,
            assinaturaId,
          },
          opcoes,
        )
      ).pedidoId;
    }
    const valores = {
      situacao: 'gerado' as const,
      quantidade: mudanca.quantidade,
      pontoEntregaId: mudanca.pontoEntregaId,
      pedidoId,
      motivo: null,
      updatedAt: iso,
    };
    if (linha === undefined)
      await trx
        .insertInto('assinaturaciclo')
        .values({ assinaturaId, cicloid, ...valores, createdAt: iso })
        .execute();
    else await trx.updateTable('assinaturaciclo').set(valores).where('id', '=', linha.id).execute();
    const depois = await situacaoNoCiclo(trx, assinaturaId, cicloid);
    if (depois === null) throw new Error('situação gravada e não lida');
    await auditar(trx, ator, opcoes.agora, {
      acao: `alterar no ciclo${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes: linha ?? null,
      depois,
    });
    return depois;
  });
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

/** Sets a basket type's cap on active subscriptions (null: no cap). Active subscriptions above a lowered cap stay; new ones wait. Audited. */
export async function definirLimiteDeAssinaturas(
  banco: Banco,
  ator: Ator,
  cestaId: number,
  limite: number | null,
  opcoes: { agora: Date },
): Promise<{ cestaId: number; nome: string; limiteAssinaturas: number | null }> {
  if (limite !== null && (!Number.isInteger(limite) || limite < 0))
    recusarInvalidos({
      limiteAssinaturas: 'O limite deve ser um número inteiro de assinaturas (0 ou mais), ou vazio para não limitar',
    });
  return emTransacao(banco, async (trx) => {
    const antes = await trx
      .selectFrom('cesta')
      .select(['id', 'nome', 'limiteAssinaturas'])
      .where('id', '=', cestaId)
      .executeTakeFirst();
    if (antes === undefined) throw new NaoEncontrado('CESTA_NAO_ENCONTRADA', 'Cesta não encontrada');
    await trx
      .updateTable('cesta')
      .set({ limiteAssinaturas: limite, updatedAt: opcoes.agora.toISOString() })
      .where('id', '=', cestaId)
      .execute();
    await auditar(trx, ator, opcoes.agora, {
      acao: 'limite de assinaturas',
      entidade: 'cesta',
      entidadeId: cestaId,
      antes,
      depois: { ...antes, limiteAssinaturas: limite },
    });
    return { cestaId, nome: antes.nome, limiteAssinaturas: limite };
  });
}

// A season paid in advance

/**
 * A season payment's movement key: `assinatura:<id>:pagamento:envio:<envio>` when the request
 * names its sending (the form carries a token made when the page was drawn, so a second click or
 * a resent form records nothing new), else `assinatura:<id>:pagamento:<instante>:<aleatório>`:
 * each payment its own (two instalments in the same instant are two credits). Either way the key
 * names the subscription it pays.
 */
const PREFIXO_DO_PAGAMENTO = 'assinatura:';
const CHAVE_DO_PAGAMENTO = /^assinatura:(\d+):pagamento:/;

/** What a sending token may be: 8 to 64 letters, digits and hyphens (a UUID fits). */
export const ENVIO_VALIDO = /^[A-Za-z0-9-]{8,64}$/;

function chaveDoPagamento(assinaturaId: number, iso: string, envio: string | null): string {
  return envio === null
    ? `${PREFIXO_DO_PAGAMENTO}${assinaturaId}:pagamento:${iso}:${randomUUID()}`
    : `${PREFIXO_DO_PAGAMENTO}${assinaturaId}:pagamento:envio:${envio}`;
}

/** The subscription a season payment's movement key names, or null for any other key. */
function assinaturaDoPagamento(chave: string | null): number | null {
  const m = CHAVE_DO_PAGAMENTO.exec(chave ?? '');
  return m === null ? null : Number(m[1]);
}

/** The most one payment may record (R$ 1.000.000,00): a typo of a few zeros is refused. */
export const MAIOR_PAGAMENTO_CENTAVOS = 100_000_000;

export interface PagamentoDaTemporada {
  readonly movimentacaoId: number;
  readonly assinaturaId: number;
  readonly usuarioid: number;
  readonly valorCentavos: number;
  readonly data: string;
  readonly descricao: string;
  /** True when this sending had already been recorded: nothing new was written. */
  readonly repetido: boolean;
}

/**
 * The coordination records a season paid in advance for a subscription: a credit movement
 * ("Pagamento recebido") for the subscriber, naming the subscription in its description and key.
 * Nothing else changes: each cycle's closing debits the subscription's orders like any confirmed
 * order (fecharCiclo), so the credit is drawn down cycle by cycle, to the centavo, and /saldo shows
 * what is left. Admins only; audited. `envio` names the sending: the same sending again records
 * nothing and answers the payment it recorded (repetido).
 */
export async function registrarPagamentoDaTemporada(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  valorCentavos: number,
  opcoes: { agora: Date; hoje: string; descricao?: string | null; envio?: string | null },
): Promise<PagamentoDaTemporada> {
  autorizar(ator, 'financeiroEscrever');
  if (!Number.isInteger(valorCentavos) || valorCentavos < 1 || valorCentavos > MAIOR_PAGAMENTO_CENTAVOS) {
    recusarInvalidos({ valor: 'Informe o valor pago, maior que zero (até R$ 1.000.000,00)' });
  }
  const envio = opcoes.envio ?? null;
  if (envio !== null && !ENVIO_VALIDO.test(envio))
    recusarInvalidos({ envio: 'Envio inválido: recarregue a página e registre de novo' });
  return emTransacao(banco, async (trx) => {
    const a = await assinaturaDoAtor(trx, ator, assinaturaId);
    const info = await trx.selectFrom('cesta').select('nome').where('id', '=', a.cestaId).executeTakeFirstOrThrow();
    const tipo = await trx
      .selectFrom('tipomovimentacao')
      .select('id')
      .where('nome', '=', 'Pagamento recebido')
      .executeTakeFirst();
    if (tipo === undefined) throw new Error('tipo de movimentação "Pagamento recebido" não semeado');
    const [ai, mi, di] = a.inicio.split('-');
    const [af, mf, df] = a.fim.split('-');
    const extra = opcoes.descricao?.trim() ?? '';
    const descricao = `Pagamento antecipado da temporada da assinatura ${a.id} (${info.nome}, ${di}/${mi}/${ai} a ${df}/${mf}/${af})${extra === '' ? '' : `: ${extra}`}`;
    const iso = opcoes.agora.toISOString();
    const chave = chaveDoPagamento(a.id, iso, envio);
    const linha = await trx
      .insertInto('movimentacao')
      .values({
        usuarioid: a.usuarioid,
        tipoMovimentacaoId: tipo.id,
        sentido: 'credito',
        valorCentavos,
        data: opcoes.hoje,
        descricao,
        arquivo: null,
        cicloid: null,
        chave,
        criadoPor: ator.usuarioid,
        createdAt: iso,
        updatedAt: iso,
      })
      .onConflict((oc) => oc.column('chave').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (linha === undefined) {
      // This sending was recorded before: answer what it recorded.
      const ja = await trx
        .selectFrom('movimentacao')
        .select(['id', 'usuarioid', 'valorCentavos', 'data', 'descricao'])
        .where('chave', '=', chave)
        .executeTakeFirstOrThrow();
      return {
        movimentacaoId: ja.id,
        assinaturaId: a.id,
        usuarioid: ja.usuarioid,
        valorCentavos: ja.valorCentavos,
        data: ja.data,
        descricao: ja.descricao,
        repetido: true,
      };
    }
    const pagamento: PagamentoDaTemporada = {
      movimentacaoId: linha.id,
      assinaturaId: a.id,
      usuarioid: a.usuarioid,
      valorCentavos,
      data: opcoes.hoje,
      descricao,
      repetido: false,
    };
    await auditar(trx, ator, opcoes.agora, {
      acao: 'registrar pagamento da temporada',
      entidade: 'assinatura',
      entidadeId: a.id,
      depois: pagamento,
    });
    return pagamento;
  });
}
