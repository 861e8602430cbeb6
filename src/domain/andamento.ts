/**
 * Where people stand in the dashboard's cycles: a person's own offer and order, and, for the
 * coordination, who has not finalised an offer and whose order still waits for confirmation.
 * The dashboard's next steps read it, so they say what is left to do, not what the phase is.
 */
import { sql } from 'kysely';
import type { Db } from '../db/banco.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import { VERSAO_DOS_CICLOS } from '../db/versoes.ts';
import { ciclosRecentesDaVersao, desdeDoPainel, noPainel, type CicloNoPainel } from './ciclos/painel.ts';
import { SOMA_DO_SALDO, saldoDaSoma, type Saldo } from './financeiro.ts';
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

/** A value a branch of the union below does not have, typed as the column is in the others. */
const nulo = <T>(tipo: 'integer' | 'bigint' | 'boolean' | 'text') => sql<T | null>`cast(null as ${sql.raw(tipo)})`;

// Every dashboard runs it, in one statement: the person's own order (with its point and pickup
// hours) and offer in each recent cycle, their balance (one aggregate row), and the cycle data's
// version, under which the list of cycles is kept (ciclosRecentesDaVersao). A row's `k` says which
// it is. A prepared value fills one place: the day and the person's id go in as often as used.
const painelPreparado = consultaPreparada(
  (db: Db, desdeDoPedido: string, doPedido: number, desdeDaOferta: string, daOferta: number, doSaldo: number) => {
    const recentes = (desde: string) =>
      db.selectFrom('ciclo').select('id').where('ativo', '=', true).where('dataRetiradaFim', '>=', desde);
    const pedidos = db
      .selectFrom('pedido as p')
      .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
      .leftJoin('ciclopontoentrega as cpe', (j) =>
        j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'),
      )
      .where('p.usuarioid', '=', doPedido)
      .where('p.cicloid', 'in', recentes(desdeDoPedido))
      .select([
        sql<number>`0`.as('k'),
        sql<number | null>`${sql.ref('p.cicloid')}`.as('cicloid'),
        sql<number | null>`${sql.ref('p.id')}`.as('pedidoId'),
        sql<boolean | number | null>`${sql.ref('p.finalizado')}`.as('finalizado'),
        sql<string | null>`${sql.ref('pe.nome')}`.as('ponto'),
        sql<string | null>`${sql.ref('cpe.dataRetirada')}`.as('dataRetirada'),
        sql<string | null>`${sql.ref('cpe.horaInicio')}`.as('horaInicio'),
        sql<string | null>`${sql.ref('cpe.horaFim')}`.as('horaFim'),
        nulo<boolean | number>('boolean').as('finalizada'),
        nulo<number | string>('bigint').as('centavos'),
        nulo<number | string>('bigint').as('n'),
        nulo<number | string>('bigint').as('versao'),
      ]);
    const ofertas = db
      .selectFrom('oferta as o')
      .where('o.usuarioid', '=', daOferta)
      .where('o.cicloid', 'in', recentes(desdeDaOferta))
      .select([
        sql<number>`1`.as('k'),
        sql<number | null>`${sql.ref('o.cicloid')}`.as('cicloid'),
        nulo<number>('integer').as('pedidoId'),
        nulo<boolean | number>('boolean').as('finalizado'),
        nulo<string>('text').as('ponto'),
        nulo<string>('text').as('dataRetirada'),
        nulo<string>('text').as('horaInicio'),
        nulo<string>('text').as('horaFim'),
        sql<boolean | number | null>`${sql.ref('o.finalizada')}`.as('finalizada'),
        nulo<number | string>('bigint').as('centavos'),
        nulo<number | string>('bigint').as('n'),
        nulo<number | string>('bigint').as('versao'),
      ]);
    const saldo = db
      .selectFrom('movimentacao')
      .where('usuarioid', '=', doSaldo)
      .select([
        sql<number>`2`.as('k'),
        nulo<number>('integer').as('cicloid'),
        nulo<number>('integer').as('pedidoId'),
        nulo<boolean | number>('boolean').as('finalizado'),
        nulo<string>('text').as('ponto'),
        nulo<string>('text').as('dataRetirada'),
        nulo<string>('text').as('horaInicio'),
        nulo<string>('text').as('horaFim'),
        nulo<boolean | number>('boolean').as('finalizada'),
        sql<number | string | null>`cast(${SOMA_DO_SALDO} as bigint)`.as('centavos'),
        sql<number | string | null>`cast(count(*) as bigint)`.as('n'),
        nulo<number | string>('bigint').as('versao'),
      ]);
    const versao = db
      .selectFrom('versaodados')
      .where('id', '=', VERSAO_DOS_CICLOS)
      .select([
        sql<number>`3`.as('k'),
        nulo<number>('integer').as('cicloid'),
        nulo<number>('integer').as('pedidoId'),
        nulo<boolean | number>('boolean').as('finalizado'),
        nulo<string>('text').as('ponto'),
        nulo<string>('text').as('dataRetirada'),
        nulo<string>('text').as('horaInicio'),
        nulo<string>('text').as('horaFim'),
        nulo<boolean | number>('boolean').as('finalizada'),
        nulo<number | string>('bigint').as('centavos'),
        nulo<number | string>('bigint').as('n'),
        sql<number | string | null>`cast(${sql.ref('versao')} as bigint)`.as('versao'),
      ]);
    return pedidos.unionAll(ofertas).unionAll(saldo).unionAll(versao);
  },
  5,
);

