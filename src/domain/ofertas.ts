import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../db/tipos.ts';
import { emTransacao, leituraDasChaves, travarChaves, type Banco, type Db } from '../db/banco.ts';
import { juntas, leitura, type Leitura } from '../db/juntas.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import { ehFornecedor, ehGestor, exigirAgirPor, podeNoRegistro, veTudo, type Ator } from './acesso.ts';
import {
  atribuirExtrasPorMercado,
  conferirCapacidade,
  extrasPublicados,
  leituraDasLinhasOfertadas,
  leituraDosExtrasPublicados,
  linhasOfertadas,
  type ChaveMercado,
  type ExtraDoCiclo,
  type LinhaOfertada,
} from './alocacao.ts';
import { auditar } from './auditoria.ts';
import { itensDasCestas, paraCestasDaLinha } from './conteudo-das-cestas.ts';
import { faseDoCiclo, type Fase } from './ciclos/calendario.ts';
import { cicloDasJanelas, exigirJanela, leituraDoCiclo } from './ciclos/janelas.ts';
import { faltaQuantidade, formatarQuantidadeComUnidade, formatarReais, valorDaQuantidade } from '../decimal.ts';
import { Conflito, Invalido, NaoEncontrado, Proibido } from './erros.ts';
import { unidadeTrocada, type Unidade } from './catalogo.ts';
import { lerPerfis } from './perfis.ts';

export interface LinhaDaOferta {
  readonly ofertaProdutoId: number;
  readonly produtoid: number;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  /** How much of the line compositions already use; it cannot drop below this. */
  readonly alocadoMilesimos: number;
}

export interface Oferta {
  readonly id: number | null;
  readonly cicloid: number;
  readonly usuarioid: number;
  readonly finalizada: boolean;
  readonly finalizadaEm: string | null;
  readonly produtos: LinhaDaOferta[];
  readonly totalCentavos: number;
}

export interface ContextoTempo {
  readonly agora: Date;
  readonly hoje: string;
}

/**
 * The supplier an actor offers for: themselves (named or not), or, for admins, the supplier they
 * name. Whoever is named must have the fornecedor profile, the actor included.
 */
async function fornecedorAlvo(db: Db, ator: Ator, usuarioid: number | null): Promise<number> {
  const eu = exigirAgirPor(ator, usuarioid, 'oferta');
  if (ehFornecedor(ator) && (usuarioid === null || usuarioid === eu)) return eu;
  if (!ehGestor(ator)) throw new Proibido('SEM_PERMISSAO', 'Só fornecedores registram ofertas');
  if (usuarioid === null)
    throw new Invalido('VALIDACAO', 'Informe o fornecedor', { usuarioid: 'Informe o fornecedor da oferta' });
  const u = await db.selectFrom('usuario').select('perfil').where('id', '=', usuarioid).executeTakeFirst();
  if (u === undefined || !ehFornecedor({ perfil: lerPerfis(u.perfil) })) {
    throw new Invalido('VALIDACAO', 'Fornecedor inválido', { usuarioid: 'Não há fornecedor com este id' });
  }
  return usuarioid;
}

/**
 * What the compositions take of the offer line `op`, in thousandths (per-basket quantity × baskets,
 * summed), multiplied in 64 bits: two 32-bit columns would overflow PostgreSQL's integer.
 */
function alocadoDaLinha(eb: ExpressionBuilder<DB & { op: DB['ofertaproduto'] }, 'op'>) {
  return paraCestasDaLinha(eb).as('alocadoMil');
}

function linhasComAlocado(db: Db) {
  return db
    .selectFrom('ofertaproduto as op')
    .innerJoin('produto as p', 'p.id', 'op.produtoid')
    .select([
      'op.id as ofertaProdutoId',
      'op.produtoid',
      'p.nome',
      'p.unidade',
      'op.quantidadeMilesimos',
      'op.valorCentavos',
    ])
    .select(alocadoDaLinha);
}

function paraLinha(l: {
  ofertaProdutoId: number;
  produtoid: number;
  nome: string;
  unidade: string;
  quantidadeMilesimos: number;
  valorCentavos: number;
  alocadoMil: number | null;
}): LinhaDaOferta {
  return {
    ofertaProdutoId: l.ofertaProdutoId,
    produtoid: l.produtoid,
    nome: l.nome,
    unidade: l.unidade,
    quantidadeMilesimos: l.quantidadeMilesimos,
    valorCentavos: l.valorCentavos,
    alocadoMilesimos: Number(l.alocadoMil ?? 0),
  };
}

