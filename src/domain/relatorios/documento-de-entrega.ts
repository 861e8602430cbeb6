/**
 * The delivery document of a cycle: the data behind the delivery-day PDF (src/cestas/pdf/entrega.ts),
 * its sections built from the same report model as the pages.
 */
import type { Db } from '../../db/banco.ts';
import { ehConsumidor, ehFornecedor, veTudo, type Ator } from '../acesso.ts';
import { naUnidadeEscolhida } from '../composicao.ts';
import { itensDasCestas } from '../conteudo-das-cestas.ts';
import { formatarQuantidade, formatarQuantidadeComUnidade } from '../../decimal.ts';
import { NaoEncontrado } from '../erros.ts';
import { carregarPedidosDoCiclo } from '../pedidos/leituras.ts';
import type { Pedido } from '../pedidos/modelo.ts';
import type { Taxa } from '../pedidos/taxa.ts';
import { horarioDeRetiradaTexto } from '../tempo.ts';
import { ciclosPorId } from './ciclos.ts';
import { COLUNAS_FORNECEDORES, linhasDosFornecedores } from './fornecedores.ts';
import {
  COLUNA_MERCADO,
  agrupaPorMercado,
  colunasDaFamilia,
  mercadosDoRelatorio,
  nomeDoMercado,
  ordemDoMercado,
  ordemPtBr,
  soOMercado,
  type ColunaDaFamilia,
  type Mercados,
} from './mercados.ts';
import { montarRelatorio, type Coluna, type LinhaRelatorio, type Relatorio } from './modelo.ts';

/**
 * What the community prints for delivery day: a cover's figures and its sections, each a report
 * of the same model as the pages (so the receiving sheet is the supplier report's rows, the
 * same cells the page, the JSON and the CSV show).
 */
export interface DocumentoDeEntrega {
  readonly ciclo: { id: number; nome: string; dataRetiradaInicio: string; dataRetiradaFim: string };
  /** The market the document is narrowed to; null: the whole cycle. */
  readonly mercado: string | null;
  /** Confirmed orders, and what they add up to with the fee, in cents. */
  readonly pedidos: number;
  readonly totalCentavos: number;
  /** Baskets to assemble; orders per delivery point; packing per basket type; receiving per supplier. */
  readonly secoes: readonly Relatorio[];
}

