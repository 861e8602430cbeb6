import type { SelectQueryBuilder } from 'kysely';
import { contem, totalDaLista } from '../db/consultas.ts';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import { violouReferencia, violouUnicidade } from '../db/erros.ts';
import type { DB, Linha } from '../db/tipos.ts';
import type { Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { linhaNumaCesta } from './conteudo-das-cestas.ts';
import { Conflito, Invalido, NaoEncontrado } from './erros.ts';
import { exigirSemReferencias, montarPagina, type Pagina, type PedidoDePagina, type Referencia } from './registros.ts';
import { chaveDeNome } from './textos.ts';

/** The product units the community uses (spec: kg, unidade, litro, dúzia; maço also occurs). */
export const UNIDADES = ['kg', 'unidade', 'litro', 'dúzia', 'maço'] as const;
export type Unidade = (typeof UNIDADES)[number];

/**
 * How people write each unit after a quantity ("2,5 kg", "3 maços", "1 dz"), compared without
 * case or accents. The pages hand these same spellings to their scripts, so the live totals read
 * a quantity exactly as the server does.
 */
const ESCRITAS: Readonly<Record<Unidade, readonly string[]>> = {
  kg: ['kg', 'kgs', 'quilo', 'quilos', 'kilo', 'kilos'],
  unidade: ['un', 'und', 'unid', 'unidade', 'unidades'],
  litro: ['l', 'lt', 'lts', 'litro', 'litros'],
  dúzia: ['dz', 'duzia', 'duzias'],
  maço: ['maco', 'macos'],
};

/** A unit as written, for comparison: lower case, no accents, no abbreviation dot. */
export function escritaNormal(texto: string): string {
  return texto.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\.$/, '');
}

/** The spellings of a unit (none for a unit outside the list). */
export function escritasDaUnidade(unidade: string): readonly string[] {
  return (UNIDADES as readonly string[]).includes(unidade) ? ESCRITAS[unidade as Unidade] : [];
}

/**
 * A quantity written with a unit other than the product's ("500 g" of a product sold by the kg):
 * the field and why, to refuse it rather than read 500 kg. Nothing when no unit was written.
 */
export function unidadeTrocada(
  escrita: Unidade | null | undefined,
  doProduto: string | undefined,
  campo: string,
): Array<[string, string]> {
  if (escrita === null || escrita === undefined || doProduto === undefined || escrita === doProduto) return [];
  return [[campo, `Este produto é medido em ${doProduto}, não em ${escrita}: escreva a quantidade em ${doProduto}`]];
}

/** The unit a word names ("Kg", "maços", "dz."), or null when it names none. */
export function unidadeEscrita(palavra: string): Unidade | null {
  const normal = escritaNormal(palavra);
  return UNIDADES.find((u) => ESCRITAS[u].includes(normal)) ?? null;
}

export const ENTIDADES_CATALOGO = ['categoria', 'cesta', 'produto', 'pontoentrega'] as const;
export type EntidadeCatalogo = (typeof ENTIDADES_CATALOGO)[number];

