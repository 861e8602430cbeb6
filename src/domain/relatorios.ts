import { sql } from 'kysely';
import type { Db } from '../db/banco.ts';
import { ehConsumidor, ehFornecedor, veTudo, type Ator } from './acesso.ts';
import { entregasDoCiclo } from './alocacao.ts';
import { faseDoCiclo, type Fase } from './ciclos.ts';
import { naUnidadeEscolhida } from './composicao.ts';
import { formatarQuantidade, valorDaQuantidade } from '../decimal.ts';
import { NaoEncontrado } from './erros.ts';
import { horarioDeRetiradaTexto } from './tempo.ts';
import { carregarPedidosDoCiclo, type Pedido, type Taxa } from './pedidos.ts';
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
}

export interface Conferencia {
  readonly titulo: string;
  /** Room for a signature: a wide column and rows tall enough to sign in. */
  readonly assinatura: boolean;
}

/** What a report may say beyond its rows: a note per group (by title) and a column to tick. */
export interface Apresentacao {
  readonly notas?: ReadonlyMap<string, string>;
  readonly conferencia?: Conferencia;
  readonly paginaPorGrupo?: boolean;
}

function somar(colunas: readonly Coluna[], linhas: readonly LinhaRelatorio[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const c of colunas.filter((x) => x.soma === true)) t[c.chave] = linhas.reduce((s, l) => s + (typeof l[c.chave] === 'number' ? (l[c.chave] as number) : 0), 0);
  return t;
}

