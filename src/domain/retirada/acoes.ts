/**
 * Applying the actions a pickup device recorded (docs/dominio.md, "A retirada"): a batch of at
 * most MAXIMO_DE_ACOES, each applied exactly once by the key the device gave it, in its own
 * transaction with its movements and its audit row.
 *
 * For each action, in order: the key already stored → `repetida` (nothing changes, whoever sends
 * it); then ownership (the order is a confirmed order of this cycle and point, the line is the
 * order's, the product is in that basket), before any other rule, with one answer for a foreign
 * and a nonexistent id (a short looks at the key again once it holds its order's lock, so the
 * same short sent twice at once is `repetida`, never a short beyond the order); then the action's
 * own rules; then it is stored (insert … on conflict do nothing: two sends at once store it once)
 * and its money goes to the ledger: a payment at once,
 * a short at once when the cycle is already closed (an adjustment), else at the closing.
 */
import { emTransacao, ehPostgres, type Banco, type Db } from '../../db/banco.ts';
import type { TipoDeAcaoDeRetirada } from '../../db/tipos.ts';
import {
  MAXIMO_DA_COLUNA,
  concordancia,
  formatarQuantidadeComUnidade,
  formatarReais,
  palavraDaUnidade,
} from '../../decimal.ts';
import { auditar } from '../auditoria.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { itensDasCestas } from '../conteudo-das-cestas.ts';
import { Conflito, recusarInvalidos } from '../erros.ts';
import type { Taxa } from '../pedidos/taxa.ts';
import { conferirTexto } from '../textos.ts';
import { diaLocal } from '../tempo.ts';
import { exigirTrabalhoNoPonto, type QuemTrabalha } from './acesso.ts';
import { lancarFaltas } from './dinheiro.ts';

/** At most this many actions in one sync: a device with more sends them in turns. */
export const MAXIMO_DE_ACOES = 100;
/** A key or a device id the device made: a UUID, or any 8 to 64 letters, digits and hyphens. */
export const IDENTIFICADOR = /^[A-Za-z0-9-]{8,64}$/;
export const TIPOS_DE_ACAO: readonly TipoDeAcaoDeRetirada[] = ['retirada', 'falta', 'pagamento', 'nota'];
export const FORMAS_DE_PAGAMENTO = ['dinheiro', 'pix'] as const;
export type FormaDePagamento = (typeof FORMAS_DE_PAGAMENTO)[number];
export const MAXIMO_SUBSTITUTO = 200;
export const MAXIMO_TEXTO = 500;
/** How far ahead of the server's clock a device's clock may be before its action is refused. */
const FUTURO_TOLERADO_MS = 24 * 60 * 60 * 1000;

/** The answers for ownership: the same for an id of someone else and an id that does not exist. */
export const RECUSA_DO_PEDIDO = 'Este pedido não é deste ponto de retirada neste ciclo';
export const RECUSA_DO_ITEM = 'Este item não é deste pedido';
export const RECUSA_DO_PRODUTO = 'Este produto não faz parte deste item do pedido';

/**
 * One action as the edge read it. Ids that are not ids arrive as 0, which no row has, so they are
 * refused like any foreign id. Amounts are integers (centavos, thousandths of the item's unit).
 */
export interface AcaoRecebida {
  readonly chave: string;
  readonly tipo: string;
  readonly pedidoId: number;
  readonly pedidoProdutoId: number | null;
  readonly produtoId: number | null;
  readonly quantidadeMilesimos: number | null;
  readonly substituto: string | null;
  readonly valorCentavos: number | null;
  readonly forma: string | null;
  readonly texto: string | null;
  readonly feitoEm: Date;
}

export interface LoteDeAcoes {
  readonly cicloid: number;
  readonly pontoEntregaId: number;
  readonly dispositivo: string;
  readonly acoes: readonly AcaoRecebida[];
}

export type EstadoDaAcao = 'aplicada' | 'repetida' | 'recusada';

export interface ResultadoDaAcao {
  readonly chave: string;
  readonly estado: EstadoDaAcao;
  /** Why it was refused (in Portuguese); null otherwise. */
  readonly mensagem: string | null;
}

