/**
 * Where people stand in the dashboard's cycles: a person's own offer and order, and, for the
 * coordination, who has not finalised an offer and whose order still waits for confirmation.
 * The dashboard's next steps read it, so they say what is left to do, not what the phase is.
 */
import type { Db } from '../db/banco.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import { ciclosRecentes, desdeDoPainel, noPainel, type CicloNoPainel } from './ciclos/painel.ts';
import { saldoDaSoma, somaDoSaldo, type Saldo } from './financeiro.ts';
import { ehConsumidor, ehFornecedor } from './acesso.ts';
import { lerPerfis, type Perfil } from './perfis.ts';
import { horarioDeRetiradaTexto } from './tempo.ts';

export type SituacaoDaOferta = 'sem' | 'rascunho' | 'finalizada';
export type SituacaoDoPedido = 'sem' | 'salvo' | 'confirmado';

export interface Andamento {
  readonly oferta: SituacaoDaOferta;
  readonly pedido: SituacaoDoPedido;
  /** The order, when there is one: its id (the confirmation page) and where it is picked up. */
  readonly pedidoId: number | null;
  readonly pontoEntrega: string | null;
  /** The cycle's day and hours at that point, as people read them ('' when the cycle sets none). */
  readonly horarioRetirada: string;
}

const SEM_NADA: Andamento = { oferta: 'sem', pedido: 'sem', pedidoId: null, pontoEntrega: null, horarioRetirada: '' };

/** What a person's dashboard shows of the cycles and of their own ledger. */
export interface PainelDaPessoa {
  readonly ciclos: CicloNoPainel[];
  readonly saldo: Saldo | null;
  readonly andamento: ReadonlyMap<number, Andamento>;
}

// Every dashboard runs it, in one statement: the person's balance (one aggregate row), the recent
// cycles joined to it, and their own order and offer in each cycle (unique per cycle and person).
// A prepared value fills one place: the person's id goes in three times.
const painelPreparado = consultaPreparada(
  (db: Db, desde: string, doSaldo: number, doPedido: number, daOferta: number) =>
    db
      .selectFrom(somaDoSaldo(db, doSaldo).as('s'))
      .leftJoin(ciclosRecentes(db, desde).as('c'), (j) => j.onTrue())
      .leftJoin('pedido as p', (j) => j.onRef('p.cicloid', '=', 'c.id').on('p.usuarioid', '=', doPedido))
      .leftJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
      .leftJoin('ciclopontoentrega as cpe', (j) =>
        j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'),
      )
      .leftJoin('oferta as o', (j) => j.onRef('o.cicloid', '=', 'c.id').on('o.usuarioid', '=', daOferta))
      .select([
        's.centavos',
        's.n',
        'c.id',
        'c.nome',
        'c.dataOfertaInicio',
        'c.dataOfertaFim',
        'c.dataPedidoInicio',
        'c.dataPedidoFim',
        'c.dataRetiradaInicio',
        'c.dataRetiradaFim',
      ])
      .select([
        'p.id as pedidoId',
        'p.finalizado',
        'pe.nome as ponto',
        'cpe.dataRetirada',
        'cpe.horaInicio',
        'cpe.horaFim',
        'o.finalizada',
      ])
      .orderBy('c.dataOfertaInicio')
      .orderBy('c.id'),
  4,
);

/**
 * A person's dashboard in one query: the recent cycles (ciclosDoPainel's), their balance
 * (saldoDe's), and their own offer and order in each cycle, as far as their profiles let them
 * have one (a consumer's dashboard shows no offer, a supplier's no order).
 */
