/**
 * A person's next steps in a cycle, as both faces' dashboards show them: which steps are due
 * (proximasAcoes), where the person stands in each (their own offer and order, andamento.ts),
 * what is left to do, and the last day to do it. Each face turns `destino` into its own link.
 */
import { ehFornecedor, nomeDoPasso, proximasAcoes, type AcaoDoCiclo, type Ator } from './acesso.ts';
import { painelDaPessoa, type Andamento } from './andamento.ts';
import type { DatasCiclo } from './ciclos/calendario.ts';
import { diasDeEntregaDosCiclos } from './ciclos/leitura.ts';
import { ciclosDoPainel, type CicloNoPainel } from './ciclos/painel.ts';
import type { Db } from '../db/banco.ts';
import { podeMercados, type AtorMercados } from './politica-mercados.ts';
import { diasDeEntregaTexto, somarDias, type DiaDeEntrega } from './tempo.ts';

/** One step as this person stands in it. */
export interface PassoDoCiclo {
  readonly acao: AcaoDoCiclo;
  readonly texto: string;
  /** Done already: shown as a state, not as a task. */
  readonly feito: boolean;
  /** Where it is done or seen: the step's own page, the person's order, or nowhere (nothing to open). */
  readonly destino: 'passo' | 'pedido' | null;
  /**
   * The last day (AAAA-MM-DD, the community's calendar) to take the step or still change it: its
   * window closes at the end of that day in the community's time zone. Null: no deadline to show.
   */
  readonly prazo: string | null;
}

/** What a step needs of its cycle: the dates, the person's own offer and order, and the delivery days. */
export interface CicloDoPasso extends DatasCiclo {
  readonly andamento: Andamento | null;
  /** The days suppliers deliver (empty when not read or not set). */
  readonly entregas: readonly DiaDeEntrega[];
}

/** Each next step as this person stands in it: what is left to do, or that it is done. */
export function passoDoCiclo(acao: AcaoDoCiclo, c: CicloDoPasso): PassoDoCiclo {
  const a = c.andamento;
  const passo = (texto: string, destino: PassoDoCiclo['destino'], feito: boolean, prazo: string | null) => ({
    acao,
    texto,
    feito,
    destino,
    prazo,
  });
  switch (acao) {
    case 'entregar': {
      if (a?.oferta !== 'finalizada') return passo('Nada a entregar neste ciclo', null, true, null);
      const quando = diasDeEntregaTexto(c.entregas);
      const ultimo = c.entregas.at(-1)?.dataEntrega ?? null;
      return quando === ''
        ? passo('Entregar o que foi pedido da sua oferta (a coordenação ainda não marcou o dia)', 'passo', false, null)
        : passo(`Entregar o que foi pedido da sua oferta: ${quando}`, 'passo', false, ultimo);
    }
    case 'ofertar':
      if (a?.oferta === 'finalizada')
        return passo('Oferta finalizada (ainda pode alterar)', 'passo', true, c.dataOfertaFim);
      if (a?.oferta === 'rascunho')
        return passo('Sua oferta é um rascunho: finalize-a', 'passo', false, c.dataOfertaFim);
      return passo(nomeDoPasso(acao), 'passo', false, c.dataOfertaFim);
    case 'pedir':
      if (a?.pedido === 'confirmado')
        return passo('Pedido confirmado (ainda pode alterar)', 'passo', true, c.dataPedidoFim);
      if (a?.pedido === 'salvo') return passo('Pedido salvo, falta confirmar', 'pedido', false, c.dataPedidoFim);
      return passo(nomeDoPasso(acao), 'passo', false, c.dataPedidoFim);
    case 'retirar':
      if (a?.pedido === 'confirmado')
        return passo(
          `Retirar sua cesta em ${a.pontoEntrega ?? 'seu ponto de entrega'}${a.horarioRetirada === '' ? '' : ` (${a.horarioRetirada})`}`,
          'pedido',
          false,
          c.dataRetiradaFim,
        );
      return passo(
        a?.pedido === 'salvo' ? 'Nada a retirar: seu pedido não foi confirmado a tempo' : 'Nada a retirar neste ciclo',
        null,
        true,
        null,
      );
    case 'compor':
      // Baskets are composed before the order window opens.
      return passo(nomeDoPasso(acao), 'passo', false, somarDias(c.dataPedidoInicio, -1));
  }
}

