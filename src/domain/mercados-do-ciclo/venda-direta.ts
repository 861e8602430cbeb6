/**
 * venda_direta markets in a cycle: items released from the cycle's surplus to a market, at the
 * market's active price. A released item is a cycle extra with `cicloproduto.mercadoId`, so the
 * order page, the reservations and the closing treat it as any extra. The write holds the cycle
 * and ends with the one capacity rule (alocacao.ts).
 */
import { emTransacao, travar, type Banco, type Db } from '../../db/banco.ts';
import { formatarQuantidadeComUnidade } from '../../decimal.ts';
import type { Ator } from '../acesso.ts';
import { conferirCapacidade, extrasPublicados, linhasOfertadas, sobraDaLinha } from '../alocacao.ts';
import { auditar } from '../auditoria.ts';
import { cicloDasJanelas, exigirAberto } from '../ciclos/janelas.ts';
import { Conflito } from '../erros.ts';
import { exigirGestor, invalido, mercadoDoCiclo, type MercadoDoCiclo } from './comum.ts';

export interface ItemLiberado {
  readonly cicloProdutoId: number;
  readonly produtoId: number;
  readonly produto: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly pedidoMilesimos: number;
}

/** What a venda_direta market of a cycle sells, and what is left of each product to release. */
export interface LiberacaoDoMercado {
  readonly mercado: MercadoDoCiclo;
  readonly itens: readonly ItemLiberado[];
  /** Per product with surplus or a release: the market's active price (null: none) and the room left. */
  readonly produtos: ReadonlyArray<{
    readonly produtoId: number;
    readonly nome: string;
    readonly unidade: string;
    readonly precoCentavos: number | null;
    readonly sobraMilesimos: number;
    readonly liberadoMilesimos: number;
  }>;
}

export async function liberacaoDoMercado(db: Db, cicloid: number, mercadoId: number): Promise<LiberacaoDoMercado> {
  const mercado = await mercadoDoCiclo(db, cicloid, mercadoId, 'itens');
  const [linhas, extras, precos, itens] = await Promise.all([
    linhasOfertadas(db, cicloid),
    extrasPublicados(db, cicloid),
    db
      .selectFrom('precomercado')
      .select(['produtoId', 'precoCentavos'])
      .where('mercadoId', '=', mercadoId)
      .where('ativo', '=', true)
      .execute(),
    db
      .selectFrom('cicloproduto as cp')
      .innerJoin('produto as p', 'p.id', 'cp.produtoId')
      .select([
        'cp.id as cicloProdutoId',
        'cp.produtoId',
        'p.nome as produto',
        'p.unidade',
        'cp.quantidadeMilesimos',
        'cp.valorCentavos',
        'cp.reservadoMilesimos as pedidoMilesimos',
      ])
      .where('cp.cicloid', '=', cicloid)
      .where('cp.mercadoId', '=', mercadoId)
      .orderBy('p.nome')
      .execute(),
  ]);
  const preco = new Map(precos.map((p) => [p.produtoId, p.precoCentavos]));
  const produtos = new Map<
    number,
    {
      produtoId: number;
      nome: string;
      unidade: string;
      precoCentavos: number | null;
      sobraMilesimos: number;
      liberadoMilesimos: number;
    }
  >();
  for (const l of linhas) {
    const p = produtos.get(l.produtoId) ?? {
      produtoId: l.produtoId,
      nome: l.produto,
      unidade: l.unidade,
      precoCentavos: preco.get(l.produtoId) ?? null,
      sobraMilesimos: 0,
      liberadoMilesimos: 0,
    };
    p.sobraMilesimos += sobraDaLinha(l);
    produtos.set(l.produtoId, p);
  }
  // The room left for this market: the surplus minus every other extra of the product.
  for (const e of extras) {
    const p = produtos.get(e.produtoId);
    if (p === undefined) continue;
    if (e.mercadoId === mercadoId) p.liberadoMilesimos += e.publicadoMil;
    else p.sobraMilesimos -= e.publicadoMil;
  }
  return {
    mercado,
    itens: itens.map((i) => ({ ...i, pedidoMilesimos: Number(i.pedidoMilesimos) })),
    produtos: [...produtos.values()]
      .map((p) => ({ ...p, sobraMilesimos: Math.max(0, p.sobraMilesimos) }))
      .sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR')),
  };
}

export interface LiberacaoLida {
  readonly produtoId: number;
  readonly quantidadeMilesimos: number;
  readonly campo: string;
}

/**
 * Sets what a venda_direta market sells of the cycle's surplus: the whole list (a product left
 * out is withdrawn, unless it was ordered). Each item is priced at the market's active price for
 * the product (none: refused), capped by the surplus (409), never below what was ordered (409).
 */
