/**
 * Markets inside cycles (DOMAIN.md, "Markets in cycles"): which markets a cycle serves, in their
 * order of service and with their pickup points; the baskets a cesta market sells, under its
 * ceiling; the items released to a venda_direta market at its price; the lots of a lote market.
 * Every write holds the cycle (`travar … 'ciclo'`) and ends with the one capacity rule
 * (alocacao.ts), so nothing drawn from an offered line ever passes what was offered.
 * A cycle with no markets is the classic single-community cycle: none of this applies to it.
 */
import { emTransacao, travar, type Banco, type Db } from '../db/banco.ts';
import { ESCALA_DINHEIRO, formatarQuantidade, formatarReais, paraNumero, valorDaQuantidade } from '../decimal.ts';
import { ehGestor, type Ator } from './acesso.ts';
import { conferirCapacidade, extrasPublicados, linhasOfertadas, sobraDaLinha } from './alocacao.ts';
import { auditar } from './auditoria.ts';
import { cicloDasJanelas, exigirAberto } from './ciclos/janelas.ts';
import { itensDasCestas } from './conteudo-das-cestas.ts';
import { Conflito, Invalido, NaoEncontrado, Proibido } from './erros.ts';
import { TIPOS_DE_MERCADO, tiposQue, vendeDoTipo, type TipoMercado, type VendaDoMercado } from './tipos-de-mercado.ts';

function exigirGestor(ator: Ator): void {
  if (!ehGestor(ator))
    throw new Proibido('SEM_PERMISSAO', 'Só a coordenação (admin ou master) organiza os mercados de um ciclo');
}

const invalido = (erros: Record<string, string>) => new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);

// ---------------------------------------------------------------------------------------------
// The markets of a cycle.

export interface MercadoDoCiclo {
  readonly cicloMercadoId: number;
  readonly mercadoId: number;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly ordemAtendimento: number;
  readonly taxaAdministrativaCentesimos: number | null;
  readonly valorMaximoCestaCentavos: number | null;
  readonly ativo: boolean;
  /** The market's own pickup points in the cycle; empty: the cycle's points. */
  readonly pontos: ReadonlyArray<{ readonly id: number; readonly nome: string }>;
  /** For a cesta market: the cycle baskets it sells. */
  readonly cicloCestaIds: readonly number[];
}

/** The markets a cycle serves, in their order of service (two queries). */
export async function mercadosDoCiclo(db: Db, cicloid: number): Promise<MercadoDoCiclo[]> {
  const [mercados, pontos, cestas] = await Promise.all([
    db
      .selectFrom('ciclomercado as cm')
      .innerJoin('mercado as m', 'm.id', 'cm.mercadoId')
      .select([
        'cm.id as cicloMercadoId',
        'cm.mercadoId',
        'm.nome',
        'm.tipo',
        'cm.ordemAtendimento',
        'm.taxaAdministrativaCentesimos',
        'm.valorMaximoCestaCentavos',
        'm.ativo',
      ])
      .where('cm.cicloid', '=', cicloid)
      .orderBy('cm.ordemAtendimento')
      .execute(),
    db
      .selectFrom('ciclomercadoponto as cmp')
      .innerJoin('ciclomercado as cm', 'cm.id', 'cmp.cicloMercadoId')
      .innerJoin('pontoentrega as pe', 'pe.id', 'cmp.pontoEntregaId')
      .select(['cmp.cicloMercadoId', 'pe.id', 'pe.nome'])
      .where('cm.cicloid', '=', cicloid)
      .orderBy('pe.nomeChave')
      .execute(),
    db
      .selectFrom('ciclocesta')
      .select(['id', 'mercadoId'])
      .where('cicloid', '=', cicloid)
      .where('mercadoId', 'is not', null)
      .orderBy('id')
      .execute(),
  ]);
  return mercados.map((m) => ({
    ...m,
    ativo: Boolean(m.ativo),
    pontos: pontos.filter((p) => p.cicloMercadoId === m.cicloMercadoId).map((p) => ({ id: p.id, nome: p.nome })),
    cicloCestaIds: cestas.filter((c) => c.mercadoId === m.mercadoId).map((c) => c.id),
  }));
}

