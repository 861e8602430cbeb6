import type { SelectQueryBuilder } from 'kysely';
import { contem, totalDaLista } from '../db/consultas.ts';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import { violouReferencia, violouUnicidade } from '../db/erros.ts';
import type { DB, Linha } from '../db/tipos.ts';
import type { Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { ESCALA_DINHEIRO, paraNumero } from '../decimal.ts';
import { Conflito, NaoEncontrado } from './erros.ts';
import { exigirSemReferencias, montarPagina, type Pagina, type PedidoDePagina, type Referencia } from './registros.ts';
import { Campos, chaveDeNome, MAIOR_ID, type Entrada } from './validacao.ts';

/** The product units the community uses (spec: kg, unidade, litro, dúzia; maço also occurs). */
export const UNIDADES = ['kg', 'unidade', 'litro', 'dúzia', 'maço'] as const;
export type Unidade = (typeof UNIDADES)[number];

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
  readonly valorReferencia: number;
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
  readonly valorReferencia: number;
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

/** Validated values of one record, ready to be written (without keys and timestamps). */
type Valores = Record<string, string | number | boolean | null>;

interface Definicao<E extends EntidadeCatalogo> {
  readonly entidade: E;
  /** "a categoria", "o produto": used in messages. */
  readonly comArtigo: string;
  readonly ordens: readonly string[];
  readonly referencias: readonly Referencia[];
  ler(c: Campos): Valores;
  /** Validation that needs the database (existing references). */
  conferir?(db: Db, v: Valores, c: Campos): Promise<void>;
  saida(l: LinhaSaida<E>): RegistroCatalogo[E];
}

type LinhaSaida<E extends EntidadeCatalogo> = E extends 'produto'
  ? Linha<'produto'> & { categoriaNome: string | null }
  : Linha<E>;

/** `ativo` when sent; null when not: a new record is active, an edit keeps what the record was. */
function lerAtivo(c: Campos): boolean | null {
  return c.presente('ativo') ? c.booleano('ativo') : null;
}

const DEFINICOES: { readonly [E in EntidadeCatalogo]: Definicao<E> } = {
  categoria: {
    entidade: 'categoria',
    comArtigo: 'a categoria',
    ordens: ['nome', 'ativo', 'createdAt'],
    referencias: [{ tabela: 'produto', coluna: 'categoriaid', descricao: 'produtos' }],
    ler: (c) => ({ nome: c.texto('nome', { obrigatorio: true, max: 80 }), descricao: c.texto('descricao', { max: 500 }), ativo: lerAtivo(c) }),
    saida: (l) => ({ id: l.id, nome: l.nome, descricao: l.descricao, ativo: l.ativo, createdAt: l.createdAt, updatedAt: l.updatedAt }),
  },
  cesta: {
    entidade: 'cesta',
    comArtigo: 'a cesta',
    ordens: ['nome', 'valorReferenciaCentavos', 'pesoAproximado', 'ativo', 'createdAt'],
    referencias: [{ tabela: 'ciclocesta', coluna: 'cestaId', descricao: 'ciclos' }],
    ler: (c) => ({
      nome: c.texto('nome', { obrigatorio: true, max: 80 }),
      descricao: c.texto('descricao', { max: 1000 }),
      valorReferenciaCentavos: c.decimal('valorReferencia', ESCALA_DINHEIRO, { obrigatorio: true }),
      pesoAproximado: c.inteiro('pesoAproximado', { min: 0, max: 1_000_000 }),
      ativo: lerAtivo(c),
    }),
    saida: (l) => ({
      id: l.id, nome: l.nome, descricao: l.descricao, valorReferencia: paraNumero(l.valorReferenciaCentavos, ESCALA_DINHEIRO),
      pesoAproximado: l.pesoAproximado, ativo: l.ativo, createdAt: l.createdAt, updatedAt: l.updatedAt,
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
    ler: (c) => ({
      nome: c.texto('nome', { obrigatorio: true, max: 120 }),
      unidade: c.umDe('unidade', UNIDADES, { obrigatorio: true }),
      pesoGramas: c.inteiro('pesoGramas', { min: 0, max: 1_000_000 }),
      valorReferenciaCentavos: c.decimal('valorReferencia', ESCALA_DINHEIRO, { obrigatorio: true }),
      descritivo: c.texto('descritivo', { max: 2000 }),
      categoriaid: c.inteiro('categoriaid', { min: 1, max: MAIOR_ID }),
      ativo: lerAtivo(c),
    }),
    async conferir(db, v, c) {
      if (typeof v.categoriaid !== 'number') return;
      const cat = await db.selectFrom('categoria').select('id').where('id', '=', v.categoriaid).executeTakeFirst();
      if (cat === undefined) c.erro('categoriaid', 'Categoria não encontrada');
    },
    saida: (l) => ({
      id: l.id, nome: l.nome, unidade: l.unidade, pesoGramas: l.pesoGramas,
      valorReferencia: paraNumero(l.valorReferenciaCentavos, ESCALA_DINHEIRO), descritivo: l.descritivo,
      categoriaid: l.categoriaid, categoria: l.categoriaid === null ? null : { id: l.categoriaid, nome: l.categoriaNome ?? '' },
      ativo: l.ativo, createdAt: l.createdAt, updatedAt: l.updatedAt,
    }),
  },
  pontoentrega: {
    entidade: 'pontoentrega',
    comArtigo: 'o ponto de entrega',
    ordens: ['nome', 'cidade', 'ativo', 'createdAt'],
    referencias: [{ tabela: 'pedido', coluna: 'pontoEntregaId', descricao: 'pedidos' }],
    ler: (c) => ({
      nome: c.texto('nome', { obrigatorio: true, max: 120 }),
      endereco: c.texto('endereco', { max: 200 }),
      cidade: c.texto('cidade', { max: 100 }),
      referencia: c.texto('referencia', { max: 200 }),
      responsavel: c.texto('responsavel', { max: 120 }),
      telefone: c.telefone('telefone'),
      ativo: lerAtivo(c),
    }),
    saida: (l) => ({
      id: l.id, nome: l.nome, endereco: l.endereco, cidade: l.cidade, referencia: l.referencia,
      responsavel: l.responsavel, telefone: l.telefone, ativo: l.ativo, createdAt: l.createdAt, updatedAt: l.updatedAt,
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
  if (filtro.categoriaid !== undefined && entidade === 'produto') q = q.where('produto.categoriaid' as 'categoria.id', '=', filtro.categoriaid);
  const linhas = await q
    .select(totalDaLista)
    .orderBy(`${entidade}.${pedido.ordem}` as 'categoria.nome', pedido.direcao)
    .orderBy(coluna('id'))
    .limit(pedido.porPagina)
    .offset((pedido.pagina - 1) * pedido.porPagina)
    .execute();
  let total = 0;
  if (linhas.length === 0 && pedido.pagina > 1) {
    const r = await q.clearSelect().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    total = Number((r as { n?: number } | undefined)?.n ?? 0);
  }
  const pagina = montarPagina(linhas as unknown as ReadonlyArray<LinhaSaida<E> & { total: number }>, pedido, total);
  return { ...pagina, itens: pagina.itens.map((l) => def.saida(l)) };
}

export async function obterCatalogo<E extends EntidadeCatalogo>(db: Db, entidade: E, id: number): Promise<RegistroCatalogo[E]> {
  const l = await consultaBase(db, entidade)
    .where(`${entidade}.id` as 'categoria.id', '=', id)
    .executeTakeFirst();
  if (l === undefined) throw new NaoEncontrado('NAO_ENCONTRADO', `Não encontramos ${definicao(entidade).comArtigo} ${id}`);
  return definicao(entidade).saida(l as LinhaSaida<E>);
}

async function validar(db: Db, def: Definicao<EntidadeCatalogo>, entrada: Entrada): Promise<Valores> {
  const c = new Campos(entrada);
  const v = def.ler(c);
  if (Object.keys(c.erros).length === 0) await def.conferir?.(db, v, c);
  c.concluir();
  return { ...v, nomeChave: chaveDeNome(String(v.nome)) };
}

function conflitoDeNome(def: Definicao<EntidadeCatalogo>): Conflito {
  const mensagem =
    def.entidade === 'produto'
      ? 'Já existe um produto com este nome e esta unidade'
      : `Já existe ${def.comArtigo.startsWith('a ') ? 'uma' : 'um'} ${def.comArtigo.slice(2)} com este nome`;
  return new Conflito('NOME_DUPLICADO', mensagem, { nome: mensagem });
}

/**
 * Writes through the common shape of the catalogue tables. NOTE: `valores` were produced by the
 * entity's own `ler`, so they match its table; the cast is confined to these two helpers.
 */
function inserir(db: Db, entidade: EntidadeCatalogo, valores: Valores) {
  return db.insertInto(entidade as 'categoria').values(valores as never).returning('id').executeTakeFirstOrThrow();
}

function alterar(db: Db, entidade: EntidadeCatalogo, id: number, valores: Valores) {
  return db.updateTable(entidade as 'categoria').set(valores as never).where('id', '=', id).executeTakeFirst();
}

/** Creates a record, refusing duplicates (case- and space-insensitive) with 409. */
export async function criarCatalogo<E extends EntidadeCatalogo>(
  banco: Banco,
  ator: Ator,
  entidade: E,
  entrada: Entrada,
  agora: Date,
): Promise<RegistroCatalogo[E]> {
  const def = definicao(entidade) as Definicao<EntidadeCatalogo>;
  try {
    return await emTransacao(banco, async (trx) => {
      const v = await validar(trx, def, entrada);
      const iso = agora.toISOString();
      const { id } = await inserir(trx, entidade, { ...v, ativo: v.ativo ?? true, createdAt: iso, updatedAt: iso });
      const depois = await obterCatalogo(trx, entidade, id);
      await auditar(trx, ator, agora, { acao: 'criar', entidade, entidadeId: id, depois });
      return depois;
    });
  } catch (e) {
    if (violouUnicidade(e)) throw conflitoDeNome(def);
    throw e;
  }
}

/** Updates a record in place; history (offers, orders) keeps its own snapshots. */
export async function atualizarCatalogo<E extends EntidadeCatalogo>(
  banco: Banco,
  ator: Ator,
  entidade: E,
  id: number,
  entrada: Entrada,
  agora: Date,
): Promise<RegistroCatalogo[E]> {
  const def = definicao(entidade) as Definicao<EntidadeCatalogo>;
  try {
    return await emTransacao(banco, async (trx) => {
      const antes = await obterCatalogo(trx, entidade, id);
      const v = await validar(trx, def, entrada);
      await alterar(trx, entidade, id, { ...v, ativo: v.ativo ?? antes.ativo, updatedAt: agora.toISOString() });
      const depois = await obterCatalogo(trx, entidade, id);
      await auditar(trx, ator, agora, { acao: 'atualizar', entidade, entidadeId: id, antes, depois });
      return depois;
    });
  } catch (e) {
    if (violouUnicidade(e)) throw conflitoDeNome(def);
    throw e;
  }
}

/** Deletes an unused record; one in use gives 409 naming what uses it. */
export async function apagarCatalogo(banco: Banco, ator: Ator, entidade: EntidadeCatalogo, id: number, agora: Date): Promise<void> {
  const def = definicao(entidade) as Definicao<EntidadeCatalogo>;
  try {
    await emTransacao(banco, async (trx) => {
      const antes = await obterCatalogo(trx, entidade, id);
      await exigirSemReferencias(trx, def.referencias, id, def.comArtigo);
      await trx.deleteFrom(entidade as 'categoria').where('id', '=', id).execute();
      await auditar(trx, ator, agora, { acao: 'apagar', entidade, entidadeId: id, antes });
    });
  } catch (e) {
    // Someone started using it between our check and the delete.
    if (violouReferencia(e)) throw new Conflito('EM_USO', `Não é possível apagar ${def.comArtigo}: está em uso. Desative em vez de apagar.`);
    throw e;
  }
}

/** Active categories for the product form's choice. */
export async function opcoesDeCategoria(db: Db): Promise<Array<{ id: number; nome: string }>> {
  return db.selectFrom('categoria').select(['id', 'nome']).where('ativo', '=', true).orderBy('nomeChave').execute();
}