function montarOferta(
  o: { id: number; cicloid: number; usuarioid: number; finalizada: boolean; finalizadaEm: string | null },
  produtos: LinhaDaOferta[],
): Oferta {
  return {
    id: o.id,
    cicloid: o.cicloid,
    usuarioid: o.usuarioid,
    finalizada: o.finalizada,
    finalizadaEm: o.finalizadaEm,
    produtos,
    totalCentavos: produtos.reduce((s, l) => s + valorDaQuantidade(l.valorCentavos, l.quantidadeMilesimos), 0),
  };
}

// Every offer save reads the offer twice (before and after writing it): compiled once, not per
// call (consultaPreparada).
const ofertaComLinhas = consultaPreparada(
  (db: Db, cicloid: number, usuarioid: number) =>
    db
      .selectFrom('oferta as o')
      .leftJoin('ofertaproduto as op', 'op.ofertaid', 'o.id')
      .leftJoin('produto as p', 'p.id', 'op.produtoid')
      .select(['o.id', 'o.finalizada', 'o.finalizadaEm'])
      .select([
        'op.id as ofertaProdutoId',
        'op.produtoid',
        'p.nome',
        'p.unidade',
        'op.quantidadeMilesimos',
        'op.valorCentavos',
      ])
      .select(alocadoDaLinha)
      .where('o.cicloid', '=', cicloid)
      .where('o.usuarioid', '=', usuarioid)
      .orderBy('p.nome'),
  2,
);

/**
 * An offer with its lines and what is allocated of each; null id when there is none yet. One
 * query: the offer's row comes with each of its lines (once, with no line, when it has none).
 */
export async function ofertaDe(db: Db, cicloid: number, usuarioid: number): Promise<Oferta> {
  const [oferta] = await juntas(db, [leituraDaOferta(db, cicloid, usuarioid)]);
  return oferta;
}

/** ofertaDe as one statement of a batch (juntas.ts). */
export function leituraDaOferta(db: Db, cicloid: number, usuarioid: number): Leitura<Oferta> {
  return leitura(ofertaComLinhas.compilada(db, cicloid, usuarioid), (lidas) =>
    montarDaLeitura(cicloid, usuarioid, lidas),
  );
}

/** The offer from the rows of ofertaComLinhas: one per line, or a single one with no line. */
function montarDaLeitura(
  cicloid: number,
  usuarioid: number,
  lidas: Awaited<ReturnType<typeof ofertaComLinhas>>,
): Oferta {
  const oferta = lidas[0];
  if (oferta === undefined)
    return { id: null, cicloid, usuarioid, finalizada: false, finalizadaEm: null, produtos: [], totalCentavos: 0 };
  // Stryker disable ConditionalExpression,LogicalOperator: a row has all of the line's columns or none (op's are NOT NULL, p is joined on op's foreign key), so any one of these checks tells a row without a line; they are there for the types
  const linhas = lidas.flatMap((l) =>
    l.ofertaProdutoId === null ||
    l.produtoid === null ||
    l.nome === null ||
    l.unidade === null ||
    l.quantidadeMilesimos === null ||
    l.valorCentavos === null
      ? []
      : [
          paraLinha({
            ...l,
            ofertaProdutoId: l.ofertaProdutoId,
            produtoid: l.produtoid,
            nome: l.nome,
            unidade: l.unidade,
            quantidadeMilesimos: l.quantidadeMilesimos,
            valorCentavos: l.valorCentavos,
          }),
        ],
  );
  // Stryker restore ConditionalExpression,LogicalOperator
  return montarOferta({ ...oferta, cicloid, usuarioid }, linhas);
}

/**
 * A supplier's offers in every cycle, the newest cycle first (an offer per cycle), `first` of
 * them after the cycle `depoisDoCiclo`: two queries.
 */
export async function ofertasDoFornecedor(
  db: Db,
  usuarioid: number,
  pagina: { first: number; depoisDoCiclo: number | null },
): Promise<Oferta[]> {
  let q = db
    .selectFrom('oferta')
    .select(['id', 'cicloid', 'usuarioid', 'finalizada', 'finalizadaEm'])
    .where('usuarioid', '=', usuarioid);
  if (pagina.depoisDoCiclo !== null) q = q.where('cicloid', '<', pagina.depoisDoCiclo);
  const ofertas = await q.orderBy('cicloid', 'desc').limit(pagina.first).execute();
  const porOferta = new Map<number, LinhaDaOferta[]>();
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (ofertas.length > 0) {
    const linhas = await linhasComAlocado(db)
      .select('op.ofertaid')
      .where(
        'op.ofertaid',
        'in',
        ofertas.map((o) => o.id),
      )
      .orderBy('p.nome')
      .execute();
    for (const l of linhas) porOferta.set(l.ofertaid, [...(porOferta.get(l.ofertaid) ?? []), paraLinha(l)]);
  }
  return ofertas.map((o) => montarOferta(o, porOferta.get(o.id) ?? []));
}