/** One market of a cycle as the coordinator sets it; `campo` names it in refusals. */
export interface CicloMercadoLido {
  readonly mercadoId: number;
  readonly ordemAtendimento: number;
  readonly pontoEntregaIds: readonly number[];
  /** Cesta markets: the cycle baskets it sells (each basket in one market at most). */
  readonly cicloCestaIds: readonly number[];
  readonly campo: string;
}

/** The rules on the list alone: no market twice, no order of service twice, each ≥ 1, no basket in two markets. */
export function regrasDosMercadosDoCiclo(itens: readonly CicloMercadoLido[]): Record<string, string> {
  const erros: Record<string, string> = {};
  const mercados = new Set<number>();
  const ordens = new Set<number>();
  const cestas = new Set<number>();
  for (const i of itens) {
    if (mercados.has(i.mercadoId)) erros[`${i.campo}.mercadoId`] = 'Mercado repetido no ciclo';
    mercados.add(i.mercadoId);
    if (i.ordemAtendimento < 1) erros[`${i.campo}.ordemAtendimento`] = 'A ordem de atendimento começa em 1';
    else if (ordens.has(i.ordemAtendimento))
      erros[`${i.campo}.ordemAtendimento`] = `Dois mercados com a ordem ${i.ordemAtendimento}: cada mercado tem a sua`;
    ordens.add(i.ordemAtendimento);
    if (new Set(i.pontoEntregaIds).size !== i.pontoEntregaIds.length)
      erros[`${i.campo}.pontoEntregaIds`] = 'Ponto repetido';
    for (const c of i.cicloCestaIds) {
      if (cestas.has(c)) erros[`${i.campo}.cicloCestaIds`] = 'Uma cesta do ciclo é vendida em um mercado só';
      cestas.add(c);
    }
  }
  return erros;
}

/** What a basket of a cycle costs to compose: Σ quantity per basket × the supplier's offer price. */
export async function custosDasCestas(db: Db, cicloid: number): Promise<Map<number, number>> {
  const linhas = await itensDasCestas(db, { cicloid });
  const custos = new Map<number, number>();
  for (const l of linhas)
    custos.set(
      l.cicloCestaId,
      (custos.get(l.cicloCestaId) ?? 0) + valorDaQuantidade(l.valorCentavos, l.quantidadePorCestaMilesimos),
    );
  return custos;
}

/** Each basket sold in a cesta market, with its composed cost against the market's ceiling. */
export interface TetoDaCesta {
  readonly cicloCestaId: number;
  readonly cesta: string;
  readonly mercadoId: number;
  readonly mercado: string;
  readonly custoCentavos: number;
  readonly valorMaximoCestaCentavos: number;
}

export async function tetosDasCestas(db: Db, cicloid: number): Promise<TetoDaCesta[]> {
  const [cestas, custos] = await Promise.all([
    db
      .selectFrom('ciclocesta as cc')
      .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
      .innerJoin('mercado as m', 'm.id', 'cc.mercadoId')
      .select(['cc.id', 'cesta.nome as cesta', 'm.id as mercadoId', 'm.nome as mercado', 'm.valorMaximoCestaCentavos'])
      .where('cc.cicloid', '=', cicloid)
      .where(
        'm.tipo',
        'in',
        tiposQue((t) => t.exigeValorMaximoCesta),
      )
      .orderBy('cc.id')
      .execute(),
    custosDasCestas(db, cicloid),
  ]);
  return cestas.flatMap((c) =>
    c.valorMaximoCestaCentavos === null
      ? []
      : [
          {
            cicloCestaId: c.id,
            cesta: c.cesta,
            mercadoId: c.mercadoId,
            mercado: c.mercado,
            custoCentavos: custos.get(c.id) ?? 0,
            valorMaximoCestaCentavos: c.valorMaximoCestaCentavos,
          },
        ],
  );
}