export async function painelDaPessoa(
  db: Db,
  pessoa: { readonly usuarioid: number; readonly perfil: readonly Perfil[] },
  hoje: string,
): Promise<PainelDaPessoa> {
  const { usuarioid } = pessoa;
  const linhas = await painelPreparado(db, desdeDoPainel(hoje), usuarioid, usuarioid, usuarioid);
  const consumidor = ehConsumidor(pessoa);
  const fornecedor = ehFornecedor(pessoa);
  const ciclos: CicloNoPainel[] = [];
  const andamento = new Map<number, Andamento>();
  for (const l of linhas) {
    const {
      id,
      nome,
      dataOfertaInicio,
      dataOfertaFim,
      dataPedidoInicio,
      dataPedidoFim,
      dataRetiradaInicio,
      dataRetiradaFim,
    } = l;
    // No cycle at all: the balance's row alone, with the cycle's columns null.
    if (
      id === null ||
      nome === null ||
      dataOfertaInicio === null ||
      dataOfertaFim === null ||
      dataPedidoInicio === null ||
      dataPedidoFim === null ||
      dataRetiradaInicio === null ||
      dataRetiradaFim === null
    )
      continue;
    ciclos.push(
      noPainel(
        {
          id,
          nome,
          dataOfertaInicio,
          dataOfertaFim,
          dataPedidoInicio,
          dataPedidoFim,
          dataRetiradaInicio,
          dataRetiradaFim,
        },
        hoje,
      ),
    );
    const oferta: SituacaoDaOferta =
      !fornecedor || l.finalizada === null
        ? 'sem'
        : l.finalizada === true || Number(l.finalizada) === 1
          ? 'finalizada'
          : 'rascunho';
    andamento.set(
      id,
      !consumidor || l.pedidoId === null
        ? { ...SEM_NADA, oferta }
        : {
            oferta,
            pedido: l.finalizado === true || Number(l.finalizado) === 1 ? 'confirmado' : 'salvo',
            pedidoId: l.pedidoId,
            pontoEntrega: l.ponto,
            horarioRetirada: horarioDeRetiradaTexto(l),
          },
    );
  }
  return { ciclos, saldo: saldoDaSoma(linhas[0]), andamento };
}

export interface Pendencias {
  /** Active suppliers without a finalised offer in the cycle. */
  readonly semOferta: ReadonlyArray<{ readonly id: number; readonly nome: string }>;
  /** Saved orders not yet confirmed: neither delivered nor charged until they are. */
  readonly naoConfirmados: ReadonlyArray<{ readonly id: number; readonly nome: string; readonly pedidoId: number }>;
}

/** What the coordination still waits for in each of the given cycles (three queries). */
export async function pendenciasDosCiclos(db: Db, cicloids: readonly number[]): Promise<Map<number, Pendencias>> {
  const porCiclo = new Map<number, Pendencias>();
  if (cicloids.length === 0) return porCiclo;
  const [candidatos, finalizadas, abertos] = await Promise.all([
    // Profiles are stored as JSON text: the LIKE narrows, lerPerfis decides.
    db
      .selectFrom('usuario')
      .select(['id', 'nome', 'perfil'])
      .where('ativo', '=', true)
      .where('perfil', 'like', '%"fornecedor"%')
      .orderBy('nomeChave')
      .execute(),
    db
      .selectFrom('oferta')
      .select(['cicloid', 'usuarioid'])
      .where('finalizada', '=', true)
      .where('cicloid', 'in', [...cicloids])
      .execute(),
    db
      .selectFrom('pedido as p')
      .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
      .select(['p.cicloid', 'p.id as pedidoId', 'u.id', 'u.nome'])
      .where('p.finalizado', '=', false)
      .where('p.cicloid', 'in', [...cicloids])
      .orderBy('u.nomeChave')
      .execute(),
  ]);
  const fornecedores = candidatos.filter((u) => ehFornecedor({ perfil: lerPerfis(u.perfil) }));
  for (const cicloid of cicloids) {
    const ofertaram = new Set(finalizadas.filter((o) => o.cicloid === cicloid).map((o) => o.usuarioid));
    porCiclo.set(cicloid, {
      semOferta: fornecedores.filter((f) => !ofertaram.has(f.id)).map((f) => ({ id: f.id, nome: f.nome })),
      naoConfirmados: abertos
        .filter((p) => p.cicloid === cicloid)
        .map((p) => ({ id: p.id, nome: p.nome, pedidoId: p.pedidoId })),
    });
  }
  return porCiclo;
}
