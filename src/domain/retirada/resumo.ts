/**
 * The coordination's view of a cycle's pickup day (GET /retirada/:cicloId): per point, how many
 * confirmed orders were picked up, who is still missing, the shorts with the value they give back,
 * the payments by form with their totals, the notes, and the conflicts two phones can leave (an
 * order picked up twice, two shorts on one item). Every record says who made it, on which device
 * and when (the moment on the device). Read in a fixed number of queries, whatever the size.
 *
 * The value of a short comes from the one function that computes it for the closing and the
 * adjustments (`valoresDasFaltas`, dinheiro.ts), so this page agrees with the ledger to the centavo.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/banco.ts';
import type { TipoDeAcaoDeRetirada } from '../../db/tipos.ts';
import { faseDoCiclo, type Fase } from '../ciclos/calendario.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { pontosDoCiclo } from '../ciclos/leitura.ts';
import type { Taxa } from '../pedidos/taxa.ts';
import { valoresDasFaltas } from './dinheiro.ts';
import { voluntariosDoCiclo, type Voluntario } from './voluntarios.ts';

/** Who made a record, on which device, when on the device, and when it reached the server. */
export interface Registro {
  readonly acaoId: number;
  readonly chave: string;
  readonly quem: string;
  readonly dispositivo: string;
  readonly feitoEm: string;
  readonly recebidoEm: string;
}

export interface PedidoNoPonto {
  readonly pedidoId: number;
  readonly pessoa: string;
  readonly telefone: string | null;
}

export interface Retirado extends PedidoNoPonto {
  /** The earliest record (by its moment on the device, then its key): the "picked up at / by". */
  readonly primeira: Registro;
  /** Every record of it, the earliest first (more than one is a conflict). */
  readonly registros: readonly Registro[];
}

export interface FaltaNoPonto {
  readonly registro: Registro;
  readonly pedidoId: number;
  readonly pessoa: string;
  readonly pedidoProdutoId: number | null;
  readonly produtoId: number | null;
  /** The item short: the extra's product, or the basket's content item (with the basket's name). */
  readonly item: string;
  readonly cesta: string | null;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  readonly substituto: string | null;
  readonly texto: string | null;
  /** What the consumer is credited for it: the item's value and its fee (dinheiro.ts). */
  readonly creditoCentavos: number;
}

export interface PagamentoNoPonto {
  readonly registro: Registro;
  readonly pedidoId: number;
  readonly pessoa: string;
  readonly forma: 'dinheiro' | 'pix';
  readonly valorCentavos: number;
}

export interface NotaNoPonto {
  readonly registro: Registro;
  readonly pedidoId: number;
  readonly pessoa: string;
  readonly texto: string;
}

export interface TotaisDosPagamentos {
  readonly dinheiro: { readonly quantos: number; readonly centavos: number };
  readonly pix: { readonly quantos: number; readonly centavos: number };
  readonly totalCentavos: number;
}

export type ConflitoDaRetirada =
  | {
      readonly tipo: 'retirada_repetida';
      readonly pedidoId: number;
      readonly pessoa: string;
      readonly descricao: string;
      readonly registros: readonly Registro[];
    }
  | {
      readonly tipo: 'falta_repetida';
      readonly pedidoId: number;
      readonly pessoa: string;
      readonly descricao: string;
      readonly registros: readonly Registro[];
    };

export interface PontoNoResumo {
  readonly pontoEntregaId: number;
  readonly nome: string;
  readonly endereco: string | null;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  readonly voluntarios: readonly Voluntario[];
  /** Confirmed orders that pick up here: the N of "n de N retirados". */
  readonly pedidos: number;
  readonly retirados: readonly Retirado[];
  /** Confirmed orders not picked up yet, by name. */
  readonly faltando: readonly PedidoNoPonto[];
  readonly faltas: readonly FaltaNoPonto[];
  readonly creditoDasFaltasCentavos: number;
  readonly pagamentos: readonly PagamentoNoPonto[];
  readonly totais: TotaisDosPagamentos;
  readonly notas: readonly NotaNoPonto[];
  readonly conflitos: readonly ConflitoDaRetirada[];
}

export interface ResumoDaRetirada {
  readonly cicloid: number;
  readonly nome: string;
  readonly fase: Fase;
  readonly fechadoEm: string | null;
  readonly dataPedidoFim: string;
  /** The pickup opened: the order window is over (docs/dominio.md, "A retirada"). */
  readonly aberta: boolean;
  readonly pontos: readonly PontoNoResumo[];
  /**
   * Changes whenever anything shown changes (a record synced, an order confirmed, a volunteer
   * named): the page's script compares it to decide whether to redraw.
   */
  readonly versao: string;
}

