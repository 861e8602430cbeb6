import { PostgresAdapter, type Transaction } from 'kysely';
import { contem } from '../db/consultas.ts';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import type { DB, Linha } from '../db/tipos.ts';
import { contaPorId } from './contas.ts';
import { auditar } from './auditoria.ts';
import { Invalido, recusarInvalidos } from './erros.ts';
import { atorDaAuditoria, autorizarMercados, type AtorMercados } from './politica-mercados.ts';
import { chaveDeNome } from './textos.ts';
import { podeTipo, type TipoMercado } from './tipos-de-mercado.ts';

/**
 * Mercados (Variant B): markets and their prices over the shared product catalogue. Input comes
 * typed from the face's edge, which reads the GraphQL arguments; a refusal names the field by its
 * name here (`adminId`), or by the `campo` the edge gave a price line.
 */

// The kinds of market and what each can do live in tipos-de-mercado.ts; re-exported for the readers of markets.
export { TIPOS_MERCADO, type TipoMercado } from './tipos-de-mercado.ts';

/** The administrative fee is a percentage with two places, kept in hundredths of a point. */
export const ESCALA_TAXA = 2;
const TAXA_MAXIMA = 100 * 10 ** ESCALA_TAXA;

export interface Mercado {
  readonly id: number;
  readonly nome: string;
  readonly descricao: string | null;
  readonly tipo: TipoMercado;
  /** Hundredths of a percentage point (12.50 % → 1250); null when no fee is set. */
  readonly taxaAdministrativaCentesimos: number | null;
  readonly valorMaximoCestaCentavos: number | null;
  readonly ativo: boolean;
  readonly adminId: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface PrecoMercado {
  readonly id: number;
  readonly mercadoId: number;
  readonly produtoId: number;
  readonly precoCentavos: number;
  readonly ativo: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The read-only view of a catalogue product that markets price. */
export interface ProdutoDoCatalogo {
  readonly id: number;
  readonly nome: string;
  readonly unidade: string;
  readonly valorReferenciaCentavos: number;
  readonly ativo: boolean;
}

// ---------------------------------------------------------------------------------------------
// Input

/** A market's fields, as MercadoInput carries them, in integer units. */
export interface DadosMercado {
  readonly nome: string;
  readonly descricao: string | null;
  readonly tipo: TipoMercado;
  readonly taxaAdministrativaCentesimos: number | null;
  readonly valorMaximoCestaCentavos: number | null;
  /** Absent: the creator (new market) or unchanged (update). */
  readonly adminId: number | null;
  /** Absent: true (new market) or unchanged (update). */
  readonly ativo: boolean | null;
}

/** One line of a batch of prices. */
export interface LinhaDePreco {
  /** Where a refusal of this line is reported; its fields are named after it (`<campo>.produtoId`). */
  readonly campo: string;
  readonly produtoId: number;
  readonly precoCentavos: number;
  /** Absent: true for a new price, unchanged for an existing one. */
  readonly ativo: boolean | null;
}

/** DOMAIN.md: the administrative fee is a percentage, from 0 to 100. */
export function regraDaTaxa(taxaAdministrativaCentesimos: number | null): Record<string, string> {
  const t = taxaAdministrativaCentesimos;
  return t !== null && (t < 0 || t > TAXA_MAXIMA) ? { taxaAdministrativa: 'Deve estar entre 0 e 100' } : {};
}

/** DOMAIN.md: a basket market needs the most a basket may cost (the kinds that ask for it, tipos-de-mercado.ts). */
export function regraDoValorMaximo(
  tipo: TipoMercado | null,
  valorMaximoCestaCentavos: number | null,
): Record<string, string> {
  return tipo !== null && podeTipo(tipo, 'exigeValorMaximoCesta') && valorMaximoCestaCentavos === null
    ? { valorMaximoCesta: `Obrigatório quando o tipo é ${tipo}` }
    : {};
}

function regrasDoMercado(d: DadosMercado): Record<string, string> {
  return { ...regraDaTaxa(d.taxaAdministrativaCentesimos), ...regraDoValorMaximo(d.tipo, d.valorMaximoCestaCentavos) };
}

/**
 * DOMAIN.md: a price is never negative, and one batch names each product once (a market has one
 * price per product), the repeated line pointing at the first.
 */
export function regrasDoLote(linhas: readonly LinhaDePreco[]): Record<string, string> {
  const erros: Record<string, string> = {};
  const primeiras = new Map<number, LinhaDePreco>();
  for (const l of linhas) {
    const primeira = primeiras.get(l.produtoId);
    if (primeira !== undefined)
      erros[`${l.campo}.produtoId`] = `Produto repetido no lote (já está em ${primeira.campo})`;
    else primeiras.set(l.produtoId, l);
    if (l.precoCentavos < 0) erros[`${l.campo}.preco`] = 'Não pode ser negativo';
  }
  return erros;
}

// ---------------------------------------------------------------------------------------------
// Reads

function paraMercado(l: Linha<'mercado'>): Mercado {
  return {
    id: l.id,
    nome: l.nome,
    descricao: l.descricao,
    tipo: l.tipo,
    taxaAdministrativaCentesimos: l.taxaAdministrativaCentesimos,
    valorMaximoCestaCentavos: l.valorMaximoCestaCentavos,
    ativo: l.ativo,
    adminId: l.adminId,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

function paraPreco(l: Linha<'precomercado'>): PrecoMercado {
  return {
    id: l.id,
    mercadoId: l.mercadoId,
    produtoId: l.produtoId,
    precoCentavos: l.precoCentavos,
    ativo: l.ativo,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

/** Every market, or only the active (or inactive) ones, in the order they were created. */
export async function listarMercados(
  db: Db,
  filtro: { readonly ativo?: boolean | undefined } = {},
): Promise<Mercado[]> {
  let q = db.selectFrom('mercado').selectAll().orderBy('id');
  if (filtro.ativo !== undefined) q = q.where('ativo', '=', filtro.ativo);
  return (await q.execute()).map(paraMercado);
}

export async function mercadoPorId(db: Db, id: number): Promise<Mercado | null> {
  const l = await db.selectFrom('mercado').selectAll().where('id', '=', id).executeTakeFirst();
  return l === undefined ? null : paraMercado(l);
}

/** The markets each of these accounts administers, in one query. */
export async function mercadosDosAdmins(db: Db, adminIds: readonly number[]): Promise<Map<number, Mercado[]>> {
  const porAdmin = new Map<number, Mercado[]>(adminIds.map((id) => [id, []]));
  if (adminIds.length === 0) return porAdmin;
  const linhas = await db
    .selectFrom('mercado')
    .selectAll()
    .where('adminId', 'in', [...new Set(adminIds)])
    .orderBy('id')
    .execute();
  for (const l of linhas) porAdmin.get(l.adminId)?.push(paraMercado(l));
  return porAdmin;
}

/** The prices of each of these markets, active or not, in one query. */
export async function precosDosMercados(db: Db, mercadoIds: readonly number[]): Promise<Map<number, PrecoMercado[]>> {
  const porMercado = new Map<number, PrecoMercado[]>(mercadoIds.map((id) => [id, []]));
  if (mercadoIds.length === 0) return porMercado;
  const linhas = await db
    .selectFrom('precomercado')
    .selectAll()
    .where('mercadoId', 'in', [...new Set(mercadoIds)])
    .orderBy('id')
    .execute();
  for (const l of linhas) porMercado.get(l.mercadoId)?.push(paraPreco(l));
  return porMercado;
}

function consultaDeProdutos(db: Db) {
  return db.selectFrom('produto').select(['id', 'nome', 'unidade', 'valorReferenciaCentavos', 'ativo']);
}

/** Catalogue products by id, in one query. */
export async function produtosPorIds(db: Db, ids: readonly number[]): Promise<Map<number, ProdutoDoCatalogo>> {
  if (ids.length === 0) return new Map();
  const linhas = await consultaDeProdutos(db)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(linhas.map((l) => [l.id, l]));
}

/** The shared catalogue as markets see it: optionally searched by name and filtered by ativo. */
export async function buscarProdutos(
  db: Db,
  filtro: { readonly busca: string | null; readonly ativo: boolean | null },
): Promise<ProdutoDoCatalogo[]> {
  let q = consultaDeProdutos(db).orderBy('nomeChave').orderBy('id');
  if (filtro.busca !== null && filtro.busca !== '') q = q.where(contem('nomeChave', chaveDeNome(filtro.busca)));
  if (filtro.ativo !== null) q = q.where('ativo', '=', filtro.ativo);
  return q.execute();
}

// ---------------------------------------------------------------------------------------------
// Writes

function ehPostgres(trx: Transaction<DB>): boolean {
  return trx.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Loads a market to change it. NOTE: on PostgreSQL the row stays locked until commit, so a
 * concurrent change of its adminId cannot slip between the ownership check and the write;
 * SQLite already serialises writers on its one connection.
 */
async function mercadoParaAlterar(trx: Transaction<DB>, id: number): Promise<Mercado> {
  const q = trx.selectFrom('mercado').selectAll().where('id', '=', id);
  const l = await (ehPostgres(trx) ? q.forUpdate() : q).executeTakeFirst();
  if (l === undefined) throw mercadoNaoEncontrado();
  return paraMercado(l);
}

function mercadoNaoEncontrado(): Invalido {
  return new Invalido('MERCADO_NAO_ENCONTRADO', 'Mercado não encontrado', { id: 'Mercado não encontrado' });
}

/**
 * Refuses an unknown market, or one the actor may not change, before the edge judges the input:
 * someone else's market is refused as such, whatever its input says. The write checks again,
 * under its lock.
 */
export async function exigirMercadoAlteravel(
  db: Db,
  ator: AtorMercados,
  acao: 'atualizarMercado' | 'atualizarPrecos',
  id: number,
): Promise<void> {
  const mercado = await mercadoPorId(db, id);
  if (mercado === null) throw mercadoNaoEncontrado();
  autorizarMercados(ator, acao, mercado);
}

/** A market's administrator must exist and hold AdminMercado or Administrador. */
async function exigirAdminValido(db: Db, adminId: number): Promise<void> {
  const conta = await contaPorId(db, adminId);
  if (conta === null) {
    throw new Invalido('ADMIN_NAO_ENCONTRADO', 'Usuário não encontrado', { adminId: 'Usuário não encontrado' });
  }
  if (!conta.profiles.some((p) => p === 'AdminMercado' || p === 'Administrador')) {
    const mensagem = 'O administrador do mercado precisa ter o perfil AdminMercado ou Administrador';
    throw new Invalido('ADMIN_SEM_PERFIL', mensagem, { adminId: mensagem });
  }
}

/** An Administrador creates a market; its administrator is the creator unless adminId names another. */
export async function criarMercado(
  banco: Banco,
  ator: AtorMercados,
  dados: DadosMercado,
  agora: Date,
): Promise<Mercado> {
  autorizarMercados(ator, 'criarMercado', null);
  recusarInvalidos(regrasDoMercado(dados));
  const iso = agora.toISOString();
  return emTransacao(banco, async (trx) => {
    const adminId = dados.adminId ?? ator.id;
    await exigirAdminValido(trx, adminId);
    const l = await trx
      .insertInto('mercado')
      .values({
        nome: dados.nome,
        descricao: dados.descricao,
        tipo: dados.tipo,
        taxaAdministrativaCentesimos: dados.taxaAdministrativaCentesimos,
        valorMaximoCestaCentavos: dados.valorMaximoCestaCentavos,
        ativo: dados.ativo ?? true,
        adminId,
        createdAt: iso,
        updatedAt: iso,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const mercado = paraMercado(l);
    await auditar(trx, atorDaAuditoria(ator), agora, {
      acao: 'criar',
      entidade: 'mercado',
      entidadeId: mercado.id,
      depois: mercado,
    });
    return mercado;
  });
}

/**
 * Replaces a market's fields. An AdminMercado may change only the market they administer, and
 * neither its adminId nor its ativo; fields left out (adminId, ativo) stay as they are.
 */
export async function atualizarMercado(
  banco: Banco,
  ator: AtorMercados,
  id: number,
  dados: DadosMercado,
  agora: Date,
): Promise<Mercado> {
  return emTransacao(banco, async (trx) => {
    const antes = await mercadoParaAlterar(trx, id);
    // Ownership before the input is judged: someone else's market is refused as such.
    autorizarMercados(ator, 'atualizarMercado', antes);
    recusarInvalidos(regrasDoMercado(dados));
    const adminId = dados.adminId ?? antes.adminId;
    const ativo = dados.ativo ?? antes.ativo;
    if (adminId !== antes.adminId || ativo !== antes.ativo) autorizarMercados(ator, 'gerirMercado', null);
    if (adminId !== antes.adminId) await exigirAdminValido(trx, adminId);
    const l = await trx
      .updateTable('mercado')
      .set({
        nome: dados.nome,
        descricao: dados.descricao,
        tipo: dados.tipo,
        taxaAdministrativaCentesimos: dados.taxaAdministrativaCentesimos,
        valorMaximoCestaCentavos: dados.valorMaximoCestaCentavos,
        ativo,
        adminId,
        updatedAt: agora.toISOString(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const depois = paraMercado(l);
    await auditar(trx, atorDaAuditoria(ator), agora, {
      acao: 'alterar',
      entidade: 'mercado',
      entidadeId: id,
      antes,
      depois,
    });
    return depois;
  });
}

/** An Administrador deactivates a market; nothing is ever deleted. Deactivating twice changes nothing. */
export async function desativarMercado(banco: Banco, ator: AtorMercados, id: number, agora: Date): Promise<Mercado> {
  autorizarMercados(ator, 'desativarMercado', null);
  return emTransacao(banco, async (trx) => {
    const antes = await mercadoParaAlterar(trx, id);
    if (!antes.ativo) return antes;
    const l = await trx
      .updateTable('mercado')
      .set({ ativo: false, updatedAt: agora.toISOString() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const depois = paraMercado(l);
    await auditar(trx, atorDaAuditoria(ator), agora, {
      acao: 'desativar',
      entidade: 'mercado',
      entidadeId: id,
      antes,
      depois,
    });
    return depois;
  });
}

/**
 * Upserts a batch of prices of one market, all or nothing: every line is validated and every
 * product id is checked in a single query before anything is written. Lines without `ativo`
 * keep the current flag (new prices start active).
 */
export async function atualizarPrecoMercado(
  banco: Banco,
  ator: AtorMercados,
  id: number,
  linhas: readonly LinhaDePreco[],
  agora: Date,
): Promise<Mercado> {
  const iso = agora.toISOString();
  return emTransacao(banco, async (trx) => {
    const mercado = await mercadoParaAlterar(trx, id);
    // Ownership before the input is judged: someone else's market is refused as such.
    autorizarMercados(ator, 'atualizarPrecos', mercado);
    recusarInvalidos(regrasDoLote(linhas));
    if (linhas.length === 0) return mercado;
    const produtoIds = linhas.map((l) => l.produtoId);
    const existentes = new Set(
      (await trx.selectFrom('produto').select('id').where('id', 'in', produtoIds).execute()).map((p) => p.id),
    );
    recusarInvalidos(
      Object.fromEntries(
        linhas
          .filter((l) => !existentes.has(l.produtoId))
          .map((l) => [`${l.campo}.produtoId`, 'Produto não encontrado']),
      ),
    );

    const antes = await trx
      .selectFrom('precomercado')
      .selectAll()
      .where('mercadoId', '=', id)
      .where('produtoId', 'in', produtoIds)
      .execute();
    const ativoAntes = new Map(antes.map((p) => [p.produtoId, p.ativo]));
    const depois = await trx
      .insertInto('precomercado')
      .values(
        linhas.map((l) => ({
          mercadoId: id,
          produtoId: l.produtoId,
          precoCentavos: l.precoCentavos,
          ativo: l.ativo ?? ativoAntes.get(l.produtoId) ?? true,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['mercadoId', 'produtoId']).doUpdateSet((eb) => ({
          precoCentavos: eb.ref('excluded.precoCentavos'),
          ativo: eb.ref('excluded.ativo'),
          updatedAt: eb.ref('excluded.updatedAt'),
        })),
      )
      .returningAll()
      .execute();
    await auditar(trx, atorDaAuditoria(ator), agora, {
      acao: 'alterarPrecos',
      entidade: 'mercado',
      entidadeId: id,
      antes: antes.map(paraPreco),
      depois: depois.map(paraPreco),
    });
    return mercado;
  });
}
