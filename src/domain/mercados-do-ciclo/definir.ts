/**
 * Setting which markets a cycle serves: their order of service, their pickup points and (cesta
 * markets, cesta.ts) the baskets each sells. The write holds the cycle (`travar … 'ciclo'`); a
 * market still in use cannot leave.
 */
import { emTransacao, travar, type Banco, type Db } from '../../db/banco.ts';
import type { Ator } from '../acesso.ts';
import { auditar } from '../auditoria.ts';
import { cicloDasJanelas, exigirAberto } from '../ciclos/janelas.ts';
import { Conflito } from '../erros.ts';
import { vendeDoTipo } from '../tipos-de-mercado.ts';
import { atribuirCestas, conferirTetos } from './cesta.ts';
import {
  exigirGestor,
  invalido,
  mercadosDoCiclo,
  regrasDosMercadosDoCiclo,
  type CicloMercadoLido,
  type MercadoDoCiclo,
} from './comum.ts';

/**
 * Sets which markets a cycle serves, their order of service, their pickup points and (cesta
 * markets) the baskets each sells. Only active markets can be added; a market that has orders,
 * releases with orders, or lots cannot leave (409). Baskets left out of every market are sold
 * outside markets; releases of a market that leaves go with it. Audited; returns the new list.
 */
export async function definirMercadosDoCiclo(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  itens: readonly CicloMercadoLido[],
  agora: Date,
): Promise<MercadoDoCiclo[]> {
  exigirGestor(ator);
  const erros = regrasDosMercadosDoCiclo(itens);
  if (Object.keys(erros).length > 0) throw invalido(erros);
  return emTransacao(banco, async (trx) => {
    await travar(trx, 'ciclo', [cicloid]);
    exigirAberto(await cicloDasJanelas(trx, cicloid));
    const antes = await mercadosDoCiclo(trx, cicloid);
    const ids = itens.map((i) => i.mercadoId);
    // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite; PostgreSQL refuses it
    const mercados =
      ids.length === 0
        ? []
        : await trx.selectFrom('mercado').select(['id', 'nome', 'tipo', 'ativo']).where('id', 'in', ids).execute();
    const pontosPedidos = [...new Set(itens.flatMap((i) => i.pontoEntregaIds))];
    // Stryker disable next-line ConditionalExpression: see above
    const pontos =
      pontosPedidos.length === 0
        ? []
        : await trx.selectFrom('pontoentrega').select(['id', 'ativo']).where('id', 'in', pontosPedidos).execute();
    const cestasPedidas = [...new Set(itens.flatMap((i) => i.cicloCestaIds))];
    // Stryker disable next-line ConditionalExpression: see above
    const cestas =
      cestasPedidas.length === 0
        ? []
        : await trx.selectFrom('ciclocesta').select(['id', 'cicloid']).where('id', 'in', cestasPedidas).execute();
    const ja = new Set(antes.map((a) => a.mercadoId));
    for (const i of itens) {
      const m = mercados.find((x) => x.id === i.mercadoId);
      if (m === undefined) erros[`${i.campo}.mercadoId`] = 'Mercado não encontrado';
      else if (!m.ativo && !ja.has(m.id))
        erros[`${i.campo}.mercadoId`] = `O mercado ${m.nome} está desativado: só mercados ativos entram num ciclo`;
      const semPonto = i.pontoEntregaIds.filter((p) => !pontos.some((x) => x.id === p && Boolean(x.ativo)));
      if (semPonto.length > 0)
        erros[`${i.campo}.pontoEntregaIds`] = `Ponto de entrega inexistente ou inativo: ${semPonto.join(', ')}`;
      if (i.cicloCestaIds.length > 0 && m !== undefined && !vendeDoTipo(m.tipo, 'cestas'))
        erros[`${i.campo}.cicloCestaIds`] =
          `${m.nome} não é um mercado de cestas: só um mercado do tipo cesta vende as cestas do ciclo`;
      const deOutroCiclo = i.cicloCestaIds.filter((c) => !cestas.some((x) => x.id === c && x.cicloid === cicloid));
      if (deOutroCiclo.length > 0)
        erros[`${i.campo}.cicloCestaIds`] = `Cesta que não é deste ciclo: ${deOutroCiclo.join(', ')}`;
    }
    if (Object.keys(erros).length > 0) throw invalido(erros);
    const saem = antes.filter((a) => !ids.includes(a.mercadoId));
    for (const s of saem) await exigirSemUso(trx, cicloid, s);
    // The market's baskets, points and order follow the list; a market's basket already ordered
    // stays in it (its orders were priced and charged there).
    const iso = agora.toISOString();
    for (const s of saem) {
      await trx.deleteFrom('ciclomercadoponto').where('cicloMercadoId', '=', s.cicloMercadoId).execute();
      await trx
        .deleteFrom('cicloproduto')
        .where('cicloid', '=', cicloid)
        .where('mercadoId', '=', s.mercadoId)
        .execute();
      await trx.deleteFrom('ciclomercado').where('id', '=', s.cicloMercadoId).execute();
    }
    // Orders of service may swap: clear them first so the unique (cycle, order) never trips midway.
    for (const [n, a] of antes.filter((x) => ids.includes(x.mercadoId)).entries()) {
      await trx
        .updateTable('ciclomercado')
        .set({ ordemAtendimento: 100_000 + n })
        .where('id', '=', a.cicloMercadoId)
        .execute();
    }
    for (const i of itens) {
      const atual = antes.find((a) => a.mercadoId === i.mercadoId);
      const cicloMercadoId =
        atual === undefined
          ? (
              await trx
                .insertInto('ciclomercado')
                .values({
                  cicloid,
                  mercadoId: i.mercadoId,
                  ordemAtendimento: i.ordemAtendimento,
                  createdAt: iso,
                  updatedAt: iso,
                })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id
          : atual.cicloMercadoId;
      if (atual !== undefined)
        await trx
          .updateTable('ciclomercado')
          .set({ ordemAtendimento: i.ordemAtendimento, updatedAt: iso })
          .where('id', '=', cicloMercadoId)
          .execute();
      await trx.deleteFrom('ciclomercadoponto').where('cicloMercadoId', '=', cicloMercadoId).execute();
      if (i.pontoEntregaIds.length > 0) {
        await trx
          .insertInto('ciclomercadoponto')
          .values(i.pontoEntregaIds.map((p) => ({ cicloMercadoId, pontoEntregaId: p, createdAt: iso, updatedAt: iso })))
          .execute();
      }
    }
    await atribuirCestas(trx, cicloid, itens, iso);
    await conferirTetos(trx, cicloid);
    const depois = await mercadosDoCiclo(trx, cicloid);
    await auditar(trx, ator, agora, {
      acao: 'definir mercados do ciclo',
      entidade: 'ciclo',
      entidadeId: cicloid,
      antes,
      depois,
    });
    return depois;
  });
}

/** A market leaving a cycle: refused while orders bought in it, or its lots, exist. */
async function exigirSemUso(trx: Db, cicloid: number, m: MercadoDoCiclo): Promise<void> {
  const [pedidos, lotes] = await Promise.all([
    trx
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .select((eb) => eb.fn.count<number | string>('p.id').distinct().as('n'))
      .where('p.cicloid', '=', cicloid)
      .where('pp.mercadoId', '=', m.mercadoId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('lote')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('cicloid', '=', cicloid)
      .where('mercadoId', '=', m.mercadoId)
      .executeTakeFirstOrThrow(),
  ]);
  if (Number(pedidos.n) > 0)
    throw new Conflito(
      'MERCADO_EM_USO',
      `O mercado ${m.nome} não pode sair do ciclo: ${Number(pedidos.n)} pedido(s) compraram nele`,
      { mercadoId: m.mercadoId, pedidos: Number(pedidos.n) },
    );
  if (Number(lotes.n) > 0)
    throw new Conflito(
      'MERCADO_EM_USO',
      `O mercado ${m.nome} não pode sair do ciclo: tem ${Number(lotes.n)} lote(s); apague-os antes`,
      { mercadoId: m.mercadoId, lotes: Number(lotes.n) },
    );
}