/** By the moment on the device, then by key: the same order whatever the arrival order. */
const porMomento = (a: Registro, b: Registro): number =>
  a.feitoEm < b.feitoEm ? -1 : a.feitoEm > b.feitoEm ? 1 : a.chave < b.chave ? -1 : a.chave > b.chave ? 1 : 0;

const somar = (xs: readonly PagamentoNoPonto[]) => ({
  quantos: xs.length,
  centavos: xs.reduce((s, p) => s + p.valorCentavos, 0),
});

/** The pickup of a cycle, point by point (404 for a cycle that does not exist). */
export async function resumoDaRetirada(
  db: Db,
  cicloid: number,
  opcoes: { readonly hoje: string; readonly taxa: Taxa },
): Promise<ResumoDaRetirada> {
  const ciclo = await cicloDasJanelas(db, cicloid);
  const [listados, voluntarios, pedidos, acoes, valores] = await Promise.all([
    pontosDoCiclo(db, cicloid),
    voluntariosDoCiclo(db, cicloid),
    db
      .selectFrom('pedido as p')
      .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
      .select(['p.id', 'p.pontoEntregaId', 'u.nome', 'u.celular'])
      .where('p.cicloid', '=', cicloid)
      .where('p.finalizado', '=', true)
      .orderBy('u.nomeChave')
      .orderBy('p.id')
      .execute(),
    db
      .selectFrom('acaoretirada as a')
      .innerJoin('usuario as quem', 'quem.id', 'a.usuarioid')
      .innerJoin('pedido as pd', 'pd.id', 'a.pedidoid')
      .innerJoin('usuario as dono', 'dono.id', 'pd.usuarioid')
      .leftJoin('pedidoproduto as pp', 'pp.id', 'a.pedidoProdutoId')
      .leftJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
      .leftJoin('produto as extra', 'extra.id', 'cp.produtoId')
      .leftJoin('ciclocesta as cc', 'cc.id', 'pp.cicloCestaId')
      .leftJoin('cesta', 'cesta.id', 'cc.cestaId')
      .leftJoin('produto as item', 'item.id', 'a.produtoId')
      .select([
        'a.id',
        'a.chave',
        'a.dispositivo',
        'a.pontoEntregaId',
        'a.pedidoid',
        'a.tipo',
        'a.pedidoProdutoId',
        'a.produtoId',
        'a.quantidadeMilesimos',
        'a.substituto',
        'a.valorCentavos',
        'a.forma',
        'a.texto',
        'a.feitoEm',
        'a.recebidoEm',
        'quem.nome as quem',
        'dono.nome as pessoa',
        'extra.nome as extraNome',
        'extra.unidade as extraUnidade',
        'cesta.nome as cestaNome',
        'item.nome as itemNome',
        'item.unidade as itemUnidade',
      ])
      .where('a.cicloid', '=', cicloid)
      .orderBy('a.feitoEm')
      .orderBy('a.chave')
      .execute(),
    valoresDasFaltas(db, cicloid, opcoes.taxa),
  ]);
  const credito = new Map(valores.map((v) => [v.acaoId, v.consumidorCentavos]));
  // The cycle's points in its own order; a cycle that lists none shows the points its orders and records use.
  const ids = [
    ...new Set([
      ...listados.map((p) => p.pontoEntregaId),
      ...pedidos.map((p) => p.pontoEntregaId),
      ...acoes.map((a) => a.pontoEntregaId),
    ]),
  ];
  const foraDaLista = ids.filter((id) => !listados.some((p) => p.pontoEntregaId === id));
  // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite; PostgreSQL refuses it
  const outros =
    foraDaLista.length === 0
      ? []
      : await db
          .selectFrom('pontoentrega')
          .select(['id as pontoEntregaId', 'nome', 'endereco'])
          .select([sql<null>`null`.as('dataRetirada'), sql<null>`null`.as('horaInicio'), sql<null>`null`.as('horaFim')])
          .where('id', 'in', foraDaLista)
          .orderBy('nomeChave')
          .execute();
  const pontos = [...listados, ...outros].map((p): PontoNoResumo => {
    const doPonto = pedidos.filter((x) => x.pontoEntregaId === p.pontoEntregaId);
    const registrosDoPonto = acoes.filter((a) => a.pontoEntregaId === p.pontoEntregaId);
    const registro = (a: (typeof acoes)[number]): Registro => ({
      acaoId: a.id,
      chave: a.chave,
      quem: a.quem,
      dispositivo: a.dispositivo,
      feitoEm: a.feitoEm,
      recebidoEm: a.recebidoEm,
    });
    const doTipo = (tipo: TipoDeAcaoDeRetirada) => registrosDoPonto.filter((a) => a.tipo === tipo);
    const retiradas = new Map<number, Registro[]>();
    for (const a of doTipo('retirada')) retiradas.set(a.pedidoid, [...(retiradas.get(a.pedidoid) ?? []), registro(a)]);
    const nomes = new Map(registrosDoPonto.map((a) => [a.pedidoid, a.pessoa]));
    const retirados = [...retiradas].flatMap(([pedidoId, rs]): Retirado[] => {
      const ordenados = [...rs].sort(porMomento);
      const primeira = ordenados[0];
      const pedido = doPonto.find((x) => x.id === pedidoId);
      return primeira === undefined
        ? []
        : [
            {
              pedidoId,
              pessoa: pedido?.nome ?? nomes.get(pedidoId) ?? '',
              telefone: pedido?.celular ?? null,
              primeira,
              registros: ordenados,
            },
          ];
    });
    retirados.sort((a, b) => porMomento(a.primeira, b.primeira));
    const faltas = doTipo('falta').map((a): FaltaNoPonto => ({
      registro: registro(a),
      pedidoId: a.pedidoid,
      pessoa: a.pessoa,
      pedidoProdutoId: a.pedidoProdutoId,
      produtoId: a.produtoId,
      item: (a.produtoId === null ? a.extraNome : a.itemNome) ?? '',
      cesta: a.produtoId === null ? null : a.cestaNome,
      unidade: (a.produtoId === null ? a.extraUnidade : a.itemUnidade) ?? '',
      quantidadeMilesimos: a.quantidadeMilesimos ?? 0,
      substituto: a.substituto,
      texto: a.texto,
      creditoCentavos: credito.get(a.id) ?? 0,
    }));
    const pagamentos = doTipo('pagamento').map((a): PagamentoNoPonto => ({
      registro: registro(a),
      pedidoId: a.pedidoid,
      pessoa: a.pessoa,
      forma: a.forma === 'pix' ? 'pix' : 'dinheiro',
      valorCentavos: a.valorCentavos ?? 0,
    }));
    const dinheiro = somar(pagamentos.filter((x) => x.forma === 'dinheiro'));
    const pix = somar(pagamentos.filter((x) => x.forma === 'pix'));
    const conflitos: ConflitoDaRetirada[] = [
      ...retirados
        .filter((r) => r.registros.length > 1)
        .map((r): ConflitoDaRetirada => ({
          tipo: 'retirada_repetida',
          pedidoId: r.pedidoId,
          pessoa: r.pessoa,
          descricao: `Retirada registrada ${r.registros.length} vezes`,
          registros: r.registros,
        })),
      ...[...Map.groupBy(faltas, (f) => `${f.pedidoProdutoId ?? ''}:${f.produtoId ?? ''}`).values()].flatMap(
        (grupo): ConflitoDaRetirada[] => {
          const [f] = grupo;
          return f === undefined || grupo.length < 2
            ? []
            : [
                {
                  tipo: 'falta_repetida',
                  pedidoId: f.pedidoId,
                  pessoa: f.pessoa,
                  descricao: `${grupo.length} faltas registradas em ${f.item}${f.cesta === null ? '' : ` (${f.cesta})`}`,
                  registros: grupo.map((x) => x.registro),
                },
              ];
        },
      ),
    ];
    const retiradosIds = new Set(retirados.map((r) => r.pedidoId));
    return {
      pontoEntregaId: p.pontoEntregaId,
      nome: p.nome,
      endereco: p.endereco,
      dataRetirada: p.dataRetirada,
      horaInicio: p.horaInicio,
      horaFim: p.horaFim,
      voluntarios: voluntarios.get(p.pontoEntregaId) ?? [],
      pedidos: doPonto.length,
      retirados,
      faltando: doPonto
        .filter((x) => !retiradosIds.has(x.id))
        .map((x) => ({ pedidoId: x.id, pessoa: x.nome, telefone: x.celular })),
      faltas,
      creditoDasFaltasCentavos: faltas.reduce((s, f) => s + f.creditoCentavos, 0),
      pagamentos,
      totais: { dinheiro, pix, totalCentavos: dinheiro.centavos + pix.centavos },
      notas: doTipo('nota').map((a) => ({
        registro: registro(a),
        pedidoId: a.pedidoid,
        pessoa: a.pessoa,
        texto: a.texto ?? '',
      })),
      conflitos,
    };
  });
  return {
    cicloid,
    nome: ciclo.nome,
    fase: faseDoCiclo(ciclo, opcoes.hoje),
    fechadoEm: ciclo.fechadoEm,
    dataPedidoFim: ciclo.dataPedidoFim,
    aberta: opcoes.hoje > ciclo.dataPedidoFim,
    pontos,
    versao: createHash('sha256')
      .update(JSON.stringify([ciclo.nome, ciclo.fechadoEm, pontos]))
      .digest('base64url')
      .slice(0, 16),
  };
}