/** Groups rows by a text column (in order of first appearance) and adds the subtotals and totals. */
export function montarRelatorio(titulo: string, subtitulo: string, colunas: readonly Coluna[], linhas: readonly LinhaRelatorio[], agruparPor?: string, apresentacao: Apresentacao = {}): Relatorio {
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

async function ciclosPorId(db: Db, ids: readonly number[]): Promise<Array<{ id: number; nome: string; dataOfertaInicio: string; dataOfertaFim: string; dataPedidoInicio: string; dataPedidoFim: string; dataRetiradaInicio: string; dataRetiradaFim: string }>> {
  const linhas = await db
    .selectFrom('ciclo')
    .select(['id', 'nome', 'dataOfertaInicio', 'dataOfertaFim', 'dataPedidoInicio', 'dataPedidoFim', 'dataRetiradaInicio', 'dataRetiradaFim'])
    .where('id', 'in', [...ids])
    .execute();
  const faltando = ids.filter((i) => !linhas.some((l) => l.id === i));
  if (faltando.length > 0) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o(s) ciclo(s) ${faltando.join(', ')}`);
  return ids.map((i) => linhas.find((l) => l.id === i)).filter((l) => l !== undefined);
}

/** Recent cycles for the selection pages. */
export async function ciclosParaEscolher(db: Db, hoje: string) {
  const linhas = await db
    .selectFrom('ciclo')
    .select(['id', 'nome', 'dataOfertaInicio', 'dataOfertaFim', 'dataPedidoInicio', 'dataPedidoFim', 'dataRetiradaInicio', 'dataRetiradaFim'])
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

/** One collator for every sort: String#localeCompare builds one per call, which dominates big reports. */
const ordemPtBr = new Intl.Collator('pt-BR').compare;

const so = (ator: Ator, fornecedorId: number) => veTudo(ator) || fornecedorId === ator.usuarioid;

// ---------------------------------------------------------------------------------------------
// Supplier reports.

const COLUNAS_FORNECEDORES: readonly Coluna[] = [
  { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
  { chave: 'ciclo', titulo: 'Ciclo', tipo: 'texto' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'planejado', titulo: 'Planejado', tituloPlanilha: 'Quantidade planejada', tipo: 'quantidade' },
  { chave: 'quantidade', titulo: 'Pedido', tituloPlanilha: 'Quantidade pedida', tipo: 'quantidade' },
  { chave: 'valorUnitario', titulo: 'Valor unitário', tipo: 'dinheiro' },
  { chave: 'valorTotal', titulo: 'Valor', tipo: 'dinheiro', soma: true },
];

/** Rows of what each supplier delivers: planned and ordered per product, for the given cycles. */
async function linhasDosFornecedores(db: Db, ator: Ator, cicloids: readonly number[]): Promise<LinhaRelatorio[]> {
  const ciclos = await ciclosPorId(db, cicloids);
  const linhas: LinhaRelatorio[] = [];
  for (const ciclo of ciclos) {
    for (const e of await entregasDoCiclo(db, ciclo.id)) {
      if (!so(ator, e.linha.fornecedorId) || (e.planejadoMil === 0 && e.pedidoMil === 0)) continue;
      linhas.push({
        fornecedor: e.linha.fornecedor, fornecedorId: e.linha.fornecedorId, ciclo: ciclo.nome, produto: e.linha.produto, unidade: e.linha.unidade,
        planejado: e.planejadoMil, quantidade: e.pedidoMil, valorUnitario: e.linha.valorCentavos, valorTotal: valorDaQuantidade(e.linha.valorCentavos, e.pedidoMil),
      });
    }
  }
  return linhas.sort((a, b) => ordemPtBr(String(a.fornecedor), String(b.fornecedor)) || (a.fornecedorId as number) - (b.fornecedorId as number));
}

/** /pedidosfornecedorestodos/:id and /pedidosfornecedoresciclos: per supplier, with subtotals. */
export async function relatorioDosFornecedores(db: Db, ator: Ator, cicloids: readonly number[], hoje: string): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const abertos = ciclos.some((c) => hoje <= c.dataPedidoFim);
  const colunas = COLUNAS_FORNECEDORES.filter((c) => (cicloids.length > 1 || c.chave !== 'ciclo'));
  return montarRelatorio(
    'Pedidos aos fornecedores',
    `${ciclos.map((c) => c.nome).join(', ')}${abertos ? ' · pedidos ainda abertos: "Planejado" usa a composição e todos os extras publicados' : ''}`,
    colunas,
    await linhasDosFornecedores(db, ator, cicloids),
    'fornecedor',
  );
}

/** /pedidosfornecedoressobra/:id: per supplier × product, offered / to baskets / to extras / left over. */
export async function relatorioDeSobra(db: Db, ator: Ator, cicloid: number): Promise<Relatorio> {
  const [ciclo] = await ciclosPorId(db, [cicloid]);
  const linhas: LinhaRelatorio[] = [];
  for (const e of await entregasDoCiclo(db, cicloid)) {
    if (!so(ator, e.linha.fornecedorId)) continue;
    const sobra = e.linha.ofertadoMil - e.linha.paraCestasMil - e.extrasReservadosMil;
    linhas.push({
      fornecedor: e.linha.fornecedor, produto: e.linha.produto, unidade: e.linha.unidade, ofertado: e.linha.ofertadoMil,
      paraCestas: e.linha.paraCestasMil, paraExtras: e.extrasReservadosMil, sobra, valorUnitario: e.linha.valorCentavos,
      valorSobra: valorDaQuantidade(e.linha.valorCentavos, Math.max(0, sobra)),
    });
  }
  return montarRelatorio(
    'Sobra das ofertas',
    ciclo?.nome ?? '',
    [
      { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
      { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
      { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
      { chave: 'ofertado', titulo: 'Ofertado', tipo: 'quantidade' },
      { chave: 'paraCestas', titulo: 'Para cestas', tipo: 'quantidade' },
      { chave: 'paraExtras', titulo: 'Para extras', tipo: 'quantidade' },
      { chave: 'sobra', titulo: 'Sobra', tipo: 'quantidade' },
      { chave: 'valorUnitario', titulo: 'Valor unitário', tipo: 'dinheiro' },
      { chave: 'valorSobra', titulo: 'Valor da sobra', tipo: 'dinheiro', soma: true },
    ],
    linhas.sort((a, b) => ordemPtBr(String(a.fornecedor), String(b.fornecedor))),
    'fornecedor',
  );
}

/** /relatorioprodutosciclos: per product across cycles (a supplier sees their own lines only). */
export async function relatorioDeProdutos(db: Db, ator: Ator, cicloids: readonly number[]): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const porProduto = new Map<string, { produto: string; unidade: string; ofertado: number; paraCestas: number; extras: number; valor: number }>();
  for (const ciclo of ciclos) {
    for (const e of await entregasDoCiclo(db, ciclo.id)) {
      if (!so(ator, e.linha.fornecedorId)) continue;
      const chave = `${e.linha.produto}\u0000${e.linha.unidade}`;
      const p = porProduto.get(chave) ?? { produto: e.linha.produto, unidade: e.linha.unidade, ofertado: 0, paraCestas: 0, extras: 0, valor: 0 };
      p.ofertado += e.linha.ofertadoMil;
      p.paraCestas += e.linha.paraCestasMil;
      p.extras += e.extrasReservadosMil;
      p.valor += valorDaQuantidade(e.linha.valorCentavos, e.linha.paraCestasMil + e.extrasReservadosMil);
      porProduto.set(chave, p);
    }
  }
  const linhas = [...porProduto.values()]
    .sort((a, b) => ordemPtBr(a.produto, b.produto))
    .map((p) => ({ ...p, sobra: p.ofertado - p.paraCestas - p.extras }));
  return montarRelatorio(
    'Produtos dos ciclos',
    ciclos.map((c) => c.nome).join(', '),
    [
      { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
      { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
      { chave: 'ofertado', titulo: 'Ofertado', tipo: 'quantidade' },
      { chave: 'paraCestas', titulo: 'Nas cestas', tipo: 'quantidade' },
      { chave: 'extras', titulo: 'Pedido como extra', tipo: 'quantidade' },
      { chave: 'sobra', titulo: 'Sobra', tipo: 'quantidade' },
      { chave: 'valor', titulo: 'Valor (cestas e extras)', tipo: 'dinheiro', soma: true },
    ],
    linhas,
  );
}

// ---------------------------------------------------------------------------------------------
// Consumer report.

/** /pedidosconsumidoresciclos: per consumer, baskets and extras, fee, delivery point (a consumer sees their own). */
/**
 * /pedidosconsumidoresciclos: each order's lines and fees. In cycles with markets each line says
 * its market and each market's fee is its own line; with `mercadoId`, only what was bought in
 * that market (and its fee).
 */
export async function relatorioDosConsumidores(db: Db, ator: Ator, cicloids: readonly number[], taxa: Taxa, mercadoId: number | null = null): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const linhas: LinhaRelatorio[] = [];
  let comMercados = mercadoId !== null;
  const doMercado = mercadoId !== null && ator.usuarioid !== null && !veTudo(ator) && await administraOMercado(db, ator.usuarioid, mercadoId);
  for (const ciclo of ciclos) {
    const pedidos = await carregarPedidosDoCiclo(db, ciclo.id, veTudo(ator) || doMercado ? null : (ator.usuarioid ?? -1), taxa);
    for (const p of pedidos) {
      const base = { consumidor: p.usuario.nome, ciclo: ciclo.nome, pontoEntrega: p.pontoEntrega.nome, situacao: p.finalizado ? 'confirmado' : 'não confirmado' };
      for (const l of p.produtos) {
        if (mercadoId !== null && l.mercadoId !== mercadoId) continue;
        if (l.mercadoId !== null) comMercados = true;
        linhas.push({ ...base, mercado: l.mercado ?? '', item: l.nome, quantidade: l.quantidadeMilesimos, valorUnitario: l.valorCentavos, valor: l.subtotalCentavos });
      }
      for (const parte of p.partes) {
        if (parte.taxaCentavos === 0 || (mercadoId !== null && parte.mercadoId !== mercadoId)) continue;
        linhas.push({ ...base, mercado: parte.mercado ?? '', item: parte.mercado === null ? 'Taxa administrativa' : `Taxa de ${parte.mercado}`, quantidade: null, valorUnitario: null, valor: parte.taxaCentavos });
      }
    }
  }
  // A cycle without markets keeps the report it always had: no market column, no market key.
  const semMercado = (l: LinhaRelatorio): LinhaRelatorio => Object.fromEntries(Object.entries(l).filter(([k]) => k !== 'mercado'));
  const mercado = mercadoId === null ? null : await db.selectFrom('mercado').select('nome').where('id', '=', mercadoId).executeTakeFirst();
  return montarRelatorio(
    'Pedidos dos consumidores',
    `${ciclos.map((c) => c.nome).join(', ')}${mercado === null ? '' : ` · só ${mercado?.nome ?? `o mercado ${mercadoId}`}`}`,
    [
      { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
      ...(cicloids.length > 1 ? [{ chave: 'ciclo', titulo: 'Ciclo', tipo: 'texto' as const }] : []),
      ...(comMercados ? [{ chave: 'mercado', titulo: 'Mercado', tipo: 'texto' as const }] : []),
      { chave: 'pontoEntrega', titulo: 'Ponto de entrega', tipo: 'texto' },
      { chave: 'situacao', titulo: 'Situação', tipo: 'texto' },
      { chave: 'item', titulo: 'Item', tipo: 'texto' },
      { chave: 'quantidade', titulo: 'Quantidade', tipo: 'quantidade' },
      { chave: 'valorUnitario', titulo: 'Preço', tipo: 'dinheiro' },
      { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true },
    ],
    (comMercados ? linhas : linhas.map(semMercado)).sort((a, b) => ordemPtBr(String(a.consumidor), String(b.consumidor))),
    'consumidor',
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
    .select(['m.id', 'm.usuarioid', 'u.nome as pessoa', 'm.data', 't.nome as tipo', 'm.tipoMovimentacaoId', 'm.sentido', 'm.valorCentavos', 'm.descricao', 'm.arquivo', 'm.cicloid', 'c.nome as ciclo'])
    .select(sql<number>`sum(case when m.sentido = 'credito' then m."valorCentavos" else -m."valorCentavos" end) over (partition by m.usuarioid order by m.data, m.id)`.as('saldo'));
  if (usuarioid !== null) base = base.where('m.usuarioid', '=', usuarioid);
  let q = db.selectFrom(base.as('x')).selectAll();
  if (filtro.cicloid !== null) q = q.where('x.cicloid', '=', filtro.cicloid);
  if (filtro.tipoMovimentacaoId !== null) q = q.where('x.tipoMovimentacaoId', '=', filtro.tipoMovimentacaoId);
  if (filtro.de !== null) q = q.where('x.data', '>=', filtro.de);
  if (filtro.ate !== null) q = q.where('x.data', '<=', filtro.ate);
  const linhas = await q.orderBy('x.pessoa').orderBy('x.usuarioid').orderBy('x.data').orderBy('x.id').limit(20_000).execute();
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
      id: l.id, pessoa: l.pessoa, data: l.data, tipo: l.tipo, descricao: l.descricao, ciclo: l.ciclo,
      credito: l.sentido === 'credito' ? l.valorCentavos : null, debito: l.sentido === 'debito' ? l.valorCentavos : null,
      saldo: Number(l.saldo), comprovante: l.arquivo === null ? null : `/movimentacao/${l.id}/arquivo`,
      usuarioid: l.usuarioid, tipoMovimentacaoId: l.tipoMovimentacaoId, sentido: l.sentido, valor: l.valorCentavos, arquivo: l.arquivo, cicloid: l.cicloid,
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
  /** Confirmed orders, and what they add up to with the fee, in cents. */
  readonly pedidos: number;
  readonly totalCentavos: number;
  /** Baskets to assemble; orders per delivery point; packing per basket type; receiving per supplier. */
  readonly secoes: readonly Relatorio[];
}

const COLUNAS_PONTOS: readonly Coluna[] = [
  { chave: 'ponto', titulo: 'Ponto de entrega', tipo: 'texto' },
  { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
  { chave: 'telefone', titulo: 'Telefone', tipo: 'texto' },
  { chave: 'itens', titulo: 'Itens', tipo: 'texto' },
  { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true },
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

/** One order's lines in a cell: "2 × Pequena; 1,5 kg tomate". */
function itensDoPedido(p: Pedido): string {
  return p.produtos.map((l) => `${formatarQuantidade(l.quantidadeMilesimos)} ${l.tipo === 'cesta' ? '×' : l.unidade} ${l.nome}`).join('; ');
}

/**
 * Delivered and charged: confirmed orders only; the unconfirmed ones are listed apart. A consumer
 * sees their own entry, a supplier their own receiving sheet; admins and info see everything.
 */
export async function documentoDeEntrega(db: Db, ator: Ator, cicloid: number, taxa: Taxa): Promise<DocumentoDeEntrega> {
  const [ciclo] = await ciclosPorId(db, [cicloid]);
  if (ciclo === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${cicloid}`);
  const todos = veTudo(ator);
  // Only one's own order for a consumer; none for a supplier, whose part is the receiving sheet.
  const alvo = todos ? null : ehConsumidor(ator) ? (ator.usuarioid ?? -1) : -1;
  const todosOsPedidos = await carregarPedidosDoCiclo(db, cicloid, alvo, taxa);
  const pedidos = todosOsPedidos.filter((p) => p.finalizado);
  const pendentes = todosOsPedidos.filter((p) => !p.finalizado);
  const contatos = new Map(
    (todosOsPedidos.length === 0 ? [] : await db.selectFrom('usuario').select(['id', 'celular']).where('id', 'in', todosOsPedidos.map((p) => p.usuario.id)).execute()).map((u) => [u.id, u.celular]),
  );
  const linhaDoPedido = (p: Pedido) => ({ ponto: p.pontoEntrega.nome, consumidor: p.usuario.nome, telefone: contatos.get(p.usuario.id) ?? null, itens: itensDoPedido(p), valor: p.totalComTaxaCentavos });
  const porPontoEPessoa = (a: { ponto: string; consumidor: string }, b: { ponto: string; consumidor: string }) => ordemPtBr(a.ponto, b.ponto) || ordemPtBr(a.consumidor, b.consumidor);
  const pontos = pedidos.length === 0 ? [] : await db.selectFrom('pontoentrega').select(['id', 'nome', 'endereco', 'responsavel']).where('id', 'in', [...new Set(pedidos.map((p) => p.pontoEntrega.id))]).execute();
  // The cycle's day and hours at each point (the same for every order there).
  const horarios = new Map(pedidos.map((p) => [p.pontoEntrega.id, horarioDeRetiradaTexto(p.pontoEntrega)]));
  const notasDosPontos = new Map(
    pontos.map((p) => [p.nome, [horarios.get(p.id) ?? null, p.endereco, p.responsavel === null ? null : `Responsável: ${p.responsavel}`].filter((x) => x !== null && x !== '').join(' · ')] as const).filter(([, nota]) => nota !== ''),
  );
  const porPonto = montarRelatorio(
    'Ponto de entrega',
    ciclo.nome,
    COLUNAS_PONTOS,
    pedidos.map(linhaDoPedido).sort(porPontoEPessoa),
    'ponto',
    { notas: notasDosPontos, conferencia: { titulo: 'Retirado (assinatura)', assinatura: true }, paginaPorGrupo: true },
  );

  const cestas = new Map<string, number>();
  for (const p of pedidos) for (const l of p.produtos) if (l.tipo === 'cesta') cestas.set(l.nome, (cestas.get(l.nome) ?? 0) + l.quantidadeMilesimos / 1000);
  const resumo = montarRelatorio(
    'Cestas',
    ciclo.nome,
    [{ chave: 'cesta', titulo: 'Cesta', tipo: 'texto' }, { chave: 'quantidade', titulo: 'Quantidade', tipo: 'inteiro', soma: true }],
    [...cestas].map(([cesta, quantidade]) => ({ cesta, quantidade })),
  );

  // Saved but never confirmed: not delivered nor charged until confirmed, listed so that the
  // coordination can call each person before the day.
  const naoConfirmados = montarRelatorio(
    'Pedidos não confirmados',
    ciclo.nome,
    COLUNAS_PONTOS,
    pendentes.map(linhaDoPedido).sort(porPontoEPessoa),
    undefined,
    { notas: new Map([['', 'Não entram na entrega nem na cobrança enquanto não forem confirmados.']]) },
  );
  const secoes: Relatorio[] = [resumo, porPonto, naoConfirmados];
  if (todos) {
    const itens = await db
      .selectFrom('composicaoproduto as x')
      .innerJoin('composicao as c', 'c.id', 'x.composicaoid')
      .innerJoin('ciclocesta as cc', 'cc.id', 'c.cicloCestaId')
      .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
      .innerJoin('ofertaproduto as op', 'op.id', 'x.ofertaProdutoId')
      .innerJoin('produto as p', 'p.id', 'op.produtoid')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .innerJoin('usuario as u', 'u.id', 'o.usuarioid')
      .select(['cesta.nome as cesta', 'p.nome as produto', 'p.unidade', 'x.unidade as escolhida', 'u.nome as fornecedor', 'x.quantidadePorCestaMilesimos'])
      .where('cc.cicloid', '=', cicloid)
      .orderBy('cesta.nome')
      .orderBy('p.nome')
      .execute();
    secoes.push(montarRelatorio(
      'Montagem',
      ciclo.nome,
      COLUNAS_MONTAGEM,
      // Per basket in the unit the coordinator composed in: 6 unidade of eggs to count, not 0,5 dúzia.
      [...cestas.keys()].flatMap((cesta) => itens.filter((i) => i.cesta === cesta).map((i) => {
        const visto = naUnidadeEscolhida(i.quantidadePorCestaMilesimos, i.unidade, i.escolhida);
        return { cesta, produto: i.produto, fornecedor: i.fornecedor, quantidade: visto.milesimos, unidade: visto.unidade };
      })),
      'cesta',
      { notas: new Map([...cestas].map(([cesta, n]) => [cesta, `Montar ${n} ${n === 1 ? 'cesta' : 'cestas'}`])), conferencia: { titulo: 'Conferido', assinatura: false } },
    ));
  }
  if (todos || ehFornecedor(ator)) {
    secoes.push(montarRelatorio(
      'Recebimento',
      ciclo.nome,
      COLUNAS_RECEBIMENTO,
      (await linhasDosFornecedores(db, ator, [cicloid])).filter((l) => l.quantidade !== 0),
      'fornecedor',
      { conferencia: { titulo: 'Recebido', assinatura: false } },
    ));
  }
  return {
    ciclo: { id: ciclo.id, nome: ciclo.nome, dataRetiradaInicio: ciclo.dataRetiradaInicio, dataRetiradaFim: ciclo.dataRetiradaFim },
    pedidos: pedidos.length,
    totalCentavos: pedidos.reduce((s, p) => s + p.totalComTaxaCentavos, 0),
    secoes,
  };
}
