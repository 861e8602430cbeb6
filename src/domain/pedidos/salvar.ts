/**
 * Saving an order (salvarPedido): the use case that checks the lines, the point and the stock
 * under the lines' row locks, then writes the order and its lines in one transaction. Each step
 * is a private function below it, in the order the use case runs them.
 */
import { ehPostgres, emTransacao, type Banco, type Db } from '../../db/banco.ts';
import { juntas, leitura } from '../../db/juntas.ts';
import { ESCALA_QUANTIDADE, formatarQuantidadeComUnidade, paraNumero } from '../../decimal.ts';
import { ehGestor, exigirAgirPor, type Ator } from '../acesso.ts';
import { auditar } from '../auditoria.ts';
import { unidadeTrocada } from '../catalogo.ts';
import { exigirJanela, leituraDoCiclo } from '../ciclos/janelas.ts';
import { cestaComposta } from '../conteudo-das-cestas.ts';
import { Conflito, Invalido } from '../erros.ts';
import { reservadoDaLinhaHoje, soConfirmadosSeguram, vendaveisDaCesta } from '../reservas.ts';
import { leituraDoPedidoParaMudar } from './leituras.ts';
import {
  montarPedido,
  type HorarioDeRetirada,
  type ItemLido,
  type LinhaDoPedido,
  type OpcoesPedido,
  type Pedido,
} from './modelo.ts';
import { leituraDoPontoNaVezDoConsumidor, pontoDoPedido, pontoDosMercados, type PontoLido } from './ponto.ts';
import { chaveDaLinha, consumidorAlvo, regrasDasLinhas, type EntradaPedido, type LinhaPedida } from './regras.ts';

/**
 * Saves an order and reserves its baskets and extras (`criado`: the consumer had none in the
 * cycle). The check and the write happen in one transaction holding locks on the cycle baskets
 * and extras involved, so concurrent orders can never sell more than there is. Prices are
 * snapshotted; a client-sent `valor` is ignored. Subscriptions go first: the use case that
 * saves a one-off order calls `gerarAntesDoPedido` (assinaturas/geracao.ts) before this, once its input
 * is read, so that the cycle's subscription orders take their stock before a one-off order does.
 */
