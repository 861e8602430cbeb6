/**
 * Markets inside cycles (DOMAIN.md, "Markets in cycles"), the part every kind shares: which
 * markets a cycle serves, in their order of service and with their pickup points, how the
 * coordinator's list of them is judged, and the market of a cycle a kind's module works on.
 * What each kind sells lives beside this file, one module per kind (src/domain/tipos-de-mercado.ts):
 * cesta.ts, venda-direta.ts, lote.ts; setting the list is definir.ts.
 * A cycle with no markets is the classic single-community cycle: none of this applies to it.
 */
import type { Db } from '../../db/banco.ts';
import { ehGestor, type Ator } from '../acesso.ts';
import { Conflito, Invalido, NaoEncontrado, Proibido } from '../erros.ts';
import { TIPOS_DE_MERCADO, tiposQue, vendeDoTipo, type TipoMercado, type VendaDoMercado } from '../tipos-de-mercado.ts';

export function exigirGestor(ator: Ator): void {
  if (!ehGestor(ator))
    throw new Proibido('SEM_PERMISSAO', 'Só a coordenação (admin ou master) organiza os mercados de um ciclo');
}

export const invalido = (erros: Record<string, string>) =>
  new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);

// ---------------------------------------------------------------------------------------------
// The markets of a cycle.

export interface MercadoDoCiclo {
  readonly cicloMercadoId: number;
  readonly mercadoId: number;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly ordemAtendimento: number;
  readonly taxaAdministrativaCentesimos: number | null;
  readonly valorMaximoCestaCentavos: number | null;
  readonly ativo: boolean;
  /** The market's own pickup points in the cycle; empty: the cycle's points. */
  readonly pontos: ReadonlyArray<{ readonly id: number; readonly nome: string }>;
  /** For a cesta market: the cycle baskets it sells. */
  readonly cicloCestaIds: readonly number[];
}

/** The markets a cycle serves, in their order of service (two queries). */
export async function mercadosDoCiclo(db: Db, cicloid: number): Promise<MercadoDoCiclo[]> {
  const [mercados, pontos, cestas] = await Promise.all([
    db
      .selectFrom('ciclomercado as cm')
      .innerJoin('mercado as m', 'm.id', 'cm.mercadoId')
      .select([
        'cm.id as cicloMercadoId',
        'cm.mercadoId',
        'm.nome',
        'm.tipo',
        'cm.ordemAtendimento',
        'm.taxaAdministrativaCentesimos',
        'm.valorMaximoCestaCentavos',
        'm.ativo',
      ])
      .where('cm.cicloid', '=', cicloid)
      .orderBy('cm.ordemAtendimento')
      .execute(),
    db
      .selectFrom('ciclomercadoponto as cmp')
      .innerJoin('ciclomercado as cm', 'cm.id', 'cmp.cicloMercadoId')
      .innerJoin('pontoentrega as pe', 'pe.id', 'cmp.pontoEntregaId')
      .select(['cmp.cicloMercadoId', 'pe.id', 'pe.nome'])
      .where('cm.cicloid', '=', cicloid)
      .orderBy('pe.nomeChave')
      .execute(),
    db
      .selectFrom('ciclocesta')
      .select(['id', 'mercadoId'])
      .where('cicloid', '=', cicloid)
      .where('mercadoId', 'is not', null)
      .orderBy('id')
      .execute(),
  ]);
  return mercados.map((m) => ({
    ...m,
    ativo: Boolean(m.ativo),
    pontos: pontos.filter((p) => p.cicloMercadoId === m.cicloMercadoId).map((p) => ({ id: p.id, nome: p.nome })),
    cicloCestaIds: cestas.filter((c) => c.mercadoId === m.mercadoId).map((c) => c.id),
  }));
}

/** One market of a cycle as the coordinator sets it; `campo` names it in refusals. */
export interface CicloMercadoLido {
  readonly mercadoId: number;
  readonly ordemAtendimento: number;
  readonly pontoEntregaIds: readonly number[];
  /** Cesta markets: the cycle baskets it sells (each basket in one market at most). */
  readonly cicloCestaIds: readonly number[];
  readonly campo: string;
}

/** The rules on the list alone: no market twice, no order of service twice, each ≥ 1, no basket in two markets. */
export function regrasDosMercadosDoCiclo(itens: readonly CicloMercadoLido[]): Record<string, string> {
  const erros: Record<string, string> = {};
  const mercados = new Set<number>();
  const ordens = new Set<number>();
  const cestas = new Set<number>();
  for (const i of itens) {
    if (mercados.has(i.mercadoId)) erros[`${i.campo}.mercadoId`] = 'Mercado repetido no ciclo';
    mercados.add(i.mercadoId);
    if (i.ordemAtendimento < 1) erros[`${i.campo}.ordemAtendimento`] = 'A ordem de atendimento começa em 1';
    else if (ordens.has(i.ordemAtendimento))
      erros[`${i.campo}.ordemAtendimento`] = `Dois mercados com a ordem ${i.ordemAtendimento}: cada mercado tem a sua`;
    ordens.add(i.ordemAtendimento);
    if (new Set(i.pontoEntregaIds).size !== i.pontoEntregaIds.length)
      erros[`${i.campo}.pontoEntregaIds`] = 'Ponto repetido';
    for (const c of i.cicloCestaIds) {
      if (cestas.has(c)) erros[`${i.campo}.cicloCestaIds`] = 'Uma cesta do ciclo é vendida em um mercado só';
      cestas.add(c);
    }
  }
  return erros;
}

/** The market in the cycle, when its kind sells `venda` (409 TIPO_DE_MERCADO when not). */
export async function mercadoDoCiclo(
  db: Db,
  cicloid: number,
  mercadoId: number,
  venda: VendaDoMercado,
): Promise<MercadoDoCiclo> {
  const m = (await mercadosDoCiclo(db, cicloid)).find((x) => x.mercadoId === mercadoId);
  if (m === undefined)
    throw new NaoEncontrado(
      'MERCADO_FORA_DO_CICLO',
      'Este mercado não está no ciclo: inclua-o nos mercados do ciclo antes',
    );
  if (!vendeDoTipo(m.tipo, venda)) {
    const nomes = tiposQue((t) => t.vende === venda).map((t) => TIPOS_DE_MERCADO[t].nomeNaFrase);
    throw new Conflito('TIPO_DE_MERCADO', `${m.nome} não é um mercado ${nomes.join(' ou ')}`, {
      mercadoId,
      tipo: m.tipo,
    });
  }
  return m;
}
