/** The movements report: money in and out, with each person's running balance. */
import { sql } from 'kysely';
import type { Db } from '../../db/banco.ts';
import { veTudo, type Ator } from '../acesso.ts';
import { montarRelatorio, type Relatorio } from './modelo.ts';

/** The most rows the report lists. */
const LIMITE = 20_000;

interface Linha {
  readonly id: number;
  readonly usuarioid: number;
  readonly pessoa: string;
  readonly data: string;
  readonly tipo: string;
  readonly tipoMovimentacaoId: number;
  readonly sentido: string;
  readonly valorCentavos: number;
  readonly descricao: string | null;
  readonly arquivo: string | null;
  readonly cicloid: number | null;
  readonly ciclo: string | null;
}

/** Each person's running balance, for rows in the order (person, date, id) with all their movements. */
function comSaldo(linhas: readonly Linha[]): Array<Linha & { readonly saldo: number }> {
  let de: number | null = null;
  let saldo = 0;
  return linhas.map((l) => {
    if (l.usuarioid !== de) {
      de = l.usuarioid;
      saldo = 0;
    }
    saldo += l.sentido === 'credito' ? l.valorCentavos : -l.valorCentavos;
    return { ...l, saldo };
  });
}

export interface FiltroMovimentacoes {
  readonly usuarioid: number | null;
  readonly cicloid: number | null;
  readonly tipoMovimentacaoId: number | null;
  readonly de: string | null;
  readonly ate: string | null;
}

/** The movements with their person, kind and cycle; one person's only, when `usuarioid` is given. */
function movimentos(db: Db, usuarioid: number | null) {
  const q = db
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
    ]);
  return usuarioid === null ? q : q.where('m.usuarioid', '=', usuarioid);
}

/** Filtered rows, each with the balance over all of its person's movements (a window in SQL). */
function comJanela(db: Db, usuarioid: number | null, filtro: FiltroMovimentacoes) {
  const base = movimentos(db, usuarioid).select(
    sql<number>`sum(case when m.sentido = 'credito' then m."valorCentavos" else -m."valorCentavos" end) over (partition by m.usuarioid order by m.data, m.id)`.as(
      'saldo',
    ),
  );
  let q = db.selectFrom(base.as('x')).selectAll();
  if (filtro.cicloid !== null) q = q.where('x.cicloid', '=', filtro.cicloid);
  if (filtro.tipoMovimentacaoId !== null) q = q.where('x.tipoMovimentacaoId', '=', filtro.tipoMovimentacaoId);
  if (filtro.de !== null) q = q.where('x.data', '>=', filtro.de);
  if (filtro.ate !== null) q = q.where('x.data', '<=', filtro.ate);
  return q.orderBy('x.pessoa').orderBy('x.usuarioid').orderBy('x.data').orderBy('x.id').limit(LIMITE).execute();
}

/**
 * /movimentacaotodos: movements with each person's running balance over their whole history, so
 * filters never distort it. Admins, master and info see everyone; others only themselves, scoped
 * in SQL.
 * NOTE: without a filter on the rows (the whole ledger, the big answer), every movement of each
 * person comes in order, so the balance is summed here as the rows go by; the window function that
 * would do it in SQL was 60 % of the query's time at 5,000 movements (docs/performance.md). A
 * filter on cycle, kind or dates leaves rows out of the sum, so then the window does it.
 */
export async function relatorioDeMovimentacoes(db: Db, ator: Ator, filtro: FiltroMovimentacoes): Promise<Relatorio> {
  const usuarioid = veTudo(ator) ? filtro.usuarioid : (ator.usuarioid ?? -1);
  const inteiro =
    filtro.cicloid === null && filtro.tipoMovimentacaoId === null && filtro.de === null && filtro.ate === null;
  const linhas: ReadonlyArray<Linha & { readonly saldo: number | string }> = inteiro
    ? comSaldo(
        await movimentos(db, usuarioid)
          .orderBy('u.nome')
          .orderBy('m.usuarioid')
          .orderBy('m.data')
          .orderBy('m.id')
          .limit(LIMITE)
          .execute(),
      )
    : await comJanela(db, usuarioid, filtro);
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
