/**
 * Confirming an order (finalizarPedido); after the order window, the order takes its stock only
 * now (conferirEstoqueAoConfirmar).
 */
import { ehPostgres, emTransacao, type Banco, type Db } from '../../db/banco.ts';
import { ESCALA_QUANTIDADE, formatarQuantidadeComUnidade, paraNumero } from '../../decimal.ts';
import { ehGestor, podeNoRegistro, type Ator } from '../acesso.ts';
import { auditar } from '../auditoria.ts';
import { cicloDasJanelas, exigirJanela } from '../ciclos/janelas.ts';
import { Conflito, Proibido } from '../erros.ts';
import { reservadoDaLinha, soConfirmadosSeguram, vendaveisDaCesta } from '../reservas.ts';
import { dataHoraLocal } from '../tempo.ts';
import { pedidoVisivel } from './leituras.ts';
import type { OpcoesPedido, Pedido } from './modelo.ts';

/** The rows `ler` reads for these ids; none, without a query, for no ids (PostgreSQL refuses an empty IN list). */
async function seHouver<T>(ids: readonly number[], ler: (ids: readonly number[]) => Promise<T[]>): Promise<T[]> {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it, and its suite covers the empty case
  return ids.length === 0 ? [] : ler(ids);
}

/**
 * An unconfirmed order confirmed after its window closed (by an admin) held no stock until now:
 * what confirmed orders hold of each of its lines, read under the lines' row locks (as salvarPedido
 * locks them), must leave room for it. 409 SEM_ESTOQUE with what is still available.
 */
async function conferirEstoqueAoConfirmar(trx: Db, pedido: Pedido): Promise<void> {
  const travando = ehPostgres(trx);
  // Stryker disable next-line ArrayDeclaration: a bogus id matches no row (and locks none on SQLite)
  const idsCestas = pedido.produtos.flatMap((l) => l.cicloCestaId ?? []);
  // Stryker disable next-line ArrayDeclaration: see above
  const idsExtras = pedido.produtos.flatMap((l) => l.cicloProdutoId ?? []);
  const cestas = await seHouver(idsCestas, (ids) =>
    trx
      .selectFrom('ciclocesta as cc')
      .select(['cc.id', vendaveisDaCesta('cc').as('livre'), reservadoDaLinha('ciclocesta', 'cc', true).as('reservado')])
      .where('cc.id', 'in', ids)
      .orderBy('cc.id')
      .$if(
        travando,
        // Stryker disable next-line ArrowFunction: row locks exist only on PostgreSQL, and the mutation run goes on SQLite
        (q) => q.forUpdate('cc'),
      )
      .execute(),
  );
  const extras = await seHouver(idsExtras, (ids) =>
    trx
      .selectFrom('cicloproduto as cp')
      .select([
        'cp.id',
        'cp.quantidadeMilesimos as livre',
        reservadoDaLinha('cicloproduto', 'cp', true).as('reservado'),
      ])
      .where('cp.id', 'in', ids)
      .orderBy('cp.id')
      .$if(
        travando,
        // Stryker disable next-line ArrowFunction: row locks exist only on PostgreSQL, and the mutation run goes on SQLite
        (q) => q.forUpdate('cp'),
      )
      .execute(),
  );
  const faltas = pedido.produtos.flatMap((l) => {
    const linha =
      l.cicloCestaId !== null
        ? cestas.find((c) => c.id === l.cicloCestaId)
        : extras.find((e) => e.id === l.cicloProdutoId);
    // A basket line's free count is in whole baskets, its quantity in thousandths.
    const escala = l.cicloCestaId !== null ? 1000 : 1;
    // Stryker disable next-line OptionalChaining: every line's basket or extra is read (the ids come from the order's own lines, which reference them)
    const teto = Number(linha?.livre ?? 0) * escala;
    // Stryker disable next-line OptionalChaining: see above, the row is always there
    const livre = Math.max(0, teto - Number(linha?.reservado ?? 0));
    return l.quantidadeMilesimos > livre
      ? [{ nome: l.nome, livre, pedido: l.quantidadeMilesimos, unidade: l.unidade }]
      : [];
  });
  if (faltas.length > 0) {
    throw new Conflito(
      'SEM_ESTOQUE',
      `O período de pedidos terminou e este pedido não foi confirmado a tempo; agora não há o suficiente: ${faltas.map((f) => `${f.nome} (disponível: ${formatarQuantidadeComUnidade(f.livre, f.unidade)})`).join('; ')}`,
      {
        disponivel: faltas.map((f) => ({
          nome: f.nome,
          disponivel: paraNumero(f.livre, ESCALA_QUANTIDADE),
          pedido: paraNumero(f.pedido, ESCALA_QUANTIDADE),
          unidade: f.unidade,
        })),
      },
    );
  }
}

/** Confirms an order (finalizado, dataConfirmacao in local time). Confirming twice changes nothing. */
export async function finalizarPedido(
  banco: Banco,
  ator: Ator,
  pedidoId: number,
  opcoes: OpcoesPedido & { tz: string },
): Promise<Pedido> {
  return emTransacao(banco, async (trx) => {
    const antes = await pedidoVisivel(trx, ator, pedidoId, opcoes.taxa);
    if (!podeNoRegistro(ator, 'confirmarPedido', { usuarioid: antes.usuario.id }))
      throw new Proibido('PEDIDO_DE_OUTRA_PESSOA', 'Você só pode confirmar os seus próprios pedidos');
    if (antes.finalizado) return antes;
    const ciclo = await cicloDasJanelas(trx, antes.cicloid, 'pedido');
    const { foraDaJanela } = exigirJanela(ciclo, opcoes.hoje, 'pedido', ehGestor(ator));
    // After the window, this order held nothing: it takes its stock now, if there is still some.
    if (soConfirmadosSeguram(ciclo, opcoes.hoje)) await conferirEstoqueAoConfirmar(trx, antes);
    await trx
      .updateTable('pedido')
      .set({
        finalizado: true,
        dataConfirmacao: dataHoraLocal(opcoes.agora, opcoes.tz),
        updatedAt: opcoes.agora.toISOString(),
      })
      .where('id', '=', pedidoId)
      .where('finalizado', '=', false)
      .execute();
    const depois = await pedidoVisivel(trx, ator, pedidoId, opcoes.taxa);
    await auditar(trx, ator, opcoes.agora, {
      acao: `finalizar${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'pedido',
      entidadeId: pedidoId,
      antes,
      depois,
    });
    await opcoes.avisos?.emitir(trx, { tipo: 'recibo', pedido: depois });
    return depois;
  });
}