/** A basket whose composed cost passes its market's `valorMaximoCesta` gives 409 naming the basket and the excess. */
export async function conferirTetos(db: Db, cicloid: number): Promise<void> {
  const acima = (await tetosDasCestas(db, cicloid)).find((t) => t.custoCentavos > t.valorMaximoCestaCentavos);
  if (acima === undefined) return;
  const excesso = acima.custoCentavos - acima.valorMaximoCestaCentavos;
  throw new Conflito(
    'TETO_DA_CESTA',
    `A cesta ${acima.cesta} custa ${formatarReais(acima.custoCentavos)} para compor: ${formatarReais(excesso)} acima do máximo de ${formatarReais(acima.valorMaximoCestaCentavos)} do mercado ${acima.mercado}`,
    {
      cicloCestaId: acima.cicloCestaId,
      cesta: acima.cesta,
      mercadoId: acima.mercadoId,
      excesso: paraNumero(excesso, ESCALA_DINHEIRO),
    },
  );
}

/**
 * Sets which markets a cycle serves, their order of service, their pickup points and (cesta
 * markets) the baskets each sells. Only active markets can be added; a market that has orders,
 * releases with orders, or lots cannot leave (409). Baskets left out of every market are sold
 * outside markets; releases of a market that leaves go with it. Audited; returns the new list.
 */
