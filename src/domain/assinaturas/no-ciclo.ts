/**
 * One cycle of one subscription: skip it (pularCiclo) or change its quantity and point there
 * (alterarNoCiclo), before or after generation, inside the order window (admins any time).
 */
import type { Transaction } from 'kysely';
import { emTransacao, type Banco } from '../../db/banco.ts';
import type { DB } from '../../db/tipos.ts';
import { ehGestor, type Ator } from '../acesso.ts';
import { auditar } from '../auditoria.ts';
import { cicloDasJanelas, exigirJanela } from '../ciclos/janelas.ts';
import { Conflito, recusarInvalidos } from '../erros.ts';
import { gravarLinhaDeAssinatura, retirarLinhaDeAssinatura } from '../pedidos/linhas-de-assinatura.ts';
import { soConfirmadosSeguram } from '../reservas.ts';
import { assinaturaDoAtor, situacaoNoCiclo } from './leitura.ts';
import type { OpcoesAssinatura, SituacaoDoCiclo, SituacaoNoCiclo } from './modelo.ts';
import { cestaDaAssinatura, cestasDoCiclo, motivoParaNaoServir } from './servir.ts';

// ---------------------------------------------------------------------------------------------
// One cycle of one subscription

/** The subscription, the cycle inside its window (admins: any time, flagged) and its basket there, all under the order locks. */
async function noCiclo(trx: Transaction<DB>, ator: Ator, assinaturaId: number, cicloid: number, hoje: string) {
  const a = await assinaturaDoAtor(trx, ator, assinaturaId);
  const ciclo = await cicloDasJanelas(trx, cicloid, 'pedido');
  const { foraDaJanela } = exigirJanela(ciclo, hoje, 'pedido', ehGestor(ator));
  const cestas = await cestasDoCiclo(trx, cicloid, soConfirmadosSeguram(ciclo, hoje));
  const cc = cestaDaAssinatura(a, cestas);
  if (cc === undefined)
    throw new Conflito('CICLO_SEM_A_CESTA', `O ciclo ${ciclo.nome} não oferece a cesta desta assinatura`);
  const linha = await trx
    .selectFrom('assinaturaciclo')
    .selectAll()
    .where('assinaturaId', '=', assinaturaId)
    .where('cicloid', '=', cicloid)
    .executeTakeFirst();
  return { a, ciclo, foraDaJanela, cc, linha };
}

const situacaoDe = (r: {
  assinaturaId: number;
  cicloid: number;
  situacao: SituacaoNoCiclo;
  quantidade: number;
  pontoEntregaId: number;
  pedidoId: number | null;
  motivo: string | null;
}): SituacaoDoCiclo => ({
  assinaturaId: r.assinaturaId,
  cicloid: r.cicloid,
  situacao: r.situacao,
  quantidade: r.quantidade,
  pontoEntregaId: r.pontoEntregaId,
  pedidoId: r.pedidoId,
  motivo: r.motivo,
});

/**
 * The subscriber (or an admin) skips a cycle. Before generation, the cycle's row says `pulado`
 * and generation leaves it; after it, the subscription's baskets leave the order (the reservation
 * is released; the order goes when nothing is left). Inside the order window only; admins any
 * time (audited as outside the window); others get 409 JANELA_FECHADA.
 */
