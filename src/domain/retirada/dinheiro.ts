/**
 * The money of a short at pickup ("the money follows what was delivered", docs/dominio.md, "A
 * retirada"): the consumer is credited the item's value and the fee on it, and the supplier who
 * would have been paid for it is debited that value. One function computes the amounts
 * (valoresDasFaltas) for the closing, the adjustment of a closed cycle, the coordination's view and
 * the tests, so they agree to the centavo; lancarFaltas writes them, once, by key.
 */
import type { Db } from '../../db/banco.ts';
import { MAXIMO_DA_COLUNA, formatarQuantidadeComUnidade, formatarReais, valorDaQuantidade } from '../../decimal.ts';
import type { Ator } from '../acesso.ts';
import { atribuirExtrasPorMercado, linhasOfertadas, type ChaveMercado } from '../alocacao.ts';
import { itensDasCestas } from '../conteudo-das-cestas.ts';
import { Conflito } from '../erros.ts';
import { lancarPorChave } from '../lancamentos.ts';
import { taxaDoPedido, type Taxa } from '../pedidos/taxa.ts';

/** The movement kind of what a short gives back and takes (seeded by the migration 20261202_1000). */
export const TIPO_FALTA = 'Falta na retirada';

export interface ValorDaFalta {
  readonly acaoId: number;
  readonly chave: string;
  readonly pedidoId: number;
  readonly consumidorId: number;
  /** The item short: the extra's product, or the basket's content item; its unit and the quantity short. */
  readonly produto: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  /** The item's value (the extra's price, or the composition's offer price) and the fee on it. */
  readonly valorCentavos: number;
  readonly taxaCentavos: number;
  /** credited to the consumer: the item's value plus its fee */
  readonly consumidorCentavos: number;
  /** debited to each supplier who would have been paid for it, at their own offer price */
  readonly fornecedores: ReadonlyArray<{ readonly usuarioid: number; readonly centavos: number }>;
}

/** One offer line that supplied an item, and how much of it is still there to take a short from. */
interface Fonte {
  readonly fornecedorId: number;
  readonly valorCentavos: number;
  restaMil: number;
}

/**
 * Takes `quantidade` from the sources in order, each for at most what is left of it; what no
 * source covers goes to the last one (the cap at recording keeps that from happening, but a
 * composition changed after a reopening must not lose the money). Returns each supplier's debit.
 */
function tirarDasFontes(fontes: readonly Fonte[], quantidade: number): Map<number, number> {
  const debitos = new Map<number, number>();
  let falta = quantidade;
  for (const f of fontes) {
    if (falta === 0) break;
    const parte = Math.min(falta, f.restaMil);
    if (parte === 0) continue;
    f.restaMil -= parte;
    falta -= parte;
    debitos.set(f.fornecedorId, (debitos.get(f.fornecedorId) ?? 0) + valorDaQuantidade(f.valorCentavos, parte));
  }
  const ultima = fontes.at(-1);
  if (falta > 0 && ultima !== undefined)
    debitos.set(
      ultima.fornecedorId,
      (debitos.get(ultima.fornecedorId) ?? 0) + valorDaQuantidade(ultima.valorCentavos, falta),
    );
  return debitos;
}

/**
 * The money of every short recorded in a cycle on a confirmed order (or of one product's shorts),
 * in the order they were recorded (a later short of the same item takes from what the earlier ones
 * left). Five statements at most, whatever the number of shorts.
 *
 * - An extra: its value is the line's price × the quantity; the fee is the line's market fee, or
 *   the community's percentage (TAXA_*) outside markets, on that value, rounded on its own. The
 *   suppliers are the offer lines of the product the allocation gave the confirmed extras to
 *   (alocacao.ts), taken from the last one back, each for at most what it delivered.
 * - A basket item: the composition rows of that product in that basket, the lowest id first, each
 *   for at most its quantity × the baskets on the line; the value is each row's offer price × what
 *   it gives, and its supplier is debited that. The fee is the basket line's, as for an extra.
 */
