import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import type { Ator } from './acesso.ts';
import { conferirTetos } from './mercados-do-ciclo/cesta.ts';
import { conferirCapacidade, extrasPublicados, linhasOfertadas, sobraDaLinha, type LinhaOfertada } from './alocacao.ts';
import { auditar } from './auditoria.ts';
import { cicloDasJanelas, exigirAberto } from './ciclos/janelas.ts';
import { valorDaQuantidade } from '../decimal.ts';
import { Conflito, Invalido, NaoEncontrado } from './erros.ts';
import { itensDasCestas, quantidadesDasCestas } from './conteudo-das-cestas.ts';
import { reservadoDaLinha, reservadoDaLinhaHoje } from './reservas.ts';

/** Units a composition may use for a product of each unit, as a factor to the product's unit. */
const CONVERSOES: Readonly<Record<string, Readonly<Record<string, readonly [number, number]>>>> = {
  kg: { kg: [1, 1], g: [1, 1000] },
  litro: { litro: [1, 1], ml: [1, 1000] },
  dúzia: { dúzia: [1, 1], unidade: [1, 12] },
  unidade: { unidade: [1, 1], dúzia: [12, 1] },
  maço: { maço: [1, 1] },
};

/** Converts thousandths in `de` into thousandths of the product's unit, exactly, or explains why not. */
export function converter(
  milesimos: number,
  de: string,
  para: string,
): { ok: true; valor: number } | { ok: false; motivo: string } {
  const fator = CONVERSOES[para]?.[de];
  if (fator === undefined) {
    const daUnidade = CONVERSOES[para];
    const aceitas = daUnidade === undefined ? para : Object.keys(daUnidade).join(' ou ');
    return { ok: false, motivo: `Unidade incompatível com o produto: use ${aceitas}` };
  }
  const [mult, div] = fator;
  const bruto = milesimos * mult;
  if (bruto % div !== 0) return { ok: false, motivo: `Esta quantidade não converte exatamente para ${para}` };
  return { ok: true, valor: bruto / div };
}

/**
 * The way back, for display: thousandths of the product's unit in the unit the coordinator chose
 * (500 milésimos of a dúzia are 6000 of unidade). The product's unit when there is no exact way.
 */
export function naUnidadeEscolhida(
  milesimos: number,
  unidadeDoProduto: string,
  escolhida: string,
): { milesimos: number; unidade: string } {
  const fator = CONVERSOES[unidadeDoProduto]?.[escolhida];
  if (fator === undefined) return { milesimos, unidade: unidadeDoProduto };
  const [mult, div] = fator;
  const bruto = milesimos * div;
  return bruto % mult === 0
    ? { milesimos: bruto / mult, unidade: escolhida }
    : { milesimos, unidade: unidadeDoProduto };
}

export interface CicloCestaInfo {
  readonly id: number;
  readonly cicloid: number;
  readonly cicloNome: string;
  readonly cestaId: number;
  readonly nome: string;
  readonly quantidadeCestas: number;
  readonly valorReferenciaCentavos: number;
  readonly cestasPedidas: number;
}

/**
 * The cycle basket, with the baskets its saved orders hold: every saved order's, or only the
 * confirmed ones' once the order window has closed by `hoje` (see reservadoDaLinhaHoje); without
 * `hoje`, every saved order's.
 */
async function cicloCesta(db: Db, id: number, hoje: string | null = null): Promise<CicloCestaInfo> {
  const l = await db
    .selectFrom('ciclocesta as cc')
    .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
    .innerJoin('ciclo', 'ciclo.id', 'cc.cicloid')
    .select([
      'cc.id',
      'cc.cicloid',
      'ciclo.nome as cicloNome',
      'cc.cestaId',
      'cesta.nome',
      'cc.quantidadeCestas',
      'cesta.valorReferenciaCentavos',
    ])
    .select(
      hoje === null
        ? reservadoDaLinha('ciclocesta', 'cc', false).as('pedidoMil')
        : reservadoDaLinhaHoje('ciclocesta', 'cc', hoje).as('pedidoMil'),
    )
    .where('cc.id', '=', id)
    .executeTakeFirst();
  if (l === undefined) throw new NaoEncontrado('CICLOCESTA_NAO_ENCONTRADA', `Não encontramos a cesta do ciclo ${id}`);
  return { ...l, cestasPedidas: Math.ceil(Number(l.pedidoMil ?? 0) / 1000) };
}