/**
 * A person's dashboard in one query: the recent cycles (ciclosDoPainel's, kept per version of the
 * cycle data), their balance (saldoDe's), and their own offer and order in each cycle, as far as
 * their profiles let them have one (a consumer's dashboard shows no offer, a supplier's no order).
 */
export async function painelDaPessoa(
  db: Db,
  pessoa: { readonly usuarioid: number; readonly perfil: readonly Perfil[] },
  hoje: string,
): Promise<PainelDaPessoa> {
  const { usuarioid } = pessoa;
  const desde = desdeDoPainel(hoje);
  const linhas = await painelPreparado(db, desde, usuarioid, desde, usuarioid, usuarioid);
  const pedidos = new Map<number, (typeof linhas)[number]>();
  const ofertas = new Map<number, (typeof linhas)[number]>();
  let soma: { readonly centavos: unknown; readonly n: unknown } | undefined;
  let versao = 0;
  for (const l of linhas) {
    const k = Number(l.k);
    if (k === 0 && l.cicloid !== null) pedidos.set(l.cicloid, l);
    else if (k === 1 && l.cicloid !== null) ofertas.set(l.cicloid, l);
    else if (k === 2) soma = l;
    else if (k === 3) versao = Number(l.versao ?? 0);
  }
  const consumidor = ehConsumidor(pessoa);
  const fornecedor = ehFornecedor(pessoa);
  const ciclos: CicloNoPainel[] = [];
  const andamento = new Map<number, Andamento>();
  for (const c of await ciclosRecentesDaVersao(db, desde, versao)) {
    ciclos.push(noPainel(c, hoje));
    const o = ofertas.get(c.id);
    const oferta: SituacaoDaOferta =
      !fornecedor || o === undefined
        ? 'sem'
        : o.finalizada === true || Number(o.finalizada) === 1
          ? 'finalizada'
          : 'rascunho';
    const p = pedidos.get(c.id);
    andamento.set(
      c.id,
      !consumidor || p === undefined || p.pedidoId === null
        ? { ...SEM_NADA, oferta }
        : {
            oferta,
            pedido: p.finalizado === true || Number(p.finalizado) === 1 ? 'confirmado' : 'salvo',
            pedidoId: p.pedidoId,
            pontoEntrega: p.ponto,
            horarioRetirada: horarioDeRetiradaTexto(p),
          },
    );
  }
  return { ciclos, saldo: saldoDaSoma(soma), andamento };
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
