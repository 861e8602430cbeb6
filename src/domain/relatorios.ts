import { CAMPOS_DATA } from './calendario.ts';
import { sql } from 'kysely';
import type { Db } from '../db/banco.ts';
import { ehConsumidor, ehFornecedor, veTudo, type Ator } from './acesso.ts';
import { entregasDoCiclo, type ChaveMercado, type EntregaDaLinha } from './alocacao.ts';
import { faseDoCiclo, type Fase } from './ciclos.ts';
import { naUnidadeEscolhida } from './composicao.ts';
import { itensDasCestas } from './conteudo-das-cestas.ts';
import { formatarQuantidade, valorDaQuantidade } from '../decimal.ts';
import { Invalido, NaoEncontrado } from './erros.ts';
import { horarioDeRetiradaTexto } from './tempo.ts';
import { carregarPedidosDoCiclo, type Pedido, type Taxa } from './pedidos.ts';
import { soConfirmadosSeguram } from './reservas.ts';
import { lerPapeis } from './papeis.ts';

/**
 * DOMAIN.md (Markets in cycles): an AdminMercado has no Cestas perfil of its own, but reads the
 * reports of the orders bought in the market they administer (through their linked account).
 */
async function administraOMercado(db: Db, usuarioid: number, mercadoId: number): Promise<boolean> {
  const r = await db
    .selectFrom('mercado as m')
    .innerJoin('appuser as a', 'a.id', 'm.adminId')
    .innerJoin('usuario as u', 'u.id', 'a.usuarioId')
    .select('u.perfil')
    .where('m.id', '=', mercadoId)
    .where('u.id', '=', usuarioid)
    .where('u.ativo', '=', true)
    .executeTakeFirst();
  return r !== undefined && lerPapeis(r.perfil).includes('adminMercado');
}

/**
 * Reports are declarative: columns, rows in exact integer units, an optional grouping and the
 * columns that add up. One renderer per format (JSON, HTML, CSV, PDF) reads the same Relatorio,
 * so the formats can never disagree.
 */
/** `data`: an ISO date (YYYY-MM-DD) kept as text; people read it as dd/mm/aaaa. */
export type TipoColuna = 'texto' | 'quantidade' | 'dinheiro' | 'inteiro' | 'data';

export interface Coluna {
  readonly chave: string;
  readonly titulo: string;
  readonly tipo: TipoColuna;
  /**
   * The header in a spreadsheet (the CSV), where a cell is a bare number with no page around it:
   * "Quantidade planejada" where the page says "Planejado". Without it, `titulo`.
   */
  readonly tituloPlanilha?: string;
  /** Summed into group subtotals and the grand total. */
  readonly soma?: boolean;
  /**
   * A field for programs only, under the contract's own name: in the JSON rows, never a column
   * people read in the table.
   */
  readonly somenteDados?: true;
}

/** The columns people read (the table): all but the fields for programs. */
export function colunasLegiveis(r: Relatorio): readonly Coluna[] {
  return r.colunas.filter((c) => c.somenteDados !== true);
}

/** A cell: text, or an integer in the column's unit (cents, thousandths, count). */
export type Celula = string | number | null;
export type LinhaRelatorio = Readonly<Record<string, Celula>>;

export interface Grupo {
  readonly titulo: string;
  /** A line about the group as a whole (a delivery point's address), for the printed sections. */
  readonly nota?: string;
  readonly linhas: readonly LinhaRelatorio[];
  readonly subtotais: Readonly<Record<string, number>>;
}

export interface Relatorio {
  readonly titulo: string;
  readonly subtitulo: string;
  readonly colunas: readonly Coluna[];
  readonly grupos: readonly Grupo[];
  readonly totais: Readonly<Record<string, number>>;
  /** The column the rows are grouped by: each group's title, so a printed group leaves it out. */
  readonly agrupadoPor?: string;
  /** A printed sheet's empty column to tick ("Recebido") or sign on delivery day. */
  readonly conferencia?: Conferencia;
  /** Printed, each group starts on a page of its own (a delivery point's sheet). */
  readonly paginaPorGrupo?: boolean;
  /** The markets of the report's cycles, for the page's market filter (absent: none to offer). */
  readonly mercados?: readonly MercadoDosCiclos[];
}

export interface Conferencia {
  readonly titulo: string;
  /** Room for a handwritten initial or signature (rubrica): a wide column and rows tall enough to sign in. */
  readonly rubrica: boolean;
}

/** What a report may say beyond its rows: a note per group (by title) and a column to tick. */
export interface Apresentacao {
  readonly notas?: ReadonlyMap<string, string>;
  readonly conferencia?: Conferencia;
  readonly paginaPorGrupo?: boolean;
}

function somar(colunas: readonly Coluna[], linhas: readonly LinhaRelatorio[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const c of colunas.filter((x) => x.soma === true))
    t[c.chave] = linhas.reduce((s, l) => s + (typeof l[c.chave] === 'number' ? (l[c.chave] as number) : 0), 0);
  return t;
}