/** One product a supplier offers, in thousandths of its unit and centavos per unit. */
export interface LinhaParaOfertar {
  readonly produtoid: number;
  readonly quantidadeMilesimos: number;
  /** The unit a person wrote after the quantity ("2,5 kg"), which must be the product's. */
  readonly unidadeEscrita?: Unidade | null;
  readonly valorCentavos: number;
  /** Where a refusal of this line is reported (the edge names it). */
  readonly campo: string;
}

/** An offer holds each product once: the lines that repeat one, by field. */
export function regrasDasLinhas(linhas: readonly LinhaParaOfertar[]): Record<string, string> {
  const repetidas = linhas.filter((l, i) => linhas.findIndex((o) => o.produtoid === l.produtoid) < i);
  return Object.fromEntries(repetidas.map((r) => [`${r.campo}.produtoid`, 'Produto repetido na oferta']));
}

/** An offer as the edge reads it: for whom (null: the actor), which cycle, and its lines. */
export interface EntradaOferta {
  readonly usuarioid: number | null;
  readonly cicloid: number;
  readonly linhas: readonly LinhaParaOfertar[];
}

/** The line to remove: by its id, or by cycle and product of a supplier (null: the actor). */
export type AlvoNaOferta =
  | { readonly ofertaProdutoId: number }
  | { readonly cicloid: number; readonly produtoid: number; readonly usuarioid: number | null };

/**
 * Saves an offer: `finalizar` false keeps (or puts back) a draft, true finalises it. The lines
 * sent replace the offer's lines; a line in use by compositions cannot drop below its use.
 * `criada`: the supplier had no offer in the cycle.
 */