export interface PaginaComposicao {
  readonly cicloCesta: {
    id: number;
    cicloid: number;
    cicloNome: string;
    cestaId: number;
    nome: string;
    quantidadeCestas: number;
    cestasPedidas: number;
  };
  readonly composicao: {
    quantidadeCestas: number;
    produtos: Array<{
      ofertaProdutoId: number;
      produtoId: number;
      produto: string;
      fornecedor: string;
      quantidadePorCestaMilesimos: number;
      unidade: string;
      /** The unit the coordinator composed in (for display), and the quantity in it. */
      unidadeEscolhida: string;
      quantidadeNaUnidadeEscolhida: number;
      valorCentavos: number;
      custoCentavos: number;
    }>;
  };
  readonly ofertas: Array<{
    ofertaProdutoId: number;
    produtoId: number;
    produto: string;
    unidade: string;
    fornecedor: { id: number; nome: string };
    valorCentavos: number;
    ofertadaMilesimos: number;
    alocadaMilesimos: number;
    disponivelMilesimos: number;
  }>;
  readonly extras: Array<{ produtoId: number; produto: string; unidade: string; quantidadeMilesimos: number }>;
  readonly fornecedores: Array<{ id: number; nome: string; valorAcumuladoCentavos: number }>;
  readonly custoPorCestaCentavos: number;
  readonly valorReferenciaCentavos: number;
}

/**
 * Everything the composition page shows, computed on the server (the page updates it live). With
 * `hoje`, the baskets ordered are those that hold stock today (only confirmed orders once the
 * order window has closed); without it, every saved order's.
 */
export async function paginaDaComposicao(
  db: Db,
  cicloCestaId: number,
  hoje: string | null = null,
): Promise<PaginaComposicao> {
  const cc = await cicloCesta(db, cicloCestaId, hoje);
  const linhas = await linhasOfertadas(db, cc.cicloid);
  const composicao = await db
    .selectFrom('composicao')
    .select(['id', 'quantidadeCestas'])
    .where('cicloCestaId', '=', cicloCestaId)
    .executeTakeFirst();
  // Stryker disable next-line ArrayDeclaration,ConditionalExpression: a bogus item matches no offer line and is left out; without a composition, reading its items finds none either
  const itens = composicao === undefined ? [] : await itensDasCestas(db, { cicloCestaId });
  const todasAsComposicoes = await quantidadesDasCestas(db, cc.cicloid);
  const porLinha = new Map(linhas.map((l) => [l.ofertaProdutoId, l]));
  const acumulado = new Map<number, { id: number; nome: string; centavos: number }>();
  for (const l of linhas) acumulado.set(l.fornecedorId, { id: l.fornecedorId, nome: l.fornecedor, centavos: 0 });
  for (const c of todasAsComposicoes) {
    const l = porLinha.get(c.ofertaProdutoId);
    // Stryker disable next-line all: every composed line is one of the cycle's offer lines (linhasOfertadas keeps drafts in use), of a supplier listed above
    const f = l === undefined ? undefined : acumulado.get(l.fornecedorId);
    // Stryker disable next-line all: see above
    if (l !== undefined && f !== undefined)
      f.centavos += valorDaQuantidade(l.valorCentavos, c.quantidadePorCestaMilesimos * c.quantidadeCestas);
  }
  const produtos = itens.flatMap((i) => {
    const l = porLinha.get(i.ofertaProdutoId);
    // Stryker disable next-line all: every composed line is one of the cycle's offer lines; this only narrows the type
    if (l === undefined) return [];
    const escolhida = naUnidadeEscolhida(i.quantidadePorCestaMilesimos, l.unidade, i.unidadeEscolhida);
    return [
      {
        ofertaProdutoId: i.ofertaProdutoId,
        produtoId: l.produtoId,
        produto: l.produto,
        fornecedor: l.fornecedor,
        quantidadePorCestaMilesimos: i.quantidadePorCestaMilesimos,
        unidade: l.unidade,
        unidadeEscolhida: escolhida.unidade,
        quantidadeNaUnidadeEscolhida: escolhida.milesimos,
        valorCentavos: l.valorCentavos,
        custoCentavos: valorDaQuantidade(l.valorCentavos, i.quantidadePorCestaMilesimos),
      },
    ];
  });
  const extras = await extrasPublicados(db, cc.cicloid);
  return {
    cicloCesta: {
      id: cc.id,
      cicloid: cc.cicloid,
      cicloNome: cc.cicloNome,
      cestaId: cc.cestaId,
      nome: cc.nome,
      quantidadeCestas: cc.quantidadeCestas,
      cestasPedidas: cc.cestasPedidas,
    },
    composicao: { quantidadeCestas: composicao?.quantidadeCestas ?? 0, produtos },
    ofertas: linhas.map((l) => ({
      ofertaProdutoId: l.ofertaProdutoId,
      produtoId: l.produtoId,
      produto: l.produto,
      unidade: l.unidade,
      fornecedor: { id: l.fornecedorId, nome: l.fornecedor },
      valorCentavos: l.valorCentavos,
      ofertadaMilesimos: l.ofertadoMil,
      alocadaMilesimos: l.paraCestasMil,
      disponivelMilesimos: sobraDaLinha(l),
    })),
    extras: extras.map((e) => ({
      produtoId: e.produtoId,
      produto: e.produto,
      unidade: e.unidade,
      quantidadeMilesimos: e.publicadoMil,
    })),
    fornecedores: [...acumulado.values()].map((f) => ({ id: f.id, nome: f.nome, valorAcumuladoCentavos: f.centavos })),
    custoPorCestaCentavos: produtos.reduce((s, p) => s + p.custoCentavos, 0),
    valorReferenciaCentavos: cc.valorReferenciaCentavos,
  };
}