export interface OpcoesDaSincronizacao {
  readonly agora: Date;
  readonly tz: string;
  readonly taxa: Taxa;
  /**
   * Awaited between two actions: the GraphQL edge lets other requests in there (a batch is many
   * transactions in a row, and on SQLite each statement holds the process).
   */
  readonly entreAcoes?: () => Promise<void>;
}

const ddmmaaaa = (dia: string): string => dia.split('-').reverse().join('/');

/**
 * Applies a device's batch for one point in one cycle and answers each action, in the batch's
 * order. Refused as a whole, with nothing applied: someone who does not work at the point
 * (FORBIDDEN, before anything else), a bad device id or more than MAXIMO_DE_ACOES actions, and a
 * cycle whose order window has not ended (PEDIDOS_ABERTOS): the device keeps its queue.
 */
export async function sincronizarRetirada(
  banco: Banco,
  quem: QuemTrabalha,
  lote: LoteDeAcoes,
  opcoes: OpcoesDaSincronizacao,
): Promise<ResultadoDaAcao[]> {
  const usuarioid = await exigirTrabalhoNoPonto(banco, quem, lote.cicloid, lote.pontoEntregaId);
  const erros: Record<string, string> = {};
  if (!IDENTIFICADOR.test(lote.dispositivo))
    erros.dispositivo = 'Identificador do aparelho inválido: use de 8 a 64 letras, dígitos e hífens';
  if (lote.acoes.length > MAXIMO_DE_ACOES)
    erros.acoes = `Envie no máximo ${MAXIMO_DE_ACOES} ações por vez (vieram ${lote.acoes.length}); o restante vai na próxima vez`;
  recusarInvalidos(erros);
  const ciclo = await cicloDasJanelas(banco, lote.cicloid);
  exigirPedidosEncerrados(ciclo, diaLocal(opcoes.agora, opcoes.tz));
  const ator = { ...quem.ator, usuarioid };
  const resultados: ResultadoDaAcao[] = [];
  for (const acao of lote.acoes) {
    if (opcoes.entreAcoes !== undefined) await opcoes.entreAcoes();
    resultados.push(await aplicarAcao(banco, ator, lote, acao, opcoes));
  }
  return resultados;
}

/** 409 PEDIDOS_ABERTOS until the cycle's order window has ended: orders may still change until then. */
export function exigirPedidosEncerrados(ciclo: { dataPedidoFim: string }, hoje: string): void {
  if (hoje <= ciclo.dataPedidoFim)
    throw new Conflito(
      'PEDIDOS_ABERTOS',
      `A retirada deste ciclo abre depois do fim dos pedidos (${ddmmaaaa(ciclo.dataPedidoFim)}): até lá os pedidos ainda podem mudar`,
    );
}

const recusada = (chave: string, mensagem: string): ResultadoDaAcao => ({ chave, estado: 'recusada', mensagem });

/** The order of the action, when it is a confirmed order of this cycle and point, with what the records say of it. */
async function pedidoDoPonto(trx: Db, lote: LoteDeAcoes, pedidoId: number, travar: boolean) {
  const q = trx
    .selectFrom('pedido as p')
    .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
    .select(['p.id', 'p.usuarioid', 'pe.nome as ponto'])
    .where('p.id', '=', pedidoId)
    .where('p.cicloid', '=', lote.cicloid)
    .where('p.pontoEntregaId', '=', lote.pontoEntregaId)
    .where('p.finalizado', '=', true);
  // NOTE: a short checks what was already recorded of its item: two shorts of one order take
  // turns (PostgreSQL; SQLite serialises every writer), so together they never pass the order.
  return (travar && ehPostgres(trx) ? q.forUpdate('p') : q).executeTakeFirst();
}

/** The item of a short: the order's line, and the product in it (the extra's own, or a basket's content item). */
interface ItemDaFalta {
  /** A basket's content item (else the extra of the line itself). */
  readonly cesta: boolean;
  readonly produtoId: number;
  readonly nome: string;
  readonly unidade: string;
  /** What was ordered of it: the extra's quantity, or the basket item's × the baskets on the line. */
  readonly pedidoMil: number;
}