export async function definirMercadosDoCiclo(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  itens: readonly CicloMercadoLido[],
  agora: Date,
): Promise<MercadoDoCiclo[]> {
  exigirGestor(ator);
  const erros = regrasDosMercadosDoCiclo(itens);
  if (Object.keys(erros).length > 0) throw invalido(erros);
  return emTransacao(banco, async (trx) => {
    await travar(trx, 'ciclo', [cicloid]);
    exigirAberto(await cicloDasJanelas(trx, cicloid));
    const antes = await mercadosDoCiclo(trx, cicloid);
    const ids = itens.map((i) => i.mercadoId);
    // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite; PostgreSQL refuses it
    const mercados =
      ids.length === 0
        ? []
        : await trx.selectFrom('mercado').select(['id', 'nome', 'tipo', 'ativo']).where('id', 'in', ids).execute();
    const pontosPedidos = [...new Set(itens.flatMap((i) => i.pontoEntregaIds))];
    // Stryker disable next-line ConditionalExpression: see above
    const pontos =
      pontosPedidos.length === 0
        ? []
        : await trx.selectFrom('pontoentrega').select(['id', 'ativo']).where('id', 'in', pontosPedidos).execute();
    const cestasPedidas = [...new Set(itens.flatMap((i) => i.cicloCestaIds))];
    // Stryker disable next-line ConditionalExpression: see above
    const cestas =
      cestasPedidas.length === 0
        ? []
        : await trx.selectFrom('ciclocesta').select(['id', 'cicloid']).where('id', 'in', cestasPedidas).execute();
    const ja = new Set(antes.map((a) => a.mercadoId));
    for (const i of itens) {
      const m = mercados.find((x) => x.id === i.mercadoId);
      if (m === undefined) erros[`${i.campo}.mercadoId`] = 'Mercado não encontrado';
      else if (!m.ativo && !ja.has(m.id))
        erros[`${i.campo}.mercadoId`] = `O mercado ${m.nome} está desativado: só mercados ativos entram num ciclo`;
      const semPonto = i.pontoEntregaIds.filter((p) => !pontos.some((x) => x.id === p && Boolean(x.ativo)));
      if (semPonto.length > 0)
        erros[`${i.campo}.pontoEntregaIds`] = `Ponto de entrega inexistente ou inativo: ${semPonto.join(', ')}`;
      if (i.cicloCestaIds.length > 0 && m !== undefined && !vendeDoTipo(m.tipo, 'cestas'))
        erros[`${i.campo}.cicloCestaIds`] =
          `${m.nome} não é um mercado de cestas: só um mercado do tipo cesta vende as cestas do ciclo`;
      const deOutroCiclo = i.cicloCestaIds.filter((c) => !cestas.some((x) => x.id === c && x.cicloid === cicloid));
      if (deOutroCiclo.length > 0)
        erros[`${i.campo}.cicloCestaIds`] = `Cesta que não é deste ciclo: ${deOutroCiclo.join(', ')}`;
    }
    if (Object.keys(erros).length > 0) throw invalido(erros);
    const saem = antes.filter((a) => !ids.includes(a.mercadoId));
    for (const s of saem) await exigirSemUso(trx, cicloid, s);
    // The market's baskets, points and order follow the list; a market's basket already ordered
    // stays in it (its orders were priced and charged there).
    const iso = agora.toISOString();
    for (const s of saem) {
      await trx.deleteFrom('ciclomercadoponto').where('cicloMercadoId', '=', s.cicloMercadoId).execute();
      await trx
        .deleteFrom('cicloproduto')
        .where('cicloid', '=', cicloid)
        .where('mercadoId', '=', s.mercadoId)
        .execute();
      await trx.deleteFrom('ciclomercado').where('id', '=', s.cicloMercadoId).execute();
    }
    // Orders of service may swap: clear them first so the unique (cycle, order) never trips midway.
    for (const [n, a] of antes.filter((x) => ids.includes(x.mercadoId)).entries()) {
      await trx
        .updateTable('ciclomercado')
        .set({ ordemAtendimento: 100_000 + n })
        .where('id', '=', a.cicloMercadoId)
        .execute();
    }
    for (const i of itens) {
      const atual = antes.find((a) => a.mercadoId === i.mercadoId);
      const cicloMercadoId =
        atual === undefined
          ? (
              await trx
                .insertInto('ciclomercado')
                .values({
                  cicloid,
                  mercadoId: i.mercadoId,
                  ordemAtendimento: i.ordemAtendimento,
                  createdAt: iso,
                  updatedAt: iso,
                })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id
          : atual.cicloMercadoId;
      if (atual !== undefined)
        await trx
          .updateTable('ciclomercado')
          .set({ ordemAtendimento: i.ordemAtendimento, updatedAt: iso })
          .where('id', '=', cicloMercadoId)
          .execute();
      await trx.deleteFrom('ciclomercadoponto').where('cicloMercadoId', '=', cicloMercadoId).execute();
      if (i.pontoEntregaIds.length > 0) {
        await trx
          .insertInto('ciclomercadoponto')
          .values(i.pontoEntregaIds.map((p) => ({ cicloMercadoId, pontoEntregaId: p, createdAt: iso, updatedAt: iso })))
          .execute();
      }
    }
    await atribuirCestas(trx, cicloid, itens, iso);
    await conferirTetos(trx, cicloid);
    const depois = await mercadosDoCiclo(trx, cicloid);
    await auditar(trx, ator, agora, {
      acao: 'definir mercados do ciclo',
      entidade: 'ciclo',
      entidadeId: cicloid,
      antes,
      depois,
    });
    return depois;
  });
}

/** A market leaving a cycle: refused while orders bought in it, or its lots, exist. */
async function exigirSemUso(trx: Db, cicloid: number, m: MercadoDoCiclo): Promise<void> {
  const [pedidos, lotes] = await Promise.all([
    trx
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .select((eb) => eb.fn.count<number | string>('p.id').distinct().as('n'))
      .where('p.cicloid', '=', cicloid)
      .where('pp.mercadoId', '=', m.mercadoId)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('lote')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('cicloid', '=', cicloid)
      .where('mercadoId', '=', m.mercadoId)
      .executeTakeFirstOrThrow(),
  ]);
  if (Number(pedidos.n) > 0)
    throw new Conflito(
      'MERCADO_EM_USO',
      `O mercado ${m.nome} não pode sair do ciclo: ${Number(pedidos.n)} pedido(s) compraram nele`,
      { mercadoId: m.mercadoId, pedidos: Number(pedidos.n) },
    );
  if (Number(lotes.n) > 0)
    throw new Conflito(
      'MERCADO_EM_USO',
      `O mercado ${m.nome} não pode sair do ciclo: tem ${Number(lotes.n)} lote(s); apague-os antes`,
      { mercadoId: m.mercadoId, lotes: Number(lotes.n) },
    );
}

/** Each cycle basket goes to the cesta market that lists it, or to none; one already ordered keeps its market. */
async function atribuirCestas(
  trx: Db,
  cicloid: number,
  itens: readonly CicloMercadoLido[],
  iso: string,
): Promise<void> {
  const atuais = await trx
    .selectFrom('ciclocesta')
    .select(['id', 'mercadoId', 'reservadoMilesimos'])
    .where('cicloid', '=', cicloid)
    .execute();
  const nomes = new Map(
    (
      await trx
        .selectFrom('ciclocesta as cc')
        .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
        .select(['cc.id', 'cesta.nome'])
        .where('cc.cicloid', '=', cicloid)
        .execute()
    ).map((c) => [c.id, c.nome]),
  );
  for (const c of atuais) {
    const novo = itens.find((i) => i.cicloCestaIds.includes(c.id))?.mercadoId ?? null;
    if (novo === c.mercadoId) continue;
    if (Number(c.reservadoMilesimos) > 0) {
      throw new Conflito(
        'CESTA_JA_PEDIDA',
        `A cesta ${nomes.get(c.id) ?? c.id} já foi pedida: ela fica no mercado em que foi vendida`,
        { cicloCestaId: c.id },
      );
    }
    await trx.updateTable('ciclocesta').set({ mercadoId: novo, updatedAt: iso }).where('id', '=', c.id).execute();
  }
}

// ---------------------------------------------------------------------------------------------
// venda_direta: surplus released to a market at its price.

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

/** The market in the cycle, when its kind sells `venda` (409 TIPO_DE_MERCADO when not). */
async function mercadoDoCiclo(
  db: Db,
  cicloid: number,
  mercadoId: number,
  venda: VendaDoMercado,
): Promise<MercadoDoCiclo> {
  const m = (await mercadosDoCiclo(db, cicloid)).find((x) => x.mercadoId === mercadoId);
  if (m === undefined)
    throw new NaoEncontrado(
      'MERCADO_FORA_DO_CICLO',
      'Este mercado não está no ciclo: inclua-o nos mercados do ciclo antes',
    );
  if (!vendeDoTipo(m.tipo, venda)) {
    const nomes = tiposQue((t) => t.vende === venda).map((t) => TIPOS_DE_MERCADO[t].nomeNaFrase);
    throw new Conflito('TIPO_DE_MERCADO', `${m.nome} não é um mercado ${nomes.join(' ou ')}`, {
      mercadoId,
      tipo: m.tipo,
    });
  }
  return m;
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
          `${atual.produto} já tem ${formatarQuantidade(atual.pedidoMilesimos)} ${atual.unidade} pedidos em ${antes.mercado.nome}: a quantidade não pode ficar abaixo disso`,
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

// ---------------------------------------------------------------------------------------------
// lote: lots for a named buyer, drawn from offered lines, against a target value.

export interface LinhaDoLote {
  readonly ofertaProdutoId: number;
  readonly produto: string;
  readonly unidade: string;
  readonly fornecedor: string;
  readonly fornecedorId: number;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly subtotalCentavos: number;
}

export interface Lote {
  readonly id: number;
  readonly cicloid: number;
  readonly mercadoId: number;
  readonly mercado: string;
  readonly comprador: string;
  readonly compradorUsuarioId: number | null;
  readonly pontoEntregaId: number;
  readonly ponto: string;
  readonly valorAlvoCentavos: number;
  readonly valorCentavos: number;
  readonly linhas: readonly LinhaDoLote[];
}

/** A cycle's lots (optionally one market's), each with its lines valued at the offer price. */
export async function lotesDoCiclo(db: Db, cicloid: number, mercadoId: number | null = null): Promise<Lote[]> {
  let q = db
    .selectFrom('lote as l')
    .innerJoin('mercado as m', 'm.id', 'l.mercadoId')
    .innerJoin('pontoentrega as pe', 'pe.id', 'l.pontoEntregaId')
    .select([
      'l.id',
      'l.cicloid',
      'l.mercadoId',
      'm.nome as mercado',
      'l.comprador',
      'l.compradorUsuarioId',
      'l.pontoEntregaId',
      'pe.nome as ponto',
      'l.valorAlvoCentavos',
    ])
    .where('l.cicloid', '=', cicloid);
  if (mercadoId !== null) q = q.where('l.mercadoId', '=', mercadoId);
  const [lotes, linhas] = await Promise.all([
    q.orderBy('l.id').execute(),
    db
      .selectFrom('loteproduto as lp')
      .innerJoin('lote as l', 'l.id', 'lp.loteid')
      .innerJoin('ofertaproduto as op', 'op.id', 'lp.ofertaProdutoId')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .innerJoin('produto as p', 'p.id', 'op.produtoid')
      .innerJoin('usuario as u', 'u.id', 'o.usuarioid')
      .select([
        'lp.loteid',
        'lp.ofertaProdutoId',
        'p.nome as produto',
        'p.unidade',
        'u.nome as fornecedor',
        'o.usuarioid as fornecedorId',
        'lp.quantidadeMilesimos',
        'op.valorCentavos',
      ])
      .where('l.cicloid', '=', cicloid)
      .orderBy('p.nome')
      .orderBy('lp.id')
      .execute(),
  ]);
  return lotes.map((l) => {
    const doLote = linhas
      .filter((x) => x.loteid === l.id)
      .map(({ loteid: _, ...x }) => ({
        ...x,
        subtotalCentavos: valorDaQuantidade(x.valorCentavos, x.quantidadeMilesimos),
      }));
    return { ...l, linhas: doLote, valorCentavos: doLote.reduce((s, x) => s + x.subtotalCentavos, 0) };
  });
}

export interface LoteLido {
  readonly mercadoId: number;
  readonly comprador: string;
  readonly compradorUsuarioId: number | null;
  readonly pontoEntregaId: number;
  readonly valorAlvoCentavos: number;
  readonly linhas: ReadonlyArray<{
    readonly ofertaProdutoId: number;
    readonly quantidadeMilesimos: number;
    readonly campo: string;
  }>;
}

/** The rules on a lot alone: a buyer's name, a positive target, lines, no line twice, positive quantities. */
export function regrasDoLoteDoCiclo(l: LoteLido): Record<string, string> {
  const erros: Record<string, string> = {};
  if (l.comprador.trim() === '') erros.comprador = 'Diga quem compra o lote (por exemplo, a escola)';
  if (l.valorAlvoCentavos <= 0) erros.valorAlvo = 'O valor-alvo é maior que zero';
  if (l.linhas.length === 0) erros.linhas = 'Escolha pelo menos uma linha das ofertas';
  const vistas = new Set<number>();
  for (const x of l.linhas) {
    if (vistas.has(x.ofertaProdutoId)) erros[`${x.campo}.ofertaProdutoId`] = 'Linha repetida no lote';
    vistas.add(x.ofertaProdutoId);
    if (x.quantidadeMilesimos <= 0) erros[`${x.campo}.quantidade`] = 'A quantidade é maior que zero';
  }
  return erros;
}

/**
 * Creates (id null) or replaces a lot of a lote market of the cycle. Its lines are finalised offer
 * lines of the cycle; everything drawn from a line stays within what was offered (409). Audited.
 */
export async function salvarLote(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  id: number | null,
  lido: LoteLido,
  agora: Date,
): Promise<Lote> {
  exigirGestor(ator);
  const erros = regrasDoLoteDoCiclo(lido);
  if (Object.keys(erros).length > 0) throw invalido(erros);
  return emTransacao(banco, async (trx) => {
    await travar(trx, 'ciclo', [cicloid]);
    exigirAberto(await cicloDasJanelas(trx, cicloid));
    await mercadoDoCiclo(trx, cicloid, lido.mercadoId, 'lotes');
    const antes = id === null ? null : ((await lotesDoCiclo(trx, cicloid)).find((l) => l.id === id) ?? null);
    if (id !== null && antes === null)
      throw new NaoEncontrado('LOTE_NAO_ENCONTRADO', 'Lote não encontrado neste ciclo');
    const ponto = await trx
      .selectFrom('pontoentrega')
      .select(['id', 'ativo'])
      .where('id', '=', lido.pontoEntregaId)
      .executeTakeFirst();
    if (ponto === undefined || !ponto.ativo) erros.pontoEntregaId = 'Ponto de entrega inexistente ou inativo';
    if (
      lido.compradorUsuarioId !== null &&
      (await trx.selectFrom('usuario').select('id').where('id', '=', lido.compradorUsuarioId).executeTakeFirst()) ===
        undefined
    ) {
      erros.compradorUsuarioId = 'Não há cadastro com este id';
    }
    const linhas = await linhasOfertadas(trx, cicloid);
    for (const x of lido.linhas) {
      const l = linhas.find((y) => y.ofertaProdutoId === x.ofertaProdutoId);
      if (l === undefined || !l.finalizada)
        erros[`${x.campo}.ofertaProdutoId`] = 'Não é uma linha de oferta finalizada deste ciclo';
    }
    if (Object.keys(erros).length > 0) throw invalido(erros);
    const iso = agora.toISOString();
    const dados = {
      mercadoId: lido.mercadoId,
      comprador: lido.comprador.trim(),
      compradorUsuarioId: lido.compradorUsuarioId,
      pontoEntregaId: lido.pontoEntregaId,
      valorAlvoCentavos: lido.valorAlvoCentavos,
      updatedAt: iso,
    };
    let loteid: number;
    if (id === null) {
      loteid = (
        await trx
          .insertInto('lote')
          .values({ cicloid, ...dados, createdAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      loteid = id;
      await trx.updateTable('lote').set(dados).where('id', '=', id).execute();
      await trx.deleteFrom('loteproduto').where('loteid', '=', id).execute();
    }
    await trx
      .insertInto('loteproduto')
      .values(
        lido.linhas.map((x) => ({
          loteid,
          ofertaProdutoId: x.ofertaProdutoId,
          quantidadeMilesimos: x.quantidadeMilesimos,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .execute();
    conferirCapacidade(await linhasOfertadas(trx, cicloid), await extrasPublicados(trx, cicloid));
    const depois = (await lotesDoCiclo(trx, cicloid)).find((l) => l.id === loteid);
    // Stryker disable next-line ConditionalExpression: the lot was just written
    if (depois === undefined) throw new Error('lote gravado e não encontrado');
    await auditar(trx, ator, agora, {
      acao: id === null ? 'criar' : 'atualizar',
      entidade: 'lote',
      entidadeId: loteid,
      antes,
      depois,
    });
    return depois;
  });
}

export async function apagarLote(banco: Banco, ator: Ator, cicloid: number, id: number, agora: Date): Promise<void> {
  exigirGestor(ator);
  await emTransacao(banco, async (trx) => {
    await travar(trx, 'ciclo', [cicloid]);
    exigirAberto(await cicloDasJanelas(trx, cicloid));
    const antes = (await lotesDoCiclo(trx, cicloid)).find((l) => l.id === id);
    if (antes === undefined) throw new NaoEncontrado('LOTE_NAO_ENCONTRADO', 'Lote não encontrado neste ciclo');
    await trx.deleteFrom('loteproduto').where('loteid', '=', id).execute();
    await trx.deleteFrom('lote').where('id', '=', id).execute();
    await auditar(trx, ator, agora, { acao: 'apagar', entidade: 'lote', entidadeId: id, antes });
  });
}
