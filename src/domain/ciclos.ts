import { sql } from 'kysely';
import { contem, totalDaLista } from '../db/consultas.ts';
import { ehPostgres, emTransacao, travar, type Banco, type Db } from '../db/banco.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import { conferirCapacidade, extrasPublicados, linhasOfertadas, sobraDaLinha, type LinhaOfertada } from './alocacao.ts';
import type { Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { cestaComposta } from './conteudo-das-cestas.ts';
import {
  CAMPOS_DATA,
  JANELAS,
  faseDoCiclo,
  janelaAberta,
  janelasAbertas,
  type DatasCiclo,
  type Fase,
  type Janela,
} from './calendario.ts';
import { formatarQuantidadeComUnidade } from '../decimal.ts';
import { Conflito, Invalido, NaoEncontrado } from './erros.ts';
import { exigirSemReferencias, montarPagina, type Pagina, type PedidoDePagina, type Referencia } from './registros.ts';
import { somarDias } from './tempo.ts';
import { chaveDeNome } from './textos.ts';

// The calendar lives in calendario.ts (the policy reads it too); it is re-exported for the readers of cycles.
export {
  CAMPOS_DATA,
  FASES,
  NOMES_FASES,
  JANELAS,
  faseDoCiclo,
  janelaAberta,
  janelasAbertas,
  nomeDoMomento,
  situacaoDoCiclo,
} from './calendario.ts';
export type { Fase, DatasCiclo, Janela } from './calendario.ts';

export interface CicloResumo extends DatasCiclo {
  readonly id: number;
  readonly nome: string;
  readonly fase: Fase;
}

/** The cycles a dashboard shows: active, current, upcoming, or ended since `desde`, oldest first. */
export function ciclosRecentes(db: Db, desde: string) {
  return db
    .selectFrom('ciclo')
    .select(['id', 'nome', ...CAMPOS_DATA])
    .where('ativo', '=', true)
    .where('dataRetiradaFim', '>=', desde)
    .orderBy('dataOfertaInicio')
    .orderBy('id')
    .limit(50);
}

/** How far back the dashboard looks: cycles whose pickup ended in the last 30 days. */
export const desdeDoPainel = (hoje: string): string => somarDias(hoje, -30);

/** A cycle on the dashboard: its phase and the writing windows open today (they may be two). */
export interface CicloNoPainel extends CicloResumo {
  readonly abertas: readonly Janela[];
}

export function noPainel(l: DatasCiclo & { readonly id: number; readonly nome: string }, hoje: string): CicloNoPainel {
  return { ...l, fase: faseDoCiclo(l, hoje), abertas: janelasAbertas(l, hoje) };
}

// Every dashboard without a person (an identity not registered yet) runs it: compiled once.
const ciclosRecentesPreparada = consultaPreparada(ciclosRecentes, 1);

/** Active cycles that are current, upcoming, or ended in the last 30 days, oldest first. */
export async function ciclosDoPainel(db: Db, hoje: string): Promise<CicloNoPainel[]> {
  return (await ciclosRecentesPreparada(db, desdeDoPainel(hoje))).map((l) => noPainel(l, hoje));
}

// ---------------------------------------------------------------------------------------------
// The cycle record and its three child lists.

export interface CicloEntrega {
  readonly id: number;
  readonly dataEntrega: string;
  readonly observacao: string | null;
}

/**
 * A pickup point the cycle serves, with its own day and hours ("HH:MM"); any of them may be
 * unset. A cycle that lists none serves every active point.
 */
export interface CicloPonto {
  readonly id: number;
  readonly pontoEntregaId: number;
  readonly nome: string;
  readonly endereco: string | null;
  readonly cidade: string | null;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  /** Orders of this cycle that pick up here. */
  readonly pedidos: number;
}

export interface CicloCesta {
  readonly id: number;
  readonly cestaId: number;
  readonly nome: string;
  readonly quantidadeCestas: number;
  /** Baskets already in saved orders. */
  readonly quantidadePedida: number;
  /** Something is composed in it: only then is it for sale. */
  readonly composta: boolean;
}

/** What the finalised offers leave over of a product once the baskets are composed: the cap of its extras. */
export interface SobraDoProduto {
  readonly produtoId: number;
  readonly nome: string;
  readonly unidade: string;
  readonly sobraMilesimos: number;
}

export interface CicloProduto {
  readonly id: number;
  readonly produtoId: number;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
}

export interface Ciclo extends CicloResumo {
  readonly ativo: boolean;
  readonly fechadoEm: string | null;
  readonly cicloEntregas: CicloEntrega[];
  readonly cicloPontos: CicloPonto[];
  readonly cicloCestas: CicloCesta[];
  readonly cicloProdutos: CicloProduto[];
  /** Per offered product, what baskets leave over (extras may publish up to it). */
  readonly sobras: SobraDoProduto[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const ROTULOS_DATAS: Readonly<Record<(typeof CAMPOS_DATA)[number], string>> = {
  dataOfertaInicio: 'início das ofertas',
  dataOfertaFim: 'fim das ofertas',
  dataPedidoInicio: 'início dos pedidos',
  dataPedidoFim: 'fim dos pedidos',
  dataRetiradaInicio: 'início da retirada',
  dataRetiradaFim: 'fim da retirada',
};

export const LISTAS_DO_CICLO = ['cicloEntregas', 'cicloPontos', 'cicloCestas', 'cicloProdutos'] as const;
export type ListaDoCiclo = (typeof LISTAS_DO_CICLO)[number];

/** Rows of a cycle's lists as the edge reads them; `campo` is where a refusal is reported. */
export interface EntregaLida {
  readonly id: number | null;
  readonly dataEntrega: string;
  readonly observacao: string | null;
  readonly campo: string;
}
export interface PontoLido {
  readonly id: number | null;
  readonly pontoEntregaId: number;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  /** The row's point field; its other fields are reported beside it (`….dataRetirada`, `….horaFim`). */
  readonly campo: string;
}
export interface CestaLida {
  readonly id: number | null;
  readonly cestaId: number;
  readonly quantidadeCestas: number;
  readonly campo: string;
}
export interface ProdutoLido {
  readonly id: number | null;
  readonly produtoId: number;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly campo: string;
}

/** A cycle as the edge reads it; a list left null is kept as it is. */
export interface CicloLido {
  readonly dados: {
    nome: string;
    dataOfertaInicio: string;
    dataOfertaFim: string;
    dataPedidoInicio: string;
    dataPedidoFim: string;
    dataRetiradaInicio: string;
    dataRetiradaFim: string;
    /** null: not sent. A new cycle is active; an edit keeps what the cycle was. */
    ativo: boolean | null;
  };
  readonly cicloEntregas: EntregaLida[] | null;
  readonly cicloPontos: PontoLido[] | null;
  readonly cicloCestas: CestaLida[] | null;
  readonly cicloProdutos: ProdutoLido[] | null;
}

/**
 * The rules a cycle's data must meet: its dates in order, deliveries inside them, and each basket
 * and product listed once. Returns every broken rule, by field. `ilegiveis` names fields the edge
 * could not read: they take part in no comparison, so a form gets its reading errors and its rule
 * errors at once without a rule being judged on a value that is not there.
 */
/** Each date of a cycle with the one it must not come before. */
const DATAS_EM_SEQUENCIA = CAMPOS_DATA.slice(1).map((atual, i) => [CAMPOS_DATA[i] ?? atual, atual] as const);

export function regrasDoCiclo(lido: CicloLido, ilegiveis: ReadonlySet<string> = new Set()): Record<string, string> {
  const erros: Record<string, string> = {};
  const { dados } = lido;
  for (const [anterior, atual] of DATAS_EM_SEQUENCIA) {
    if (!ilegiveis.has(anterior) && !ilegiveis.has(atual) && dados[atual] < dados[anterior])
      erros[atual] = `Deve ser igual ou posterior ao ${ROTULOS_DATAS[anterior]}`;
  }
  const legivel = (campo: string) => !ilegiveis.has(campo);
  if (legivel('dataOfertaInicio') && legivel('dataRetiradaFim')) {
    // Stryker disable next-line ArrayDeclaration: an absent list has no rows; a bogus row has no fields to judge
    for (const e of (lido.cicloEntregas ?? []).filter((x) => legivel(x.campo))) {
      if (e.dataEntrega < dados.dataOfertaInicio || e.dataEntrega > dados.dataRetiradaFim)
        erros[e.campo] = 'Deve estar dentro das datas do ciclo';
    }
  }
  const irma = (campo: string, outro: string) => campo.replace(/\.[^.]+$/, `.${outro}`);
  // Stryker disable next-line ArrayDeclaration: an absent list has no rows; a bogus row has no fields to judge
  for (const p of (lido.cicloPontos ?? []).filter((x) => legivel(x.campo))) {
    const dia = irma(p.campo, 'dataRetirada');
    if (
      p.dataRetirada !== null &&
      legivel(dia) &&
      legivel('dataRetiradaInicio') &&
      legivel('dataRetiradaFim') &&
      (p.dataRetirada < dados.dataRetiradaInicio || p.dataRetirada > dados.dataRetiradaFim)
    )
      erros[dia] = 'Deve estar dentro do período de retirada do ciclo';
    const fim = irma(p.campo, 'horaFim');
    if (
      p.horaInicio !== null &&
      p.horaFim !== null &&
      legivel(fim) &&
      legivel(irma(p.campo, 'horaInicio')) &&
      p.horaFim <= p.horaInicio
    )
      erros[fim] = 'Deve ser depois do horário de início';
  }
  const repetidos = <T extends { readonly campo: string }>(itens: readonly T[], chave: (item: T) => number) => {
    const vistos = new Set<number>();
    for (const item of itens.filter((x) => legivel(x.campo))) {
      if (vistos.has(chave(item))) erros[item.campo] = 'Item repetido na lista';
      vistos.add(chave(item));
    }
  };
  // Stryker disable next-line ArrayDeclaration: an absent list has no rows; a bogus row has no fields to judge
  repetidos(lido.cicloCestas ?? [], (c) => c.cestaId);
  // Stryker disable next-line ArrayDeclaration: see above
  repetidos(lido.cicloPontos ?? [], (p) => p.pontoEntregaId);
  // Stryker disable next-line ArrayDeclaration: see above
  repetidos(lido.cicloProdutos ?? [], (p) => p.produtoId);
  return erros;
}

/** Loads a cycle with its lists: six queries, whatever its size. */
export async function obterCiclo(db: Db, id: number, hoje: string): Promise<Ciclo> {
  const l = await db.selectFrom('ciclo').selectAll().where('id', '=', id).executeTakeFirst();
  if (l === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${id}`);
  const [entregas, pontos, cestas, produtos, ofertadas] = await Promise.all([
    db
      .selectFrom('cicloentrega')
      .select(['id', 'dataEntrega', 'observacao'])
      .where('cicloid', '=', id)
      .orderBy('dataEntrega')
      .orderBy('id')
      .execute(),
    pontosDoCiclo(db, id),
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
      // Items released to venda_direta markets have their own page (src/domain/mercados-do-ciclo.ts).
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
    cicloPontos: pontos,
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

/** The points a cycle serves, by pickup day, hour and name, with the orders at each. */
export async function pontosDoCiclo(db: Db, cicloid: number): Promise<CicloPonto[]> {
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

/** Per product, what the finalised offers leave over after the baskets, in offer order. */
export function sobrasPorProduto(linhas: readonly LinhaOfertada[]): SobraDoProduto[] {
  const porProduto = new Map<number, SobraDoProduto>();
  for (const l of linhas) {
    const atual = porProduto.get(l.produtoId);
    porProduto.set(l.produtoId, {
      produtoId: l.produtoId,
      nome: l.produto,
      unidade: l.unidade,
      sobraMilesimos: (atual?.sobraMilesimos ?? 0) + sobraDaLinha(l),
    });
  }
  return [...porProduto.values()];
}

/** A cycle can be closed once its order window is over, and only once. */
export function fechamentoPossivel(c: { readonly fase: Fase; readonly fechadoEm: string | null }): boolean {
  return c.fechadoEm === null && (c.fase === 'retirada' || c.fase === 'encerrado');
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

async function conferirExistentes(
  db: Db,
  tabela: 'cesta' | 'produto' | 'pontoentrega',
  itens: ReadonlyArray<{ id: number; campo: string }>,
  mensagem: string,
): Promise<void> {
  // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (itens.length === 0) return;
  const achados = new Set(
    (
      await db
        .selectFrom(tabela)
        .select('id')
        .where(
          'id',
          'in',
          itens.map((i) => i.id),
        )
        .execute()
    ).map((r) => r.id),
  );
  const faltando = itens.filter((i) => !achados.has(i.id));
  if (faltando.length > 0) {
    throw new Invalido(
      'VALIDACAO',
      'Verifique os campos destacados',
      Object.fromEntries(faltando.map((f) => [f.campo, mensagem])),
    );
  }
}

/** Baskets ordered and composed per cycle basket, to refuse removals and cuts that would orphan them. */
async function usoDasCestas(db: Db, cicloid: number) {
  const linhas = await db
    .selectFrom('ciclocesta')
    .innerJoin('cesta', 'cesta.id', 'ciclocesta.cestaId')
    .leftJoin('composicao', 'composicao.cicloCestaId', 'ciclocesta.id')
    .select([
      'ciclocesta.id',
      'ciclocesta.cestaId',
      'cesta.nome',
      'composicao.quantidadeCestas as composta',
      'ciclocesta.reservadoMilesimos as pedidoMilesimos',
    ])
    .where('ciclocesta.cicloid', '=', cicloid)
    .execute();
  return new Map(
    linhas.map((l) => [
      l.id,
      { ...l, pedidas: Math.ceil(Number(l.pedidoMilesimos ?? 0) / 1000), composta: l.composta },
    ]),
  );
}

async function usoDosExtras(db: Db, cicloid: number) {
  const linhas = await db
    .selectFrom('cicloproduto')
    .innerJoin('produto', 'produto.id', 'cicloproduto.produtoId')
    .select([
      'cicloproduto.id',
      'cicloproduto.produtoId',
      'produto.nome',
      'produto.unidade',
      'cicloproduto.reservadoMilesimos as pedidoMilesimos',
    ])
    .where('cicloproduto.cicloid', '=', cicloid)
    .where('cicloproduto.mercadoId', 'is', null)
    .execute();
  return new Map(linhas.map((l) => [l.id, { ...l, pedido: Number(l.pedidoMilesimos ?? 0) }]));
}

/** Matches an input row to an existing child: by id (which must belong to this cycle), else by key. */
function casar<T extends { id: number }>(
  existentes: ReadonlyMap<number, T>,
  porChave: (k: number) => T | undefined,
  id: number | null,
  chave: number,
  campo: string,
): T | undefined {
  if (id !== null) {
    const achado = existentes.get(id);
    if (achado === undefined)
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [campo]: 'Esta linha não pertence a este ciclo',
      });
    return achado;
  }
  return porChave(chave);
}

async function reconciliarCestas(trx: Db, cicloid: number, itens: readonly CestaLida[], iso: string): Promise<void> {
  const uso = await usoDasCestas(trx, cicloid);
  const porCesta = (cestaId: number) => [...uso.values()].find((u) => u.cestaId === cestaId);
  const mantidos = new Set<number>();
  for (const item of itens) {
    const atual = casar(uso, porCesta, item.id, item.cestaId, item.campo);
    if (atual === undefined) {
      await trx
        .insertInto('ciclocesta')
        .values({
          cicloid,
          cestaId: item.cestaId,
          quantidadeCestas: item.quantidadeCestas,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
      continue;
    }
    mantidos.add(atual.id);
    if (atual.cestaId !== item.cestaId) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [item.campo]: 'Não é possível trocar a cesta de uma linha existente: remova a linha e adicione outra',
      });
    }
    const minimo = Math.max(atual.pedidas, atual.composta ?? 0);
    if (item.quantidadeCestas < minimo) {
      throw new Conflito(
        'QUANTIDADE_ABAIXO_DO_USO',
        `A ${atual.nome} já tem ${atual.pedidas} pedida(s) e ${atual.composta ?? 0} na composição: a quantidade não pode ficar abaixo de ${minimo}`,
        { cicloCestaId: atual.id, pedidas: atual.pedidas, compostas: atual.composta ?? 0 },
      );
    }
    await trx
      .updateTable('ciclocesta')
      .set({ quantidadeCestas: item.quantidadeCestas, updatedAt: iso })
      .where('id', '=', atual.id)
      .execute();
  }
  for (const u of uso.values()) {
    if (mantidos.has(u.id)) continue;
    if (u.pedidas > 0 || u.composta !== null) {
      throw new Conflito(
        'CESTA_EM_USO',
        `A ${u.nome} não pode sair do ciclo: ela tem ${u.pedidas > 0 ? `${u.pedidas} pedida(s)` : 'composição'}`,
        {
          cicloCestaId: u.id,
        },
      );
    }
    await trx.deleteFrom('ciclocesta').where('id', '=', u.id).execute();
  }
}

async function reconciliarProdutos(
  trx: Db,
  cicloid: number,
  itens: readonly ProdutoLido[],
  iso: string,
): Promise<void> {
  const uso = await usoDosExtras(trx, cicloid);
  const porProduto = (produtoId: number) => [...uso.values()].find((u) => u.produtoId === produtoId);
  const mantidos = new Set<number>();
  // A product is sold once per cycle: as a classic extra or released to one market (decisions.md).
  const liberados = await trx
    .selectFrom('cicloproduto as cp')
    .innerJoin('mercado as m', 'm.id', 'cp.mercadoId')
    .select(['cp.produtoId', 'm.nome'])
    .where('cp.cicloid', '=', cicloid)
    .execute();
  const noMercado = Object.fromEntries(
    itens.flatMap((i) => {
      const l = liberados.find((x) => x.produtoId === i.produtoId);
      return l === undefined
        ? []
        : [
            [
              i.campo,
              `Este produto está liberado para ${l.nome} neste ciclo: um produto é vendido uma vez por ciclo, como extra ou num mercado`,
            ],
          ];
    }),
  );
  if (Object.keys(noMercado).length > 0)
    throw new Conflito('PRODUTO_JA_NO_CICLO', 'Verifique os campos destacados', noMercado);
  for (const item of itens) {
    const atual = casar(uso, porProduto, item.id, item.produtoId, item.campo);
    const valores = {
      quantidadeMilesimos: item.quantidadeMilesimos,
      valorCentavos: item.valorCentavos,
      updatedAt: iso,
    };
    if (atual === undefined) {
      await trx
        .insertInto('cicloproduto')
        .values({ cicloid, produtoId: item.produtoId, ...valores, createdAt: iso })
        .execute();
      continue;
    }
    mantidos.add(atual.id);
    if (atual.produtoId !== item.produtoId) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [item.campo]: 'Não é possível trocar o produto de uma linha existente: remova a linha e adicione outra',
      });
    }
    if (item.quantidadeMilesimos < atual.pedido) {
      throw new Conflito(
        'QUANTIDADE_ABAIXO_DO_USO',
        `O extra ${atual.nome} já tem ${formatarQuantidadeComUnidade(atual.pedido, atual.unidade)} pedidos: a quantidade não pode ficar abaixo disso`,
        { cicloProdutoId: atual.id },
      );
    }
    await trx.updateTable('cicloproduto').set(valores).where('id', '=', atual.id).execute();
  }
  for (const u of uso.values()) {
    if (mantidos.has(u.id)) continue;
    if (u.pedido > 0)
      throw new Conflito('EXTRA_EM_USO', `O extra ${u.nome} não pode sair do ciclo: já foi pedido`, {
        cicloProdutoId: u.id,
      });
    await trx.deleteFrom('cicloproduto').where('id', '=', u.id).execute();
  }
}

/**
 * The cycle's points: matched by id or by point, updated in place. A point with orders stays
 * (409); once the cycle lists points, every order of it must pick up at one of them (409 naming
 * the points missing), and a point added must be active.
 */
async function reconciliarPontos(trx: Db, cicloid: number, itens: readonly PontoLido[], iso: string): Promise<void> {
  const atuais = new Map((await pontosDoCiclo(trx, cicloid)).map((p) => [p.id, p]));
  const porPonto = (pontoEntregaId: number) => [...atuais.values()].find((p) => p.pontoEntregaId === pontoEntregaId);
  const mantidos = new Set<number>();
  const novos = itens.filter((i) => i.id === null && porPonto(i.pontoEntregaId) === undefined);
  // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (novos.length > 0) {
    const ativos = new Set(
      (
        await trx
          .selectFrom('pontoentrega')
          .select('id')
          .where(
            'id',
            'in',
            novos.map((n) => n.pontoEntregaId),
          )
          .where('ativo', '=', true)
          .execute()
      ).map((p) => p.id),
    );
    const inativos = novos.filter((n) => !ativos.has(n.pontoEntregaId));
    if (inativos.length > 0)
      throw new Invalido(
        'VALIDACAO',
        'Verifique os campos destacados',
        Object.fromEntries(
          inativos.map((n) => [n.campo, 'Ponto de entrega inativo: ative-o antes de incluí-lo no ciclo']),
        ),
      );
  }
  for (const item of itens) {
    const atual = casar(atuais, porPonto, item.id, item.pontoEntregaId, item.campo);
    const valores = {
      dataRetirada: item.dataRetirada,
      horaInicio: item.horaInicio,
      horaFim: item.horaFim,
      updatedAt: iso,
    };
    if (atual === undefined) {
      await trx
        .insertInto('ciclopontoentrega')
        .values({ cicloid, pontoEntregaId: item.pontoEntregaId, ...valores, createdAt: iso })
        .execute();
      continue;
    }
    mantidos.add(atual.id);
    if (atual.pontoEntregaId !== item.pontoEntregaId) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [item.campo]: 'Não é possível trocar o ponto de uma linha existente: remova a linha e adicione outra',
      });
    }
    await trx.updateTable('ciclopontoentrega').set(valores).where('id', '=', atual.id).execute();
  }
  const saem = [...atuais.values()].filter((p) => !mantidos.has(p.id));
  // An empty list serves every active point again, so only a list that leaves a point out can orphan its orders.
  const comPedidos = itens.length === 0 ? [] : saem.filter((p) => p.pedidos > 0);
  if (comPedidos.length > 0) {
    const p = comPedidos[0];
    throw new Conflito(
      'PONTO_EM_USO',
      `O ponto ${p?.nome ?? ''} não pode sair do ciclo: ${p?.pedidos ?? 0} pedido(s) retiram nele`,
      { pontoEntregaId: p?.pontoEntregaId },
    );
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (saem.length > 0)
    await trx
      .deleteFrom('ciclopontoentrega')
      .where(
        'id',
        'in',
        saem.map((p) => p.id),
      )
      .execute();
  if (itens.length === 0) return;
  // Orders placed while the cycle served every point must still have their point listed.
  const fora = await trx
    .selectFrom('pedido as p')
    .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
    .select(['pe.id', 'pe.nome'])
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('p.cicloid', '=', cicloid)
    .where(
      'p.pontoEntregaId',
      'not in',
      itens.map((i) => i.pontoEntregaId),
    )
    .groupBy(['pe.id', 'pe.nome'])
    .orderBy('pe.nome')
    .execute();
  if (fora.length > 0) {
    throw new Conflito(
      'PONTO_EM_USO',
      `Há pedidos deste ciclo com retirada em ${fora.map((f) => `${f.nome} (${Number(f.n)})`).join(', ')}: inclua esse(s) ponto(s) no ciclo ou mude os pedidos antes`,
      { pontoEntregaIds: fora.map((f) => f.id) },
    );
  }
}

async function reconciliarEntregas(
  trx: Db,
  cicloid: number,
  itens: readonly EntregaLida[],
  iso: string,
): Promise<void> {
  const existentes = new Map(
    (await trx.selectFrom('cicloentrega').select(['id']).where('cicloid', '=', cicloid).execute()).map((e) => [
      e.id,
      e,
    ]),
  );
  const mantidos = new Set<number>();
  for (const [i, item] of itens.entries()) {
    const atual = casar(existentes, () => undefined, item.id, 0, `cicloEntregas.${i}.id`);
    const valores = { dataEntrega: item.dataEntrega, observacao: item.observacao, updatedAt: iso };
    if (atual === undefined) {
      await trx
        .insertInto('cicloentrega')
        .values({ cicloid, ...valores, createdAt: iso })
        .execute();
    } else {
      mantidos.add(atual.id);
      await trx.updateTable('cicloentrega').set(valores).where('id', '=', atual.id).execute();
    }
  }
  const removidos = [...existentes.keys()].filter((id) => !mantidos.has(id));
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (removidos.length > 0) await trx.deleteFrom('cicloentrega').where('id', 'in', removidos).execute();
}

/**
 * Creates (id null) or updates a cycle with its lists. Child rows are matched and updated in
 * place; what would orphan compositions or orders is refused with 409, never cascaded.
 */
export async function salvarCiclo(
  banco: Banco,
  ator: Ator,
  id: number | null,
  lido: CicloLido,
  agora: Date,
  hoje: string,
): Promise<Ciclo> {
  const erros = regrasDoCiclo(lido);
  if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
  return emTransacao(banco, async (trx) => {
    await conferirExistentes(
      trx,
      'cesta',
      (lido.cicloCestas ?? []).map((c) => ({ id: c.cestaId, campo: c.campo })),
      'Cesta não encontrada',
    );
    await conferirExistentes(
      trx,
      'produto',
      (lido.cicloProdutos ?? []).map((p) => ({ id: p.produtoId, campo: p.campo })),
      'Produto não encontrado',
    );
    await conferirExistentes(
      trx,
      'pontoentrega',
      (lido.cicloPontos ?? []).map((p) => ({ id: p.pontoEntregaId, campo: p.campo })),
      'Ponto de entrega não encontrado',
    );
    const iso = agora.toISOString();
    let cicloid: number;
    let antes: Ciclo | undefined;
    if (id === null) {
      const dados = { ...lido.dados, ativo: lido.dados.ativo ?? true };
      cicloid = (
        await trx
          .insertInto('ciclo')
          .values({ ...dados, nomeChave: chaveDeNome(dados.nome), createdAt: iso, updatedAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      // Stryker disable next-line ArrayDeclaration: row locks exist only on PostgreSQL (test/fluxo/travas.test.ts fails without them)
      await travar(trx, 'ciclo', [id]);
      antes = await obterCiclo(trx, id, hoje);
      // A closed cycle is locked: its movements were computed from it (a master reopens it first).
      exigirAberto(antes);
      cicloid = id;
      const dados = { ...lido.dados, ativo: lido.dados.ativo ?? antes.ativo };
      await trx
        .updateTable('ciclo')
        .set({ ...dados, nomeChave: chaveDeNome(dados.nome), updatedAt: iso })
        .where('id', '=', id)
        .execute();
    }
    if (lido.cicloEntregas !== null) await reconciliarEntregas(trx, cicloid, lido.cicloEntregas, iso);
    if (lido.cicloPontos !== null) await reconciliarPontos(trx, cicloid, lido.cicloPontos, iso);
    if (lido.cicloCestas !== null) await reconciliarCestas(trx, cicloid, lido.cicloCestas, iso);
    if (lido.cicloProdutos !== null) {
      await reconciliarProdutos(trx, cicloid, lido.cicloProdutos, iso);
      // Extras come from what baskets leave over of the finalised offers (DOMAIN.md, Extras):
      // each row over it is refused by its field, with what there is.
      const [linhas, extras] = [await linhasOfertadas(trx, cicloid), await extrasPublicados(trx, cicloid)];
      const sobras = new Map(sobrasPorProduto(linhas).map((x) => [x.produtoId, x.sobraMilesimos]));
      const unidades = new Map(extras.map((e) => [e.produtoId, e.unidade]));
      // What is released to venda_direta markets comes out of the same surplus.
      const liberados = new Map<number, number>();
      for (const e of extras)
        if (e.mercadoId !== null) liberados.set(e.produtoId, (liberados.get(e.produtoId) ?? 0) + e.publicadoMil);
      const acima = Object.fromEntries(
        lido.cicloProdutos.flatMap((p) => {
          const sobra = Math.max(0, (sobras.get(p.produtoId) ?? 0) - (liberados.get(p.produtoId) ?? 0));
          // `campo` names the row's product field; the refusal sits by its quantity.
          return p.quantidadeMilesimos > sobra
            ? [
                [
                  p.campo.replace(/\.produtoId$/, '.quantidade'),
                  `Passa da sobra das ofertas finalizadas: ${formatarQuantidadeComUnidade(sobra, unidades.get(p.produtoId) ?? '')}`.trim(),
                ],
              ]
            : [];
        }),
      );
      if (Object.keys(acima).length > 0)
        throw new Conflito('CAPACIDADE_EXCEDIDA', 'Os extras passam do que sobra das ofertas finalizadas', acima);
      conferirCapacidade(linhas, extras);
    }
    const depois = await obterCiclo(trx, cicloid, hoje);
    await auditar(trx, ator, agora, {
      acao: id === null ? 'criar' : 'atualizar',
      entidade: 'ciclo',
      entidadeId: cicloid,
      antes,
      depois,
    });
    return depois;
  });
}

const REFERENCIAS_CICLO: readonly Referencia[] = [
  { tabela: 'oferta', coluna: 'cicloid', descricao: 'ofertas' },
  { tabela: 'pedido', coluna: 'cicloid', descricao: 'pedidos' },
  { tabela: 'movimentacao', coluna: 'cicloid', descricao: 'movimentações' },
];

/** Deletes a cycle that nothing uses, with its own lists; one in use gives 409. */
export async function apagarCiclo(banco: Banco, ator: Ator, id: number, agora: Date, hoje: string): Promise<void> {
  await emTransacao(banco, async (trx) => {
    const antes = await obterCiclo(trx, id, hoje);
    exigirAberto(antes);
    await exigirSemReferencias(trx, REFERENCIAS_CICLO, id, 'o ciclo');
    const composicoes = await trx
      .selectFrom('composicao')
      .innerJoin('ciclocesta', 'ciclocesta.id', 'composicao.cicloCestaId')
      .select('composicao.id')
      .where('ciclocesta.cicloid', '=', id)
      .execute();
    if (composicoes.length > 0) {
      throw new Conflito(
        'EM_USO',
        `Não é possível apagar o ciclo: em uso por ${composicoes.length} composições. Desative em vez de apagar.`,
        {
          referencias: { composições: composicoes.length },
        },
      );
    }
    await trx
      .deleteFrom('ciclomercadoponto')
      .where('cicloMercadoId', 'in', trx.selectFrom('ciclomercado').select('id').where('cicloid', '=', id))
      .execute();
    for (const tabela of ['cicloentrega', 'ciclopontoentrega', 'ciclomercado', 'ciclocesta', 'cicloproduto'] as const)
      await trx.deleteFrom(tabela).where('cicloid', '=', id).execute();
    await trx.deleteFrom('ciclo').where('id', '=', id).execute();
    await auditar(trx, ator, agora, { acao: 'apagar', entidade: 'ciclo', entidadeId: id, antes });
  });
}

/**
 * How a write holds its cycle until it commits (PostgreSQL; SQLite serialises every writer):
 * - `escrita`: alone (FOR UPDATE). Offers, compositions, edits of the cycle and its closing
 *   change what the capacity rule and the closing read, so they take turns.
 * - `pedido`: beside other orders (FOR KEY SHARE, which only FOR UPDATE waits for). An order or
 *   a confirmation never overlaps a closing, so the closing debits exactly what was ordered and
 *   nothing is ordered in a closed cycle.
 */
export type TravaDoCiclo = 'escrita' | 'pedido';

/**
 * The dates and state of a cycle, for window checks. With a lock, the cycle is read after the
 * lock is held, so the state checked is the state the write commits against.
 */
export async function cicloDasJanelas(
  db: Db,
  cicloid: number,
  trava?: TravaDoCiclo,
): Promise<DatasCiclo & { id: number; nome: string; ativo: boolean; fechadoEm: string | null }> {
  const q = db
    .selectFrom('ciclo')
    .select(['id', 'nome', 'ativo', 'fechadoEm', ...CAMPOS_DATA])
    .where('id', '=', cicloid);
  // Stryker disable next-line all: row locks exist only on PostgreSQL (test/fluxo/travas.test.ts fails without them)
  const c = await (
    trava === undefined || !ehPostgres(db) ? q : trava === 'escrita' ? q.forUpdate() : q.forKeyShare()
  ).executeTakeFirst();
  if (c === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${cicloid}`);
  return c;
}

/** 409 once the cycle is closed (see exigirJanela). */
export function exigirAberto(ciclo: { fechadoEm: string | null }): void {
  if (ciclo.fechadoEm !== null)
    throw new Conflito('CICLO_FECHADO', 'Este ciclo já foi fechado: nada nele muda, a não ser que um master o reabra');
}

/**
 * The server enforces the windows: suppliers change offers and consumers change orders only
 * inside them. Admins act at any time; the result says whether they acted outside, for the audit.
 * A closed cycle changes for nobody: its movements were computed from its orders and offers, and
 * corrections are new movements.
 */
export function exigirJanela(
  ciclo: DatasCiclo & { ativo: boolean; fechadoEm: string | null },
  hoje: string,
  janela: Janela,
  gestor: boolean,
): { foraDaJanela: boolean } {
  exigirAberto(ciclo);
  const j = JANELAS[janela];
  const dentro = ciclo.ativo && janelaAberta(ciclo, hoje, janela);
  if (dentro || gestor) return { foraDaJanela: !dentro };
  if (!ciclo.ativo) throw new Conflito('CICLO_INATIVO', 'Este ciclo está desativado');
  // Stryker disable next-line EqualityOperator: outside the window, today is never its first day, so < and <= agree
  const antes = hoje < ciclo[j.inicio];
  const [a, m, d] = (antes ? ciclo[j.inicio] : ciclo[j.fim]).split('-');
  throw new Conflito(
    'JANELA_FECHADA',
    antes
      ? `O período ${j.nome} deste ciclo começa em ${d}/${m}/${a}`
      : `O período ${j.nome} deste ciclo terminou em ${d}/${m}/${a}`,
  );
}
