/**
 * What a pickup device reads while online, to work without a network afterwards (docs/dominio.md,
 * "A retirada"): the points a person may run, and everything one point needs on the day: its
 * confirmed orders (person, phone, items with units, subscription or not, the order's total, what
 * the person owes now, what was paid at pickup, the Pix of what is owed, the receipt's token), what
 * is inside each basket, and the actions already recorded there, with who recorded them.
 * A fixed number of statements, whatever the number of orders.
 */
import type { Db } from '../../db/banco.ts';
import type { TipoDeAcaoDeRetirada } from '../../db/tipos.ts';
import type { RecebedorPix } from '../../pix-chave.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { itensDasCestas } from '../conteudo-das-cestas.ts';
import { montarPedido, type ItemLido } from '../pedidos/modelo.ts';
import type { Taxa } from '../pedidos/taxa.ts';
import { brCode, cobrancasEmAberto } from '../pix.ts';
import { somarDias } from '../tempo.ts';
import { exigirPedidosEncerrados } from './acoes.ts';
import { ehCoordenacaoDaRetirada, exigirTrabalhoNoPonto, type QuemTrabalha } from './acesso.ts';
import { tokenDoPedido } from './token.ts';

/** How long after its last pickup day a cycle's points stay in the list (late records, a second look). */
export const DIAS_DEPOIS_DA_RETIRADA = 7;

/** A point a person may run in a cycle, for the list that opens the pickup app. */
export interface PontoParaTrabalhar {
  readonly cicloid: number;
  readonly cicloNome: string;
  readonly pontoEntregaId: number;
  readonly pontoNome: string;
  /** The day and hours the cycle lists for the point (null when it lists none). */
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  /** Confirmed orders to pick up there. */
  readonly pedidos: number;
}

/**
 * The points the person may run now: of the active cycles whose order window has ended and whose
 * pickup ended at most DIAS_DEPOIS_DA_RETIRADA days ago, every point (those the cycle lists, and
 * those with confirmed orders) for the coordination; the points they were named for, for a
 * volunteer. By the cycle's pickup, then the point's day, hour and name.
 */