export async function salvarOferta(
  banco: Banco,
  ator: Ator,
  entrada: EntradaOferta,
  opcoes: ContextoTempo & { finalizar: boolean },
): Promise<{ oferta: Oferta; criada: boolean }> {
  const { cicloid, linhas } = entrada;
  exigirAgirPor(ator, entrada.usuarioid, 'oferta');
  const erros = regrasDasLinhas(linhas);
  if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
  return emTransacao(banco, async (trx) => {
    const usuarioid = await fornecedorAlvo(trx, ator, entrada.usuarioid);
    // In one batch (juntas.ts), in this order: the products, read before any lock is taken (and
    // checked after the cycle's window, as always); the cycle, beside other offers and orders,
    // never beside a composition, an extra, a lot or the closing (janelas.ts); the offer's turn;
    // and the offer as it stands, read under its turn.
    // NOTE: a save changes only this offer's lines, so the capacity of the products they hold,
    // and of those taken out, is what it can break: only those products are checked (every
    // supplier's lines of each), and only those are locked (PostgreSQL). Two suppliers take
    // turns on the products they share and save the others at once; two saves of one offer
    // take turns on the offer, whose lines say which products to lock.
    const [produtos, ciclo, , antes] = await juntas(trx, [
      leitura(
        // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
        linhas.length === 0
          ? null
          : trx
              .selectFrom('produto')
              .select(['id', 'unidade'])
              .where(
                'id',
                'in',
                linhas.map((l) => l.produtoid),
              )
              .where('ativo', '=', true)
              .compile(),
        (lidos) => lidos,
      ),
      leituraDoCiclo(trx, cicloid, 'oferta'),
      leituraDasChaves(trx, cicloid, [-usuarioid]),
      leituraDaOferta(trx, cicloid, usuarioid),
    ]);
    const { foraDaJanela } = exigirJanela(ciclo, opcoes.hoje, 'oferta', ehGestor(ator));
    // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite (see above)
    if (linhas.length > 0) {
      const ativos = new Map(produtos.map((p) => [p.id, p.unidade]));
      const faltando = linhas.filter((l) => !ativos.has(l.produtoid));
      if (faltando.length > 0)
        throw new Invalido(
          'VALIDACAO',
          'Verifique os campos destacados',
          Object.fromEntries(faltando.map((f) => [`${f.campo}.produtoid`, 'Produto inexistente ou inativo'])),
        );
      const noutraUnidade = linhas.flatMap((l) =>
        unidadeTrocada(l.unidadeEscrita, ativos.get(l.produtoid), `${l.campo}.quantidade`),
      );
      if (noutraUnidade.length > 0)
        throw new Invalido('VALIDACAO', 'Verifique os campos destacados', Object.fromEntries(noutraUnidade));
    }
    const iso = opcoes.agora.toISOString();
    const tocados = [
      ...new Set([
        ...antes.produtos.map((p) => p.produtoid),
        // Stryker disable next-line ArrowFunction: a product new to the offer only gains surplus (and the line backs nothing yet), which breaks no rule a product met before the save
        ...linhas.map((l) => l.produtoid),
      ]),
    ];
    await travarChaves(trx, cicloid, tocados);
    const amarras = await conferirLinhasAmarradas(trx, cicloid, antes, linhas, opcoes.finalizar);
    const finalizada = opcoes.finalizar;
    const estado = {
      finalizada,
      finalizadaEm: finalizada ? (antes.finalizada ? antes.finalizadaEm : iso) : null,
      updatedAt: iso,
    };
    const nova = antes.id === null;
    // A new offer is written in its final state, and its id comes back in the same statement.
    const ofertaId =
      antes.id ??
      (
        await trx
          .insertInto('oferta')
          .values({ cicloid, usuarioid, ...estado, createdAt: iso })
          .onConflict((oc) => oc.columns(['cicloid', 'usuarioid']).doUpdateSet(estado))
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const removidas = antes.produtos.filter((p) => !linhas.some((l) => l.produtoid === p.produtoid));
    const nada = () => undefined;
    // The writes, then what the checks read after them and the offer as saved: one batch.
    const [, , , ofertadas, extras, depois] = await juntas(trx, [
      // Stryker disable next-line ConditionalExpression: an offer that exists is upserted into the same state (ON CONFLICT DO UPDATE)
      leitura(nova ? null : trx.updateTable('oferta').set(estado).where('id', '=', ofertaId).compile(), nada),
      // One statement for every line, new or kept. A kept line is updated in place (the upsert
      // on its unique key), because compositions refer to the line's id, which must not change.
      leitura(
        linhas.length === 0
          ? null
          : trx
              .insertInto('ofertaproduto')
              .values(
                linhas.map((l) => ({
                  ofertaid: ofertaId,
                  produtoid: l.produtoid,
                  quantidadeMilesimos: l.quantidadeMilesimos,
                  valorCentavos: l.valorCentavos,
                  createdAt: iso,
                  updatedAt: iso,
                })),
              )
              .onConflict((oc) =>
                oc.columns(['ofertaid', 'produtoid']).doUpdateSet((eb) => ({
                  quantidadeMilesimos: eb.ref('excluded.quantidadeMilesimos'),
                  valorCentavos: eb.ref('excluded.valorCentavos'),
                  updatedAt: eb.ref('excluded.updatedAt'),
                })),
              )
              .compile(),
        nada,
      ),
      leituraDaRemocao(trx, removidas),
      // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
      tocados.length > 0 ? leituraDasLinhasOfertadas(trx, cicloid, tocados) : leitura(null, () => []),
      // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
      tocados.length > 0 ? leituraDosExtrasPublicados(trx, cicloid, tocados) : leitura(null, () => []),
      leituraDaOferta(trx, cicloid, usuarioid),
    ]);
    conferirCapacidade(ofertadas, extras);
    conferirExtrasMantidos(amarras, ofertadas, extras);
    await auditar(trx, ator, opcoes.agora, {
      acao: `${finalizada ? 'finalizar' : 'rascunho'}${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'oferta',
      entidadeId: ofertaId,
      antes,
      depois,
    });
    return { oferta: depois, criada: antes.id === null };
  });
}

/**
 * What holds one offer line, each with its name: the baskets whose composition lists it (even for
 * zero baskets), the lots that take from it, and the extras (classic, or released to a venda_direta
 * market) attributed to it. Whatever holds a line was costed and sold at its price.
 */
interface Amarras {
  readonly produto: string;
  readonly unidade: string;
  readonly fornecedor: string;
  readonly cestas: readonly string[];
  readonly paraCestasMil: number;
  readonly lotes: readonly string[];
  readonly paraLotesMil: number;
  readonly extras: readonly string[];
  readonly extrasMil: number;
}

const amarrada = (a: Amarras) => a.cestas.length + a.lotes.length + a.extras.length > 0;

/** "na cesta Cesta A, no lote de Escola (PNAE) e nos extras do ciclo": what holds a line, in words. */
function descreverAmarras(a: Amarras): string {
  const partes = [
    ...(a.cestas.length === 0 ? [] : [`${a.cestas.length === 1 ? 'na cesta' : 'nas cestas'} ${a.cestas.join(', ')}`]),
    ...a.lotes.map((l) => `no lote de ${l}`),
    ...a.extras,
  ];
  return partes.length <= 1 ? partes.join('') : `${partes.slice(0, -1).join(', ')} e ${partes.at(-1) ?? ''}`;
}

/**
 * What holds each of these lines of one offer (keyed by ofertaProdutoId; lines nothing holds are
 * absent): four queries, and a fifth for the names of markets extras were released to.
 */
async function amarrasDasLinhas(
  trx: Db,
  cicloid: number,
  linhas: readonly LinhaDaOferta[],
): Promise<Map<number, Amarras>> {
  const ids = linhas.map((l) => l.ofertaProdutoId);
  const produtos = [...new Set(linhas.map((l) => l.produtoid))];
  const [cestas, lotes, ofertadas, extras] = await Promise.all([
    itensDasCestas(trx, { ofertaProdutoIds: ids }, 'cesta'),
    trx
      .selectFrom('loteproduto as lp')
      .innerJoin('lote as l', 'l.id', 'lp.loteid')
      .innerJoin('mercado as m', 'm.id', 'l.mercadoId')
      .select(['lp.ofertaProdutoId', 'l.comprador', 'm.nome as mercado', 'lp.quantidadeMilesimos'])
      .where('lp.ofertaProdutoId', 'in', ids)
      .orderBy('l.id')
      .execute(),
    linhasOfertadas(trx, cicloid, produtos),
    extrasPublicados(trx, cicloid, produtos),
  ]);
  // The extras published of these products, attributed to their lines as they are everywhere else.
  const atribuidos = atribuirExtrasPorMercado(ofertadas, publicadosPorProduto(extras));
  const mercados = [...new Set(extras.flatMap((e) => (e.mercadoId === null ? [] : [e.mercadoId])))];
  const nomes = new Map(
    mercados.length === 0
      ? []
      : (await trx.selectFrom('mercado').select(['id', 'nome']).where('id', 'in', mercados).execute()).map((m) => [
          m.id,
          m.nome,
        ]),
  );
  const fornecedor = new Map(ofertadas.map((o) => [o.ofertaProdutoId, o.fornecedor]));
  const amarras = new Map<number, Amarras>();
  for (const l of linhas) {
    const daLinha = cestas.filter((c) => c.ofertaProdutoId === l.ofertaProdutoId);
    const dosLotes = lotes.filter((x) => x.ofertaProdutoId === l.ofertaProdutoId);
    // As atribuirExtrasPorMercado fills them: only parts above zero, by market (classic extras first).
    const extrasDaLinha = [...(atribuidos.get(l.ofertaProdutoId) ?? [])];
    const a: Amarras = {
      produto: l.nome,
      unidade: l.unidade,
      fornecedor: fornecedor.get(l.ofertaProdutoId) ?? '',
      cestas: [...new Set(daLinha.map((c) => c.cesta))],
      paraCestasMil: daLinha.reduce((t, c) => t + c.quantidadePorCestaMilesimos * c.quantidadeCestas, 0),
      lotes: dosLotes.map((x) => `${x.comprador} (${x.mercado})`),
      paraLotesMil: dosLotes.reduce((t, x) => t + x.quantidadeMilesimos, 0),
      extras: extrasDaLinha.map(([m]) =>
        m === null ? 'nos extras do ciclo' : `na venda direta de ${nomes.get(m) ?? `#${m}`}`,
      ),
      extrasMil: extrasDaLinha.reduce((t, [, mil]) => t + mil, 0),
    };
    if (amarrada(a)) amarras.set(l.ofertaProdutoId, a);
  }
  return amarras;
}

/**
 * A line something holds (DOMAIN.md, Offer) keeps its price and never drops below what holds it,
 * whoever saves the offer and however (draft or final, by the supplier or for them). Baskets and
 * lots are checked here, before anything is written; the extras attributed to a line, which move
 * with the whole product's surplus, are checked after the write (conferirExtrasMantidos) with what
 * this returns. Only lines whose price goes another way, whose quantity goes down or that are left
 * out (every line, when a final offer goes back to draft and stops backing extras) are looked up,
 * so a save that changes none of them costs no query.
 */
async function conferirLinhasAmarradas(
  trx: Db,
  cicloid: number,
  antes: Oferta,
  linhas: readonly LinhaParaOfertar[],
  finalizar: boolean,
): Promise<Map<number, Amarras>> {
  const novas = new Map(linhas.map((l) => [l.produtoid, l]));
  const paraRascunho = antes.finalizada && !finalizar;
  const mexidas = antes.produtos.filter((p) => {
    const nova = novas.get(p.produtoid);
    return (
      paraRascunho ||
      nova === undefined ||
      nova.valorCentavos !== p.valorCentavos ||
      nova.quantidadeMilesimos < p.quantidadeMilesimos
    );
  });
  if (mexidas.length === 0) return new Map();
  const amarras = await amarrasDasLinhas(trx, cicloid, mexidas);
  for (const p of mexidas) {
    const a = amarras.get(p.ofertaProdutoId);
    const nova = novas.get(p.produtoid);
    if (a === undefined) continue;
    // A line listed in any composition stays, even one of zero baskets that allocates nothing:
    // the composition refers to it, and dropping it there silently would change the basket. So
    // does a line a lot takes from.
    if (nova === undefined) {
      if (a.cestas.length + a.lotes.length > 0) throw linhaAlocada(p, a);
      continue;
    }
    if (nova.valorCentavos !== p.valorCentavos) {
      throw new Conflito(
        'PRECO_FIXO',
        `O preço de ${p.nome} está fixo em ${formatarReais(p.valorCentavos)}: a linha já está ${descreverAmarras(a)}, custeados e vendidos por este preço`,
        { ...detalhesDasAmarras(p.ofertaProdutoId, a), valor: p.valorCentavos / 100 },
      );
    }
    const usado = a.paraCestasMil + a.paraLotesMil;
    if (nova.quantidadeMilesimos < usado) {
      const q = (mil: number) => formatarQuantidadeComUnidade(mil, a.unidade);
      const onde = [
        ...(a.cestas.length > 0 ? [`nas cestas ${q(a.paraCestasMil)}`] : []),
        ...(a.lotes.length > 0 ? [`nos lotes ${q(a.paraLotesMil)}`] : []),
      ].join(', ');
      throw new Conflito(
        'CAPACIDADE_EXCEDIDA',
        `${faltaQuantidade(usado - nova.quantidadeMilesimos, a.unidade)} de ${a.produto} de ${a.fornecedor}: ofertado ${q(nova.quantidadeMilesimos)} (a linha está ${descreverAmarras(a)}), ${onde}`,
        {
          ...detalhesDasAmarras(p.ofertaProdutoId, a),
          produto: a.produto,
          fornecedor: a.fornecedor,
          faltando: (usado - nova.quantidadeMilesimos) / 1000,
        },
      );
    }
  }
  return amarras;
}

/**
 * After a write: every line that had extras attributed to it still has at least as much. Extras
 * are published per product and attributed to the lines cheapest first, so a line that drops
 * below its extras, leaves the offer or goes back to draft would pass its extras to other lines,
 * at other prices, without anyone deciding it. What no line can cover is the capacity rule's
 * refusal (conferirCapacidade), checked before this one.
 */
function conferirExtrasMantidos(
  amarras: ReadonlyMap<number, Amarras>,
  ofertadas: readonly LinhaOfertada[],
  extras: readonly ExtraDoCiclo[],
): void {
  // Stryker disable next-line MethodExpression,ConditionalExpression,EqualityOperator: a line with no extras cannot end with less than none; skipping it only saves work
  const comExtras = [...amarras].filter(([, a]) => a.extrasMil > 0);
  // Stryker disable next-line ConditionalExpression: with no line to check, attributing the extras again only costs time
  if (comExtras.length === 0) return;
  const depois = atribuirExtrasPorMercado(ofertadas, publicadosPorProduto(extras));
  for (const [id, a] of comExtras) {
    const agora = [...(depois.get(id)?.values() ?? [])].reduce((t, mil) => t + mil, 0);
    if (agora < a.extrasMil) {
      const q = (mil: number) => formatarQuantidadeComUnidade(mil, a.unidade);
      throw new Conflito(
        'LINHA_ALOCADA',
        `${a.produto} de ${a.fornecedor} sustenta ${q(a.extrasMil)} ${a.extras.join(' e ')}: a oferta não pode ficar com menos disso (ficaria com ${q(agora)}); ajuste os extras antes`,
        { ...detalhesDasAmarras(id, a), extrasMil: a.extrasMil },
      );
    }
  }
}

/** The extras published of each product, by market (null: classic extras). */
function publicadosPorProduto(extras: readonly ExtraDoCiclo[]): Map<number, Map<ChaveMercado, number>> {
  const publicados = new Map<number, Map<ChaveMercado, number>>();
  for (const e of extras) {
    const doProduto = publicados.get(e.produtoId) ?? new Map<ChaveMercado, number>();
    doProduto.set(e.mercadoId, (doProduto.get(e.mercadoId) ?? 0) + e.publicadoMil);
    publicados.set(e.produtoId, doProduto);
  }
  return publicados;
}

/** What a refusal names, for programs: the line and what holds it (only the kinds that do). */
function detalhesDasAmarras(ofertaProdutoId: number, a: Amarras): Record<string, unknown> {
  return {
    ofertaProdutoId,
    cestas: [...a.cestas],
    ...(a.lotes.length > 0 ? { lotes: [...a.lotes] } : {}),
    ...(a.extras.length > 0 ? { extras: [...a.extras] } : {}),
  };
}

/**
 * The refusal to take out a line baskets or lots hold, naming them (the extras it backs are
 * checked after the write, with the whole product: conferirExtrasMantidos).
 */
function linhaAlocada(linha: LinhaDaOferta, a: Amarras): Conflito {
  const fixas = { ...a, extras: [] };
  return new Conflito(
    'LINHA_ALOCADA',
    a.lotes.length === 0
      ? `${linha.nome} já está em cestas (${a.cestas.join(', ')}): ajuste a composição antes de tirá-lo da oferta`
      : `${linha.nome} já está ${descreverAmarras(fixas)}: ajuste-os antes de tirá-lo da oferta`,
    detalhesDasAmarras(linha.ofertaProdutoId, fixas),
  );
}

/** Deletes lines nothing holds (conferirLinhasAmarradas, or apagarProdutoDaOferta, checked that first). */
async function removerLinhas(trx: Db, removidas: readonly LinhaDaOferta[]): Promise<void> {
  await juntas(trx, [leituraDaRemocao(trx, removidas)]);
}

/** removerLinhas as one statement of a batch (juntas.ts): none with nothing to remove. */
function leituraDaRemocao(trx: Db, removidas: readonly LinhaDaOferta[]): Leitura<void> {
  return leitura(
    // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
    removidas.length === 0
      ? null
      : trx
          .deleteFrom('ofertaproduto')
          .where(
            'id',
            'in',
            removidas.map((r) => r.ofertaProdutoId),
          )
          .compile(),
    () => undefined,
  );
}

/** Removes one line of an offer ({cicloid, produtoid} or {ofertaProdutoId}); the offer returns to draft. */
export async function apagarProdutoDaOferta(
  banco: Banco,
  ator: Ator,
  linhaAlvo: AlvoNaOferta,
  opcoes: ContextoTempo,
): Promise<Oferta> {
  exigirAgirPor(ator, 'usuarioid' in linhaAlvo ? linhaAlvo.usuarioid : null, 'oferta');
  return emTransacao(banco, async (trx) => {
    let cicloid: number;
    let usuarioid: number;
    let alvo: number;
    if ('ofertaProdutoId' in linhaAlvo) {
      const { ofertaProdutoId } = linhaAlvo;
      const l = await trx
        .selectFrom('ofertaproduto as op')
        .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
        .select(['o.cicloid', 'o.usuarioid', 'op.produtoid'])
        .where('op.id', '=', ofertaProdutoId)
        .executeTakeFirst();
      // Someone else's line is "not found": ids of other suppliers reveal nothing.
      if (l === undefined || !podeNoRegistro(ator, 'agirPor', { usuarioid: l.usuarioid }))
        throw new NaoEncontrado('LINHA_NAO_ENCONTRADA', 'Produto da oferta não encontrado');
      ({ cicloid, usuarioid } = l);
      alvo = l.produtoid;
    } else {
      cicloid = linhaAlvo.cicloid;
      usuarioid = await fornecedorAlvo(trx, ator, linhaAlvo.usuarioid);
      alvo = linhaAlvo.produtoid;
    }
    const ciclo = await cicloDasJanelas(trx, cicloid, 'escrita');
    const { foraDaJanela } = exigirJanela(ciclo, opcoes.hoje, 'oferta', ehGestor(ator));
    const antes = await ofertaDe(trx, cicloid, usuarioid);
    const linha = antes.produtos.find((p) => p.produtoid === alvo);
    // Stryker disable next-line ConditionalExpression: without an offer there are no lines either; the id check only narrows the type
    if (antes.id === null || linha === undefined)
      throw new NaoEncontrado('LINHA_NAO_ENCONTRADA', 'Produto da oferta não encontrado');
    // The offer goes back to draft: each of its lines stops backing extras, so all are looked up.
    const amarras = await amarrasDasLinhas(trx, cicloid, antes.produtos);
    const a = amarras.get(linha.ofertaProdutoId);
    if (a !== undefined && a.cestas.length + a.lotes.length > 0) throw linhaAlocada(linha, a);
    await removerLinhas(trx, [linha]);
    const iso = opcoes.agora.toISOString();
    await trx
      .updateTable('oferta')
      .set({ finalizada: false, finalizadaEm: null, updatedAt: iso })
      .where('id', '=', antes.id)
      .execute();
    // As when an offer is saved: what baskets and published extras use must still be covered.
    const [ofertadas, extras] = [await linhasOfertadas(trx, cicloid), await extrasPublicados(trx, cicloid)];
    conferirCapacidade(ofertadas, extras);
    conferirExtrasMantidos(amarras, ofertadas, extras);
    const depois = await ofertaDe(trx, cicloid, usuarioid);
    await auditar(trx, ator, opcoes.agora, {
      acao: `apagar produto${foraDaJanela ? ' (fora da janela)' : ''}`,
      entidade: 'oferta',
      entidadeId: antes.id,
      antes,
      depois,
    });
    return depois;
  });
}

export interface ProdutoParaOfertar {
  readonly produtoid: number;
  readonly nome: string;
  readonly unidade: string;
  readonly valorReferenciaCentavos: number;
  readonly categoria: string | null;
  readonly ofertadoAntes: boolean;
}

/** Active products, the ones this supplier offered most recently first, then by name. */
export async function produtosParaOfertar(db: Db, usuarioid: number): Promise<ProdutoParaOfertar[]> {
  const linhas = await db
    .selectFrom('produto as p')
    .leftJoin('categoria as c', 'c.id', 'p.categoriaid')
    .select(['p.id as produtoid', 'p.nome', 'p.unidade', 'p.valorReferenciaCentavos', 'c.nome as categoria'])
    .select((eb) =>
      eb
        .selectFrom('ofertaproduto as op')
        .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
        .select((e2) => e2.fn.max('o.createdAt').as('m'))
        .whereRef('op.produtoid', '=', 'p.id')
        .where('o.usuarioid', '=', usuarioid)
        .as('ultimaOferta'),
    )
    .where('p.ativo', '=', true)
    .execute();
  return linhas
    .sort((a, b) => (b.ultimaOferta ?? '').localeCompare(a.ultimaOferta ?? '') || a.nome.localeCompare(b.nome, 'pt-BR'))
    .map((l) => ({
      produtoid: l.produtoid,
      nome: l.nome,
      unidade: l.unidade,
      valorReferenciaCentavos: l.valorReferenciaCentavos,
      categoria: l.categoria,
      ofertadoAntes: l.ultimaOferta !== null,
    }));
}

export interface OfertaDaLista {
  readonly id: number;
  readonly ciclo: { readonly id: number; readonly nome: string; readonly fase: Fase };
  readonly fornecedor: { readonly id: number; readonly nome: string };
  readonly finalizada: boolean;
  readonly itens: number;
  readonly totalCentavos: number;
}

/** Offers by cycle: everyone's for admins and info, one's own for a supplier (scoped in SQL). */
export async function ofertasVisiveis(
  db: Db,
  ator: Ator,
  hoje: string,
  cicloid: number | null,
): Promise<OfertaDaLista[]> {
  let q = db
    .selectFrom('oferta as o')
    .innerJoin('ciclo as c', 'c.id', 'o.cicloid')
    .innerJoin('usuario as u', 'u.id', 'o.usuarioid')
    .leftJoin('ofertaproduto as op', 'op.ofertaid', 'o.id')
    .select([
      'o.id',
      'o.finalizada',
      'c.id as cicloid',
      'c.nome as cicloNome',
      'c.dataOfertaInicio',
      'c.dataOfertaFim',
      'c.dataPedidoInicio',
      'c.dataPedidoFim',
      'c.dataRetiradaInicio',
      'c.dataRetiradaFim',
      'u.id as fornecedorId',
      'u.nome as fornecedorNome',
    ])
    .select((eb) => [
      eb.fn.count<number>('op.id').as('itens'),
      // Each line rounded to the cent, as it is paid; integer division is floor for these positive values.
      // In 64 bits: two 32-bit columns multiplied overflow PostgreSQL's integer from R$ 100 × 1.000 kg.
      sql<number>`coalesce(sum((cast(op."valorCentavos" as bigint) * op."quantidadeMilesimos" + 500) / 1000), 0)`.as(
        'totalCentavos',
      ),
    ])
    .groupBy([
      'o.id',
      'o.finalizada',
      'c.id',
      'c.nome',
      'c.dataOfertaInicio',
      'c.dataOfertaFim',
      'c.dataPedidoInicio',
      'c.dataPedidoFim',
      'c.dataRetiradaInicio',
      'c.dataRetiradaFim',
      'u.id',
      'u.nome',
    ]);
  if (!veTudo(ator)) q = q.where('o.usuarioid', '=', ator.usuarioid ?? -1);
  if (cicloid !== null) q = q.where('o.cicloid', '=', cicloid);
  const linhas = await q.orderBy('c.dataOfertaInicio', 'desc').orderBy('u.nome').limit(1000).execute();
  return linhas.map((l) => ({
    id: l.id,
    ciclo: { id: l.cicloid, nome: l.cicloNome, fase: faseDoCiclo(l, hoje) },
    fornecedor: { id: l.fornecedorId, nome: l.fornecedorNome },
    finalizada: l.finalizada,
    itens: Number(l.itens),
    totalCentavos: Number(l.totalCentavos),
  }));
}