/**
 * The item an action names, when the line is the order's and the product is in it; a message of
 * ownership otherwise. An extra's product may be omitted (or be the extra's own); a basket line
 * needs the content item.
 */
async function itemDoPedido(
  trx: Db,
  pedidoId: number,
  pedidoProdutoId: number,
  produtoId: number | null,
): Promise<ItemDaFalta | { readonly recusa: string }> {
  const linha = await trx
    .selectFrom('pedidoproduto as pp')
    .leftJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
    .leftJoin('produto as pr', 'pr.id', 'cp.produtoId')
    .select(['pp.cicloCestaId', 'pp.quantidadeMilesimos', 'cp.produtoId', 'pr.nome', 'pr.unidade'])
    .where('pp.id', '=', pedidoProdutoId)
    .where('pp.pedidoid', '=', pedidoId)
    .executeTakeFirst();
  if (linha === undefined) return { recusa: RECUSA_DO_ITEM };
  if (linha.cicloCestaId === null) {
    if (produtoId !== null && produtoId !== linha.produtoId) return { recusa: RECUSA_DO_PRODUTO };
    return {
      cesta: false,
      produtoId: linha.produtoId ?? 0,
      nome: linha.nome ?? '',
      unidade: linha.unidade ?? '',
      pedidoMil: linha.quantidadeMilesimos,
    };
  }
  if (produtoId === null) return { recusa: 'Diga qual produto da cesta faltou' };
  const itens = (await itensDasCestas(trx, { cicloCestaId: linha.cicloCestaId })).filter(
    (i) => i.produtoId === produtoId,
  );
  const primeiro = itens[0];
  if (primeiro === undefined) return { recusa: RECUSA_DO_PRODUTO };
  return {
    cesta: true,
    produtoId,
    nome: primeiro.produto,
    unidade: primeiro.unidade,
    // The same figure as the money of a short (dinheiro.ts): each composition row × the baskets.
    pedidoMil: itens.reduce(
      (s, i) => s + Math.round((i.quantidadePorCestaMilesimos * linha.quantidadeMilesimos) / 1000),
      0,
    ),
  };
}

/** What is wrong with a text field, in the field's words; null when it is fine. */
function problemaDoTexto(
  nome: string,
  valor: string | null,
  max: number,
  obrigatorio: boolean,
): { texto: string | null; problema: string | null } {
  if (valor === null || valor.trim() === '') return { texto: null, problema: obrigatorio ? `Escreva ${nome}` : null };
  const r = conferirTexto(valor, { max });
  return { texto: r.texto, problema: r.problema === null ? null : `${nome}: ${r.problema.toLowerCase()}` };
}

/** The fields an action stores, once its rules passed. */
interface Campos {
  readonly pedidoProdutoId: number | null;
  readonly produtoId: number | null;
  readonly quantidadeMilesimos: number | null;
  readonly substituto: string | null;
  readonly valorCentavos: number | null;
  readonly forma: FormaDePagamento | null;
  readonly texto: string | null;
}

