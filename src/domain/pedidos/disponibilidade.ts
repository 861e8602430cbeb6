/**
 * What a cycle offers for ordering: its catalogue of baskets and extras (catalogoDoCiclo), what
 * saved orders reserve of each line (reservasDoCiclo), and the two together (disponibilidade).
 */
import type { Db } from '../../db/banco.ts';
import { consultaPreparada } from '../../db/preparadas.ts';
import { VERSAO_DOS_CICLOS } from '../../db/versoes.ts';
import { naUnidadeEscolhida } from '../composicao.ts';
import { itensDasCestas } from '../conteudo-das-cestas.ts';
import { reservadoDaLinhaHoje } from '../reservas.ts';

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
    // One unit chosen on every line: shown in it; lines that disagree, in the product's own unit.
    const visto =
      x.escolhidas.size === 1
        ? naUnidadeEscolhida(x.mil, x.unidade, [...x.escolhidas][0] ?? x.unidade)
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