export async function liberarParaMercado(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  mercadoId: number,
  itens: readonly LiberacaoLida[],
  agora: Date,
): Promise<LiberacaoDoMercado> {
  exigirGestor(ator);
  const repetidos: Record<string, string> = {};
  const vistos = new Set<number>();
  for (const i of itens) {
    if (vistos.has(i.produtoId)) repetidos[`${i.campo}.produtoId`] = 'Produto repetido';
    vistos.add(i.produtoId);
  }
  if (Object.keys(repetidos).length > 0) throw invalido(repetidos);
  return emTransacao(banco, async (trx) => {
    await travar(trx, 'ciclo', [cicloid]);
    exigirAberto(await cicloDasJanelas(trx, cicloid));
    const antes = await liberacaoDoMercado(trx, cicloid, mercadoId);
    const erros: Record<string, string> = {};
    // A product is sold once per cycle: as a classic extra or released to one market (decisions.md).
    const noutroLugar = await trx
      .selectFrom('cicloproduto as cp')
      .leftJoin('mercado as m', 'm.id', 'cp.mercadoId')
      .select(['cp.produtoId', 'm.nome'])
      .where('cp.cicloid', '=', cicloid)
      .where((eb) => eb.or([eb('cp.mercadoId', 'is', null), eb('cp.mercadoId', '!=', mercadoId)]))
      .execute();
    const jaNoCiclo: Record<string, string> = {};
    for (const i of itens) {
      const p = antes.produtos.find((x) => x.produtoId === i.produtoId);
      const outro = noutroLugar.find((x) => x.produtoId === i.produtoId);
      if (outro === undefined) continue;
      jaNoCiclo[`${i.campo}.produtoId`] =
        outro.nome === null
          ? `${p?.nome ?? 'Este produto'} já é extra do ciclo: um produto é vendido uma vez por ciclo, como extra ou num mercado`
          : `${p?.nome ?? 'Este produto'} já está liberado para ${outro.nome}: um produto é vendido uma vez por ciclo`;
    }
    if (Object.keys(jaNoCiclo).length > 0)
      throw new Conflito('PRODUTO_JA_NO_CICLO', 'Verifique os campos destacados', jaNoCiclo);
    for (const i of itens) {
      const p = antes.produtos.find((x) => x.produtoId === i.produtoId);
      if (p === undefined) erros[`${i.campo}.produtoId`] = 'Nenhuma oferta finalizada deste produto no ciclo';
      else if (p.precoCentavos === null)
        erros[`${i.campo}.produtoId`] =
          `${p.nome} não tem preço ativo em ${antes.mercado.nome}: defina o preço do mercado antes de liberar`;
    }
    if (Object.keys(erros).length > 0) throw invalido(erros);
    const iso = agora.toISOString();
    for (const i of itens) {
      const preco = antes.produtos.find((x) => x.produtoId === i.produtoId)?.precoCentavos ?? 0;
      const atual = antes.itens.find((x) => x.produtoId === i.produtoId);
      if (atual === undefined) {
        await trx
          .insertInto('cicloproduto')
          .values({
            cicloid,
            produtoId: i.produtoId,
            mercadoId,
            quantidadeMilesimos: i.quantidadeMilesimos,
            valorCentavos: preco,
            createdAt: iso,
            updatedAt: iso,
          })
          .execute();
        continue;
      }
      if (i.quantidadeMilesimos < atual.pedidoMilesimos) {
        throw new Conflito(
          'QUANTIDADE_ABAIXO_DO_USO',
          `${atual.produto} já tem ${formatarQuantidadeComUnidade(atual.pedidoMilesimos, atual.unidade)} pedidos em ${antes.mercado.nome}: a quantidade não pode ficar abaixo disso`,
          { cicloProdutoId: atual.cicloProdutoId },
        );
      }
      await trx
        .updateTable('cicloproduto')
        .set({ quantidadeMilesimos: i.quantidadeMilesimos, valorCentavos: preco, updatedAt: iso })
        .where('id', '=', atual.cicloProdutoId)
        .execute();
    }
    for (const atual of antes.itens.filter((x) => !itens.some((i) => i.produtoId === x.produtoId))) {
      if (atual.pedidoMilesimos > 0)
        throw new Conflito('EXTRA_EM_USO', `${atual.produto} não pode sair de ${antes.mercado.nome}: já foi pedido`, {
          cicloProdutoId: atual.cicloProdutoId,
        });
      await trx.deleteFrom('cicloproduto').where('id', '=', atual.cicloProdutoId).execute();
    }
    conferirCapacidade(await linhasOfertadas(trx, cicloid), await extrasPublicados(trx, cicloid));
    const depois = await liberacaoDoMercado(trx, cicloid, mercadoId);
    await auditar(trx, ator, agora, {
      acao: 'liberar para venda direta',
      entidade: 'ciclo',
      entidadeId: cicloid,
      antes: antes.itens,
      depois: depois.itens,
    });
    return depois;
  });
}