/** One offer line in a basket, in thousandths of the unit the coordinator chose. */
export interface ItemDaComposicao {
  readonly ofertaProdutoId: number;
  readonly quantidadeMilesimos: number;
  readonly unidade: string;
  /** Where a refusal of this item is reported (the edge names it). */
  readonly campo: string;
}

/** A basket lists each offer line once: the items that repeat one, by field. */
export function regrasDosItens(itens: readonly ItemDaComposicao[]): Record<string, string> {
  const repetidos = itens.filter((item, i) => itens.findIndex((o) => o.ofertaProdutoId === item.ofertaProdutoId) < i);
  return Object.fromEntries(repetidos.map((r) => [`${r.campo}.ofertaProdutoId`, 'Item repetido na composição']));
}

/** A composition as the edge reads it. */
export interface EntradaComposicao {
  readonly cicloCestaId: number;
  readonly quantidadeCestas: number;
  readonly itens: readonly ItemDaComposicao[];
}

/**
 * Saves the composition of one cycle basket (the Composicao shape). Idempotent: the same body
 * twice leaves the same state. The capacity rule is checked in the same transaction. Its
 * quantidadeCestas is what orders may take (DOMAIN.md, "Order"): it never drops below the baskets
 * saved orders hold (409), counted as salvarPedido counts them, under the cycle's lock that
 * every order shares. Without `hoje`, every saved order counts.
 */