/** A delivery point's sheet: a row per consumer; in a cycle with markets, per consumer and market, with its fee. */
const COLUNAS_PONTOS: readonly ColunaDaFamilia[] = [
  { chave: 'ponto', titulo: 'Ponto de entrega', tipo: 'texto' },
  { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
  { chave: 'telefone', titulo: 'Telefone', tipo: 'texto' },
  COLUNA_MERCADO,
  { chave: 'itens', titulo: 'Itens', tipo: 'texto' },
  { chave: 'taxa', titulo: 'Taxa do mercado', tipo: 'dinheiro', soma: true, mercados: true },
  { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true, mercados: false },
  { chave: 'valor', titulo: 'Valor com taxa', tipo: 'dinheiro', soma: true, mercados: true },
];

const COLUNAS_MONTAGEM: readonly Coluna[] = [
  { chave: 'cesta', titulo: 'Cesta', tipo: 'texto' },
  { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
  { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
  { chave: 'quantidade', titulo: 'Por cesta', tipo: 'quantidade' },
  { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
];

/** The receiving sheet: the supplier report's columns for one cycle, without the plan. */
const COLUNAS_RECEBIMENTO = COLUNAS_FORNECEDORES.filter((c) => c.chave !== 'ciclo' && c.chave !== 'planejado');

/** One order's lines in a cell: "2 × Pequena (assinatura); 1,5 kg tomate" (a subscription's baskets say so). */
function itensDoPedido(linhas: Pedido['produtos']): string {
  return linhas
    .map(
      (l) =>
        `${l.tipo === 'cesta' ? `${formatarQuantidade(l.quantidadeMilesimos)} ×` : formatarQuantidadeComUnidade(l.quantidadeMilesimos, l.unidade)} ${l.nome}${l.assinaturaId === null ? '' : ' (assinatura)'}`,
    )
    .join('; ');
}

/** An order's parts: per market, in their order of service, each with its fee; or the whole order, fee included. */
function partesDoPedido(
  m: Mercados,
  p: Pedido,
): Array<{
  readonly mercado: string | null;
  readonly linhas: Pedido['produtos'];
  readonly taxa: number;
  readonly valor: number;
}> {
  if (!agrupaPorMercado(m))
    return [{ mercado: null, linhas: p.produtos, taxa: p.taxaCentavos, valor: p.totalComTaxaCentavos }];
  return [...p.partes]
    .sort((a, b) => ordemDoMercado(m, nomeDoMercado(m, a.mercadoId)) - ordemDoMercado(m, nomeDoMercado(m, b.mercadoId)))
    .map((x) => ({
      mercado: nomeDoMercado(m, x.mercadoId),
      linhas: p.produtos.filter((l) => l.mercadoId === x.mercadoId),
      taxa: x.taxaCentavos,
      valor: x.subtotalCentavos + x.taxaCentavos,
    }));
}

/** An order seen from one market: only its lines and its fee there; null when it bought nothing there. */
function pedidoNoMercado(p: Pedido, mercadoId: number): Pedido | null {
  const produtos = p.produtos.filter((l) => l.mercadoId === mercadoId);
  const partes = p.partes.filter((x) => x.mercadoId === mercadoId);
  if (produtos.length === 0) return null;
  const totalCentavos = partes.reduce((s, x) => s + x.subtotalCentavos, 0);
  const taxaCentavos = partes.reduce((s, x) => s + x.taxaCentavos, 0);
  return { ...p, produtos, partes, totalCentavos, taxaCentavos, totalComTaxaCentavos: totalCentavos + taxaCentavos };
}

/**
 * Delivered and charged: confirmed orders only; the unconfirmed ones are listed apart. A consumer
 * sees their own entry, a supplier their own receiving sheet; admins and info see everything.
 */
export async function documentoDeEntrega(
  db: Db,
  ator: Ator,
  cicloid: number,
  taxa: Taxa,
  mercadoId: number | null = null,
): Promise<DocumentoDeEntrega> {
  const [ciclo] = await ciclosPorId(db, [cicloid]);
  if (ciclo === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${cicloid}`);
  const m = await mercadosDoRelatorio(db, ator, [ciclo], mercadoId);
  // A market's AdminMercado reads that market's whole document, as the coordination does.
  const todos = veTudo(ator) || m.filtro?.doMercado === true;
  // Only one's own order for a consumer; none for a supplier, whose part is the receiving sheet.
  const alvo = todos ? null : ehConsumidor(ator) ? (ator.usuarioid ?? -1) : -1;
  const doCiclo = await carregarPedidosDoCiclo(db, cicloid, alvo, taxa);
  const filtro = m.filtro;
  const todosOsPedidos =
    filtro === null ? doCiclo : doCiclo.map((p) => pedidoNoMercado(p, filtro.mercadoId)).filter((p) => p !== null);
  const pedidos = todosOsPedidos.filter((p) => p.finalizado);
  const pendentes = todosOsPedidos.filter((p) => !p.finalizado);
  const contatos = new Map(
    (todosOsPedidos.length === 0
      ? []
      : await db
          .selectFrom('usuario')
          .select(['id', 'celular'])
          .where(
            'id',
            'in',
            todosOsPedidos.map((p) => p.usuario.id),
          )
          .execute()
    ).map((u) => [u.id, u.celular]),
  );
  const porMercado = agrupaPorMercado(m);
  // With markets, each consumer's lines come market by market (in order of service), each with its fee.
  const linhasDoPedido = (p: Pedido): LinhaRelatorio[] => {
    const base = {
      ponto: p.pontoEntrega.nome,
      consumidor: p.usuario.nome,
      telefone: contatos.get(p.usuario.id) ?? null,
    };
    return partesDoPedido(m, p).map((x) => ({
      ...base,
      ...(x.mercado === null ? {} : { mercado: x.mercado, taxa: x.taxa }),
      itens: itensDoPedido(x.linhas),
      valor: x.valor,
    }));
  };
  const colunasDosPontos = colunasDaFamilia(COLUNAS_PONTOS, porMercado);
  // Stable: a consumer's market rows keep their order of service.
  const porPontoEPessoa = (a: LinhaRelatorio, b: LinhaRelatorio) =>
    ordemPtBr(String(a.ponto), String(b.ponto)) || ordemPtBr(String(a.consumidor), String(b.consumidor));
  const pontos =
    pedidos.length === 0
      ? []
      : await db
          .selectFrom('pontoentrega')
          .select(['id', 'nome', 'endereco', 'responsavel'])
          .where('id', 'in', [...new Set(pedidos.map((p) => p.pontoEntrega.id))])
          .execute();
  // The cycle's day and hours at each point (the same for every order there).
  const horarios = new Map(pedidos.map((p) => [p.pontoEntrega.id, horarioDeRetiradaTexto(p.pontoEntrega)]));
  const notasDosPontos = new Map(
    pontos
      .map(
        (p) =>
          [
            p.nome,
            [horarios.get(p.id) ?? null, p.endereco, p.responsavel === null ? null : `Responsável: ${p.responsavel}`]
              .filter((x) => x !== null && x !== '')
              .join(' · '),
          ] as const,
      )
      .filter(([, nota]) => nota !== ''),
  );
  const subtitulo = `${ciclo.nome}${soOMercado(m)}`;
  const porPonto = montarRelatorio(
    'Ponto de entrega',
    subtitulo,
    colunasDosPontos,
    pedidos.flatMap(linhasDoPedido).sort(porPontoEPessoa),
    'ponto',
    { notas: notasDosPontos, conferencia: { titulo: 'Retirado (rubrica)', rubrica: true }, paginaPorGrupo: true },
  );

  const cestas = new Map<string, number>();
  const assinadas = new Map<string, number>();
  for (const p of pedidos) {
    for (const l of p.produtos) {
      if (l.tipo !== 'cesta') continue;
      cestas.set(l.nome, (cestas.get(l.nome) ?? 0) + l.quantidadeMilesimos / 1000);
      if (l.assinaturaId !== null) assinadas.set(l.nome, (assinadas.get(l.nome) ?? 0) + l.quantidadeMilesimos / 1000);
    }
  }
  // How many of each basket type come from subscriptions and how many from one-off orders.
  const resumo = montarRelatorio(
    'Cestas',
    subtitulo,
    [
      { chave: 'cesta', titulo: 'Cesta', tipo: 'texto' },
      { chave: 'quantidade', titulo: 'Quantidade', tipo: 'inteiro', soma: true },
      { chave: 'assinatura', titulo: 'Por assinatura', tipo: 'inteiro', soma: true },
      { chave: 'avulso', titulo: 'Avulsas', tipo: 'inteiro', soma: true },
    ],
    [...cestas].map(([cesta, quantidade]) => ({
      cesta,
      quantidade,
      assinatura: assinadas.get(cesta) ?? 0,
      avulso: quantidade - (assinadas.get(cesta) ?? 0),
    })),
  );

  // Saved but not confirmed: not delivered nor charged, and holding no stock once the order window
  // closes (DOMAIN.md, "Order"); listed so that the coordination can call each person in time.
  const [ano = '', mes = '', diaFim = ''] = ciclo.dataPedidoFim.split('-');
  const naoConfirmados = montarRelatorio(
    'Pedidos não confirmados',
    subtitulo,
    colunasDosPontos,
    pendentes.flatMap(linhasDoPedido).sort(porPontoEPessoa),
    undefined,
    {
      notas: new Map([
        [
          '',
          `Não entram na entrega nem na cobrança se não forem confirmados até ${diaFim}/${mes}/${ano}, o último dia de pedidos: depois disso, as cestas e os itens que eles reservavam ficam livres.`,
        ],
      ]),
    },
  );
  const secoes: Relatorio[] = [resumo, porPonto, naoConfirmados];
  if (todos) {
    const itens = await itensDasCestas(db, { cicloid }, 'cesta');
    secoes.push(
      montarRelatorio(
        'Montagem',
        subtitulo,
        COLUNAS_MONTAGEM,
        // Per basket in the unit the coordinator composed in: 6 unidade of eggs to count, not 0,5 dúzia.
        [...cestas.keys()].flatMap((cesta) =>
          itens
            .filter((i) => i.cesta === cesta)
            .map((i) => {
              const visto = naUnidadeEscolhida(i.quantidadePorCestaMilesimos, i.unidade, i.unidadeEscolhida);
              return {
                cesta,
                produto: i.produto,
                fornecedor: i.fornecedor,
                quantidade: visto.milesimos,
                unidade: visto.unidade,
              };
            }),
        ),
        'cesta',
        {
          notas: new Map([...cestas].map(([cesta, n]) => [cesta, `Montar ${n} ${n === 1 ? 'cesta' : 'cestas'}`])),
          conferencia: { titulo: 'Conferido', rubrica: false },
        },
      ),
    );
  }
  if (todos || ehFornecedor(ator)) {
    secoes.push(
      montarRelatorio(
        'Recebimento',
        subtitulo,
        colunasDaFamilia(COLUNAS_RECEBIMENTO, porMercado),
        (await linhasDosFornecedores(db, ator, [ciclo], m)).filter((l) => l.quantidade !== 0),
        'fornecedor',
        { conferencia: { titulo: 'Recebido', rubrica: false } },
      ),
    );
  }
  return {
    ciclo: {
      id: ciclo.id,
      nome: ciclo.nome,
      dataRetiradaInicio: ciclo.dataRetiradaInicio,
      dataRetiradaFim: ciclo.dataRetiradaFim,
    },
    mercado: filtro?.nome ?? null,
    pedidos: pedidos.length,
    totalCentavos: pedidos.reduce((s, p) => s + p.totalComTaxaCentavos, 0),
    secoes,
  };
}