/** A dashboard cycle with this person's steps in it. */
export interface CicloComPassos extends CicloNoPainel {
  /** The person's own offer and order in the cycle (null: none read). */
  readonly andamento: Andamento | null;
  readonly passos: readonly PassoDoCiclo[];
}

/** The delivery days of the cycles past their orders, for a supplier's "deliver" step (none read for anyone else). */
export function entregasDoFornecedor(
  db: Db,
  pessoa: Parameters<typeof ehFornecedor>[0],
  ciclos: readonly CicloNoPainel[],
): Promise<Map<number, DiaDeEntrega[]>> {
  const entregando = ehFornecedor(pessoa) ? ciclos.filter((c) => c.fase === 'retirada').map((c) => c.id) : [];
  return diasDeEntregaDosCiclos(db, entregando);
}

/**
 * The dashboard's cycles (ciclosDoPainel's) with this person's steps in each, read from their own
 * offer and order only, and, for a supplier, the delivery days of the cycles past their orders.
 */
export async function proximosPassos(db: Db, ator: Ator, hoje: string): Promise<CicloComPassos[]> {
  const pessoa =
    ator.usuarioid === null || !ator.ativo
      ? null
      : await painelDaPessoa(db, { usuarioid: ator.usuarioid, perfil: ator.perfil }, hoje);
  const ciclos = pessoa?.ciclos ?? (await ciclosDoPainel(db, hoje));
  const entregas = pessoa === null ? new Map<number, DiaDeEntrega[]>() : await entregasDoFornecedor(db, ator, ciclos);
  return ciclos.map((c) => {
    const doCiclo: CicloDoPasso = {
      ...c,
      andamento: pessoa?.andamento.get(c.id) ?? null,
      entregas: entregas.get(c.id) ?? [],
    };
    // An inactive person, or one without a record, has no step to take (as `pode` says).
    const acoes = pessoa === null ? [] : proximasAcoes(ator, c);
    return { ...c, andamento: doCiclo.andamento, passos: acoes.map((a) => passoDoCiclo(a, doCiclo)) };
  });
}

/** The Mercados face's own steps: the markets a cycle serves, and a market's orders for whoever runs it. */
export type AcaoDosMercados = 'definirMercados' | 'pedidosDoMercado';

export interface PassoDosMercados {
  readonly acao: AcaoDosMercados;
  readonly texto: string;
  readonly feito: boolean;
  /** The market whose orders the step is about (pedidosDoMercado). */
  readonly mercadoId: number | null;
  /** As PassoDoCiclo's: the last day, in the community's calendar. */
  readonly prazo: string | null;
}

/**
 * The Mercados steps of a cycle: for whoever defines a cycle's markets, defining them before the
 * order window opens; for a market's own admin, its orders while they are made and picked up.
 */
export function passosDosMercados(
  conta: AtorMercados,
  c: CicloNoPainel,
  mercados: ReadonlyArray<{ readonly mercadoId: number; readonly nome: string; readonly adminId: number }>,
): PassoDosMercados[] {
  const passos: PassoDosMercados[] = [];
  const antesDosPedidos =
    !c.abertas.includes('pedido') && (c.fase === 'planejado' || c.fase === 'oferta' || c.fase === 'composicao');
  if (antesDosPedidos && podeMercados(conta, 'definirMercadosDoCiclo', null)) {
    const prazo = somarDias(c.dataPedidoInicio, -1);
    passos.push(
      mercados.length === 0
        ? { acao: 'definirMercados', texto: 'Definir os mercados do ciclo', feito: false, mercadoId: null, prazo }
        : {
            acao: 'definirMercados',
            texto: `Mercados do ciclo definidos: ${mercados.map((m) => m.nome).join(', ')} (ainda pode alterar)`,
            feito: true,
            mercadoId: null,
            prazo,
          },
    );
  }
  const pedindo = c.abertas.includes('pedido');
  if (pedindo || c.fase === 'retirada') {
    // Only the markets the person runs: the Administrador sees every market's, which is not a step of theirs.
    for (const m of mercados.filter((x) => x.adminId === conta.id && podeMercados(conta, 'verPedidosDoMercado', x)))
      passos.push({
        acao: 'pedidosDoMercado',
        texto: pedindo ? `Acompanhar os pedidos em ${m.nome}` : `Conferir os pedidos de ${m.nome} na retirada`,
        feito: false,
        mercadoId: m.mercadoId,
        prazo: pedindo ? c.dataPedidoFim : c.dataRetiradaFim,
      });
  }
  return passos;
}