export interface Categoria {
  readonly id: number;
  readonly nome: string;
  readonly descricao: string | null;
  readonly ativo: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Cesta {
  readonly id: number;
  readonly nome: string;
  readonly descricao: string | null;
  readonly valorReferenciaCentavos: number;
  readonly pesoAproximado: number | null;
  readonly ativo: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Produto {
  readonly id: number;
  readonly nome: string;
  readonly unidade: string;
  readonly pesoGramas: number | null;
  readonly valorReferenciaCentavos: number;
  readonly descritivo: string | null;
  readonly categoriaid: number | null;
  readonly categoria: { readonly id: number; readonly nome: string } | null;
  readonly ativo: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface PontoEntrega {
  readonly id: number;
  readonly nome: string;
  readonly endereco: string | null;
  readonly cidade: string | null;
  readonly referencia: string | null;
  readonly responsavel: string | null;
  readonly telefone: string | null;
  readonly ativo: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface RegistroCatalogo {
  categoria: Categoria;
  cesta: Cesta;
  produto: Produto;
  pontoentrega: PontoEntrega;
}

/**
 * The fields of one record as the edge read them, by entity, in integer units. `ativo` is null
 * when it was not sent: a new record is active, an edit keeps what the record was.
 */
export interface DadosCategoria {
  readonly nome: string;
  readonly descricao: string | null;
  readonly ativo: boolean | null;
}

export interface DadosCesta {
  readonly nome: string;
  readonly descricao: string | null;
  readonly valorReferenciaCentavos: number;
  readonly pesoAproximado: number | null;
  readonly ativo: boolean | null;
}

export interface DadosProduto {
  readonly nome: string;
  readonly unidade: Unidade;
  readonly pesoGramas: number | null;
  readonly valorReferenciaCentavos: number;
  readonly descritivo: string | null;
  readonly categoriaid: number | null;
  readonly ativo: boolean | null;
}

export interface DadosPontoEntrega {
  readonly nome: string;
  readonly endereco: string | null;
  readonly cidade: string | null;
  readonly referencia: string | null;
  readonly responsavel: string | null;
  readonly telefone: string | null;
  readonly ativo: boolean | null;
}

export interface DadosCatalogo {
  categoria: DadosCategoria;
  cesta: DadosCesta;
  produto: DadosProduto;
  pontoentrega: DadosPontoEntrega;
}

interface Definicao<E extends EntidadeCatalogo> {
  readonly entidade: E;
  /** "a categoria", "o produto": used in messages. */
  readonly comArtigo: string;
  readonly ordens: readonly string[];
  readonly referencias: readonly Referencia[];
  /** Rules that need the database (existing references); each refusal names its field. */
  conferir?(db: Db, dados: DadosCatalogo[E]): Promise<void>;
  saida(l: LinhaSaida<E>): RegistroCatalogo[E];
}

type LinhaSaida<E extends EntidadeCatalogo> = E extends 'produto'
  ? Linha<'produto'> & { categoriaNome: string | null }
  : Linha<E>;

const DEFINICOES: { readonly [E in EntidadeCatalogo]: Definicao<E> } = {
  categoria: {
    entidade: 'categoria',
    comArtigo: 'a categoria',
    ordens: ['nome', 'ativo', 'createdAt'],
    referencias: [{ tabela: 'produto', coluna: 'categoriaid', descricao: 'produtos' }],
    saida: (l) => ({
      id: l.id,
      nome: l.nome,
      descricao: l.descricao,
      ativo: l.ativo,
      createdAt: l.createdAt,
      updatedAt: l.updatedAt,
    }),
  },
  cesta: {
    entidade: 'cesta',
    comArtigo: 'a cesta',
    ordens: ['nome', 'valorReferenciaCentavos', 'pesoAproximado', 'ativo', 'createdAt'],
    referencias: [{ tabela: 'ciclocesta', coluna: 'cestaId', descricao: 'ciclos' }],
    saida: (l) => ({
      id: l.id,
      nome: l.nome,
      descricao: l.descricao,
      valorReferenciaCentavos: l.valorReferenciaCentavos,
      pesoAproximado: l.pesoAproximado,
      ativo: l.ativo,
      createdAt: l.createdAt,
      updatedAt: l.updatedAt,
    }),
  },
  produto: {
    entidade: 'produto',
    comArtigo: 'o produto',
    ordens: ['nome', 'unidade', 'valorReferenciaCentavos', 'ativo', 'createdAt'],
    referencias: [
      { tabela: 'ofertaproduto', coluna: 'produtoid', descricao: 'ofertas' },
      { tabela: 'cicloproduto', coluna: 'produtoId', descricao: 'extras de ciclos' },
    ],
    async conferir(db, dados) {
      if (dados.categoriaid === null) return;
      const cat = await db.selectFrom('categoria').select('id').where('id', '=', dados.categoriaid).executeTakeFirst();
      if (cat === undefined)
        throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { categoriaid: 'Categoria não encontrada' });
    },
    saida: (l) => ({
      id: l.id,
      nome: l.nome,
      unidade: l.unidade,
      pesoGramas: l.pesoGramas,
      valorReferenciaCentavos: l.valorReferenciaCentavos,
      descritivo: l.descritivo,
      categoriaid: l.categoriaid,
      categoria: l.categoriaid === null ? null : { id: l.categoriaid, nome: l.categoriaNome ?? '' },
      ativo: l.ativo,
      createdAt: l.createdAt,
      updatedAt: l.updatedAt,
    }),
  },
  pontoentrega: {
    entidade: 'pontoentrega',
    comArtigo: 'o ponto de entrega',
    ordens: ['nome', 'cidade', 'ativo', 'createdAt'],
    referencias: [{ tabela: 'pedido', coluna: 'pontoEntregaId', descricao: 'pedidos' }],
    saida: (l) => ({
      id: l.id,
      nome: l.nome,
      endereco: l.endereco,
      cidade: l.cidade,
      referencia: l.referencia,
      responsavel: l.responsavel,
      telefone: l.telefone,
      ativo: l.ativo,
      createdAt: l.createdAt,
      updatedAt: l.updatedAt,
    }),
  },
};

export function definicao<E extends EntidadeCatalogo>(entidade: E): Definicao<E> {
  return DEFINICOES[entidade];
}

export interface FiltroCatalogo {
  readonly ativo?: boolean | undefined;
  readonly categoriaid?: number | undefined;
}

type Consulta = SelectQueryBuilder<DB, EntidadeCatalogo, Record<string, unknown>>;

/**
 * The base query of an entity. NOTE: the four catalogue tables share id, nome, nomeChave and
 * ativo; the queries are built on that common shape, and each row is typed by its definition.
 */
function consultaBase(db: Db, entidade: EntidadeCatalogo): Consulta {
  if (entidade === 'produto') {
    return db
      .selectFrom('produto')
      .leftJoin('categoria', 'categoria.id', 'produto.categoriaid')
      .selectAll('produto')
      .select('categoria.nome as categoriaNome') as unknown as Consulta;
  }
  return db.selectFrom(entidade).selectAll(entidade) as unknown as Consulta;
}

/** One page of an entity's records: one query, whatever the size of the catalogue. */
export async function listarCatalogo<E extends EntidadeCatalogo>(
  db: Db,
  entidade: E,
  pedido: PedidoDePagina,
  filtro: FiltroCatalogo = {},
): Promise<Pagina<RegistroCatalogo[E]>> {
  const def = definicao(entidade);
  const coluna = <C extends 'nome' | 'nomeChave' | 'ativo' | 'id'>(c: C) => `${entidade}.${c}` as `categoria.${C}`;
  let q = consultaBase(db, entidade);
  if (pedido.busca !== null) q = q.where(contem(coluna('nomeChave'), chaveDeNome(pedido.busca)));
  if (filtro.ativo !== undefined) q = q.where(coluna('ativo'), '=', filtro.ativo);
  if (filtro.categoriaid !== undefined && entidade === 'produto')
    q = q.where('produto.categoriaid' as 'categoria.id', '=', filtro.categoriaid);
  const linhas = await q
    .select(totalDaLista)
    .orderBy(`${entidade}.${pedido.ordem}` as 'categoria.nome', pedido.direcao)
    .orderBy(coluna('id'))
    .limit(pedido.porPagina)
    .offset((pedido.pagina - 1) * pedido.porPagina)
    .execute();
  let total = 0;
  if (linhas.length === 0 && pedido.pagina > 1) {
    const r = await q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    total = Number((r as { n?: number } | undefined)?.n ?? 0);
  }
  const pagina = montarPagina(linhas as unknown as ReadonlyArray<LinhaSaida<E> & { total: number }>, pedido, total);
  return { ...pagina, itens: pagina.itens.map((l) => def.saida(l)) };
}

export async function obterCatalogo<E extends EntidadeCatalogo>(
  db: Db,
  entidade: E,
  id: number,
): Promise<RegistroCatalogo[E]> {
  const l = await consultaBase(db, entidade)
    .where(`${entidade}.id` as 'categoria.id', '=', id)
    .executeTakeFirst();
  if (l === undefined)
    throw new NaoEncontrado('NAO_ENCONTRADO', `Não encontramos ${definicao(entidade).comArtigo} ${id}`);
  return definicao(entidade).saida(l as LinhaSaida<E>);
}

/** The record's values to write: the fields, checked against the database, and the name's unique key. */
async function conferir<E extends EntidadeCatalogo>(db: Db, def: Definicao<EntidadeCatalogo>, dados: DadosCatalogo[E]) {
  await def.conferir?.(db, dados);
  return { ...dados, nomeChave: chaveDeNome(dados.nome) };
}

function conflitoDeNome(def: Definicao<EntidadeCatalogo>): Conflito {
  const mensagem =
    def.entidade === 'produto'
      ? 'Já existe um produto com este nome e esta unidade'
      : `Já existe ${def.comArtigo.startsWith('a ') ? 'uma' : 'um'} ${def.comArtigo.slice(2)} com este nome`;
  return new Conflito('NOME_DUPLICADO', mensagem, { nome: mensagem });
}

/**
 * Writes through the common shape of the catalogue tables. NOTE: `valores` are the entity's own
 * `DadosCatalogo` fields, so they match its table; the cast is confined to these two helpers.
 */
function inserir(db: Db, entidade: EntidadeCatalogo, valores: object) {
  return db
    .insertInto(entidade as 'categoria')
    .values(valores as never)
    .returning('id')
    .executeTakeFirstOrThrow();
}

function alterar(db: Db, entidade: EntidadeCatalogo, id: number, valores: object) {
  return db
    .updateTable(entidade as 'categoria')
    .set(valores as never)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Runs a write in one transaction; a name the unique index already holds is a 409 naming it. */
async function gravarSemRepetir<T>(
  banco: Banco,
  def: Definicao<EntidadeCatalogo>,
  gravar: (trx: Db) => Promise<T>,
): Promise<T> {
  try {
    return await emTransacao(banco, gravar);
  } catch (e) {
    if (violouUnicidade(e)) throw conflitoDeNome(def);
    throw e;
  }
}

/** Creates a record, refusing duplicates (case- and space-insensitive) with 409. */
export async function criarCatalogo<E extends EntidadeCatalogo>(
  banco: Banco,
  ator: Ator,
  entidade: E,
  dados: DadosCatalogo[E],
  agora: Date,
): Promise<RegistroCatalogo[E]> {
  const def = definicao(entidade) as Definicao<EntidadeCatalogo>;
  return gravarSemRepetir(banco, def, async (trx) => {
    const v = await conferir(trx, def, dados);
    const iso = agora.toISOString();
    const { id } = await inserir(trx, entidade, { ...v, ativo: v.ativo ?? true, createdAt: iso, updatedAt: iso });
    const depois = await obterCatalogo(trx, entidade, id);
    await auditar(trx, ator, agora, { acao: 'criar', entidade, entidadeId: id, depois });
    return depois;
  });
}

/** Updates a record in place; history (offers, orders) keeps its own snapshots. */
export async function atualizarCatalogo<E extends EntidadeCatalogo>(
  banco: Banco,
  ator: Ator,
  entidade: E,
  id: number,
  dados: DadosCatalogo[E],
  agora: Date,
): Promise<RegistroCatalogo[E]> {
  const def = definicao(entidade) as Definicao<EntidadeCatalogo>;
  return gravarSemRepetir(banco, def, async (trx) => {
    const antes = await obterCatalogo(trx, entidade, id);
    const v = await conferir(trx, def, dados);
    if ('unidade' in antes && 'unidade' in v && antes.unidade !== v.unidade)
      await exigirUnidadeLivre(trx, id, antes.nome, antes.unidade);
    await alterar(trx, entidade, id, { ...v, ativo: v.ativo ?? antes.ativo, updatedAt: agora.toISOString() });
    const depois = await obterCatalogo(trx, entidade, id);
    await auditar(trx, ator, agora, { acao: 'atualizar', entidade, entidadeId: id, antes, depois });
    return depois;
  });
}

/**
 * A product's unit is what every quantity of it means: once an offer line of it is held by a
 * basket's composition or a lot, or it is published as an extra, the unit stays (409).
 */
async function exigirUnidadeLivre(db: Db, produtoid: number, nome: string, unidade: string): Promise<void> {
  const uso = await db
    .selectFrom('ofertaproduto as op')
    .select('op.id')
    .where('op.produtoid', '=', produtoid)
    .where((eb) =>
      eb.or([
        linhaNumaCesta(eb),
        eb.exists(eb.selectFrom('loteproduto as lp').select('lp.id').whereRef('lp.ofertaProdutoId', '=', 'op.id')),
      ]),
    )
    .union(db.selectFrom('cicloproduto').select('id').where('produtoId', '=', produtoid))
    .limit(1)
    .executeTakeFirst();
  if (uso !== undefined) {
    throw new Conflito(
      'UNIDADE_EM_USO',
      `A unidade de ${nome} (${unidade}) não pode mudar: ofertas dele já estão em cestas, lotes ou extras`,
      { unidade: 'A unidade não pode mudar: o produto já está em cestas, lotes ou extras' },
    );
  }
}

/** Deletes an unused record; one in use gives 409 naming what uses it. */
export async function apagarCatalogo(
  banco: Banco,
  ator: Ator,
  entidade: EntidadeCatalogo,
  id: number,
  agora: Date,
): Promise<void> {
  const def = definicao(entidade) as Definicao<EntidadeCatalogo>;
  try {
    await emTransacao(banco, async (trx) => {
      const antes = await obterCatalogo(trx, entidade, id);
      await exigirSemReferencias(trx, def.referencias, id, def.comArtigo);
      await trx
        .deleteFrom(entidade as 'categoria')
        .where('id', '=', id)
        .execute();
      await auditar(trx, ator, agora, { acao: 'apagar', entidade, entidadeId: id, antes });
    });
  } catch (e) {
    // Someone started using it between our check and the delete.
    if (violouReferencia(e))
      throw new Conflito('EM_USO', `Não é possível apagar ${def.comArtigo}: está em uso. Desative em vez de apagar.`);
    throw e;
  }
}

/** Active categories for the product form's choice. */
export async function opcoesDeCategoria(db: Db): Promise<Array<{ id: number; nome: string }>> {
  return db.selectFrom('categoria').select(['id', 'nome']).where('ativo', '=', true).orderBy('nomeChave').execute();
}