/** The action's own rules, after ownership: what it stores, or why it is refused. */
function regrasDaAcao(
  acao: AcaoRecebida,
  tipo: TipoDeAcaoDeRetirada,
  item: ItemDaFalta | null,
): Campos | { readonly recusa: string } {
  const texto = problemaDoTexto('a observação', acao.texto, MAXIMO_TEXTO, tipo === 'nota');
  if (texto.problema !== null) return { recusa: texto.problema.charAt(0).toUpperCase() + texto.problema.slice(1) };
  const vazio: Campos = {
    pedidoProdutoId: null,
    produtoId: null,
    quantidadeMilesimos: null,
    substituto: null,
    valorCentavos: null,
    forma: null,
    texto: texto.texto,
  };
  if (tipo === 'retirada' || tipo === 'nota') return vazio;
  if (tipo === 'pagamento') {
    const forma = FORMAS_DE_PAGAMENTO.find((f) => f === acao.forma);
    if (forma === undefined) return { recusa: 'Diga como foi pago: dinheiro ou pix' };
    const valor = acao.valorCentavos;
    if (valor === null || !Number.isInteger(valor) || valor <= 0)
      return { recusa: 'Informe o valor recebido, maior que zero' };
    if (valor > MAXIMO_DA_COLUNA)
      return { recusa: `O valor recebido passa do máximo de um lançamento (${formatarReais(MAXIMO_DA_COLUNA)})` };
    return { ...vazio, valorCentavos: valor, forma };
  }
  // falta
  if (acao.pedidoProdutoId === null || item === null) return { recusa: 'Diga qual item do pedido faltou' };
  const quantidade = acao.quantidadeMilesimos;
  if (quantidade === null || !Number.isInteger(quantidade) || quantidade <= 0)
    return { recusa: `Informe quanto faltou, maior que zero, em ${palavraDaUnidade(2000, item.unidade)}` };
  const substituto = problemaDoTexto('o que foi dado no lugar', acao.substituto, MAXIMO_SUBSTITUTO, false);
  if (substituto.problema !== null)
    return { recusa: substituto.problema.charAt(0).toUpperCase() + substituto.problema.slice(1) };
  return {
    ...vazio,
    pedidoProdutoId: acao.pedidoProdutoId,
    // An extra's short names the line alone (its product is the line's).
    produtoId: item.cesta ? acao.produtoId : null,
    quantidadeMilesimos: quantidade,
    substituto: substituto.texto,
  };
}

