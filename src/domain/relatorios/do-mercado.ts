/**
 * A market's own files in the Mercados face: its orders in a cycle (what each order buys in the
 * market, with the market's part of the fee, as GraphQL pedidosDoMercado gives them) and its price
 * list. Who may read them is the route's question (politica-mercados.ts); these only build them.
 */
import type { Db } from '../../db/banco.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { precosDosMercados, produtosPorIds, type Mercado } from '../mercados.ts';
import { carregarPedidosDoCiclo } from '../pedidos/leituras.ts';
import { pedidosNoMercado, type Pedido } from '../pedidos/modelo.ts';
import type { Taxa } from '../pedidos/taxa.ts';
import { ordemPtBr } from './mercados.ts';
import { montarRelatorio, type Coluna, type LinhaRelatorio, type Relatorio } from './modelo.ts';

export const COLUNAS_PEDIDOS_DO_MERCADO: readonly Coluna[] = [
  { chave: 'pedido', titulo: 'Pedido', tipo: 'inteiro' },
  { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
  { chave: 'pontoRetirada', titulo: 'Ponto de retirada', tipo: 'texto' },
  { chave: 'situacao', titulo: 'Situação', tipo: 'texto' },
  { chave: 'tipo', titulo: 'Tipo', tipo: 'texto' },
  { chave: 'item', titulo: 'Item', tipo: 'texto' },
  { chave: 'quantidade', titulo: 'Quantidade', tipo: 'quantidade' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'preco', titulo: 'Preço', tipo: 'dinheiro' },
  { chave: 'subtotal', titulo: 'Subtotal', tipo: 'dinheiro', soma: true },
];

/** The `tipo` cell of an order line, and of the market's fee on the order. */
export const TIPOS_DE_LINHA = { cesta: 'Cesta', extra: 'Produto', taxa: 'Taxa' } as const;

/** One order's rows: each line bought in the market, then the market's fee on them (when there is one). */
function linhasDoPedido(p: Pedido, mercado: Mercado): LinhaRelatorio[] {
  const base = {
    pedido: p.pedidoId,
    consumidor: p.usuario.nome,
    pontoRetirada: p.pontoEntrega.nome,
    situacao: p.finalizado ? 'Confirmado' : 'Não confirmado',
  };
  const linhas: LinhaRelatorio[] = p.produtos.map((l) => ({
    ...base,
    tipo: TIPOS_DE_LINHA[l.tipo],
    item: l.nome,
    quantidade: l.quantidadeMilesimos,
    unidade: l.unidade,
    preco: l.valorCentavos,
    subtotal: l.subtotalCentavos,
  }));
  if (p.taxaCentavos !== 0)
    linhas.push({
      ...base,
      tipo: TIPOS_DE_LINHA.taxa,
      item: `Taxa de ${mercado.nome}`,
      quantidade: null,
      unidade: null,
      preco: null,
      subtotal: p.taxaCentavos,
    });
  return linhas;
}

/**
 * A market's orders in a cycle: the orders with something bought in the market, by consumer, each
 * reduced to its lines there and the market's fee on them, so the subtotals add up to what the
 * market's orders cost with the fee. An unknown cycle is a NaoEncontrado.
 */
export async function relatorioDosPedidosDoMercado(
  db: Db,
  mercado: Mercado,
  cicloid: number,
  taxa: Taxa,
): Promise<Relatorio> {
  const ciclo = await cicloDasJanelas(db, cicloid);
  const pedidos = pedidosNoMercado(await carregarPedidosDoCiclo(db, cicloid, null, taxa), mercado.id).sort(
    (a, b) => ordemPtBr(a.usuario.nome, b.usuario.nome) || a.pedidoId - b.pedidoId,
  );
  return montarRelatorio(
    `Pedidos de ${mercado.nome}`,
    ciclo.nome,
    COLUNAS_PEDIDOS_DO_MERCADO,
    pedidos.flatMap((p) => linhasDoPedido(p, mercado)),
  );
}

export const COLUNAS_PRECOS_DO_MERCADO: readonly Coluna[] = [
  { chave: 'produtoId', titulo: 'Código', tituloPlanilha: 'Código do produto', tipo: 'inteiro' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'preco', titulo: 'Preço', tipo: 'dinheiro' },
  { chave: 'ativo', titulo: 'Ativo', tipo: 'texto' },
];

/** A market's price list: every price it has, active or not, by product name. */
export async function relatorioDosPrecosDoMercado(db: Db, mercado: Mercado): Promise<Relatorio> {
  const precos = (await precosDosMercados(db, [mercado.id])).get(mercado.id) ?? [];
  const produtos = await produtosPorIds(
    db,
    precos.map((p) => p.produtoId),
  );
  const linhas = precos.map((p): LinhaRelatorio => {
    const produto = produtos.get(p.produtoId);
    return {
      produtoId: p.produtoId,
      produto: produto?.nome ?? '',
      unidade: produto?.unidade ?? '',
      preco: p.precoCentavos,
      ativo: p.ativo ? 'Sim' : 'Não',
    };
  });
  return montarRelatorio(
    `Preços de ${mercado.nome}`,
    mercado.ativo ? 'Mercado ativo' : 'Mercado desativado',
    COLUNAS_PRECOS_DO_MERCADO,
    linhas.sort((a, b) => ordemPtBr(String(a.produto), String(b.produto)) || Number(a.produtoId) - Number(b.produtoId)),
  );
}