export async function valoresDasFaltas(
  db: Db,
  cicloid: number,
  taxa: Taxa,
  opcoes: { readonly produtoId?: number } = {},
): Promise<ValorDaFalta[]> {
  const { produtoId } = opcoes;
  const faltas = await db
    .selectFrom('acaoretirada as a')
    .innerJoin('pedido as p', 'p.id', 'a.pedidoid')
    .innerJoin('pedidoproduto as pp', 'pp.id', 'a.pedidoProdutoId')
    .leftJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
    .leftJoin('produto as extra', 'extra.id', 'cp.produtoId')
    .leftJoin('produto as item', 'item.id', 'a.produtoId')
    .select([
      'a.id',
      'a.chave',
      'a.pedidoid',
      'p.usuarioid',
      'a.pedidoProdutoId',
      'a.produtoId',
      'a.quantidadeMilesimos',
      'pp.cicloCestaId',
      'pp.quantidadeMilesimos as linhaMil',
      'pp.valorCentavos',
      'pp.mercadoId',
      'pp.taxaCentesimos',
      'cp.produtoId as extraProdutoId',
      'extra.nome as extraNome',
      'extra.unidade as extraUnidade',
      'item.nome as itemNome',
      'item.unidade as itemUnidade',
    ])
    .where('a.cicloid', '=', cicloid)
    .where('a.tipo', '=', 'falta')
    .where('p.finalizado', '=', true)
    // One product's shorts: their amounts depend only on the earlier shorts of that product.
    .$if(produtoId !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('a.produtoId', '=', produtoId ?? 0),
          eb.and([eb('a.produtoId', 'is', null), eb('cp.produtoId', '=', produtoId ?? 0)]),
        ]),
      ),
    )
    .orderBy('a.id')
    .execute();
  if (faltas.length === 0) return [];

  const produtosExtras = [
    ...new Set(faltas.flatMap((f) => (f.cicloCestaId === null && f.extraProdutoId !== null ? [f.extraProdutoId] : []))),
  ];
  const comCesta = faltas.some((f) => f.cicloCestaId !== null);
  const [conteudo, linhas, vendidos] = await Promise.all([
    comCesta ? itensDasCestas(db, { cicloid }, 'composicao') : Promise.resolve([]),
    produtosExtras.length === 0 ? Promise.resolve([]) : linhasOfertadas(db, cicloid, produtosExtras),
    produtosExtras.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('pedidoproduto as pp')
          .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
          .innerJoin('cicloproduto as cp', 'cp.id', 'pp.cicloProdutoId')
          .select(['cp.produtoId', 'pp.mercadoId'])
          .select((eb) => eb.fn.sum<number>('pp.quantidadeMilesimos').as('m'))
          .where('p.cicloid', '=', cicloid)
          .where('p.finalizado', '=', true)
          .where('cp.produtoId', 'in', produtosExtras)
          .groupBy(['cp.produtoId', 'pp.mercadoId'])
          .execute(),
  ]);

  // Extras: what the allocation gave each line of confirmed extras, the lines in its order.
  const vendido = new Map<number, Map<ChaveMercado, number>>();
  for (const v of vendidos) {
    const doProduto = vendido.get(v.produtoId) ?? new Map<ChaveMercado, number>();
    doProduto.set(v.mercadoId, (doProduto.get(v.mercadoId) ?? 0) + Number(v.m));
    vendido.set(v.produtoId, doProduto);
  }
  const porLinha = new Map(linhas.map((l) => [l.ofertaProdutoId, l]));
  const fontesDoExtra = new Map<number, Fonte[]>();
  // NOTE: the map of the attribution is filled line by line in the allocation's own order
  // (cheapest, earliest finalised, oldest), so its keys, product by product, are that order.
  for (const [ofertaProdutoId, porMercado] of atribuirExtrasPorMercado(linhas, vendido)) {
    const l = porLinha.get(ofertaProdutoId);
    const entregue = [...porMercado.values()].reduce((s, q) => s + q, 0);
    if (l === undefined || entregue === 0) continue;
    const fontes = fontesDoExtra.get(l.produtoId) ?? [];
    fontes.push({ fornecedorId: l.fornecedorId, valorCentavos: l.valorCentavos, restaMil: entregue });
    fontesDoExtra.set(l.produtoId, fontes);
  }
  // "From the last line back": the line the allocation filled last gives first.
  for (const fontes of fontesDoExtra.values()) fontes.reverse();

  // Basket items: the composition rows of each (basket line, product), the lowest id first, each
  // for its quantity × the baskets on that line.
  const fontesDaCesta = new Map<string, Fonte[]>();
  const fontesDoItem = (pedidoProdutoId: number, cicloCestaId: number, produtoId: number, linhaMil: number) => {
    const chave = `${pedidoProdutoId}:${produtoId}`;
    let fontes = fontesDaCesta.get(chave);
    if (fontes === undefined) {
      fontes = conteudo
        .filter((i) => i.cicloCestaId === cicloCestaId && i.produtoId === produtoId)
        .map((i) => ({
          fornecedorId: i.fornecedorId,
          valorCentavos: i.valorCentavos,
          restaMil: Math.round((i.quantidadePorCestaMilesimos * linhaMil) / 1000),
        }));
      fontesDaCesta.set(chave, fontes);
    }
    return fontes;
  };

  return faltas.map((f): ValorDaFalta => {
    const quantidade = f.quantidadeMilesimos ?? 0;
    const cesta = f.cicloCestaId !== null && f.produtoId !== null;
    let valor: number;
    let debitos: Map<number, number>;
    if (cesta) {
      const fontes = fontesDoItem(f.pedidoProdutoId ?? 0, f.cicloCestaId ?? 0, f.produtoId ?? 0, f.linhaMil);
      debitos = tirarDasFontes(fontes, quantidade);
      valor = [...debitos.values()].reduce((s, v) => s + v, 0);
    } else {
      valor = valorDaQuantidade(f.valorCentavos, quantidade);
      debitos = tirarDasFontes(fontesDoExtra.get(f.extraProdutoId ?? 0) ?? [], quantidade);
    }
    const percentual = f.mercadoId === null ? taxa.percentualCentesimos : (f.taxaCentesimos ?? 0);
    const fee = taxaDoPedido(valor, { percentualCentesimos: percentual, fixaCentavos: 0 });
    return {
      acaoId: f.id,
      chave: f.chave,
      pedidoId: f.pedidoid,
      consumidorId: f.usuarioid,
      produto: (cesta ? f.itemNome : f.extraNome) ?? '',
      unidade: (cesta ? f.itemUnidade : f.extraUnidade) ?? '',
      quantidadeMilesimos: quantidade,
      valorCentavos: valor,
      taxaCentavos: fee,
      consumidorCentavos: valor + fee,
      fornecedores: [...debitos]
        .filter(([, centavos]) => centavos > 0)
        .map(([usuarioid, centavos]) => ({ usuarioid, centavos })),
    };
  });
}