/** Groups rows by a text column (in order of first appearance) and adds the subtotals and totals. */
export function montarRelatorio(
  titulo: string,
  subtitulo: string,
  colunas: readonly Coluna[],
  linhas: readonly LinhaRelatorio[],
  agruparPor?: string,
  apresentacao: Apresentacao = {},
): Relatorio {
  const grupos = new Map<string, LinhaRelatorio[]>();
  for (const l of linhas) {
    const chave = agruparPor === undefined ? '' : String(l[agruparPor] ?? '');
    grupos.set(chave, [...(grupos.get(chave) ?? []), l]);
  }
  return {
    titulo,
    subtitulo,
    colunas,
    grupos: [...grupos.entries()].map(([t, ls]) => {
      const nota = apresentacao.notas?.get(t);
      return { titulo: t, ...(nota === undefined ? {} : { nota }), linhas: ls, subtotais: somar(colunas, ls) };
    }),
    totais: somar(colunas, linhas),
    ...(agruparPor === undefined ? {} : { agrupadoPor: agruparPor }),
    ...(apresentacao.conferencia === undefined ? {} : { conferencia: apresentacao.conferencia }),
    ...(apresentacao.paginaPorGrupo === true ? { paginaPorGrupo: true } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Which cycles.

async function ciclosPorId(
  db: Db,
  ids: readonly number[],
): Promise<
  Array<{
    id: number;
    nome: string;
    dataOfertaInicio: string;
    dataOfertaFim: string;
    dataPedidoInicio: string;
    dataPedidoFim: string;
    dataRetiradaInicio: string;
    dataRetiradaFim: string;
  }>
> {
  const linhas = await db
    .selectFrom('ciclo')
    .select(['id', 'nome', ...CAMPOS_DATA])
    .where('id', 'in', [...ids])
    .execute();
  const faltando = ids.filter((i) => !linhas.some((l) => l.id === i));
  if (faltando.length > 0)
    throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o(s) ciclo(s) ${faltando.join(', ')}`);
  return ids.map((i) => linhas.find((l) => l.id === i)).filter((l) => l !== undefined);
}

/** Recent cycles for the selection pages. */
export async function ciclosParaEscolher(db: Db, hoje: string) {
  const linhas = await db
    .selectFrom('ciclo')
    .select(['id', 'nome', ...CAMPOS_DATA])
    .orderBy('dataOfertaInicio', 'desc')
    .limit(60)
    .execute();
  return linhas.map((l) => ({ id: l.id, nome: l.nome, fase: faseDoCiclo(l, hoje) }));
}

/**
 * The current cycle, for a report asked for without naming one: the latest cycle that has already
 * begun (its offer window opened), else the nearest one still to come; null when there is none.
 */
export function cicloAtual(ciclos: ReadonlyArray<{ id: number; fase: Fase }>): number | null {
  const comecado = ciclos.find((c) => c.fase !== 'planejado');
  return comecado?.id ?? ciclos.at(-1)?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// Which markets (DOMAIN.md, Markets in cycles): every report can be filtered and grouped by market.

export interface MercadoDosCiclos {
  readonly id: number;
  readonly nome: string;
}

/** The markets the cycles serve, each once, in their order of service (the first cycle's first). */
export async function mercadosDosCiclos(db: Db, cicloids: readonly number[]): Promise<MercadoDosCiclos[]> {
  if (cicloids.length === 0) return [];
  const linhas = await db
    .selectFrom('ciclomercado as cm')
    .innerJoin('mercado as m', 'm.id', 'cm.mercadoId')
    .select(['cm.cicloid', 'cm.mercadoId', 'm.nome', 'cm.ordemAtendimento'])
    .where('cm.cicloid', 'in', [...cicloids])
    .orderBy('cm.ordemAtendimento')
    .orderBy('cm.mercadoId')
    .execute();
  const vistos = new Map<number, MercadoDosCiclos>();
  for (const cicloid of cicloids)
    for (const l of linhas)
      if (l.cicloid === cicloid && !vistos.has(l.mercadoId)) vistos.set(l.mercadoId, { id: l.mercadoId, nome: l.nome });
  return [...vistos.values()];
}

/** The market a report is narrowed to, and whether the actor reads it as the market's AdminMercado. */
interface FiltroDeMercado {
  readonly mercadoId: number;
  readonly nome: string;
  /** The actor administers it: they read everyone's figures in it (and only in it). */
  readonly doMercado: boolean;
}

/** What a report knows of markets: those of its cycles, and the one it is narrowed to. */
interface Mercados {
  readonly lista: readonly MercadoDosCiclos[];
  readonly filtro: FiltroDeMercado | null;
}

/**
 * The markets of a report's cycles and its optional `mercadoId`, which must be one of them: 400
 * naming the market otherwise, never a silently empty report.
 */
async function mercadosDoRelatorio(
  db: Db,
  ator: Ator,
  ciclos: ReadonlyArray<{ id: number; nome: string }>,
  mercadoId: number | null,
): Promise<Mercados> {
  const lista = await mercadosDosCiclos(
    db,
    ciclos.map((c) => c.id),
  );
  if (mercadoId === null) return { lista, filtro: null };
  const mercado = lista.find((m) => m.id === mercadoId);
  if (mercado === undefined) {
    const existe = await db.selectFrom('mercado').select('nome').where('id', '=', mercadoId).executeTakeFirst();
    const onde = ciclos.length === 1 ? `o ciclo ${ciclos[0]?.nome ?? ''}` : 'os ciclos escolhidos';
    const mensagem =
      existe === undefined ? `Não encontramos o mercado ${mercadoId}` : `O mercado ${existe.nome} não atende ${onde}`;
    throw new Invalido('MERCADO_FORA_DO_CICLO', mensagem, { mercadoId: mensagem });
  }
  const doMercado =
    !veTudo(ator) && ator.usuarioid !== null && (await administraOMercado(db, ator.usuarioid, mercadoId));
  return { lista, filtro: { mercadoId, nome: mercado.nome, doMercado } };
}

const SEM_MERCADO = 'Sem mercado';

/** A row's market as people read it, and its place among the groups (order of service; none last). */
function nomeDoMercado(m: Mercados, mercadoId: ChaveMercado): string {
  return mercadoId === null ? SEM_MERCADO : (m.lista.find((x) => x.id === mercadoId)?.nome ?? `Mercado ${mercadoId}`);
}

function ordemDoMercado(m: Mercados, nome: string): number {
  const i = m.lista.findIndex((x) => x.nome === nome);
  return i === -1 ? m.lista.length : i;
}

/** Only the market the report is narrowed to, if any. */
const noFiltro = (m: Mercados, mercadoId: ChaveMercado) => m.filtro === null || m.filtro.mercadoId === mercadoId;

/** The report, offering its cycles' markets to filter by when there are any. */
const comMercadosDoCiclo = (r: Relatorio, m: Mercados): Relatorio =>
  m.lista.length === 0 ? r : { ...r, mercados: m.lista };

/** A line a subtitle ends with: the market it is narrowed to. */
const soOMercado = (m: Mercados) => (m.filtro === null ? '' : ` · só ${m.filtro.nome}`);

/** One collator for every sort: String#localeCompare builds one per call, which dominates big reports. */
const ordemPtBr = new Intl.Collator('pt-BR').compare;

/** A supplier's rows: everyone's for admins and info, and for a market's AdminMercado in that market. */
const so = (ator: Ator, fornecedorId: number, m: Mercados | null = null) =>
  veTudo(ator) || m?.filtro?.doMercado === true || fornecedorId === ator.usuarioid;

// ---------------------------------------------------------------------------------------------
// The optional market grouping (docs/decisions.md, "Relatórios: um modelo, e o mercado como
// agrupamento opcional"): each report family is one function. Whether its rows come per market is
// chosen from the data (its cycles serve markets or not); the columns that only one of the two
// shapes has say so (`mercados`), and a line or an order is split into its market parts, or taken
// whole, by the same two helpers.

/** A column of a report family: `mercados: true` only when grouped by market, `false` only when not. */
type ColunaDaFamilia = Coluna & { readonly mercados?: boolean };

/** The market column, first where rows come per market. */
const COLUNA_MERCADO: ColunaDaFamilia = { chave: 'mercado', titulo: 'Mercado', tipo: 'texto', mercados: true };

/** The columns of one report of the family, with or without its market grouping. */
function colunasDaFamilia(colunas: readonly ColunaDaFamilia[], porMercado: boolean): Coluna[] {
  return colunas
    .filter((c) => c.mercados === undefined || c.mercados === porMercado)
    .map(({ mercados: _so, ...c }) => c);
}

/** Grouped by market: the report's cycles serve markets. */
const agrupaPorMercado = (m: Mercados): boolean => m.lista.length > 0;

/** Rows in the markets' order of service (none last); all equal when the report is not grouped by market. */
const naOrdemDosMercados =
  (m: Mercados) =>
  (a: LinhaRelatorio, b: LinhaRelatorio): number =>
    agrupaPorMercado(m) ? ordemDoMercado(m, String(a.mercado)) - ordemDoMercado(m, String(b.mercado)) : 0;

/** What one offered line gives to a report: a part per market (named; null when not grouped). */
interface ParteDaLinha {
  readonly mercado: string | null;
  readonly planejadoMil: number;
  readonly pedidoMil: number;
  readonly paraCestasMil: number;
  readonly paraLotesMil: number;
  readonly extrasReservadosMil: number;
}

/** A line's parts: per market (only the market the report is narrowed to, if any), or the whole line as one. */
function partesDaLinha(m: Mercados, e: EntregaDaLinha): ParteDaLinha[] {
  if (!agrupaPorMercado(m)) {
    return [
      {
        mercado: null,
        planejadoMil: e.planejadoMil,
        pedidoMil: e.pedidoMil,
        paraCestasMil: e.linha.paraCestasMil,
        paraLotesMil: e.linha.paraLotesMil,
        extrasReservadosMil: e.extrasReservadosMil,
      },
    ];
  }
  return e.porMercado
    .filter((p) => noFiltro(m, p.mercadoId))
    .map((p) => ({ ...p, mercado: nomeDoMercado(m, p.mercadoId) }));
}

/** The `mercado` cell of a part's row: none when the report is not grouped by market. */
const celulaDoMercado = (mercado: string | null): LinhaRelatorio => (mercado === null ? {} : { mercado });

// ---------------------------------------------------------------------------------------------
// Supplier reports.

const COLUNAS_FORNECEDORES: readonly ColunaDaFamilia[] = [
  COLUNA_MERCADO,
  { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
  { chave: 'ciclo', titulo: 'Ciclo', tipo: 'texto' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'planejado', titulo: 'Planejado', tituloPlanilha: 'Quantidade planejada', tipo: 'quantidade' },
  { chave: 'quantidade', titulo: 'Pedido', tituloPlanilha: 'Quantidade pedida', tipo: 'quantidade' },
  { chave: 'valorUnitario', titulo: 'Valor unitário', tipo: 'dinheiro' },
  { chave: 'valorTotal', titulo: 'Valor', tipo: 'dinheiro', soma: true },
];

/** One row of what a supplier delivers: a product of a cycle, in one market when the cycle has markets. */
export interface Entrega {
  readonly fornecedor: string;
  readonly fornecedorId: number;
  readonly ciclo: string;
  /** The market's name in cycles with markets ("Sem mercado" for the cycle's own orders); null without. */
  readonly mercado: string | null;
  readonly produto: string;
  readonly unidade: string;
  readonly planejadoMilesimos: number;
  readonly pedidoMilesimos: number;
  readonly valorUnitarioCentavos: number;
  /** What was ordered, at the supplier's price. */
  readonly valorCentavos: number;
}

/**
 * What each supplier delivers: planned and ordered per product, for the given cycles. With
 * markets, one row per product and market, in the markets' order of service.
 */
async function entregasDosFornecedores(
  db: Db,
  deQuem: (fornecedorId: number) => boolean,
  ciclos: ReadonlyArray<{ id: number; nome: string }>,
  m: Mercados,
): Promise<Entrega[]> {
  const comMercados = m.lista.length > 0;
  const linhas: Entrega[] = [];
  for (const ciclo of ciclos) {
    for (const e of await entregasDoCiclo(db, ciclo.id)) {
      if (!deQuem(e.linha.fornecedorId)) continue;
      const base = {
        fornecedor: e.linha.fornecedor,
        fornecedorId: e.linha.fornecedorId,
        ciclo: ciclo.nome,
        produto: e.linha.produto,
        unidade: e.linha.unidade,
        valorUnitarioCentavos: e.linha.valorCentavos,
      };
      if (!comMercados) {
        if (e.planejadoMil === 0 && e.pedidoMil === 0) continue;
        linhas.push({
          ...base,
          mercado: null,
          planejadoMilesimos: e.planejadoMil,
          pedidoMilesimos: e.pedidoMil,
          valorCentavos: valorDaQuantidade(e.linha.valorCentavos, e.pedidoMil),
        });
        continue;
      }
      for (const parte of e.porMercado) {
        if (!noFiltro(m, parte.mercadoId) || (parte.planejadoMil === 0 && parte.pedidoMil === 0)) continue;
        linhas.push({
          ...base,
          mercado: nomeDoMercado(m, parte.mercadoId),
          planejadoMilesimos: parte.planejadoMil,
          pedidoMilesimos: parte.pedidoMil,
          valorCentavos: valorDaQuantidade(e.linha.valorCentavos, parte.pedidoMil),
        });
      }
    }
  }
  return linhas.sort(
    (a, b) =>
      (comMercados ? ordemDoMercado(m, a.mercado ?? '') - ordemDoMercado(m, b.mercado ?? '') : 0) ||
      ordemPtBr(a.fornecedor, b.fornecedor) ||
      a.fornecedorId - b.fornecedorId,
  );
}

/** The supplier report's rows (COLUNAS_FORNECEDORES, and the market's column in cycles with markets). */
async function linhasDosFornecedores(
  db: Db,
  ator: Ator,
  ciclos: ReadonlyArray<{ id: number; nome: string }>,
  m: Mercados,
): Promise<LinhaRelatorio[]> {
  return (await entregasDosFornecedores(db, (fornecedorId) => so(ator, fornecedorId, m), ciclos, m)).map((e) => ({
    ...(e.mercado === null ? {} : { mercado: e.mercado }),
    fornecedor: e.fornecedor,
    fornecedorId: e.fornecedorId,
    ciclo: e.ciclo,
    produto: e.produto,
    unidade: e.unidade,
    valorUnitario: e.valorUnitarioCentavos,
    planejado: e.planejadoMilesimos,
    quantidade: e.pedidoMilesimos,
    valorTotal: e.valorCentavos,
  }));
}

/**
 * What one supplier delivers in one cycle, ordered and not nothing: the rows of its own supplier
 * report (per market in cycles with markets), for the `entregas` notice.
 */
export async function oQueOFornecedorEntrega(db: Db, cicloid: number, fornecedorId: number): Promise<Entrega[]> {
  const [ciclos, lista] = await Promise.all([ciclosPorId(db, [cicloid]), mercadosDosCiclos(db, [cicloid])]);
  return (await entregasDosFornecedores(db, (id) => id === fornecedorId, ciclos, { lista, filtro: null })).filter(
    (e) => e.pedidoMilesimos > 0,
  );
}

/**
 * /pedidosfornecedorestodos/:id and /pedidosfornecedoresciclos (and its CSV): per supplier, with
 * subtotals; in cycles with markets, per market (a supplier's value in each market is what it
 * ordered there at the supplier's price). `mercadoId` narrows it to one market of the cycles.
 */
export async function relatorioDosFornecedores(
  db: Db,
  ator: Ator,
  cicloids: readonly number[],
  hoje: string,
  mercadoId: number | null = null,
): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const m = await mercadosDoRelatorio(db, ator, ciclos, mercadoId);
  const abertos = ciclos.some((c) => hoje <= c.dataPedidoFim);
  const porMercado = agrupaPorMercado(m);
  const colunas = colunasDaFamilia(
    COLUNAS_FORNECEDORES.filter((c) => cicloids.length > 1 || c.chave !== 'ciclo'),
    porMercado,
  );
  return comMercadosDoCiclo(
    montarRelatorio(
      'Pedidos aos fornecedores',
      `${ciclos.map((c) => c.nome).join(', ')}${soOMercado(m)}${abertos ? ' · pedidos ainda abertos: "Planejado" usa a composição e todos os extras publicados' : ''}`,
      colunas,
      await linhasDosFornecedores(db, ator, ciclos, m),
      porMercado ? 'mercado' : 'fornecedor',
    ),
    m,
  );
}

/** What is left of each line is the cycle's: with markets, only the lots' column is added (never a market's). */
const COLUNAS_SOBRA: readonly ColunaDaFamilia[] = [
  { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'ofertado', titulo: 'Ofertado', tipo: 'quantidade' },
  { chave: 'paraCestas', titulo: 'Para cestas', tipo: 'quantidade' },
  { chave: 'paraLotes', titulo: 'Para lotes', tipo: 'quantidade', mercados: true },
  { chave: 'paraExtras', titulo: 'Para extras', tipo: 'quantidade' },
  { chave: 'sobra', titulo: 'Sobra', tipo: 'quantidade' },
  { chave: 'valorUnitario', titulo: 'Valor unitário', tipo: 'dinheiro' },
  { chave: 'valorSobra', titulo: 'Valor da sobra', tipo: 'dinheiro', soma: true },
];

/**
 * /pedidosfornecedoressobra/:id: per supplier × product, offered / to baskets / to lots / to extras /
 * left over. What is left of a line is the cycle's, shared by all its markets: it is not split
 * per market (the page says so), and lots take from it like baskets.
 */
export async function relatorioDeSobra(db: Db, ator: Ator, cicloid: number, hoje: string): Promise<Relatorio> {
  const [ciclo] = await ciclosPorId(db, [cicloid]);
  const comMercados = (await mercadosDosCiclos(db, [cicloid])).length > 0;
  const linhas: LinhaRelatorio[] = [];
  for (const e of await entregasDoCiclo(db, cicloid, {
    soConfirmadosReservam: ciclo !== undefined && soConfirmadosSeguram(ciclo, hoje),
  })) {
    if (!so(ator, e.linha.fornecedorId)) continue;
    const sobra = e.linha.ofertadoMil - e.linha.paraCestasMil - e.linha.paraLotesMil - e.extrasReservadosMil;
    linhas.push({
      fornecedor: e.linha.fornecedor,
      produto: e.linha.produto,
      unidade: e.linha.unidade,
      ofertado: e.linha.ofertadoMil,
      paraCestas: e.linha.paraCestasMil,
      ...(comMercados ? { paraLotes: e.linha.paraLotesMil } : {}),
      paraExtras: e.extrasReservadosMil,
      sobra,
      valorUnitario: e.linha.valorCentavos,
      valorSobra: valorDaQuantidade(e.linha.valorCentavos, Math.max(0, sobra)),
    });
  }
  return montarRelatorio(
    'Sobra das ofertas',
    `${ciclo?.nome ?? ''}${comMercados ? ' · a sobra de cada linha é do ciclo, a mesma para todos os mercados: por isso este relatório não se divide por mercado' : ''}`,
    colunasDaFamilia(COLUNAS_SOBRA, comMercados),
    linhas.sort((a, b) => ordemPtBr(String(a.fornecedor), String(b.fornecedor))),
    'fornecedor',
  );
}

/**
 * The product report's columns. What is offered and left over is the cycle's, not a market's (see
 * the surplus report), so those columns are only in the report of cycles without markets; lots only
 * exist in cycles with markets.
 */
const COLUNAS_PRODUTOS: readonly ColunaDaFamilia[] = [
  COLUNA_MERCADO,
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'ofertado', titulo: 'Ofertado', tipo: 'quantidade', mercados: false },
  { chave: 'paraCestas', titulo: 'Nas cestas', tipo: 'quantidade' },
  { chave: 'extras', titulo: 'Pedido como extra', tipo: 'quantidade' },
  { chave: 'sobra', titulo: 'Sobra', tipo: 'quantidade', mercados: false },
  { chave: 'paraLotes', titulo: 'Nos lotes', tipo: 'quantidade', mercados: true },
  { chave: 'valor', titulo: 'Valor (cestas e extras)', tipo: 'dinheiro', soma: true, mercados: false },
  { chave: 'valor', titulo: 'Valor (cestas, extras e lotes)', tipo: 'dinheiro', soma: true, mercados: true },
];

/**
 * /relatorioprodutosciclos: per product across cycles (a supplier sees their own lines only). In
 * cycles with markets, per market: what each market's baskets, extras and lots take of each
 * product; without, what was offered, taken and left over.
 */
export async function relatorioDeProdutos(
  db: Db,
  ator: Ator,
  cicloids: readonly number[],
  hoje: string,
  mercadoId: number | null = null,
): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const m = await mercadosDoRelatorio(db, ator, ciclos, mercadoId);
  const porMercado = agrupaPorMercado(m);
  const porProduto = new Map<
    string,
    {
      mercado: string | null;
      produto: string;
      unidade: string;
      ofertado: number;
      paraCestas: number;
      paraLotes: number;
      extras: number;
      valor: number;
    }
  >();
  for (const ciclo of ciclos) {
    for (const e of await entregasDoCiclo(db, ciclo.id, { soConfirmadosReservam: soConfirmadosSeguram(ciclo, hoje) })) {
      if (!so(ator, e.linha.fornecedorId, m)) continue;
      for (const parte of partesDaLinha(m, e)) {
        const levado = parte.paraCestasMil + parte.paraLotesMil + parte.extrasReservadosMil;
        // A market's group lists what it took; the whole cycle's lists every line offered.
        if (parte.mercado !== null && levado === 0) continue;
        const chave = `${parte.mercado ?? ''}\u0000${e.linha.produto}\u0000${e.linha.unidade}`;
        const p = porProduto.get(chave) ?? {
          mercado: parte.mercado,
          produto: e.linha.produto,
          unidade: e.linha.unidade,
          ofertado: 0,
          paraCestas: 0,
          paraLotes: 0,
          extras: 0,
          valor: 0,
        };
        p.ofertado += e.linha.ofertadoMil;
        p.paraCestas += parte.paraCestasMil;
        p.paraLotes += parte.paraLotesMil;
        p.extras += parte.extrasReservadosMil;
        p.valor += valorDaQuantidade(e.linha.valorCentavos, levado);
        porProduto.set(chave, p);
      }
    }
  }
  const linhas = [...porProduto.values()].map(({ mercado, ...p }): LinhaRelatorio => ({
    ...celulaDoMercado(mercado),
    ...p,
    sobra: p.ofertado - p.paraCestas - p.extras,
  }));
  return comMercadosDoCiclo(
    montarRelatorio(
      'Produtos dos ciclos',
      `${ciclos.map((c) => c.nome).join(', ')}${soOMercado(m)}${porMercado ? ' · por mercado; o ofertado e a sobra são do ciclo inteiro (veja a sobra das ofertas)' : ''}`,
      colunasDaFamilia(COLUNAS_PRODUTOS, porMercado),
      linhas.sort((a, b) => naOrdemDosMercados(m)(a, b) || ordemPtBr(String(a.produto), String(b.produto))),
      porMercado ? 'mercado' : undefined,
    ),
    m,
  );
}

// ---------------------------------------------------------------------------------------------
// Consumer report.

/** Where an order line came from: a subscription's generated baskets, or a one-off order. */
export const ORIGEM_ASSINATURA = 'Assinatura';
export const ORIGEM_AVULSO = 'Avulso';
function origemDaLinha(l: { readonly assinaturaId: number | null }): string {
  return l.assinaturaId === null ? ORIGEM_AVULSO : ORIGEM_ASSINATURA;
}
/** Lines together (an order's, or its part in a market): Assinatura when every one came from subscriptions. */
function origemDasLinhas(linhas: ReadonlyArray<{ readonly assinaturaId: number | null }>): string {
  return linhas.length > 0 && linhas.every((l) => l.assinaturaId !== null) ? ORIGEM_ASSINATURA : ORIGEM_AVULSO;
}

/**
 * /pedidosconsumidoresciclos: each order's lines and fees. In cycles with markets each line says
 * its market and each market's fee is its own line; with `mercadoId`, only what was bought in
 * that market (and its fee).
 */
export async function relatorioDosConsumidores(
  db: Db,
  ator: Ator,
  cicloids: readonly number[],
  taxa: Taxa,
  mercadoId: number | null = null,
): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const m = await mercadosDoRelatorio(db, ator, ciclos, mercadoId);
  const linhas: LinhaRelatorio[] = [];
  let comMercados = mercadoId !== null;
  const doMercado = m.filtro?.doMercado === true;
  for (const ciclo of ciclos) {
    const pedidos = await carregarPedidosDoCiclo(
      db,
      ciclo.id,
      veTudo(ator) || doMercado ? null : (ator.usuarioid ?? -1),
      taxa,
    );
    for (const p of pedidos) {
      const base = {
        consumidor: p.usuario.nome,
        ciclo: ciclo.nome,
        pontoEntrega: p.pontoEntrega.nome,
        situacao: p.finalizado ? 'confirmado' : 'não confirmado',
      };
      for (const l of p.produtos) {
        if (mercadoId !== null && l.mercadoId !== mercadoId) continue;
        if (l.mercadoId !== null) comMercados = true;
        linhas.push({
          ...base,
          mercado: l.mercado ?? '',
          origem: origemDaLinha(l),
          item: l.nome,
          quantidade: l.quantidadeMilesimos,
          valorUnitario: l.valorCentavos,
          valor: l.subtotalCentavos,
        });
      }
      for (const parte of p.partes) {
        if (parte.taxaCentavos === 0 || (mercadoId !== null && parte.mercadoId !== mercadoId)) continue;
        // A market's fee is the subscription's when every line it charges came from subscriptions.
        const origem = origemDasLinhas(p.produtos.filter((l) => l.mercadoId === parte.mercadoId));
        linhas.push({
          ...base,
          mercado: parte.mercado ?? '',
          origem,
          item: parte.mercado === null ? 'Taxa administrativa' : `Taxa de ${parte.mercado}`,
          quantidade: null,
          valorUnitario: null,
          valor: parte.taxaCentavos,
        });
      }
    }
  }
  // A cycle without markets keeps the report it always had: no market column, no market key.
  const semMercado = (l: LinhaRelatorio): LinhaRelatorio =>
    Object.fromEntries(Object.entries(l).filter(([k]) => k !== 'mercado'));
  return comMercadosDoCiclo(
    montarRelatorio(
      'Pedidos dos consumidores',
      `${ciclos.map((c) => c.nome).join(', ')}${soOMercado(m)}`,
      colunasDaFamilia(
        [
          { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
          ...(cicloids.length > 1 ? [{ chave: 'ciclo', titulo: 'Ciclo', tipo: 'texto' as const }] : []),
          COLUNA_MERCADO,
          { chave: 'pontoEntrega', titulo: 'Ponto de entrega', tipo: 'texto' },
          { chave: 'situacao', titulo: 'Situação', tipo: 'texto' },
          { chave: 'origem', titulo: 'Assinatura ou avulso', tipo: 'texto' },
          { chave: 'item', titulo: 'Item', tipo: 'texto' },
          { chave: 'quantidade', titulo: 'Quantidade', tipo: 'quantidade' },
          { chave: 'valorUnitario', titulo: 'Preço', tipo: 'dinheiro' },
          { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true },
        ],
        comMercados,
      ),
      (comMercados ? linhas : linhas.map(semMercado)).sort((a, b) =>
        ordemPtBr(String(a.consumidor), String(b.consumidor)),
      ),
      'consumidor',
    ),
    m,
  );
}

// ---------------------------------------------------------------------------------------------
// Movements.

export interface FiltroMovimentacoes {
  readonly usuarioid: number | null;
  readonly cicloid: number | null;
  readonly tipoMovimentacaoId: number | null;
  readonly de: string | null;
  readonly ate: string | null;
}

/**
 * /movimentacaotodos: movements with each person's running balance over their whole history
 * (a window function, so filters never distort it). Admins, master and info see everyone; others
 * only themselves, scoped in SQL.
 */
export async function relatorioDeMovimentacoes(db: Db, ator: Ator, filtro: FiltroMovimentacoes): Promise<Relatorio> {
  const usuarioid = veTudo(ator) ? filtro.usuarioid : (ator.usuarioid ?? -1);
  let base = db
    .selectFrom('movimentacao as m')
    .innerJoin('usuario as u', 'u.id', 'm.usuarioid')
    .innerJoin('tipomovimentacao as t', 't.id', 'm.tipoMovimentacaoId')
    .leftJoin('ciclo as c', 'c.id', 'm.cicloid')
    .select([
      'm.id',
      'm.usuarioid',
      'u.nome as pessoa',
      'm.data',
      't.nome as tipo',
      'm.tipoMovimentacaoId',
      'm.sentido',
      'm.valorCentavos',
      'm.descricao',
      'm.arquivo',
      'm.cicloid',
      'c.nome as ciclo',
    ])
    .select(
      sql<number>`sum(case when m.sentido = 'credito' then m."valorCentavos" else -m."valorCentavos" end) over (partition by m.usuarioid order by m.data, m.id)`.as(
        'saldo',
      ),
    );
  if (usuarioid !== null) base = base.where('m.usuarioid', '=', usuarioid);
  let q = db.selectFrom(base.as('x')).selectAll();
  if (filtro.cicloid !== null) q = q.where('x.cicloid', '=', filtro.cicloid);
  if (filtro.tipoMovimentacaoId !== null) q = q.where('x.tipoMovimentacaoId', '=', filtro.tipoMovimentacaoId);
  if (filtro.de !== null) q = q.where('x.data', '>=', filtro.de);
  if (filtro.ate !== null) q = q.where('x.data', '<=', filtro.ate);
  const linhas = await q
    .orderBy('x.pessoa')
    .orderBy('x.usuarioid')
    .orderBy('x.data')
    .orderBy('x.id')
    .limit(20_000)
    .execute();
  return montarRelatorio(
    'Movimentações',
    veTudo(ator) ? 'Todas as pessoas' : 'Suas movimentações',
    [
      { chave: 'pessoa', titulo: 'Pessoa', tipo: 'texto' },
      { chave: 'data', titulo: 'Data', tipo: 'data' },
      { chave: 'tipo', titulo: 'Tipo', tipo: 'texto' },
      { chave: 'descricao', titulo: 'Descrição', tipo: 'texto' },
      { chave: 'ciclo', titulo: 'Ciclo', tipo: 'texto' },
      { chave: 'credito', titulo: 'Crédito', tipo: 'dinheiro', soma: true },
      { chave: 'debito', titulo: 'Débito', tipo: 'dinheiro', soma: true },
      { chave: 'saldo', titulo: 'Saldo', tipo: 'dinheiro' },
      { chave: 'id', titulo: 'Nº', tipo: 'inteiro' },
      { chave: 'comprovante', titulo: 'Comprovante', tipo: 'texto' },
      // The contract's Movimentacao fields, as POST /movimentacao answers them.
      { chave: 'usuarioid', titulo: 'usuarioid', tipo: 'inteiro', somenteDados: true },
      { chave: 'tipoMovimentacaoId', titulo: 'tipoMovimentacaoId', tipo: 'inteiro', somenteDados: true },
      { chave: 'sentido', titulo: 'sentido', tipo: 'texto', somenteDados: true },
      { chave: 'valor', titulo: 'valor', tipo: 'dinheiro', somenteDados: true },
      { chave: 'arquivo', titulo: 'arquivo', tipo: 'texto', somenteDados: true },
      { chave: 'cicloid', titulo: 'cicloid', tipo: 'inteiro', somenteDados: true },
    ],
    linhas.map((l) => ({
      id: l.id,
      pessoa: l.pessoa,
      data: l.data,
      tipo: l.tipo,
      descricao: l.descricao,
      ciclo: l.ciclo,
      credito: l.sentido === 'credito' ? l.valorCentavos : null,
      debito: l.sentido === 'debito' ? l.valorCentavos : null,
      saldo: Number(l.saldo),
      comprovante: l.arquivo === null ? null : `/movimentacao/${l.id}/arquivo`,
      usuarioid: l.usuarioid,
      tipoMovimentacaoId: l.tipoMovimentacaoId,
      sentido: l.sentido,
      valor: l.valorCentavos,
      arquivo: l.arquivo,
      cicloid: l.cicloid,
    })),
    'pessoa',
  );
}

// ---------------------------------------------------------------------------------------------
// The delivery document of a cycle.

/**
 * What the community prints for delivery day: a cover's figures and its sections, each a report
 * of the same model as the pages (so the receiving sheet is the supplier report's rows, the
 * same cells the page, the JSON and the CSV show).
 */
export interface DocumentoDeEntrega {
  readonly ciclo: { id: number; nome: string; dataRetiradaInicio: string; dataRetiradaFim: string };
  /** The market the document is narrowed to; null: the whole cycle. */
  readonly mercado: string | null;
  /** Confirmed orders, and what they add up to with the fee, in cents. */
  readonly pedidos: number;
  readonly totalCentavos: number;
  /** Baskets to assemble; orders per delivery point; packing per basket type; receiving per supplier. */
  readonly secoes: readonly Relatorio[];
}

/** A delivery point's sheet: a row per consumer; in a cycle with markets, per consumer and market, with its fee. */
const COLUNAS_PONTOS: readonly ColunaDaFamilia[] = [
  { chave: 'ponto', titulo: 'Ponto de entrega', tipo: 'texto' },
  { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
  { chave: 'telefone', titulo: 'Telefone', tipo: 'texto' },
  COLUNA_MERCADO,
  { chave: 'itens', titulo: 'Itens', tipo: 'texto' },
  { chave: 'taxa', titulo: 'Taxa do mercado', tipo: 'dinheiro', soma: true, mercados: true },
  { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true, mercados: false },
  { chave: 'valor', titulo: 'Valor com taxa', tipo: 'dinheiro', soma: true, mercados: true },
];

const COLUNAS_MONTAGEM: readonly Coluna[] = [
  { chave: 'cesta', titulo: 'Cesta', tipo: 'texto' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
  { chave: 'quantidade', titulo: 'Por cesta', tipo: 'quantidade' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
];

/** The receiving sheet: the supplier report's columns for one cycle, without the plan. */
const COLUNAS_RECEBIMENTO = COLUNAS_FORNECEDORES.filter((c) => c.chave !== 'ciclo' && c.chave !== 'planejado');

/** One order's lines in a cell: "2 × Pequena (assinatura); 1,5 kg tomate" (a subscription's baskets say so). */
function itensDoPedido(linhas: Pedido['produtos']): string {
  return linhas
    .map(
      (l) =>
        `${formatarQuantidade(l.quantidadeMilesimos)} ${l.tipo === 'cesta' ? '×' : l.unidade} ${l.nome}${l.assinaturaId === null ? '' : ' (assinatura)'}`,
    )
    .join('; ');
}

/** An order's parts: per market, in their order of service, each with its fee; or the whole order, fee included. */
function partesDoPedido(
  m: Mercados,
  p: Pedido,
): Array<{
  readonly mercado: string | null;
  readonly linhas: Pedido['produtos'];
  readonly taxa: number;
  readonly valor: number;
}> {
  if (!agrupaPorMercado(m))
    return [{ mercado: null, linhas: p.produtos, taxa: p.taxaCentavos, valor: p.totalComTaxaCentavos }];
  return [...p.partes]
    .sort((a, b) => ordemDoMercado(m, nomeDoMercado(m, a.mercadoId)) - ordemDoMercado(m, nomeDoMercado(m, b.mercadoId)))
    .map((x) => ({
      mercado: nomeDoMercado(m, x.mercadoId),
      linhas: p.produtos.filter((l) => l.mercadoId === x.mercadoId),
      taxa: x.taxaCentavos,
      valor: x.subtotalCentavos + x.taxaCentavos,
    }));
}

/** An order seen from one market: only its lines and its fee there; null when it bought nothing there. */
function pedidoNoMercado(p: Pedido, mercadoId: number): Pedido | null {
  const produtos = p.produtos.filter((l) => l.mercadoId === mercadoId);
  const partes = p.partes.filter((x) => x.mercadoId === mercadoId);
  if (produtos.length === 0) return null;
  const totalCentavos = partes.reduce((s, x) => s + x.subtotalCentavos, 0);
  const taxaCentavos = partes.reduce((s, x) => s + x.taxaCentavos, 0);
  return { ...p, produtos, partes, totalCentavos, taxaCentavos, totalComTaxaCentavos: totalCentavos + taxaCentavos };
}

/**
 * Delivered and charged: confirmed orders only; the unconfirmed ones are listed apart. A consumer
 * sees their own entry, a supplier their own receiving sheet; admins and info see everything.
 */
export async function documentoDeEntrega(
  db: Db,
  ator: Ator,
  cicloid: number,
  taxa: Taxa,
  mercadoId: number | null = null,
): Promise<DocumentoDeEntrega> {
  const [ciclo] = await ciclosPorId(db, [cicloid]);
  if (ciclo === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${cicloid}`);
  const m = await mercadosDoRelatorio(db, ator, [ciclo], mercadoId);
  // A market's AdminMercado reads that market's whole document, as the coordination does.
  const todos = veTudo(ator) || m.filtro?.doMercado === true;
  // Only one's own order for a consumer; none for a supplier, whose part is the receiving sheet.
  const alvo = todos ? null : ehConsumidor(ator) ? (ator.usuarioid ?? -1) : -1;
  const doCiclo = await carregarPedidosDoCiclo(db, cicloid, alvo, taxa);
  const filtro = m.filtro;
  const todosOsPedidos =
    filtro === null ? doCiclo : doCiclo.map((p) => pedidoNoMercado(p, filtro.mercadoId)).filter((p) => p !== null);
  const pedidos = todosOsPedidos.filter((p) => p.finalizado);
  const pendentes = todosOsPedidos.filter((p) => !p.finalizado);
  const contatos = new Map(
    (todosOsPedidos.length === 0
      ? []
      : await db
          .selectFrom('usuario')
          .select(['id', 'celular'])
          .where(
            'id',
            'in',
            todosOsPedidos.map((p) => p.usuario.id),
          )
          .execute()
    ).map((u) => [u.id, u.celular]),
  );
  const porMercado = agrupaPorMercado(m);
  // With markets, each consumer's lines come market by market (in order of service), each with its fee.
  const linhasDoPedido = (p: Pedido): LinhaRelatorio[] => {
    const base = {
      ponto: p.pontoEntrega.nome,
      consumidor: p.usuario.nome,
      telefone: contatos.get(p.usuario.id) ?? null,
    };
    return partesDoPedido(m, p).map((x) => ({
      ...base,
      ...(x.mercado === null ? {} : { mercado: x.mercado, taxa: x.taxa }),
      itens: itensDoPedido(x.linhas),
      valor: x.valor,
    }));
  };
  const colunasDosPontos = colunasDaFamilia(COLUNAS_PONTOS, porMercado);
  // Stable: a consumer's market rows keep their order of service.
  const porPontoEPessoa = (a: LinhaRelatorio, b: LinhaRelatorio) =>
    ordemPtBr(String(a.ponto), String(b.ponto)) || ordemPtBr(String(a.consumidor), String(b.consumidor));
  const pontos =
    pedidos.length === 0
      ? []
      : await db
          .selectFrom('pontoentrega')
          .select(['id', 'nome', 'endereco', 'responsavel'])
          .where('id', 'in', [...new Set(pedidos.map((p) => p.pontoEntrega.id))])
          .execute();
  // The cycle's day and hours at each point (the same for every order there).
  const horarios = new Map(pedidos.map((p) => [p.pontoEntrega.id, horarioDeRetiradaTexto(p.pontoEntrega)]));
  const notasDosPontos = new Map(
    pontos
      .map(
        (p) =>
          [
            p.nome,
            [horarios.get(p.id) ?? null, p.endereco, p.responsavel === null ? null : `Responsável: ${p.responsavel}`]
              .filter((x) => x !== null && x !== '')
              .join(' · '),
          ] as const,
      )
      .filter(([, nota]) => nota !== ''),
  );
  const subtitulo = `${ciclo.nome}${soOMercado(m)}`;
  const porPonto = montarRelatorio(
    'Ponto de entrega',
    subtitulo,
    colunasDosPontos,
    pedidos.flatMap(linhasDoPedido).sort(porPontoEPessoa),
    'ponto',
    { notas: notasDosPontos, conferencia: { titulo: 'Retirado (rubrica)', rubrica: true }, paginaPorGrupo: true },
  );

  const cestas = new Map<string, number>();
  const assinadas = new Map<string, number>();
  for (const p of pedidos) {
    for (const l of p.produtos) {
      if (l.tipo !== 'cesta') continue;
      cestas.set(l.nome, (cestas.get(l.nome) ?? 0) + l.quantidadeMilesimos / 1000);
      if (l.assinaturaId !== null) assinadas.set(l.nome, (assinadas.get(l.nome) ?? 0) + l.quantidadeMilesimos / 1000);
    }
  }
  // How many of each basket type come from subscriptions and how many from one-off orders.
  const resumo = montarRelatorio(
    'Cestas',
    subtitulo,
    [
      { chave: 'cesta', titulo: 'Cesta', tipo: 'texto' },
      { chave: 'quantidade', titulo: 'Quantidade', tipo: 'inteiro', soma: true },
      { chave: 'assinatura', titulo: 'Por assinatura', tipo: 'inteiro', soma: true },
      { chave: 'avulso', titulo: 'Avulsas', tipo: 'inteiro', soma: true },
    ],
    [...cestas].map(([cesta, quantidade]) => ({
      cesta,
      quantidade,
      assinatura: assinadas.get(cesta) ?? 0,
      avulso: quantidade - (assinadas.get(cesta) ?? 0),
    })),
  );

  // Saved but not confirmed: not delivered nor charged, and holding no stock once the order window
  // closes (DOMAIN.md, "Order"); listed so that the coordination can call each person in time.
  const [ano = '', mes = '', diaFim = ''] = ciclo.dataPedidoFim.split('-');
  const naoConfirmados = montarRelatorio(
    'Pedidos não confirmados',
    subtitulo,
    colunasDosPontos,
    pendentes.flatMap(linhasDoPedido).sort(porPontoEPessoa),
    undefined,
    {
      notas: new Map([
        [
          '',
          `Não entram na entrega nem na cobrança se não forem confirmados até ${diaFim}/${mes}/${ano}, o último dia de pedidos: depois disso, as cestas e os itens que eles reservavam ficam livres.`,
        ],
      ]),
    },
  );
  const secoes: Relatorio[] = [resumo, porPonto, naoConfirmados];
  if (todos) {
    const itens = await itensDasCestas(db, { cicloid }, 'cesta');
    secoes.push(
      montarRelatorio(
        'Montagem',
        subtitulo,
        COLUNAS_MONTAGEM,
        // Per basket in the unit the coordinator composed in: 6 unidade of eggs to count, not 0,5 dúzia.
        [...cestas.keys()].flatMap((cesta) =>
          itens
            .filter((i) => i.cesta === cesta)
            .map((i) => {
              const visto = naUnidadeEscolhida(i.quantidadePorCestaMilesimos, i.unidade, i.unidadeEscolhida);
              return {
                cesta,
                produto: i.produto,
                fornecedor: i.fornecedor,
                quantidade: visto.milesimos,
                unidade: visto.unidade,
              };
            }),
        ),
        'cesta',
        {
          notas: new Map([...cestas].map(([cesta, n]) => [cesta, `Montar ${n} ${n === 1 ? 'cesta' : 'cestas'}`])),
          conferencia: { titulo: 'Conferido', rubrica: false },
        },
      ),
    );
  }
  if (todos || ehFornecedor(ator)) {
    secoes.push(
      montarRelatorio(
        'Recebimento',
        subtitulo,
        colunasDaFamilia(COLUNAS_RECEBIMENTO, porMercado),
        (await linhasDosFornecedores(db, ator, [ciclo], m)).filter((l) => l.quantidade !== 0),
        'fornecedor',
        { conferencia: { titulo: 'Recebido', rubrica: false } },
      ),
    );
  }
  return {
    ciclo: {
      id: ciclo.id,
      nome: ciclo.nome,
      dataRetiradaInicio: ciclo.dataRetiradaInicio,
      dataRetiradaFim: ciclo.dataRetiradaFim,
    },
    mercado: filtro?.nome ?? null,
    pedidos: pedidos.length,
    totalCentavos: pedidos.reduce((s, p) => s + p.totalComTaxaCentavos, 0),
    secoes,
  };
}