export async function pularCiclo(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  cicloid: number,
  opcoes: OpcoesAssinatura,
): Promise<SituacaoDoCiclo> {
  return emTransacao(banco, async (trx) => {
    const { a, foraDaJanela, linha } = await noCiclo(trx, ator, assinaturaId, cicloid, opcoes.hoje);
    const iso = opcoes.agora.toISOString();
    if (linha?.situacao === 'pulado') return situacaoDe(linha);
    if (linha === undefined) {
      await trx
        .insertInto('assinaturaciclo')
        .values({
          assinaturaId,
          cicloid,
          situacao: 'pulado',
          quantidade: a.quantidade,
          pontoEntregaId: a.pontoEntregaId,
          pedidoId: null,
          motivo: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    } else {
      if (linha.situacao === 'gerado' && linha.pedidoId !== null)
        await retirarLinhaDeAssinatura(trx, linha.pedidoId, assinaturaId, linha.quantidade * 1000, opcoes.agora);
      await trx
        .updateTable('assinaturaciclo')
        .set({ situacao: 'pulado', pedidoId: null, motivo: null, updatedAt: iso })
        .where('id', '=', linha.id)
        .execute();
    }
    const depois = await situacaoNoCiclo(trx, assinaturaId, cicloid);
    if (depois === null) throw new Error('situação gravada e não lida');
    await auditar(trx, ator, opcoes.agora, {
      acao: `pular ciclo${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes: linha ?? null,
      depois,
    });
    return depois;
  });
}

/**
 * Changes one cycle of a subscription (quantity and point), generated or not, skipped or not:
 * the cycle is then served with these, under the same reservation rule as any order (409
 * SEM_ESTOQUE saying what is left). Changing the point of a generated cycle moves the order's
 * point. Inside the order window only; admins any time (audited). The subscription itself is
 * unchanged.
 */
export async function alterarNoCiclo(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  cicloid: number,
  mudanca: { quantidade: number; pontoEntregaId: number },
  opcoes: OpcoesAssinatura,
): Promise<SituacaoDoCiclo> {
  if (!Number.isInteger(mudanca.quantidade) || mudanca.quantidade < 1)
    recusarInvalidos({ quantidade: 'A quantidade deve ser um número inteiro de cestas, pelo menos 1' });
  return emTransacao(banco, async (trx) => {
    const { a, foraDaJanela, cc, linha } = await noCiclo(trx, ator, assinaturaId, cicloid, opcoes.hoje);
    const iso = opcoes.agora.toISOString();
    const servida = linha?.situacao === 'gerado' && linha.pedidoId !== null ? linha : null;
    const motivo = await motivoParaNaoServir(
      trx,
      cicloid,
      cc,
      mudanca.quantidade,
      mudanca.pontoEntregaId,
      servida?.quantidade ?? 0,
    );
    if (motivo !== null) {
      const livre = Math.max(
        0,
        Math.floor((cc.quantidadeCestas * 1000 - cc.reservadoMilesimos) / 1000) + (servida?.quantidade ?? 0),
      );
      if (mudanca.quantidade > livre)
        throw new Conflito('SEM_ESTOQUE', motivo, {
          disponivel: [{ nome: cc.nome, disponivel: livre, pedido: mudanca.quantidade, unidade: 'cesta' }],
        });
      throw new Conflito('NAO_PODE_SERVIR', motivo);
    }
    let pedidoId: number;
    if (servida?.pedidoId != null) {
      pedidoId = servida.pedidoId;
      const delta = (mudanca.quantidade - servida.quantidade) * 1000;
      const l = await trx
        .selectFrom('pedidoproduto')
        .select(['id', 'quantidadeMilesimos'])
        .where('pedidoid', '=', pedidoId)
        .where('assinaturaId', '=', assinaturaId)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('pedidoproduto')
        .set({ quantidadeMilesimos: l.quantidadeMilesimos + delta, updatedAt: iso })
        .where('id', '=', l.id)
        .execute();
      await trx
        .updateTable('pedido')
        .set({ pontoEntregaId: mudanca.pontoEntregaId, updatedAt: iso })
        .where('id', '=', pedidoId)
        .execute();
    } else {
      pedidoId = (
        await gravarLinhaDeAssinatura(
          trx,
          {
            cicloid,
            usuarioid: a.usuarioid,
            pontoEntregaId: mudanca.pontoEntregaId,
            cicloCestaId: cc.id,
            quantidadeMilesimos: mudanca.quantidade * 1000,
            valorCentavos: cc.valorReferenciaCentavos,
            mercadoId: cc.mercadoId,
            taxaCentesimos: cc.taxaCentesimos,
            assinaturaId,
          },
          opcoes,
        )
      ).pedidoId;
    }
    const valores = {
      situacao: 'gerado' as const,
      quantidade: mudanca.quantidade,
      pontoEntregaId: mudanca.pontoEntregaId,
      pedidoId,
      motivo: null,
      updatedAt: iso,
    };
    if (linha === undefined)
      await trx
        .insertInto('assinaturaciclo')
        .values({ assinaturaId, cicloid, ...valores, createdAt: iso })
        .execute();
    else await trx.updateTable('assinaturaciclo').set(valores).where('id', '=', linha.id).execute();
    const depois = await situacaoNoCiclo(trx, assinaturaId, cicloid);
    if (depois === null) throw new Error('situação gravada e não lida');
    await auditar(trx, ator, opcoes.agora, {
      acao: `alterar no ciclo${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes: linha ?? null,
      depois,
    });
    return depois;
  });
}