export async function salvarComposicao(
  banco: Banco,
  ator: Ator,
  entrada: EntradaComposicao,
  agora: Date,
  hoje: string | null = null,
): Promise<PaginaComposicao> {
  const { cicloCestaId: id, quantidadeCestas, itens } = entrada;
  const erros = regrasDosItens(itens);
  if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
  return emTransacao(banco, async (trx) => {
    // The cycle first (open, and held until commit), then the basket read under its lock: an
    // edit of the cycle that commits meanwhile (its quantity of this basket) is seen.
    exigirAberto(await cicloDasJanelas(trx, (await cicloCesta(trx, id)).cicloid, 'escrita'));
    const cc = await cicloCesta(trx, id, hoje);
    if (quantidadeCestas > cc.quantidadeCestas) {
      throw new Conflito(
        'ACIMA_DO_CICLO',
        `O ciclo oferece ${cc.quantidadeCestas} cestas deste tipo; a composição não pode passar disso`,
        { quantidadeCestas: cc.quantidadeCestas },
      );
    }
    if (quantidadeCestas < cc.cestasPedidas) {
      throw new Conflito(
        'ABAIXO_DOS_PEDIDOS',
        `Já há ${cc.cestasPedidas} cestas pedidas: a composição precisa de pelo menos essa quantidade`,
        { cestasPedidas: cc.cestasPedidas },
      );
    }
    // An ordered basket stays a basket: emptying it would deliver and charge nothing in a box.
    if (itens.length === 0 && cc.cestasPedidas > 0) {
      throw new Conflito(
        'CESTA_PEDIDA_VAZIA',
        `Já há ${cc.cestasPedidas} cestas pedidas: a composição precisa de pelo menos um item`,
        { cestasPedidas: cc.cestasPedidas },
      );
    }
    // Every line must be a finalised offer line of this very cycle, or one this basket already
    // uses (its supplier may be editing a draft): one query, all or nothing.
    const linhas = await linhasOfertadas(trx, cc.cicloid);
    const porId = new Map<number, LinhaOfertada>(linhas.map((l) => [l.ofertaProdutoId, l]));
    const jaUsadas = new Set((await itensDasCestas(trx, { cicloCestaId: id })).map((u) => u.ofertaProdutoId));
    const erros: Record<string, string> = {};
    const normalizados = itens.map((i) => {
      const l = porId.get(i.ofertaProdutoId);
      if (l === undefined || (!l.finalizada && !jaUsadas.has(i.ofertaProdutoId))) {
        erros[`${i.campo}.ofertaProdutoId`] = 'Não é uma oferta finalizada deste ciclo';
        // Stryker disable next-line ObjectLiteral: a refused item is never written (the errors are thrown below)
        return { ...i, milesimos: 0 };
      }
      const conv = converter(i.quantidadeMilesimos, i.unidade, l.unidade);
      if (!conv.ok) erros[`${i.campo}.unidade`] = conv.motivo;
      return { ...i, milesimos: conv.ok ? conv.valor : 0 };
    });
    if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
    const antes = await paginaDaComposicao(trx, id, hoje);
    const iso = agora.toISOString();
    await trx
      .insertInto('composicao')
      .values({ cicloCestaId: id, quantidadeCestas, createdAt: iso, updatedAt: iso })
      .onConflict((oc) => oc.column('cicloCestaId').doUpdateSet({ quantidadeCestas, updatedAt: iso }))
      .execute();
    const composicaoid = (
      await trx.selectFrom('composicao').select('id').where('cicloCestaId', '=', id).executeTakeFirstOrThrow()
    ).id;
    await trx.deleteFrom('composicaoproduto').where('composicaoid', '=', composicaoid).execute();
    if (normalizados.length > 0) {
      await trx
        .insertInto('composicaoproduto')
        .values(
          normalizados.map((n) => ({
            composicaoid,
            ofertaProdutoId: n.ofertaProdutoId,
            quantidadePorCestaMilesimos: n.milesimos,
            unidade: n.unidade,
            createdAt: iso,
            updatedAt: iso,
          })),
        )
        .execute();
    }
    conferirCapacidade(await linhasOfertadas(trx, cc.cicloid), await extrasPublicados(trx, cc.cicloid));
    // A basket sold in a cesta market stays within the market's ceiling (DOMAIN.md).
    await conferirTetos(trx, cc.cicloid);
    const depois = await paginaDaComposicao(trx, id, hoje);
    await auditar(trx, ator, agora, {
      acao: 'salvar',
      entidade: 'composicao',
      entidadeId: composicaoid,
      antes: antes.composicao,
      depois: depois.composicao,
    });
    return depois;
  });
}