export async function salvarPedido(
  banco: Banco,
  ator: Ator,
  entrada: EntradaPedido,
  opcoes: OpcoesPedido,
): Promise<{ pedido: Pedido; criado: boolean; reaberto: boolean }> {
  const { cicloid, pontoEntregaId, linhas } = entrada;
  exigirAgirPor(ator, entrada.usuarioid, 'pedido');
  const erros = regrasDasLinhas(linhas);
  if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
  return emTransacao(banco, async (trx) => {
    const consumidor = await consumidorAlvo(trx, ator, entrada.usuarioid);
    const usuarioid = consumidor.id;
    // The cycle, the point with the consumer's turn, the baskets and extras and the order saved
    // before, in that order (the order the locks are taken in), sent together (juntas.ts).
    const [leituraDasCestas, leituraDosExtras] = leiturasDasLinhas(trx, linhas, opcoes.hoje);
    const [ciclo, pontoLido, cestas, extras, lido] = await juntas(trx, [
      leituraDoCiclo(trx, cicloid, 'pedido'),
      leituraDoPontoNaVezDoConsumidor(trx, cicloid, pontoEntregaId, usuarioid),
      leituraDasCestas,
      leituraDosExtras,
      leituraDoPedidoParaMudar(trx, cicloid, usuarioid, opcoes.taxa),
    ]);
    const { foraDaJanela } = exigirJanela(ciclo, opcoes.hoje, 'pedido', ehGestor(ator));
    // Once the window has closed (an admin's change), unconfirmed orders hold nothing.
    const soConfirmados = soConfirmadosSeguram(ciclo, opcoes.hoje);
    const antes = lido?.pedido ?? null;
    const alvos = alvosDasLinhas(linhas, cicloid, cestas, extras);
    const ponto = await conferirPonto(trx, cicloid, pontoEntregaId, pontoLido, alvos);
    conferirEstoque(alvos, antes, soConfirmados);
    if (lido?.comRetirada === true) throw retiradaRegistrada();
    const iso = opcoes.agora.toISOString();
    const itens = precosDasLinhas(alvos, antes);
    // A confirmed order that still holds a subscription's basket stays confirmed (docs/dominio.md):
    // the subscription confirmed it, and what joins it is in from this save on.
    const confirmado = antes?.finalizado === true && itens.some((i) => i.assinaturaId !== null) ? antes : null;
    const { pedidoId, criado } = await gravarPedido(
      trx,
      antes,
      { cicloid, usuarioid, pontoEntregaId },
      iso,
      confirmado !== null,
    );
    // The lines saved before, or null when the order was created meanwhile by a writer that does
    // not take the consumer's turn (PostgreSQL: the subscriptions' generation): its lines are not
    // known, so all of them are replaced.
    const gravadas = antes !== null ? antes.produtos : criado ? [] : null;
    const lidos = await gravarLinhas(trx, pedidoId, itens, iso, gravadas);
    const depois = montarPedido(
      {
        id: pedidoId,
        cicloid,
        usuarioid,
        usuarioNome: consumidor.nome,
        pontoEntregaId,
        pontoNome: ponto.nome,
        dataRetirada: ponto.dataRetirada,
        horaInicio: ponto.horaInicio,
        horaFim: ponto.horaFim,
        finalizado: confirmado !== null,
        dataConfirmacao: confirmado?.dataConfirmacao ?? null,
      },
      lidos,
      opcoes.taxa,
    );
    await auditar(trx, ator, opcoes.agora, {
      acao: `salvar${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'pedido',
      entidadeId: pedidoId,
      antes,
      depois,
    });
    // A confirmed order that changes must be confirmed again (docs/dominio.md): the answer says so.
    const reaberto = antes?.finalizado === true && confirmado === null;
    if (reaberto) await opcoes.avisos?.emitir(trx, { tipo: 'pedido_alterado', pedido: depois });
    return { pedido: depois, criado, reaberto };
  });
}

/**
 * The order's baskets and extras with what is reserved of each, read under their row locks: a
 * statement each, none for an empty list.
 */
function leiturasDasLinhas(trx: Db, linhas: readonly LinhaPedida[], hoje: string) {
  // Stryker disable next-line ArrayDeclaration: a bogus id matches no row (and locks none on SQLite)
  const idsCestas = linhas.flatMap((l) => l.cicloCestaId ?? []);
  // Stryker disable next-line ArrayDeclaration: see above
  const idsExtras = linhas.flatMap((l) => l.cicloProdutoId ?? []);
  // NOTE: on PostgreSQL the baskets and the extras are locked by the very queries that read
  // them (FOR UPDATE of their own rows, in id order, so two orders never deadlock), and what
  // they reserve is read under that lock: the newest committed counter. SQLite's transaction
  // is already exclusive. What they reserve depends on the cycle's phase (reservadoDaLinhaHoje):
  // decided in the statement, so that it goes in the same batch as the cycle's read, whose lock
  // keeps the dates as read until the order commits.
  const travando = ehPostgres(trx);
  const cestas = trx
    .selectFrom('ciclocesta as cc')
    .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
    .leftJoin('mercado as m', 'm.id', 'cc.mercadoId')
    .select(['cc.id', 'cc.cicloid', 'cesta.nome', 'cesta.valorReferenciaCentavos', 'cesta.ativo'])
    .select(['cc.mercadoId', 'm.nome as mercadoNome', 'm.taxaAdministrativaCentesimos as taxaCentesimos'])
    // What may be sold is the composition's number (what will be packed), read under the row's
    // lock; a composition changes only under the cycle's lock, which this transaction shares.
    .select([
      vendaveisDaCesta('cc').as('quantidadeCestas'),
      reservadoDaLinhaHoje('ciclocesta', 'cc', hoje).as('reservadoMilesimos'),
    ])
    .select((eb) => cestaComposta(eb).as('composta'))
    .where('cc.id', 'in', idsCestas)
    .orderBy('cc.id')
    .$if(
      travando,
      // Stryker disable next-line ArrowFunction: row locks exist only on PostgreSQL (see the note above)
      (q) => q.forUpdate('cc'),
    );
  const extras = trx
    .selectFrom('cicloproduto as cp')
    .innerJoin('produto as p', 'p.id', 'cp.produtoId')
    .leftJoin('mercado as m', 'm.id', 'cp.mercadoId')
    .select(['cp.id', 'cp.cicloid', 'cp.quantidadeMilesimos', 'cp.valorCentavos', 'p.nome', 'p.unidade'])
    .select(['cp.mercadoId', 'm.nome as mercadoNome', 'm.taxaAdministrativaCentesimos as taxaCentesimos'])
    .select(reservadoDaLinhaHoje('cicloproduto', 'cp', hoje).as('reservadoMilesimos'))
    .where('cp.id', 'in', idsExtras)
    .orderBy('cp.id')
    .$if(
      travando,
      // Stryker disable next-line ArrowFunction: row locks exist only on PostgreSQL (see the note above)
      (q) => q.forUpdate('cp'),
    );
  // NOTE (both): an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL
  // refuses it, and its suite covers the empty case. Row locks exist only on PostgreSQL, where
  // test/fluxo/reserva.test.ts oversells without them.
  const cadaLinha = <R>(linhas: R[]) => linhas;
  return [
    // Stryker disable next-line ConditionalExpression: see the note above
    leitura(idsCestas.length === 0 ? null : cestas.compile(), cadaLinha),
    // Stryker disable next-line ConditionalExpression: see the note above
    leitura(idsExtras.length === 0 ? null : extras.compile(), cadaLinha),
  ] as const;
}

/** The order's baskets and extras as leiturasDasLinhas reads them. */
type Lidas = ReturnType<typeof leiturasDasLinhas>;
type Travadas = { cestas: ReturnType<Lidas[0]['ler']>; extras: ReturnType<Lidas[1]['ler']> };

/** A line of the order with the basket or the extra it buys. */
type Alvo =
  | { readonly l: LinhaPedida; readonly cesta: Travadas['cestas'][number]; readonly extra?: undefined }
  | { readonly l: LinhaPedida; readonly cesta?: undefined; readonly extra: Travadas['extras'][number] };

/**
 * Each line's basket or extra, on sale in this very cycle (an inactive basket is not), and an
 * extra's quantity written in the product's own unit: 400 with the fields that break either.
 */
function alvosDasLinhas(
  linhas: readonly LinhaPedida[],
  cicloid: number,
  cestas: Travadas['cestas'],
  extras: Travadas['extras'],
): Alvo[] {
  const alvos: Alvo[] = [];
  const fora: Record<string, string> = {};
  for (const l of linhas) {
    const cesta = cestas.find((x) => x.id === l.cicloCestaId && x.cicloid === cicloid && x.ativo);
    const extra = extras.find((x) => x.id === l.cicloProdutoId && x.cicloid === cicloid);
    if (cesta !== undefined) alvos.push({ l, cesta });
    else if (extra !== undefined) alvos.push({ l, extra });
    else
      fora[`${l.campo}.${l.cicloCestaId !== null ? 'cicloCestaId' : 'cicloProdutoId'}`] =
        'Não está à venda neste ciclo';
  }
  if (Object.keys(fora).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', fora);
  const noutraUnidade = alvos.flatMap((a) =>
    unidadeTrocada(a.l.unidadeEscrita, a.extra?.unidade, `${a.l.campo}.quantidade`),
  );
  if (noutraUnidade.length > 0)
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', Object.fromEntries(noutraUnidade));
  return alvos;
}

/** The order's pickup point (pontoDoPedido), and one every line's market serves when it buys in markets. */
async function conferirPonto(
  trx: Db,
  cicloid: number,
  pontoEntregaId: number,
  pontoLido: PontoLido,
  alvos: readonly Alvo[],
): Promise<HorarioDeRetirada & { id: number; nome: string }> {
  const mercadoIds = new Set(alvos.flatMap((a) => (a.cesta ?? a.extra).mercadoId ?? []));
  const ponto = await pontoDoPedido(trx, cicloid, pontoLido, mercadoIds.size > 0);
  // With no market in the order, pontoDosMercados would only ask for one of the cycle's points
  // (any active one when it lists none), which pontoDoPedido has just checked; the condition
  // saves its three queries (and PostgreSQL refuses their empty IN list).
  // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
  if (mercadoIds.size > 0)
    await pontoDosMercados(
      trx,
      cicloid,
      pontoEntregaId,
      mercadoIds,
      alvos.some((a) => (a.cesta ?? a.extra).mercadoId === null),
    );
  return ponto;
}

/**
 * There is enough of each line for the order (409 SEM_ESTOQUE), and no basket without a
 * composition grows in it (409 EM_COMPOSICAO); `antes` is the consumer's saved order, if any.
 */
function conferirEstoque(alvos: readonly Alvo[], antes: Pedido | null, soConfirmados: boolean): void {
  // What everyone else reserves: the row's counter (kept by triggers, read under the row lock)
  // minus what this consumer's own saved order holds of the same line.
  const somaDe = (linhasDoPedido: readonly LinhaDoPedido[], chave: string) =>
    linhasDoPedido.filter((p) => chaveDaLinha(p) === chave).reduce((t, p) => t + p.quantidadeMilesimos, 0);
  // Stryker disable next-line ArrayDeclaration: a bogus earlier line keys to no line of the order
  const jaNoPedido = (chave: string) => somaDe(antes?.produtos ?? [], chave);
  // Once the window has closed, an unconfirmed order of one's own is not in the count either.
  // Stryker disable next-line ArrayDeclaration: a bogus earlier line keys to no line of the order
  const contado = antes !== null && (antes.finalizado || !soConfirmados) ? antes.produtos : [];
  const proprio = (chave: string) => somaDe(contado, chave);
  // A basket with nothing composed in it is not for sale; what an order already holds of one
  // (composed before its items were taken out) may stay, but not grow.
  const semComposicao = alvos.flatMap(({ l, cesta }) =>
    cesta !== undefined && !Number(cesta.composta) && l.quantidadeMilesimos > jaNoPedido(chaveDaLinha(l))
      ? [cesta.nome]
      : [],
  );
  if (semComposicao.length > 0) {
    throw new Conflito('EM_COMPOSICAO', `Ainda em composição, não pode ser pedida: ${semComposicao.join(', ')}`, {
      cestas: semComposicao,
    });
  }
  const faltas: Array<{ nome: string; livre: number; pedido: number; unidade: string }> = [];
  for (const { l, cesta, extra } of alvos) {
    if (cesta !== undefined) {
      const livre =
        Number(cesta.quantidadeCestas) * 1000 - (Number(cesta.reservadoMilesimos) - proprio(chaveDaLinha(l)));
      if (l.quantidadeMilesimos > livre)
        faltas.push({ nome: cesta.nome, livre: Math.max(0, livre), pedido: l.quantidadeMilesimos, unidade: 'cesta' });
    } else {
      const livre = extra.quantidadeMilesimos - (Number(extra.reservadoMilesimos) - proprio(chaveDaLinha(l)));
      if (l.quantidadeMilesimos > livre)
        faltas.push({
          nome: extra.nome,
          livre: Math.max(0, livre),
          pedido: l.quantidadeMilesimos,
          unidade: extra.unidade,
        });
    }
  }
  if (faltas.length > 0) {
    // The refusal's details are the error envelope's wire data: the contract's decimal numbers.
    throw new Conflito(
      'SEM_ESTOQUE',
      `Não há o suficiente: ${faltas.map((f) => `${f.nome} (disponível: ${formatarQuantidadeComUnidade(f.livre, f.unidade)})`).join('; ')}`,
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

/**
 * Writes the order's row, re-opened unless `continuaConfirmado` (a subscription's order keeps its
 * confirmation); `criado`: this save created it.
 */
async function gravarPedido(
  trx: Db,
  antes: Pedido | null,
  pedido: { cicloid: number; usuarioid: number; pontoEntregaId: number },
  iso: string,
  continuaConfirmado: boolean,
): Promise<{ pedidoId: number; criado: boolean }> {
  const { cicloid, usuarioid, pontoEntregaId } = pedido;
  // Changing an order re-opens it; it must be confirmed again.
  const reaberto = { pontoEntregaId, finalizado: false, dataConfirmacao: null, updatedAt: iso };
  let pedidoId: number;
  let criado = false;
  // Stryker disable next-line ConditionalExpression: the insert below upserts on (cycle, consumer), which for an existing order is this same update
  if (antes !== null) {
    await trx
      .updateTable('pedido')
      .set(continuaConfirmado ? { pontoEntregaId, updatedAt: iso } : reaberto)
      .where('id', '=', antes.pedidoId)
      .execute();
    pedidoId = antes.pedidoId;
  } else {
    // An order created meanwhile by a writer that does not take the consumer's turn (the
    // subscriptions' generation, PostgreSQL) is updated instead.
    const gravado = await trx
      .insertInto('pedido')
      .values({ cicloid, usuarioid, ...reaberto, createdAt: iso })
      .onConflict((oc) => oc.columns(['cicloid', 'usuarioid']).doUpdateSet(reaberto))
      .returning(['id', 'createdAt'])
      .executeTakeFirstOrThrow();
    pedidoId = gravado.id;
    // This save created the order only if the row carries its own creation time (an upsert
    // into a row another writer made keeps that writer's).
    // Stryker disable next-line ConditionalExpression: only a generation running beside the first save (PostgreSQL) meets an existing row here
    criado = gravado.createdAt === iso;
  }
  return { pedidoId, criado };
}

/** The lines to write, with their prices, markets and fees, names and subscriptions. */
function precosDasLinhas(alvos: readonly Alvo[], antes: Pedido | null) {
  // Stryker disable next-line ArrayDeclaration: a bogus earlier line keys to no line of the order
  const anterior = new Map((antes?.produtos ?? []).map((p) => [chaveDaLinha(p), p]));
  // A line already ordered keeps the price, and the market's fee, it was ordered at.
  const itens = alvos.map(({ l, cesta, extra }) => {
    const ja = anterior.get(chaveDaLinha(l));
    const vendido = cesta ?? extra;
    return {
      l,
      valorCentavos: ja?.valorCentavos ?? (cesta !== undefined ? cesta.valorReferenciaCentavos : extra.valorCentavos),
      cestaNome: cesta?.nome ?? null,
      produtoNome: extra?.nome ?? null,
      unidade: extra?.unidade ?? null,
      mercadoId: vendido.mercadoId,
      mercadoNome: vendido.mercadoNome,
      taxaCentesimos:
        vendido.mercadoId === null
          ? null
          : ja !== undefined && ja.mercadoId === vendido.mercadoId
            ? ja.taxaCentesimos
            : (vendido.taxaCentesimos ?? 0),
      // A basket line a subscription put in the order stays its line when the order is edited.
      assinaturaId: ja?.assinaturaId ?? null,
    };
  });
  return itens;
}

/**
 * The refusal to change an order the pickup has records of: they name its lines (a short, say),
 * so once the pickup has started the order is what was delivered, and a change goes through the
 * pickup or the ledger instead.
 */
function retiradaRegistrada(): Conflito {
  return new Conflito(
    'RETIRADA_REGISTRADA',
    'Este pedido já tem registros da retirada e não pode mais mudar: registre a diferença como falta na retirada ou como um ajuste no livro-caixa',
  );
}

/** Whether a written line is this item as it stands: same quantity, price, market, fee and subscription. */
function mesmaLinha(gravada: LinhaDoPedido, item: ReturnType<typeof precosDasLinhas>[number]): boolean {
  // NOTE: precosDasLinhas gives a line already in the order its price and subscription, and its
  // fee while it stays in the same market, so today only the quantity and the market can differ;
  // every written column is compared all the same, so that a rule that changes them later is
  // never silently left unwritten.
  return (
    gravada.quantidadeMilesimos === item.l.quantidadeMilesimos &&
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see the note above
    gravada.valorCentavos === item.valorCentavos &&
    gravada.mercadoId === item.mercadoId &&
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see the note above
    gravada.taxaCentesimos === item.taxaCentesimos &&
    // Stryker disable next-line ConditionalExpression,EqualityOperator: see the note above
    gravada.assinaturaId === item.assinaturaId
  );
}

/**
 * Makes the order's lines these, rewriting only what changed: the lines the save begins with
 * unchanged are kept, the rest deleted in one statement and written again in another, and a save
 * that changes no line writes none (each line written moves its basket's or extra's counter, a row
 * every order of that basket locks). `gravadas` null: the lines saved before are not known, and
 * all are replaced. Returns the lines as the loaders would read them.
 */
async function gravarLinhas(
  trx: Db,
  pedidoId: number,
  itens: ReturnType<typeof precosDasLinhas>,
  iso: string,
  gravadas: readonly LinhaDoPedido[] | null,
): Promise<ItemLido[]> {
  if (gravadas === null) {
    // An order created meanwhile by another writer: the pickup may not have records of it either.
    const registro = await trx
      .selectFrom('acaoretirada')
      .select('id')
      .where('pedidoid', '=', pedidoId)
      .limit(1)
      .executeTakeFirst();
    if (registro !== undefined) throw retiradaRegistrada();
  }
  // The lines stay in the order the save lists them (the loaders read them by id): a line is kept
  // only while every line before it in the save is kept too, in the order they were written.
  const porChave = new Map((gravadas ?? []).map((g) => [chaveDaLinha(g), g]));
  const idMantido = new Map<string, number>();
  let ultimo = 0;
  for (const item of itens) {
    const chave = chaveDaLinha(item.l);
    const gravada = porChave.get(chave);
    // Stryker disable next-line EqualityOperator: ids are unique, so no line has the id of the one kept before it
    if (gravada === undefined || !mesmaLinha(gravada, item) || gravada.id < ultimo) break;
    idMantido.set(chave, gravada.id);
    ultimo = gravada.id;
  }
  if (gravadas === null) await trx.deleteFrom('pedidoproduto').where('pedidoid', '=', pedidoId).execute();
  else {
    const apagar = gravadas.filter((g) => !idMantido.has(chaveDaLinha(g))).map((g) => g.id);
    // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
    if (apagar.length > 0) await trx.deleteFrom('pedidoproduto').where('id', 'in', apagar).execute();
  }
  const novos = itens.filter((item) => !idMantido.has(chaveDaLinha(item.l)));
  const escritos =
    novos.length === 0
      ? []
      : await trx
          .insertInto('pedidoproduto')
          .values(
            novos.map(({ l, valorCentavos, mercadoId, taxaCentesimos, assinaturaId }) => ({
              pedidoid: pedidoId,
              cicloCestaId: l.cicloCestaId,
              cicloProdutoId: l.cicloProdutoId,
              quantidadeMilesimos: l.quantidadeMilesimos,
              valorCentavos,
              mercadoId,
              taxaCentesimos,
              assinaturaId,
              createdAt: iso,
              updatedAt: iso,
            })),
          )
          .returning(['id', 'cicloCestaId', 'cicloProdutoId'])
          .execute();
  // NOTE: the saved order is built from what was just written instead of read back: every name
  // and price is already in hand. RETURNING promises no row order, so lines are matched by key
  // (unique in an order) and sorted by id, as the loaders sort them.
  const idPorChave = new Map([...idMantido, ...escritos.map((e): [string, number] => [chaveDaLinha(e), e.id])]);
  const lidos: ItemLido[] = itens.map(({ l, ...item }) => {
    const id = idPorChave.get(chaveDaLinha(l));
    // Stryker disable next-line ConditionalExpression: every line is kept or written and comes back; this only narrows the type
    if (id === undefined) throw new Error('linha do pedido gravada sem id');
    return {
      id,
      cicloCestaId: l.cicloCestaId,
      cicloProdutoId: l.cicloProdutoId,
      quantidadeMilesimos: l.quantidadeMilesimos,
      ...item,
    };
  });
  // Stryker disable next-line all: kept lines come first and are written in the order listed, so the ids already follow it but on PostgreSQL, whose RETURNING may reorder them
  lidos.sort((a, b) => a.id - b.id);
  return lidos;
}