export async function meusPontosDeRetirada(db: Db, quem: QuemTrabalha, hoje: string): Promise<PontoParaTrabalhar[]> {
  const usuarioid = quem.ator.usuarioid;
  if (usuarioid === null || !quem.ator.ativo) return [];
  const ciclos = await db
    .selectFrom('ciclo')
    .select(['id', 'nome', 'dataRetiradaInicio'])
    .where('ativo', '=', true)
    .where('dataPedidoFim', '<', hoje)
    .where('dataRetiradaFim', '>=', somarDias(hoje, -DIAS_DEPOIS_DA_RETIRADA))
    .execute();
  if (ciclos.length === 0) return [];
  const ids = ciclos.map((c) => c.id);
  const coordenacao = ehCoordenacaoDaRetirada(quem.perfis);
  const [listados, contagens, nomeados] = await Promise.all([
    db
      .selectFrom('ciclopontoentrega')
      .select(['cicloid', 'pontoEntregaId', 'dataRetirada', 'horaInicio', 'horaFim'])
      .where('cicloid', 'in', ids)
      .execute(),
    db
      .selectFrom('pedido')
      .select(['cicloid', 'pontoEntregaId'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('cicloid', 'in', ids)
      .where('finalizado', '=', true)
      .groupBy(['cicloid', 'pontoEntregaId'])
      .execute(),
    coordenacao
      ? Promise.resolve(null)
      : db
          .selectFrom('voluntario as v')
          .innerJoin('usuario as u', 'u.id', 'v.usuarioid')
          .select(['v.cicloid', 'v.pontoEntregaId'])
          .where('v.usuarioid', '=', usuarioid)
          .where('u.ativo', '=', true)
          .where('v.cicloid', 'in', ids)
          .execute(),
  ]);
  const par = (c: number, p: number) => `${c}:${p}`;
  const pares = new Map<string, { cicloid: number; pontoEntregaId: number }>();
  for (const x of nomeados ?? [...listados, ...contagens]) pares.set(par(x.cicloid, x.pontoEntregaId), x);
  if (pares.size === 0) return [];
  const pontos = await db
    .selectFrom('pontoentrega')
    .select(['id', 'nome', 'nomeChave'])
    .where('id', 'in', [...new Set([...pares.values()].map((p) => p.pontoEntregaId))])
    .execute();
  const porCiclo = new Map(ciclos.map((c) => [c.id, c]));
  const porPonto = new Map(pontos.map((p) => [p.id, p]));
  const lista = [...pares.values()].flatMap((x) => {
    const ciclo = porCiclo.get(x.cicloid);
    const ponto = porPonto.get(x.pontoEntregaId);
    if (ciclo === undefined || ponto === undefined) return [];
    const listado = listados.find((l) => l.cicloid === x.cicloid && l.pontoEntregaId === x.pontoEntregaId);
    const contagem = contagens.find((l) => l.cicloid === x.cicloid && l.pontoEntregaId === x.pontoEntregaId);
    return [
      {
        ordem: [ciclo.dataRetiradaInicio, listado?.dataRetirada ?? '9999-12-31', listado?.horaInicio ?? '99:99'],
        nomeChave: ponto.nomeChave,
        ponto: {
          cicloid: x.cicloid,
          cicloNome: ciclo.nome,
          pontoEntregaId: x.pontoEntregaId,
          pontoNome: ponto.nome,
          dataRetirada: listado?.dataRetirada ?? null,
          horaInicio: listado?.horaInicio ?? null,
          horaFim: listado?.horaFim ?? null,
          pedidos: Number(contagem?.n ?? 0),
        },
      },
    ];
  });
  lista.sort(
    (a, b) =>
      a.ordem.join(' ').localeCompare(b.ordem.join(' ')) ||
      a.ponto.cicloid - b.ponto.cicloid ||
      a.nomeChave.localeCompare(b.nomeChave, 'pt-BR'),
  );
  return lista.map((x) => x.ponto);
}

/** One item of an order, as the pickup reads it. */
export interface ItemNaRetirada {
  readonly pedidoProdutoId: number;
  readonly tipo: 'cesta' | 'extra';
  readonly nome: string;
  /** The product's unit, or 'cesta'. */
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  readonly cicloCestaId: number | null;
}

/** An action recorded at the point, with who recorded it. */
export interface AcaoRegistrada {
  readonly acaoId: number;
  readonly chave: string;
  readonly tipo: TipoDeAcaoDeRetirada;
  readonly pedidoId: number;
  readonly pedidoProdutoId: number | null;
  readonly produtoId: number | null;
  readonly quantidadeMilesimos: number | null;
  readonly substituto: string | null;
  readonly valorCentavos: number | null;
  readonly forma: 'dinheiro' | 'pix' | null;
  readonly texto: string | null;
  /** The moment on the device, and when it reached the server (ISO). */
  readonly feitoEm: string;
  readonly recebidoEm: string;
  readonly dispositivo: string;
  readonly quem: string;
}

export interface PedidoNaRetirada {
  readonly pedidoId: number;
  readonly usuarioid: number;
  readonly pessoa: string;
  readonly telefone: string | null;
  /** Some basket of it comes from a subscription. */
  readonly assinatura: boolean;
  readonly itens: readonly ItemNaRetirada[];
  /** The order with its fee. */
  readonly totalCentavos: number;
  /** What the person owes now, all told (the one Pix's amount, src/domain/pix.ts); 0 when nothing. */
  readonly devidoCentavos: number;
  /** Payments recorded at pickup for this order. */
  readonly pagoCentavos: number;
  /** The Pix copy-and-paste text for `devido`; null without the community's key or with nothing owed. */
  readonly pix: string | null;
  /** The receipt QR's token (token.ts). */
  readonly token: string;
  /** The pickup shown: the earliest record (by its moment on the device, then its key); null while not picked up. */
  readonly retirada: AcaoRegistrada | null;
}

export interface ConteudoDaCesta {
  readonly cicloCestaId: number;
  readonly nome: string;
  readonly itens: ReadonlyArray<{
    readonly produtoId: number;
    readonly nome: string;
    readonly unidade: string;
    readonly quantidadePorCestaMilesimos: number;
  }>;
}

export interface RetiradaDoPonto {
  readonly cicloid: number;
  readonly cicloNome: string;
  readonly pontoEntregaId: number;
  readonly pontoNome: string;
  readonly endereco: string | null;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  /** When the server put this together (ISO). */
  readonly geradoEm: string;
  readonly pedidos: readonly PedidoNaRetirada[];
  readonly cestas: readonly ConteudoDaCesta[];
  /** Every action recorded at the point in the cycle, by the moment on the device, then the key. */
  readonly acoes: readonly AcaoRegistrada[];
}

/** Everything a device needs for one point's pickup, for someone who works there (acesso.ts). */
export async function retiradaDoPonto(
  db: Db,
  quem: QuemTrabalha,
  cicloid: number,
  pontoEntregaId: number,
  opcoes: {
    readonly agora: Date;
    readonly hoje: string;
    readonly taxa: Taxa;
    readonly pix: RecebedorPix | null;
    readonly chaveDoToken: Buffer;
  },
): Promise<RetiradaDoPonto> {
  await exigirTrabalhoNoPonto(db, quem, cicloid, pontoEntregaId);
  const ciclo = await cicloDasJanelas(db, cicloid);
  exigirPedidosEncerrados(ciclo, opcoes.hoje);
  const doPonto = db
    .selectFrom('pedido as p')
    .where('p.cicloid', '=', cicloid)
    .where('p.pontoEntregaId', '=', pontoEntregaId)
    .where('p.finalizado', '=', true);
  const [ponto, pedidos, linhas, conteudo, acoes, cobrancas] = await Promise.all([
    db
      .selectFrom('pontoentrega as pe')
      .leftJoin('ciclopontoentrega as cpe', (j) =>
        j.onRef('cpe.pontoEntregaId', '=', 'pe.id').on('cpe.cicloid', '=', cicloid),
      )
      .select(['pe.nome', 'pe.endereco', 'pe.cidade', 'cpe.dataRetirada', 'cpe.horaInicio', 'cpe.horaFim'])
      .where('pe.id', '=', pontoEntregaId)
      .executeTakeFirstOrThrow(),
    doPonto
      .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
      .select(['p.id', 'p.cicloid', 'p.usuarioid', 'u.nome as usuarioNome', 'u.celular'])
      .select(['p.pontoEntregaId', 'p.finalizado', 'p.dataConfirmacao'])
      .execute(),
    // NOTE: the lines are filtered like the orders (a join), not by a list of their ids.
    doPonto
      .innerJoin('pedidoproduto as pp', 'pp.pedidoid', 'p.id')
      .leftJoin('ciclocesta as cc', 'cc.id', 'pp.cicloCestaId')
      .leftJoin('cesta', 'cesta.id', 'cc.cestaId')
      .leftJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
      .leftJoin('produto as pr', 'pr.id', 'cp.produtoId')
      .leftJoin('mercado as m', 'm.id', 'pp.mercadoId')
      .select(['pp.id', 'pp.pedidoid', 'pp.cicloCestaId', 'pp.cicloProdutoId', 'pp.quantidadeMilesimos'])
      .select(['pp.valorCentavos', 'cesta.nome as cestaNome', 'pr.nome as produtoNome', 'pr.unidade'])
      .select(['pp.mercadoId', 'm.nome as mercadoNome', 'pp.taxaCentesimos', 'pp.assinaturaId'])
      .orderBy('pp.pedidoid')
      .orderBy('pp.id')
      .execute(),
    itensDasCestas(db, { cicloid }, 'composicao'),
    db
      .selectFrom('acaoretirada as a')
      .innerJoin('usuario as u', 'u.id', 'a.usuarioid')
      .select(['a.id', 'a.chave', 'a.tipo', 'a.pedidoid', 'a.pedidoProdutoId', 'a.produtoId'])
      .select(['a.quantidadeMilesimos', 'a.substituto', 'a.valorCentavos', 'a.forma', 'a.texto'])
      .select(['a.feitoEm', 'a.recebidoEm', 'a.dispositivo', 'u.nome as quem'])
      .where('a.cicloid', '=', cicloid)
      .where('a.pontoEntregaId', '=', pontoEntregaId)
      .orderBy('a.feitoEm')
      .orderBy('a.chave')
      .execute(),
    // What each person owes, as the one Pix charges it: everyone's, in three grouped statements.
    cobrancasEmAberto(db, opcoes.taxa),
  ]);
  const registradas = acoes.map((a): AcaoRegistrada => ({
    acaoId: a.id,
    chave: a.chave,
    tipo: a.tipo,
    pedidoId: a.pedidoid,
    pedidoProdutoId: a.pedidoProdutoId,
    produtoId: a.produtoId,
    quantidadeMilesimos: a.quantidadeMilesimos,
    substituto: a.substituto,
    valorCentavos: a.valorCentavos,
    forma: a.forma,
    texto: a.texto,
    feitoEm: a.feitoEm,
    recebidoEm: a.recebidoEm,
    dispositivo: a.dispositivo,
    quem: a.quem,
  }));
  // NOTE: ordered again here, by code units: PostgreSQL's collation may order keys of mixed case
  // apart from SQLite, and the earliest record must be the same on both (and in resumo.ts).
  registradas.sort((a, b) =>
    a.feitoEm < b.feitoEm ? -1 : a.feitoEm > b.feitoEm ? 1 : a.chave < b.chave ? -1 : a.chave > b.chave ? 1 : 0,
  );
  const porPedido = new Map<number, ItemLido[]>();
  for (const l of linhas) porPedido.set(l.pedidoid, [...(porPedido.get(l.pedidoid) ?? []), l]);
  const cobrancaDe = new Map(cobrancas.map((c) => [c.usuarioid, c]));
  const acoesDoPedido = Map.groupBy(registradas, (a) => a.pedidoId);
  const lista = pedidos.map((p): PedidoNaRetirada => {
    const pedido = montarPedido(
      { ...p, pontoNome: ponto.nome, dataRetirada: null, horaInicio: null, horaFim: null },
      porPedido.get(p.id) ?? [],
      opcoes.taxa,
    );
    const cobranca = cobrancaDe.get(p.usuarioid);
    const devido = Math.max(0, cobranca?.devidoCentavos ?? 0);
    const doPedido = acoesDoPedido.get(p.id) ?? [];
    return {
      pedidoId: p.id,
      usuarioid: p.usuarioid,
      pessoa: p.usuarioNome,
      telefone: p.celular,
      assinatura: pedido.produtos.some((l) => l.assinaturaId !== null),
      itens: pedido.produtos.map((l) => ({
        pedidoProdutoId: l.id,
        tipo: l.tipo,
        nome: l.nome,
        unidade: l.unidade,
        quantidadeMilesimos: l.quantidadeMilesimos,
        cicloCestaId: l.cicloCestaId,
      })),
      totalCentavos: pedido.totalComTaxaCentavos,
      devidoCentavos: devido,
      pagoCentavos: doPedido.filter((a) => a.tipo === 'pagamento').reduce((s, a) => s + (a.valorCentavos ?? 0), 0),
      pix:
        opcoes.pix === null || cobranca === undefined || devido <= 0 ? null : brCode(opcoes.pix, devido, cobranca.txid),
      token: tokenDoPedido(opcoes.chaveDoToken, p.id),
      // The actions are ordered by moment, then key: the first pickup is the earliest.
      retirada: doPedido.find((a) => a.tipo === 'retirada') ?? null,
    };
  });
  lista.sort((a, b) => a.pessoa.localeCompare(b.pessoa, 'pt-BR') || a.pedidoId - b.pedidoId);
  const pedidas = new Set(linhas.flatMap((l) => (l.cicloCestaId === null ? [] : [l.cicloCestaId])));
  const cestas = new Map<number, { nome: string; itens: Map<number, ConteudoDaCesta['itens'][number]> }>();
  for (const i of conteudo) {
    if (!pedidas.has(i.cicloCestaId)) continue;
    const cesta = cestas.get(i.cicloCestaId) ?? { nome: i.cesta, itens: new Map() };
    const atual = cesta.itens.get(i.produtoId);
    // The same product from two offer lines is one item of the basket, in both quantities.
    cesta.itens.set(i.produtoId, {
      produtoId: i.produtoId,
      nome: i.produto,
      unidade: i.unidade,
      quantidadePorCestaMilesimos: (atual?.quantidadePorCestaMilesimos ?? 0) + i.quantidadePorCestaMilesimos,
    });
    cestas.set(i.cicloCestaId, cesta);
  }
  const endereco = [ponto.endereco, ponto.cidade].filter((x) => x !== null && x.trim() !== '').join(', ');
  return {
    cicloid,
    cicloNome: ciclo.nome,
    pontoEntregaId,
    pontoNome: ponto.nome,
    endereco: endereco === '' ? null : endereco,
    dataRetirada: ponto.dataRetirada,
    horaInicio: ponto.horaInicio,
    horaFim: ponto.horaFim,
    geradoEm: opcoes.agora.toISOString(),
    pedidos: lista,
    cestas: [...cestas].map(([cicloCestaId, c]) => ({ cicloCestaId, nome: c.nome, itens: [...c.itens.values()] })),
    acoes: registradas,
  };
}