/** The movement keys of a short: the consumer's credit and each supplier's debit. */
export function chavesDaFalta(chave: string): { consumidor: string; fornecedor: (usuarioid: number) => string } {
  return {
    consumidor: `retirada:${chave}:consumidor`,
    fornecedor: (usuarioid) => `retirada:${chave}:fornecedor:${usuarioid}`,
  };
}

/** How a short's movements describe it: the pickup record, the item and the quantity. */
export function descricaoDaFalta(v: Pick<ValorDaFalta, 'acaoId' | 'produto' | 'unidade' | 'quantidadeMilesimos'>) {
  return `Falta na retirada (registro #${v.acaoId}): ${v.produto}, ${formatarQuantidadeComUnidade(v.quantidadeMilesimos, v.unidade)}`;
}

/**
 * Writes the movements of the cycle's shorts not yet written (idempotent by key); called by
 * fecharCiclo and by the sync when the cycle is closed (for the product just short: `produtoId`).
 * Returns how many movements were written. In the caller's transaction.
 */
export async function lancarFaltas(
  trx: Db,
  ator: Ator,
  cicloid: number,
  opcoes: { agora: Date; hoje: string; taxa: Taxa; produtoId?: number },
): Promise<number> {
  const valores = await valoresDasFaltas(
    trx,
    cicloid,
    opcoes.taxa,
    opcoes.produtoId === undefined ? {} : { produtoId: opcoes.produtoId },
  );
  if (valores.length === 0) return 0;
  const tipo = await trx.selectFrom('tipomovimentacao').select('id').where('nome', '=', TIPO_FALTA).executeTakeFirst();
  // Stryker disable next-line ConditionalExpression: the migration seeds the type; this guards a broken database
  if (tipo === undefined) throw new Error(`tipo de movimentação "${TIPO_FALTA}" não semeado`);
  const movimentos = valores.flatMap((v) => {
    const descricao = descricaoDaFalta(v);
    const chaves = chavesDaFalta(v.chave);
    return [
      {
        usuarioid: v.consumidorId,
        sentido: 'credito' as const,
        centavos: v.consumidorCentavos,
        chave: chaves.consumidor,
      },
      ...v.fornecedores.map((f) => ({
        usuarioid: f.usuarioid,
        sentido: 'debito' as const,
        centavos: f.centavos,
        chave: chaves.fornecedor(f.usuarioid),
      })),
    ]
      .filter((m) => m.centavos > 0)
      .map((m) => ({ ...m, descricao }));
  });
  const grande = movimentos.find((m) => m.centavos > MAXIMO_DA_COLUNA);
  if (grande !== undefined) {
    throw new Conflito(
      'VALOR_GRANDE_DEMAIS',
      `${grande.descricao} daria ${formatarReais(grande.centavos)}, acima do máximo de um lançamento (${formatarReais(MAXIMO_DA_COLUNA)})`,
    );
  }
  return lancarPorChave(
    trx,
    movimentos.map((m) => ({ ...m, tipo: tipo.id })),
    { cicloid, data: opcoes.hoje, criadoPor: ator.usuarioid, agora: opcoes.agora },
  );
}
