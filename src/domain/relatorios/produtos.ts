/** The product report: per product across cycles; per market in cycles with markets. */
import type { Db } from '../../db/banco.ts';
import type { Ator } from '../acesso.ts';
import { entregasDoCiclo } from '../alocacao.ts';
import { valorDaQuantidade } from '../../decimal.ts';
import { soConfirmadosSeguram } from '../reservas.ts';
import { ciclosPorId } from './ciclos.ts';
import {
  COLUNA_MERCADO,
  agrupaPorMercado,
  celulaDoMercado,
  colunasDaFamilia,
  comMercadosDoCiclo,
  mercadosDoRelatorio,
  naOrdemDosMercados,
  ordemPtBr,
  partesDaLinha,
  so,
  soOMercado,
  type ColunaDaFamilia,
} from './mercados.ts';
import { montarRelatorio, type LinhaRelatorio, type Relatorio } from './modelo.ts';

/**
 * The product report's columns. What is offered and left over is the cycle's, not a market's (see
 * the surplus report), so those columns are only in the report of cycles without markets; lots only
 * exist in cycles with markets.
 */
const COLUNAS_PRODUTOS: readonly ColunaDaFamilia[] = [
  COLUNA_MERCADO,
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'ofertado', titulo: 'Ofertado', tipo: 'quantidade', mercados: false },
  { chave: 'paraCestas', titulo: 'Nas cestas', tipo: 'quantidade' },
  { chave: 'extras', titulo: 'Pedido como extra', tipo: 'quantidade' },
  { chave: 'sobra', titulo: 'Sobra', tipo: 'quantidade', mercados: false },
  { chave: 'paraLotes', titulo: 'Nos lotes', tipo: 'quantidade', mercados: true },
  { chave: 'valor', titulo: 'Valor (cestas e extras)', tipo: 'dinheiro', soma: true, mercados: false },
  { chave: 'valor', titulo: 'Valor (cestas, extras e lotes)', tipo: 'dinheiro', soma: true, mercados: true },
];

/**
 * /relatorioprodutosciclos: per product across cycles (a supplier sees their own lines only). In
 * cycles with markets, per market: what each market's baskets, extras and lots take of each
 * product; without, what was offered, taken and left over.
 */
export async function relatorioDeProdutos(
  db: Db,
  ator: Ator,
  cicloids: readonly number[],
  hoje: string,
  mercadoId: number | null = null,
): Promise<Relatorio> {
  const ciclos = await ciclosPorId(db, cicloids);
  const m = await mercadosDoRelatorio(db, ator, ciclos, mercadoId);
  const porMercado = agrupaPorMercado(m);
  const porProduto = new Map<
    string,
    {
      mercado: string | null;
      produto: string;
      unidade: string;
      ofertado: number;
      paraCestas: number;
      paraLotes: number;
      extras: number;
      valor: number;
    }
  >();
  for (const ciclo of ciclos) {
    for (const e of await entregasDoCiclo(db, ciclo.id, { soConfirmadosReservam: soConfirmadosSeguram(ciclo, hoje) })) {
      if (!so(ator, e.linha.fornecedorId, m)) continue;
      for (const parte of partesDaLinha(m, e)) {
        const levado = parte.paraCestasMil + parte.paraLotesMil + parte.extrasReservadosMil;
        // A market's group lists what it took; the whole cycle's lists every line offered.
        if (parte.mercado !== null && levado === 0) continue;
        const chave = `${parte.mercado ?? ''}\u0000${e.linha.produto}\u0000${e.linha.unidade}`;
        const p = porProduto.get(chave) ?? {
          mercado: parte.mercado,
          produto: e.linha.produto,
          unidade: e.linha.unidade,
          ofertado: 0,
          paraCestas: 0,
          paraLotes: 0,
          extras: 0,
          valor: 0,
        };
        p.ofertado += e.linha.ofertadoMil;
        p.paraCestas += parte.paraCestasMil;
        p.paraLotes += parte.paraLotesMil;
        p.extras += parte.extrasReservadosMil;
        p.valor += valorDaQuantidade(e.linha.valorCentavos, levado);
        porProduto.set(chave, p);
      }
    }
  }
  const linhas = [...porProduto.values()].map(({ mercado, ...p }): LinhaRelatorio => ({
    ...celulaDoMercado(mercado),
    ...p,
    sobra: p.ofertado - p.paraCestas - p.extras,
  }));
  return comMercadosDoCiclo(
    montarRelatorio(
      'Produtos dos ciclos',
      `${ciclos.map((c) => c.nome).join(', ')}${soOMercado(m)}${porMercado ? ' · por mercado; o ofertado e a sobra são do ciclo inteiro (veja a sobra das ofertas)' : ''}`,
      colunasDaFamilia(COLUNAS_PRODUTOS, porMercado),
      linhas.sort((a, b) => naOrdemDosMercados(m)(a, b) || ordemPtBr(String(a.produto), String(b.produto))),
      porMercado ? 'mercado' : undefined,
    ),
    m,
  );
}
