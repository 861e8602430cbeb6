/**
 * Whether a subscription can be served in a cycle: the cycle's baskets read under the order locks
 * (with what is free of each), the basket a subscription takes there, and why it cannot be served
 * (motivoParaNaoServir). Shared by the generation (geracao.ts) and one cycle's change (no-ciclo.ts).
 */
import type { Transaction } from 'kysely';
import { travar, type Db } from '../../db/banco.ts';
import type { DB } from '../../db/tipos.ts';
import { cestaComposta } from '../conteudo-das-cestas.ts';
import { Invalido } from '../erros.ts';
import { lerPontoDoPedido, pontoDoPedido, pontoDosMercados } from '../pedidos/ponto.ts';
import { reservadoDaLinha, vendaveisDaCesta } from '../reservas.ts';

export type CestaDoCiclo = {
  id: number;
  cestaId: number;
  nome: string;
  ativo: boolean;
  quantidadeCestas: number;
  reservadoMilesimos: number;
  valorReferenciaCentavos: number;
  mercadoId: number | null;
  taxaCentesimos: number | null;
  composta: boolean;
};

export async function cestasDoCiclo(
  trx: Transaction<DB>,
  cicloid: number,
  soConfirmados: boolean,
): Promise<CestaDoCiclo[]> {
  const ids = (await trx.selectFrom('ciclocesta').select('id').where('cicloid', '=', cicloid).execute()).map(
    (c) => c.id,
  );
  await travar(trx, 'ciclocesta', ids);
  const linhas = await trx
    .selectFrom('ciclocesta as cc')
    .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
    .leftJoin('mercado as m', 'm.id', 'cc.mercadoId')
    .select([
      'cc.id',
      'cc.cestaId',
      'cesta.nome',
      'cesta.ativo',
      'cesta.valorReferenciaCentavos',
      'cc.mercadoId',
      'm.taxaAdministrativaCentesimos as taxaCentesimos',
    ])
    // What may be sold is the composition's number (what will be packed), as for any order;
    // once the window has closed (an admin's change), unconfirmed orders hold nothing.
    .select([
      vendaveisDaCesta('cc').as('quantidadeCestas'),
      reservadoDaLinha('ciclocesta', 'cc', soConfirmados).as('reservadoMilesimos'),
    ])
    .select((eb) => cestaComposta(eb).as('composta'))
    .where('cc.cicloid', '=', cicloid)
    .orderBy('cc.id')
    .execute();
  return linhas.map((l) => ({
    ...l,
    ativo: Boolean(l.ativo),
    quantidadeCestas: Number(l.quantidadeCestas),
    reservadoMilesimos: Number(l.reservadoMilesimos),
    composta: Boolean(Number(l.composta)),
  }));
}

export function cestaDaAssinatura(
  a: { cestaId: number; mercadoId: number | null },
  cestas: readonly CestaDoCiclo[],
): CestaDoCiclo | undefined {
  return cestas.find((c) => c.cestaId === a.cestaId && (a.mercadoId === null || c.mercadoId === a.mercadoId));
}

const plural = (n: number) => `${n} ${n === 1 ? 'cesta' : 'cestas'}`;

/**
 * Why a subscription cannot be served `quantidade` baskets at `pontoEntregaId` in the cycle, or
 * null when it can: the basket active and composed, the point one the cycle (and the basket's
 * market) serves, and enough free baskets for the whole quantity (never a partial order).
 * `ja`: what the subscription already holds in the cycle (its own reservation, when changing it).
 * `pontos`: what a generation already learnt of each (point, market) in its transaction, where
 * nothing changes the points.
 */
export async function motivoParaNaoServir(
  trx: Db,
  cicloid: number,
  cc: CestaDoCiclo,
  quantidade: number,
  pontoEntregaId: number,
  ja: number,
  pontos?: Map<string, string | null>,
): Promise<string | null> {
  if (!cc.ativo) return `A ${cc.nome} está desativada`;
  if (!cc.composta) return `A ${cc.nome} ainda está em composição`;
  const chave = `${pontoEntregaId}:${cc.mercadoId ?? ''}`;
  let doPonto = pontos?.get(chave);
  if (doPonto === undefined) {
    doPonto = await motivoDoPonto(trx, cicloid, pontoEntregaId, cc.mercadoId);
    pontos?.set(chave, doPonto);
  }
  if (doPonto !== null) return doPonto;
  const livre = cc.quantidadeCestas * 1000 - cc.reservadoMilesimos + ja * 1000;
  if (quantidade * 1000 > livre)
    return `Não há cestas para todas: pedidas ${plural(quantidade)} da ${cc.nome}, disponíveis ${plural(Math.max(0, Math.floor(livre / 1000)))}`;
  return null;
}

/** Why the point does not serve the cycle (and the basket's market), as the order rule says it; null when it does. */
async function motivoDoPonto(
  trx: Db,
  cicloid: number,
  pontoEntregaId: number,
  mercadoId: number | null,
): Promise<string | null> {
  try {
    await pontoDoPedido(trx, cicloid, await lerPontoDoPedido(trx, cicloid, pontoEntregaId), mercadoId !== null);
    if (mercadoId !== null) await pontoDosMercados(trx, cicloid, pontoEntregaId, new Set([mercadoId]), false);
    return null;
  } catch (e) {
    if (e instanceof Invalido) return String(e.detalhes?.pontoEntregaId ?? e.message);
    throw e;
  }
}
