/**
 * The supplier reports: what each supplier delivers (planned and ordered, per market in cycles
 * with markets), and what is left over of the offers.
 */
import type { Db } from '../../db/banco.ts';
import type { Ator } from '../acesso.ts';
import { entregasDoCiclo } from '../alocacao.ts';
import { valorDaQuantidade } from '../../decimal.ts';
import { soConfirmadosSeguram } from '../reservas.ts';
import { ciclosPorId } from './ciclos.ts';
import { diasDeEntregaDosCiclos } from '../ciclos/leitura.ts';
import { diasDeEntregaTexto } from '../tempo.ts';
import {
  COLUNA_MERCADO,
  agrupaPorMercado,
  colunasDaFamilia,
  comMercadosDoCiclo,
  mercadosDoRelatorio,
  mercadosDosCiclos,
  nomeDoMercado,
  noFiltro,
  ordemDoMercado,
  ordemPtBr,
  so,
  soOMercado,
  type ColunaDaFamilia,
  type Mercados,
} from './mercados.ts';
import { montarRelatorio, type LinhaRelatorio, type Relatorio } from './modelo.ts';

export const COLUNAS_FORNECEDORES: readonly ColunaDaFamilia[] = [
  COLUNA_MERCADO,
  { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
  { chave: 'ciclo', titulo: 'Ciclo', tipo: 'texto' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'planejado', titulo: 'Planejado', tituloPlanilha: 'Quantidade planejada', tipo: 'quantidade' },
  { chave: 'quantidade', titulo: 'Pedido', tituloPlanilha: 'Quantidade pedida', tipo: 'quantidade' },
  { chave: 'valorUnitario', titulo: 'Valor unitário', tipo: 'dinheiro' },
  { chave: 'valorTotal', titulo: 'Valor', tipo: 'dinheiro', soma: true },
];

/** One row of what a supplier delivers: a product of a cycle, in one market when the cycle has markets. */
export interface Entrega {
  readonly fornecedor: string;
  readonly fornecedorId: number;
  readonly ciclo: string;
  /** The market's name in cycles with markets ("Sem mercado" for the cycle's own orders); null without. */
  readonly mercado: string | null;
  readonly produto: string;
  readonly unidade: string;
  readonly planejadoMilesimos: number;
  readonly pedidoMilesimos: number;
  readonly valorUnitarioCentavos: number;
  /** What was ordered, at the supplier's price. */
  readonly valorCentavos: number;
}

/**
 * What each supplier delivers: planned and ordered per product, for the given cycles. With
 * markets, one row per product and market, in the markets' order of service.
 */
async function entregasDosFornecedores(
  db: Db,
  deQuem: (fornecedorId: number) => boolean,
  ciclos: ReadonlyArray<{ id: number; nome: string }>,
  m: Mercados,
): Promise<Entrega[]> {
  const comMercados = m.lista.length > 0;
  const linhas: Entrega[] = [];
  for (const ciclo of ciclos) {
    for (const e of await entregasDoCiclo(db, ciclo.id)) {
      if (!deQuem(e.linha.fornecedorId)) continue;
      const base = {
        fornecedor: e.linha.fornecedor,
        fornecedorId: e.linha.fornecedorId,
        ciclo: ciclo.nome,
        produto: e.linha.produto,
        unidade: e.linha.unidade,
        valorUnitarioCentavos: e.linha.valorCentavos,
      };
      if (!comMercados) {
        if (e.planejadoMil === 0 && e.pedidoMil === 0) continue;
        linhas.push({
          ...base,
          mercado: null,
          planejadoMilesimos: e.planejadoMil,
          pedidoMilesimos: e.pedidoMil,
          valorCentavos: valorDaQuantidade(e.linha.valorCentavos, e.pedidoMil),
        });
        continue;
      }
      for (const parte of e.porMercado) {
        if (!noFiltro(m, parte.mercadoId) || (parte.planejadoMil === 0 && parte.pedidoMil === 0)) continue;
        linhas.push({
          ...base,
          mercado: nomeDoMercado(m, parte.mercadoId),
          planejadoMilesimos: parte.planejadoMil,
          pedidoMilesimos: parte.pedidoMil,
          valorCentavos: valorDaQuantidade(e.linha.valorCentavos, parte.pedidoMil),
        });
      }
    }
  }
  return linhas.sort(
    (a, b) =>
      (comMercados ? ordemDoMercado(m, a.mercado ?? '') - ordemDoMercado(m, b.mercado ?? '') : 0) ||
      ordemPtBr(a.fornecedor, b.fornecedor) ||
      a.fornecedorId - b.fornecedorId,
  );
}

/** The supplier report's rows (COLUNAS_FORNECEDORES, and the market's column in cycles with markets). */
export async function linhasDosFornecedores(
  db: Db,
  ator: Ator,
  ciclos: ReadonlyArray<{ id: number; nome: string }>,
  m: Mercados,
): Promise<LinhaRelatorio[]> {
  return (await entregasDosFornecedores(db, (fornecedorId) => so(ator, fornecedorId, m), ciclos, m)).map((e) => ({
    ...(e.mercado === null ? {} : { mercado: e.mercado }),
    fornecedor: e.fornecedor,
    fornecedorId: e.fornecedorId,
    ciclo: e.ciclo,
    produto: e.produto,
    unidade: e.unidade,
    valorUnitario: e.valorUnitarioCentavos,
    planejado: e.planejadoMilesimos,
    quantidade: e.pedidoMilesimos,
    valorTotal: e.valorCentavos,
  }));
}

/**
 * What one supplier delivers in one cycle, ordered and not nothing: the rows of its own supplier
 * report (per market in cycles with markets), for the `entregas` notice.
 */
export async function oQueOFornecedorEntrega(db: Db, cicloid: number, fornecedorId: number): Promise<Entrega[]> {
  const [ciclos, lista] = await Promise.all([ciclosPorId(db, [cicloid]), mercadosDosCiclos(db, [cicloid])]);
  return (await entregasDosFornecedores(db, (id) => id === fornecedorId, ciclos, { lista, filtro: null })).filter(
    (e) => e.pedidoMilesimos > 0,
  );
}

/**
 * /pedidosfornecedorestodos/:id and /pedidosfornecedoresciclos (and its CSV): per supplier, with
 * subtotals; in cycles with markets, per market (a supplier's value in each market is what it
 * ordered there at the supplier's price). `mercadoId` narrows it to one market of the cycles.
 */
export async function relatorioDosFornecedores(
  db: Db,
  ator: Ator,
  cicloids: readonly number[],
  hoje: string,
  mercadoId: number | null = null,
): Promise<Relatorio> {
  const [ciclos, dias] = await Promise.all([ciclosPorId(db, cicloids), diasDeEntregaDosCiclos(db, cicloids)]);
  const m = await mercadosDoRelatorio(db, ator, ciclos, mercadoId);
  const abertos = ciclos.some((c) => hoje <= c.dataPedidoFim);
  const porMercado = agrupaPorMercado(m);
  const colunas = colunasDaFamilia(
    COLUNAS_FORNECEDORES.filter((c) => cicloids.length > 1 || c.chave !== 'ciclo'),
    porMercado,
  );
  // When and where to deliver, each cycle's days as the coordination set them.
  const entregas = ciclos.flatMap((c) => {
    const quando = diasDeEntregaTexto(dias.get(c.id) ?? []);
    return quando === '' ? [] : [ciclos.length > 1 ? `${c.nome}: ${quando}` : quando];
  });
  return comMercadosDoCiclo(
    montarRelatorio(
      'Pedidos aos fornecedores',
      `${ciclos.map((c) => c.nome).join(', ')}${soOMercado(m)}${entregas.length === 0 ? '' : ` · entrega: ${entregas.join(' | ')}`}${abertos ? ' · pedidos ainda abertos: "Planejado" usa a composição e todos os extras publicados' : ''}`,
      colunas,
      await linhasDosFornecedores(db, ator, ciclos, m),
      porMercado ? 'mercado' : 'fornecedor',
    ),
    m,
  );
}

/** What is left of each line is the cycle's: with markets, only the lots' column is added (never a market's). */
const COLUNAS_SOBRA: readonly ColunaDaFamilia[] = [
  { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
  { chave: 'ofertado', titulo: 'Ofertado', tipo: 'quantidade' },
  { chave: 'paraCestas', titulo: 'Para cestas', tipo: 'quantidade' },
  { chave: 'paraLotes', titulo: 'Para lotes', tipo: 'quantidade', mercados: true },
  { chave: 'paraExtras', titulo: 'Para extras', tipo: 'quantidade' },
  { chave: 'sobra', titulo: 'Sobra', tipo: 'quantidade' },
  { chave: 'valorUnitario', titulo: 'Valor unitário', tipo: 'dinheiro' },
  { chave: 'valorSobra', titulo: 'Valor da sobra', tipo: 'dinheiro', soma: true },
];

/**
 * /pedidosfornecedoressobra/:id: per supplier × product, offered / to baskets / to lots / to extras /
 * left over. What is left of a line is the cycle's, shared by all its markets: it is not split
 * per market (the page says so), and lots take from it like baskets.
 */
export async function relatorioDeSobra(db: Db, ator: Ator, cicloid: number, hoje: string): Promise<Relatorio> {
  const [ciclo] = await ciclosPorId(db, [cicloid]);
  const comMercados = (await mercadosDosCiclos(db, [cicloid])).length > 0;
  const linhas: LinhaRelatorio[] = [];
  for (const e of await entregasDoCiclo(db, cicloid, {
    soConfirmadosReservam: ciclo !== undefined && soConfirmadosSeguram(ciclo, hoje),
  })) {
    if (!so(ator, e.linha.fornecedorId)) continue;
    const sobra = e.linha.ofertadoMil - e.linha.paraCestasMil - e.linha.paraLotesMil - e.extrasReservadosMil;
    linhas.push({
      fornecedor: e.linha.fornecedor,
      produto: e.linha.produto,
      unidade: e.linha.unidade,
      ofertado: e.linha.ofertadoMil,
      paraCestas: e.linha.paraCestasMil,
      ...(comMercados ? { paraLotes: e.linha.paraLotesMil } : {}),
      paraExtras: e.extrasReservadosMil,
      sobra,
      valorUnitario: e.linha.valorCentavos,
      valorSobra: valorDaQuantidade(e.linha.valorCentavos, Math.max(0, sobra)),
    });
  }
  return montarRelatorio(
    'Sobra das ofertas',
    `${ciclo?.nome ?? ''}${comMercados ? ' · a sobra de cada linha é do ciclo, a mesma para todos os mercados: por isso este relatório não se divide por mercado' : ''}`,
    colunasDaFamilia(COLUNAS_SOBRA, comMercados),
    linhas.sort((a, b) => ordemPtBr(String(a.fornecedor), String(b.fornecedor))),
    'fornecedor',
  );
}
