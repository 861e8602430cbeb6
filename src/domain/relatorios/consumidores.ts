/** The consumer report: each order's lines and fees, with where each line came from. */
import type { Db } from '../../db/banco.ts';
import { veTudo, type Ator } from '../acesso.ts';
import { carregarPedidosDoCiclo } from '../pedidos/leituras.ts';
import type { Pedido } from '../pedidos/modelo.ts';
import type { Taxa } from '../pedidos/taxa.ts';
import { ciclosPorId } from './ciclos.ts';
import {
  COLUNA_MERCADO,
  colunasDaFamilia,
  comMercadosDoCiclo,
  mercadosDoRelatorio,
  ordemPtBr,
  soOMercado,
} from './mercados.ts';
import { montarRelatorio, type LinhaRelatorio, type Relatorio } from './modelo.ts';

/** Where an order line came from: a subscription's generated baskets, or a one-off order. */
export const ORIGEM_ASSINATURA = 'Assinatura';
export const ORIGEM_AVULSO = 'Avulso';
function origemDaLinha(l: { readonly assinaturaId: number | null }): string {
  return l.assinaturaId === null ? ORIGEM_AVULSO : ORIGEM_ASSINATURA;
}
/** Lines together (an order's, or its part in a market): Assinatura when every one came from subscriptions. */
function origemDasLinhas(linhas: ReadonlyArray<{ readonly assinaturaId: number | null }>): string {
  return linhas.length > 0 && linhas.every((l) => l.assinaturaId !== null) ? ORIGEM_ASSINATURA : ORIGEM_AVULSO;
}

/**
 * /pedidosconsumidoresciclos: each order's lines and fees. In cycles with markets each line says
 * its market and each market's fee is its own line; with `mercadoId`, only what was bought in
 * that market (and its fee).
 */
export async function relatorioDosConsumidores(
  db: Db,
  ator: Ator,
  cicloids: readonly number[],
  taxa: Taxa,
  mercadoId: number | null = null,
): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const m = await mercadosDoRelatorio(db, ator, ciclos, mercadoId);
  const doMercado = m.filtro?.doMercado === true;
  const grupos: Array<{ readonly ciclo: string; readonly p: Pedido }> = [];
  for (const ciclo of ciclos) {
    const pedidos = await carregarPedidosDoCiclo(
      db,
      ciclo.id,
      veTudo(ator) || doMercado ? null : (ator.usuarioid ?? -1),
      taxa,
    );
    for (const p of pedidos) grupos.push({ ciclo: ciclo.nome, p });
  }
  // A cycle without markets keeps the report it always had: no market column, no market key.
  const comMercados = mercadoId !== null || grupos.some(({ p }) => p.produtos.some((l) => l.mercadoId !== null));
  // By consumer, each order's lines together and in their order (a stable sort of the orders,
  // not of their many lines).
  grupos.sort((a, b) => ordemPtBr(a.p.usuario.nome, b.p.usuario.nome));
  const linhas: LinhaRelatorio[] = [];
  for (const { ciclo, p } of grupos) {
    const base = {
      consumidor: p.usuario.nome,
      ciclo,
      pontoEntrega: p.pontoEntrega.nome,
      situacao: p.finalizado ? 'confirmado' : 'não confirmado',
    };
    const linha = (mercado: string | null, resto: Omit<LinhaRelatorio, 'mercado'>): LinhaRelatorio =>
      comMercados ? { ...base, mercado: mercado ?? '', ...resto } : { ...base, ...resto };
    for (const l of p.produtos) {
      if (mercadoId !== null && l.mercadoId !== mercadoId) continue;
      linhas.push(
        linha(l.mercado, {
          origem: origemDaLinha(l),
          item: l.nome,
          quantidade: l.quantidadeMilesimos,
          valorUnitario: l.valorCentavos,
          valor: l.subtotalCentavos,
        }),
      );
    }
    for (const parte of p.partes) {
      if (parte.taxaCentavos === 0 || (mercadoId !== null && parte.mercadoId !== mercadoId)) continue;
      // A market's fee is the subscription's when every line it charges came from subscriptions.
      const origem = origemDasLinhas(p.produtos.filter((l) => l.mercadoId === parte.mercadoId));
      linhas.push(
        linha(parte.mercado, {
          origem,
          item: parte.mercado === null ? 'Taxa administrativa' : `Taxa de ${parte.mercado}`,
          quantidade: null,
          valorUnitario: null,
          valor: parte.taxaCentavos,
        }),
      );
    }
  }
  return comMercadosDoCiclo(
    montarRelatorio(
      'Pedidos dos consumidores',
      `${ciclos.map((c) => c.nome).join(', ')}${soOMercado(m)}`,
      colunasDaFamilia(
        [
          { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
          ...(cicloids.length > 1 ? [{ chave: 'ciclo', titulo: 'Ciclo', tipo: 'texto' as const }] : []),
          COLUNA_MERCADO,
          { chave: 'pontoEntrega', titulo: 'Ponto de entrega', tipo: 'texto' },
          { chave: 'situacao', titulo: 'Situação', tipo: 'texto' },
          { chave: 'origem', titulo: 'Assinatura ou avulso', tipo: 'texto' },
          { chave: 'item', titulo: 'Item', tipo: 'texto' },
          { chave: 'quantidade', titulo: 'Quantidade', tipo: 'quantidade' },
          { chave: 'valorUnitario', titulo: 'Preço', tipo: 'dinheiro' },
          { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true },
        ],
        comMercados,
      ),
      linhas,
      'consumidor',
    ),
    m,
  );
}
