import { PostgresAdapter, type Transaction } from 'kysely';
import { contem } from '../db/consultas.ts';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import type { DB, Linha } from '../db/tipos.ts';
import { auditar } from './auditoria.ts';
import { ESCALA_DINHEIRO } from '../decimal.ts';
import { Invalido } from './erros.ts';
import { atorDaAuditoria, autorizarMercados, type AtorMercados } from './politica-mercados.ts';
import { Campos, MAIOR_ID, chaveDeNome, lerId, type Entrada } from './validacao.ts';

/**
 * Mercados (Variant B): markets, their prices over the shared product catalogue, and the one
 * table that says who may do what to them. Input comes as the GraphQL arguments arrive
 * (`id`, `input`), and invalid fields are named by their path from those arguments
 * (`input.nome`, `input.precos[2].preco`), so a client can point at the exact field.
 */

/** Basket sales, bulk lots (as in public school-food purchasing) and direct sale. */
export const TIPOS_MERCADO = ['cesta', 'lote', 'venda_direta'] as const;
export type TipoMercado = (typeof TIPOS_MERCADO)[number];

/** The administrative fee is a percentage with two places, kept in hundredths of a point. */
export const ESCALA_TAXA = 2;
const TAXA_MAXIMA = 100 * 10 ** ESCALA_TAXA;

/** Prices per batch: far above a real market's list, low enough to stay one statement. */
export const MAXIMO_PRECOS_POR_LOTE = 1000;



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

function comoObjeto(valor: unknown): Entrada {
  return valor !== null && typeof valor === 'object' && !Array.isArray(valor) ? (valor as Entrada) : {};
}

/** Collects field messages under a path prefix; `concluir()` refuses them all at once. */
class Erros {
  readonly #campos: Record<string, string> = {};

  juntar(prefixo: string, c: Campos): void {
    for (const [campo, mensagem] of Object.entries(c.erros)) this.#campos[`${prefixo}${campo}`] ??= mensagem;
  }

  erro(campo: string, mensagem: string): void {
    this.#campos[campo] ??= mensagem;
  }

