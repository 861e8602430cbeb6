/**
 * The markets of a report (DOMAIN.md, Markets in cycles): those its cycles serve, the one it may be
 * narrowed to (and whether the actor reads it as that market's AdminMercado), whose rows it shows,
 * and the optional market grouping every report family shares.
 */
import type { Db } from '../../db/banco.ts';
import { veTudo, type Ator } from '../acesso.ts';
import type { ChaveMercado, EntregaDaLinha } from '../alocacao.ts';
import { Invalido } from '../erros.ts';
import { lerPapeis } from '../papeis.ts';
import type { Coluna, LinhaRelatorio, MercadoDosCiclos, Relatorio } from './modelo.ts';

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
export interface Mercados {
  readonly lista: readonly MercadoDosCiclos[];
  readonly filtro: FiltroDeMercado | null;
}

/**
 * The markets of a report's cycles and its optional `mercadoId`, which must be one of them: 400
 * naming the market otherwise, never a silently empty report.
 */
export async function mercadosDoRelatorio(
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
export function nomeDoMercado(m: Mercados, mercadoId: ChaveMercado): string {
  return mercadoId === null ? SEM_MERCADO : (m.lista.find((x) => x.id === mercadoId)?.nome ?? `Mercado ${mercadoId}`);
}

export function ordemDoMercado(m: Mercados, nome: string): number {
  const i = m.lista.findIndex((x) => x.nome === nome);
  return i === -1 ? m.lista.length : i;
}

/** Only the market the report is narrowed to, if any. */
export const noFiltro = (m: Mercados, mercadoId: ChaveMercado) => m.filtro === null || m.filtro.mercadoId === mercadoId;

/** The report, offering its cycles' markets to filter by when there are any. */
export const comMercadosDoCiclo = (r: Relatorio, m: Mercados): Relatorio =>
  m.lista.length === 0 ? r : { ...r, mercados: m.lista };

/** A line a subtitle ends with: the market it is narrowed to. */
export const soOMercado = (m: Mercados) => (m.filtro === null ? '' : ` · só ${m.filtro.nome}`);

/** One collator for every sort: String#localeCompare builds one per call, which dominates big reports. */
export const ordemPtBr = new Intl.Collator('pt-BR').compare;

/** A supplier's rows: everyone's for admins and info, and for a market's AdminMercado in that market. */
export const so = (ator: Ator, fornecedorId: number, m: Mercados | null = null) =>
  veTudo(ator) || m?.filtro?.doMercado === true || fornecedorId === ator.usuarioid;

// ---------------------------------------------------------------------------------------------
// The optional market grouping (docs/decisions.md, "Relatórios: um modelo, e o mercado como
// agrupamento opcional"): each report family is one function. Whether its rows come per market is
// chosen from the data (its cycles serve markets or not); the columns that only one of the two
// shapes has say so (`mercados`), and a line or an order is split into its market parts, or taken
// whole, by the same two helpers.

/** A column of a report family: `mercados: true` only when grouped by market, `false` only when not. */
export type ColunaDaFamilia = Coluna & { readonly mercados?: boolean };

/** The market column, first where rows come per market. */
export const COLUNA_MERCADO: ColunaDaFamilia = { chave: 'mercado', titulo: 'Mercado', tipo: 'texto', mercados: true };

/** The columns of one report of the family, with or without its market grouping. */
export function colunasDaFamilia(colunas: readonly ColunaDaFamilia[], porMercado: boolean): Coluna[] {
  return colunas
    .filter((c) => c.mercados === undefined || c.mercados === porMercado)
    .map(({ mercados: _so, ...c }) => c);
}

/** Grouped by market: the report's cycles serve markets. */
export const agrupaPorMercado = (m: Mercados): boolean => m.lista.length > 0;

/** Rows in the markets' order of service (none last); all equal when the report is not grouped by market. */
export const naOrdemDosMercados =
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
export function partesDaLinha(m: Mercados, e: EntregaDaLinha): ParteDaLinha[] {
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
export const celulaDoMercado = (mercado: string | null): LinhaRelatorio => (mercado === null ? {} : { mercado });
