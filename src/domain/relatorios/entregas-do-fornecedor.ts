/**
 * What one supplier delivers in a cycle, as a file of the Mercados face: the lines GraphQL
 * minhasEntregas gives (the supplier's own offer lines, planned and ordered), with what each
 * market ordered of a line in a column of its own.
 */
import type { Db } from '../../db/banco.ts';
import { valorDaQuantidade } from '../../decimal.ts';
import { entregasComMercados, type ChaveMercado, type EntregaComMercados } from '../alocacao.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { ordemPtBr } from './mercados.ts';
import { montarRelatorio, type Coluna, type LinhaRelatorio, type Relatorio } from './modelo.ts';

/** Where the ordered quantity outside any market goes (a cycle's own extras). */
export const FORA_DE_MERCADOS = 'fora de mercados';

const chaveDoMercado = (mercadoId: ChaveMercado): string =>
  mercadoId === null ? 'pedidoForaDeMercados' : `pedidoNoMercado${mercadoId}`;

/**
 * The markets the lines were ordered in, as columns: in the order entregasComMercados gives them
 * (by name, outside markets last). None when nothing was ordered in a market (a cycle without them).
 */
function colunasDosMercados(entregas: readonly EntregaComMercados[]): Coluna[] {
  const vistos = new Map<string, { mercadoId: ChaveMercado; nome: string }>();
  for (const e of entregas)
    for (const m of e.mercados)
      vistos.set(chaveDoMercado(m.mercadoId), { mercadoId: m.mercadoId, nome: m.mercado ?? FORA_DE_MERCADOS });
  const mercados = [...vistos.values()];
  if (mercados.every((m) => m.mercadoId === null)) return [];
  return mercados
    .sort((a, b) => (a.mercadoId === null ? 1 : 0) - (b.mercadoId === null ? 1 : 0) || ordemPtBr(a.nome, b.nome))
    .map((m) => ({ chave: chaveDoMercado(m.mercadoId), titulo: `Pedido em ${m.nome}`, tipo: 'quantidade' }));
}

/**
 * The supplier's deliveries in a cycle, one row per offer line of theirs (the lines GraphQL
 * minhasEntregas gives): offered, planned, ordered in each market and in all, the price and what
 * the order is worth at it. An unknown cycle is a NaoEncontrado.
 */
export async function relatorioDasEntregasDoFornecedor(
  db: Db,
  cicloid: number,
  fornecedorId: number,
): Promise<Relatorio> {
  const ciclo = await cicloDasJanelas(db, cicloid);
  const entregas = (await entregasComMercados(db, cicloid)).filter((e) => e.linha.fornecedorId === fornecedorId);
  const porMercado = colunasDosMercados(entregas);
  const colunas: Coluna[] = [
    { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
    { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
    { chave: 'preco', titulo: 'Preço', tipo: 'dinheiro' },
    { chave: 'ofertado', titulo: 'Ofertado', tituloPlanilha: 'Quantidade ofertada', tipo: 'quantidade' },
    { chave: 'planejado', titulo: 'Planejado', tituloPlanilha: 'Quantidade planejada', tipo: 'quantidade' },
    ...porMercado,
    { chave: 'pedido', titulo: 'Pedido', tituloPlanilha: 'Quantidade pedida', tipo: 'quantidade' },
    { chave: 'valorPedido', titulo: 'Valor pedido', tipo: 'dinheiro', soma: true },
  ];
  const linhas = entregas.map((e): LinhaRelatorio => {
    const noMercado = Object.fromEntries(
      porMercado.map((c) => [c.chave, e.mercados.find((m) => chaveDoMercado(m.mercadoId) === c.chave)?.pedidoMil ?? 0]),
    );
    return {
      produto: e.linha.produto,
      unidade: e.linha.unidade,
      preco: e.linha.valorCentavos,
      ofertado: e.linha.ofertadoMil,
      planejado: e.planejadoMil,
      ...noMercado,
      pedido: e.pedidoMil,
      valorPedido: valorDaQuantidade(e.linha.valorCentavos, e.pedidoMil),
    };
  });
  const fornecedor = entregas[0]?.linha.fornecedor;
  return montarRelatorio(
    'Minhas entregas',
    fornecedor === undefined ? ciclo.nome : `${ciclo.nome} · ${fornecedor}`,
    colunas,
    linhas.sort((a, b) => ordemPtBr(String(a.produto), String(b.produto))),
  );
}