  concluir(): void {
    if (Object.keys(this.#campos).length > 0) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { ...this.#campos });
    }
  }
}


interface DadosMercado {
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

/** Reads MercadoInput, naming every bad field as `input.<campo>`. */
function lerMercadoInput(input: unknown): DadosMercado {
  const c = new Campos(comoObjeto(input));
  const nome = c.texto('nome', { obrigatorio: true, max: 120 });
  const descricao = c.texto('descricao', { max: 2000 });
  const tipo = c.umDe('tipo', TIPOS_MERCADO, { obrigatorio: true });
  const taxa = c.decimal('taxaAdministrativa', ESCALA_TAXA);
  if (taxa !== null && taxa > TAXA_MAXIMA) c.erro('taxaAdministrativa', 'Deve estar entre 0 e 100');
  const valorMaximo = c.decimal('valorMaximoCesta', ESCALA_DINHEIRO);
  if (tipo === 'cesta' && valorMaximo === null) c.erro('valorMaximoCesta', 'Obrigatório quando o tipo é cesta');
  const adminId = c.inteiro('adminId', { min: 1, max: MAIOR_ID });
  const ativo = c.presente('ativo') ? c.booleano('ativo') : null;
  const erros = new Erros();
  erros.juntar('input.', c);
  erros.concluir();
  return {
    nome,
    descricao: descricao === '' ? null : descricao,
    // concluir() above refused a missing or unknown tipo.
    tipo: tipo as TipoMercado,
    taxaAdministrativaCentesimos: taxa,
    valorMaximoCestaCentavos: valorMaximo,
    adminId,
    ativo,
  };
}

interface LinhaDePreco {
  readonly campo: string;
  readonly produtoId: number;
  readonly precoCentavos: number;
  /** Absent: true for a new price, unchanged for an existing one. */
  readonly ativo: boolean | null;
}

/** Reads PrecoMercadoInput: every line checked, and every bad field named. */
function lerLoteDePrecos(input: unknown): LinhaDePreco[] {
  const bruto = comoObjeto(input).precos;
  const recusar = (mensagem: string): never => {
    throw new Invalido('VALIDACAO', mensagem, { 'input.precos': mensagem });
  };
  if (!Array.isArray(bruto)) return recusar('Informe a lista de preços');
  if (bruto.length > MAXIMO_PRECOS_POR_LOTE) recusar(`No máximo ${MAXIMO_PRECOS_POR_LOTE} preços por vez`);
  const erros = new Erros();
  const linhas: LinhaDePreco[] = [];
  const vistos = new Map<number, number>();
  bruto.forEach((item: unknown, i) => {
    const campo = `input.precos[${i}]`;
    const c = new Campos(comoObjeto(item));
    const produtoId = c.inteiro('produtoId', { obrigatorio: true, min: 1, max: MAIOR_ID });
    const precoCentavos = c.decimal('preco', ESCALA_DINHEIRO, { obrigatorio: true });
    const ativo = c.presente('ativo') ? c.booleano('ativo') : null;
    const anterior = vistos.get(produtoId);
    if (anterior !== undefined && c.erros.produtoId === undefined) {
      c.erro('produtoId', `Produto repetido no lote (já está em input.precos[${anterior}])`);
    }
    vistos.set(produtoId, anterior ?? i);
    erros.juntar(`${campo}.`, c);
    linhas.push({ campo, produtoId, precoCentavos, ativo });
  });
  erros.concluir();
  return linhas;
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
export async function listarMercados(db: Db, filtro: { readonly ativo?: boolean | undefined } = {}): Promise<Mercado[]> {
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
  const linhas = await db.selectFrom('mercado').selectAll().where('adminId', 'in', [...new Set(adminIds)]).orderBy('id').execute();
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
  const linhas = await consultaDeProdutos(db).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(linhas.map((l) => [l.id, l]));
}

/** The shared catalogue as markets see it: optionally searched by name and filtered by ativo. */
export async function buscarProdutos(
  db: Db,
  filtro: { readonly busca?: string | null | undefined; readonly ativo?: boolean | null | undefined },
): Promise<ProdutoDoCatalogo[]> {
  const c = new Campos({ busca: filtro.busca });
  const busca = c.texto('busca', { max: 100 });
  c.concluir();
  let q = consultaDeProdutos(db).orderBy('nomeChave').orderBy('id');
  if (busca !== null && busca !== '') q = q.where(contem('nomeChave', chaveDeNome(busca)));
  if (filtro.ativo !== null && filtro.ativo !== undefined) q = q.where('ativo', '=', filtro.ativo);
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
  if (l === undefined) throw new Invalido('MERCADO_NAO_ENCONTRADO', 'Mercado não encontrado', { id: 'Mercado não encontrado' });
  return paraMercado(l);
}

/** A market's administrator must exist and hold AdminMercado or Administrador. */
async function exigirAdminValido(db: Db, adminId: number): Promise<void> {
  const perfis = await db
    .selectFrom('appuser as u')
    .leftJoin('appuserprofile as up', 'up.userId', 'u.id')
    .leftJoin('profile as p', 'p.id', 'up.profileId')
    .select('p.name as perfil')
    .where('u.id', '=', adminId)
    .execute();
  if (perfis.length === 0) {
    throw new Invalido('ADMIN_NAO_ENCONTRADO', 'Usuário não encontrado', { 'input.adminId': 'Usuário não encontrado' });
  }
  if (!perfis.some((p) => p.perfil === 'AdminMercado' || p.perfil === 'Administrador')) {
    const mensagem = 'O administrador do mercado precisa ter o perfil AdminMercado ou Administrador';
    throw new Invalido('ADMIN_SEM_PERFIL', mensagem, { 'input.adminId': mensagem });
  }
}

/** An Administrador creates a market; its administrator is the creator unless adminId names another. */
export async function criarMercado(banco: Banco, ator: AtorMercados, input: unknown, agora: Date): Promise<Mercado> {
  autorizarMercados(ator, 'criarMercado', null);
  const dados = lerMercadoInput(input);
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
    await auditar(trx, atorDaAuditoria(ator), agora, { acao: 'criar', entidade: 'mercado', entidadeId: mercado.id, depois: mercado });
    return mercado;
  });
}

/**
 * Replaces a market's fields. An AdminMercado may change only the market they administer, and
 * neither its adminId nor its ativo; fields left out (adminId, ativo) stay as they are.
 */
export async function atualizarMercado(banco: Banco, ator: AtorMercados, idBruto: unknown, input: unknown, agora: Date): Promise<Mercado> {
  const id = lerId(idBruto, 'id');
  return emTransacao(banco, async (trx) => {
    const antes = await mercadoParaAlterar(trx, id);
    // Ownership before the input is judged: someone else's market is refused as such.
    autorizarMercados(ator, 'atualizarMercado', antes);
    const dados = lerMercadoInput(input);
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
    await auditar(trx, atorDaAuditoria(ator), agora, { acao: 'alterar', entidade: 'mercado', entidadeId: id, antes, depois });
    return depois;
  });
}

/** An Administrador deactivates a market; nothing is ever deleted. Deactivating twice changes nothing. */
export async function desativarMercado(banco: Banco, ator: AtorMercados, idBruto: unknown, agora: Date): Promise<Mercado> {
  autorizarMercados(ator, 'desativarMercado', null);
  const id = lerId(idBruto, 'id');
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
    await auditar(trx, atorDaAuditoria(ator), agora, { acao: 'desativar', entidade: 'mercado', entidadeId: id, antes, depois });
    return depois;
  });
}

/**
 * Upserts a batch of prices of one market, all or nothing: every line is validated and every
 * product id is checked in a single query before anything is written. Lines without `ativo`
 * keep the current flag (new prices start active).
 */
export async function atualizarPrecoMercado(banco: Banco, ator: AtorMercados, idBruto: unknown, input: unknown, agora: Date): Promise<Mercado> {
  const id = lerId(idBruto, 'id');
  const iso = agora.toISOString();
  return emTransacao(banco, async (trx) => {
    const mercado = await mercadoParaAlterar(trx, id);
    // Ownership before the input is judged: someone else's market is refused as such.
    autorizarMercados(ator, 'atualizarPrecos', mercado);
    const linhas = lerLoteDePrecos(input);
    if (linhas.length === 0) return mercado;
    const produtoIds = linhas.map((l) => l.produtoId);
    const existentes = new Set((await trx.selectFrom('produto').select('id').where('id', 'in', produtoIds).execute()).map((p) => p.id));
    const erros = new Erros();
    for (const l of linhas) if (!existentes.has(l.produtoId)) erros.erro(`${l.campo}.produtoId`, 'Produto não encontrado');
    erros.concluir();

    const antes = await trx.selectFrom('precomercado').selectAll().where('mercadoId', '=', id).where('produtoId', 'in', produtoIds).execute();
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