/** One action, in its own transaction: see the module's comment for the order of the checks. */
async function aplicarAcao(
  banco: Banco,
  ator: QuemTrabalha['ator'] & { usuarioid: number },
  lote: LoteDeAcoes,
  acao: AcaoRecebida,
  opcoes: OpcoesDaSincronizacao,
): Promise<ResultadoDaAcao> {
  const chave = acao.chave;
  if (!IDENTIFICADOR.test(chave))
    return recusada(chave, 'Identificador da ação inválido: use de 8 a 64 letras, dígitos e hífens');
  return emTransacao(banco, async (trx) => {
    // Beside orders and other actions, never across a closing (janelas.ts): a short either is
    // seen by the closing or sees the cycle closed, and then writes its adjustment itself.
    const ciclo = await cicloDasJanelas(trx, lote.cicloid, 'pedido');
    const gravadaAntes = () =>
      trx.selectFrom('acaoretirada').select('id').where('chave', '=', chave).executeTakeFirst();
    if ((await gravadaAntes()) !== undefined) return { chave, estado: 'repetida', mensagem: null };

    // Ownership first: the order, then the line and the product it names.
    const falta = acao.tipo === 'falta';
    const pedido = await pedidoDoPonto(trx, lote, acao.pedidoId, falta);
    if (pedido === undefined) return recusada(chave, RECUSA_DO_PEDIDO);
    // A short waited for its order's lock (PostgreSQL): the same short, sent again at once, may
    // have been stored meanwhile, and it would now count against itself ("já faltou").
    if (falta && ehPostgres(trx) && (await gravadaAntes()) !== undefined)
      return { chave, estado: 'repetida', mensagem: null };
    let item: ItemDaFalta | null = null;
    if (acao.pedidoProdutoId !== null) {
      const r = await itemDoPedido(trx, pedido.id, acao.pedidoProdutoId, acao.produtoId);
      if ('recusa' in r) return recusada(chave, r.recusa);
      item = r;
    } else if (acao.produtoId !== null) return recusada(chave, RECUSA_DO_PRODUTO);

    const tipo = TIPOS_DE_ACAO.find((t) => t === acao.tipo);
    if (tipo === undefined) return recusada(chave, 'Tipo de ação desconhecido: use retirada, falta, pagamento ou nota');
    const feitoDia = diaLocal(acao.feitoEm, opcoes.tz);
    if (feitoDia <= ciclo.dataPedidoFim)
      return recusada(
        chave,
        `A ação tem a data de ${ddmmaaaa(feitoDia)}, antes do fim dos pedidos (${ddmmaaaa(ciclo.dataPedidoFim)}): confira o relógio do aparelho`,
      );
    if (acao.feitoEm.getTime() > opcoes.agora.getTime() + FUTURO_TOLERADO_MS)
      return recusada(chave, `A ação tem a data de ${ddmmaaaa(feitoDia)}, no futuro: confira o relógio do aparelho`);
    const campos = regrasDaAcao(acao, tipo, item);
    if ('recusa' in campos) return recusada(chave, campos.recusa);
    if (tipo === 'falta' && item !== null) {
      const jaFaltou = await trx
        .selectFrom('acaoretirada')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quantidadeMilesimos'), eb.lit(0)).as('s'))
        .where('tipo', '=', 'falta')
        .where('pedidoProdutoId', '=', campos.pedidoProdutoId)
        .$if(campos.produtoId === null, (q) => q.where('produtoId', 'is', null))
        .$if(campos.produtoId !== null, (q) => q.where('produtoId', '=', campos.produtoId))
        .executeTakeFirstOrThrow();
      const antes = Number(jaFaltou.s);
      const quantidade = campos.quantidadeMilesimos ?? 0;
      if (antes + quantidade > item.pedidoMil) {
        const q = (m: number) => formatarQuantidadeComUnidade(m, item.unidade);
        return recusada(
          chave,
          `A falta passaria do que foi pedido: ${q(item.pedidoMil)} de ${item.nome}${antes > 0 ? `; já ${concordancia(antes, 'faltou', 'faltaram')} ${q(antes)}, e` : ';'} esta falta é de ${q(quantidade)}`,
        );
      }
    }

    const recebidoEm = opcoes.agora.toISOString();
    const feitoEm = acao.feitoEm.toISOString();
    const gravada = await trx
      .insertInto('acaoretirada')
      .values({
        chave,
        dispositivo: lote.dispositivo,
        usuarioid: ator.usuarioid,
        cicloid: lote.cicloid,
        pontoEntregaId: lote.pontoEntregaId,
        pedidoid: pedido.id,
        tipo,
        ...campos,
        feitoEm,
        recebidoEm,
      })
      .onConflict((oc) => oc.column('chave').doNothing())
      .returning('id')
      .executeTakeFirst();
    // Sent twice at once: the other send stored it first, and this one changes nothing.
    if (gravada === undefined) return { chave, estado: 'repetida', mensagem: null };

    if (tipo === 'pagamento') {
      const tipoMov = await trx
        .selectFrom('tipomovimentacao')
        .select('id')
        .where('nome', '=', 'Pagamento recebido')
        .executeTakeFirst();
      // Stryker disable next-line ConditionalExpression: the migrations seed the type; this guards a broken database
      if (tipoMov === undefined) throw new Error('tipo de movimentação "Pagamento recebido" não semeado');
      const forma = campos.forma === 'pix' ? 'Pix' : 'dinheiro';
      await trx
        .insertInto('movimentacao')
        .values({
          usuarioid: pedido.usuarioid,
          tipoMovimentacaoId: tipoMov.id,
          sentido: 'credito',
          valorCentavos: campos.valorCentavos ?? 0,
          data: feitoDia,
          descricao: `Pagamento na retirada (${forma}), registro #${gravada.id}, ${pedido.ponto}`,
          arquivo: null,
          cicloid: lote.cicloid,
          chave: `retirada:${chave}`,
          criadoPor: ator.usuarioid,
          createdAt: recebidoEm,
          updatedAt: recebidoEm,
        })
        .execute();
    }
    // A closed cycle: the short's money goes now, as an adjustment (the closing already ran).
    if (tipo === 'falta' && ciclo.fechadoEm !== null && item !== null)
      await lancarFaltas(trx, ator, lote.cicloid, {
        agora: opcoes.agora,
        hoje: diaLocal(opcoes.agora, opcoes.tz),
        taxa: opcoes.taxa,
        produtoId: item.produtoId,
      });
    await auditar(trx, ator, acao.feitoEm, {
      acao: `retirada: ${tipo}`,
      entidade: 'pedido',
      entidadeId: pedido.id,
      depois: {
        id: gravada.id,
        chave,
        dispositivo: lote.dispositivo,
        recebidoEm,
        feitoEm,
        cicloid: lote.cicloid,
        pontoEntregaId: lote.pontoEntregaId,
        ...campos,
      },
    });
    return { chave, estado: 'aplicada', mensagem: null };
  });
}
