import { createHash, randomBytes } from 'node:crypto';
import { PostgresAdapter, type Transaction } from 'kysely';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import type { DB } from '../db/tipos.ts';
import { auditar } from './auditoria.ts';
import { violouUnicidade } from '../db/erros.ts';
import { Conflito, Invalido, Proibido, recusarInvalidos } from './erros.ts';
import {
  PERFIL_PADRAO,
  PROFILES,
  atorDaAuditoria,
  autorizarMercados,
  type AtorMercados,
  type NomePerfil,
} from './politica-mercados.ts';
import { gravarPapeis, lerPapeis, papeisComPerfisDoMercados, perfisDoMercados } from './papeis.ts';
import { situacaoDoVinculo, loginDeOutraPessoa, vincularIdentidade } from './identidades.ts';
import { unirPorEmail } from './pessoas.ts';
import { chaveDeEmail } from './usuarios.ts';
import { EMAIL, conferirTexto } from './textos.ts';

/**
 * Mercados accounts: the people who log in through the OAuth provider (the spec's User), their
 * access profiles, and the server-side sessions that carry their login between requests. An
 * account linked to a person (src/domain/pessoas.ts) has the person's roles, read as profiles.
 */

/** Server-side session lifetime, counted from login (spec, section 8). */
export const DURACAO_SESSAO_MS = 24 * 60 * 60 * 1000;

export interface Conta {
  readonly id: number;
  readonly providerId: string;
  readonly email: string;
  /** Whether the provider vouched for the e-mail: an unverified one is the account's own and identifies nobody. */
  readonly emailVerificado: boolean;
  readonly name: string;
  readonly avatar: string | null;
  /** The person's Cestas record (Usuario), once the account is linked to it; null before. */
  readonly usuarioId: number | null;
  /** Profile names, in the canonical order of PROFILES. */
  readonly profiles: readonly NomePerfil[];
}

/** The profile the provider delivered, before validation. */
export interface PerfilDoProvedor {
  /** The issuer that vouched for `providerId`: an account is found by both, never by the subject alone. */
  readonly emissor: string;
  readonly providerId: string;
  readonly email: string | undefined;
  readonly name: string | undefined;
  readonly avatar: string | undefined;
  /** Whether the provider says it verified the e-mail (`email_verified`). */
  readonly emailVerificado: boolean;
}

export interface Login {
  readonly conta: Conta;
  /** True when this login created the account. */
  readonly criada: boolean;
  /** The new session's token: it goes into the cookie and nowhere else. */
  readonly sessao: string;
}

export interface ContextoLogin {
  readonly agora: Date;
  readonly adminEmails: ReadonlySet<string>;
  /** The token of the session the browser already had, ended at login so ids never carry over. */
  readonly sessaoAnterior: string | null;
}

interface DadosDoProvedor {
  readonly emissor: string;
  readonly providerId: string;
  readonly email: string;
  readonly emailChave: string;
  readonly name: string;
  readonly avatar: string | null;
}

/** The stored key of a session: a hash, so the table alone opens no session. */
function chaveDaSessao(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function novoToken(): string {
  return randomBytes(32).toString('base64url');
}

function avatarValido(v: string | undefined): string | null {
  // A bad picture address is no reason to refuse a login: it is simply not kept.
  if (v === undefined || v.length > 2000 || !/^https?:\/\/\S+$/i.test(v)) return null;
  return v;
}

/**
 * What an account keeps of the provider's profile: an id, an e-mail and a name, each present,
 * within its column and free of control characters, and the e-mail a real address.
 */
function lerPerfilDoProvedor(p: PerfilDoProvedor): DadosDoProvedor {
  const erros: Record<string, string> = {};
  const texto = (campo: string, valor: string | undefined, max: number): string => {
    if (valor === undefined || valor.trim() === '') {
      erros[campo] = 'Campo obrigatório';
      return '';
    }
    const { texto: t, problema } = conferirTexto(valor, { max });
    if (problema !== null) erros[campo] = problema;
    return t;
  };
  const providerId = texto('providerId', p.providerId, 255);
  const email = texto('email', p.email, 254);
  if (erros.email === undefined && !EMAIL.test(email)) erros.email = 'E-mail inválido';
  const name = texto('name', p.name, 200);
  recusarInvalidos(erros);
  return {
    emissor: p.emissor,
    providerId,
    email,
    emailChave: chaveDeEmail(email),
    name,
    avatar: avatarValido(p.avatar),
  };
}

interface LinhaContaPerfil {
  readonly id: number;
  readonly providerId: string;
  readonly email: string;
  readonly emailVerificado: unknown;
  readonly name: string;
  readonly avatar: string | null;
  readonly usuarioId: number | null;
  /** The linked person's stored roles and whether they are active (null when not linked). */
  readonly papeis: string | null;
  readonly pessoaAtiva: boolean | null;
  /** One of the account's own profiles (an account not linked yet). */
  readonly perfil: string | null;
}

/**
 * A linked account has its person's roles, mapped to profiles; an inactive person, refused
 * everywhere in Cestas, holds none here. An account not linked has its own profile rows.
 */
function perfisDasLinhas(linhas: readonly [LinhaContaPerfil, ...LinhaContaPerfil[]]): NomePerfil[] {
  const [primeira] = linhas;
  if (primeira.usuarioId !== null)
    return primeira.pessoaAtiva === true ? perfisDoMercados(lerPapeis(primeira.papeis ?? '[]')) : [];
  const nomes = new Set(linhas.map((l) => l.perfil));
  return PROFILES.filter((p) => nomes.has(p));
}

/** Folds the rows of one account (one per profile, from a left join) into a Conta. */
function paraConta(linhas: readonly LinhaContaPerfil[]): Conta | null {
  const primeira = linhas[0];
  if (primeira === undefined) return null;
  return {
    id: primeira.id,
    providerId: primeira.providerId,
    email: primeira.email,
    emailVerificado: primeira.emailVerificado === true || Number(primeira.emailVerificado) === 1,
    name: primeira.name,
    avatar: primeira.avatar,
    usuarioId: primeira.usuarioId,
    profiles: perfisDasLinhas([primeira, ...linhas.slice(1)]),
  };
}

/** Folds the rows of many accounts (one per profile) into Contas, keeping the rows' order. */
function paraContas(linhas: readonly LinhaContaPerfil[]): Conta[] {
  const porId = new Map<number, LinhaContaPerfil[]>();
  for (const l of linhas) {
    const grupo = porId.get(l.id);
    if (grupo === undefined) porId.set(l.id, [l]);
    else grupo.push(l);
  }
  return [...porId.values()].map((grupo) => paraConta(grupo)).filter((c): c is Conta => c !== null);
}

const COLUNAS_DA_CONTA = [
  'u.id',
  'u.providerId',
  'u.email',
  'u.emailVerificado',
  'u.name',
  'u.avatar',
  'u.usuarioId',
  'pe.perfil as papeis',
  'pe.ativo as pessoaAtiva',
  'p.name as perfil',
] as const;

function consultaDeContas(db: Db) {
  return db
    .selectFrom('appuser as u')
    .leftJoin('usuario as pe', 'pe.id', 'u.usuarioId')
    .leftJoin('appuserprofile as up', 'up.userId', 'u.id')
    .leftJoin('profile as p', 'p.id', 'up.profileId')
    .select(COLUNAS_DA_CONTA);
}

/** Accounts with their profiles, by id, in one query (for batching). */
export async function contasPorIds(db: Db, ids: readonly number[]): Promise<Map<number, Conta>> {
  if (ids.length === 0) return new Map();
  const linhas = await consultaDeContas(db)
    .where('u.id', 'in', [...new Set(ids)])
    .execute();
  return new Map(paraContas(linhas).map((c) => [c.id, c]));
}

/** Every account with its profiles, in the order they were created, in one query. */
export async function listarContas(db: Db): Promise<Conta[]> {
  return paraContas(await consultaDeContas(db).orderBy('u.id').execute());
}

/** An account with its profiles, in one query. */
export async function contaPorId(db: Db, id: number): Promise<Conta | null> {
  return paraConta(await consultaDeContas(db).where('u.id', '=', id).execute());
}

/** Every Mercados request with a session runs this: compiled once (see consultaPreparada). */
const linhasDaSessao = consultaPreparada(
  (db: Db, chave: string, agoraIso: string) =>
    db
      .selectFrom('appsession as s')
      .innerJoin('appuser as u', 'u.id', 's.userId')
      .leftJoin('usuario as pe', 'pe.id', 'u.usuarioId')
      .leftJoin('appuserprofile as up', 'up.userId', 'u.id')
      .leftJoin('profile as p', 'p.id', 'up.profileId')
      .select(COLUNAS_DA_CONTA)
      .where('s.id', '=', chave)
      .where('s.expiresAt', '>', agoraIso)
      // The person ended every session (another device, an e-mail change, a release, deactivation) after this one began.
      .where((eb) => eb.or([eb('pe.sessoesDesde', 'is', null), eb('s.createdAt', '>', eb.ref('pe.sessoesDesde'))])),
  2,
);

/**
 * The account behind a session token, reloaded with its profiles in one query; null when the
 * session does not exist or has expired.
 */
export async function contaDaSessao(db: Db, token: string, agora: Date): Promise<Conta | null> {
  return paraConta(await linhasDaSessao(db, chaveDaSessao(token), agora.toISOString()));
}

/** The account whose provider verified this e-mail, other than `exceto`: only such an account holds an address. */
async function donoDoEmail(trx: Db, emailChave: string, exceto: number | null): Promise<number | undefined> {
  let q = trx
    .selectFrom('appuser')
    .select('id')
    .where('emailChave', '=', emailChave)
    .where('emailVerificado', '=', true);
  if (exceto !== null) q = q.where('id', '<>', exceto);
  return (await q.executeTakeFirst())?.id;
}

async function criarConta(trx: Db, dados: DadosDoProvedor, verificado: boolean, ctx: ContextoLogin): Promise<number> {
  // NOTE: never link by e-mail: a different subject claiming a known e-mail could be anyone. An
  // address nobody vouched for holds nothing, so it never keeps the verified owner out.
  if (verificado && (await donoDoEmail(trx, dados.emailChave, null)) !== undefined) {
    throw new Conflito('EMAIL_DE_OUTRA_CONTA', 'Este e-mail já pertence a outra conta');
  }
  const iso = ctx.agora.toISOString();
  const { id } = await trx
    .insertInto('appuser')
    .values({ ...dados, emailVerificado: verificado, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  // NOTE: an address the provider has not verified could be anyone's, so it earns no Administrador.
  const nomes: NomePerfil[] =
    verificado && ctx.adminEmails.has(dados.emailChave) ? ['Administrador', PERFIL_PADRAO] : [PERFIL_PADRAO];
  const perfis = await trx.selectFrom('profile').select('id').where('name', 'in', nomes).execute();
  await trx
    .insertInto('appuserprofile')
    .values(perfis.map((p) => ({ userId: id, profileId: p.id, createdAt: iso, updatedAt: iso })))
    .execute();
  return id;
}

/**
 * Keeps the account in step with the provider: name, picture and e-mail as it now reports them.
 * An e-mail that already belongs to another account, or that the provider has not verified, is
 * not taken over; the old one stays.
 */
async function atualizarConta(
  trx: Db,
  id: number,
  atual: DadosDoProvedor & { readonly emailVerificado: boolean },
  dados: DadosDoProvedor,
  verificado: boolean,
  agora: Date,
): Promise<void> {
  let email = { email: atual.email, emailChave: atual.emailChave, emailVerificado: atual.emailVerificado };
  const livre = async () => verificado && (await donoDoEmail(trx, dados.emailChave, id)) === undefined;
  // The same address, vouched for (or no longer) by the provider now; an unverified one is kept as
  // the account's own, holding nothing.
  if (dados.emailChave === atual.emailChave)
    email = { email: dados.email, emailChave: dados.emailChave, emailVerificado: await livre() };
  else if (!atual.emailVerificado || (await livre()))
    email = { email: dados.email, emailChave: dados.emailChave, emailVerificado: await livre() };
  if (
    email.email === atual.email &&
    email.emailVerificado === atual.emailVerificado &&
    dados.name === atual.name &&
    dados.avatar === atual.avatar
  )
    return;
  await trx
    .updateTable('appuser')
    .set({ ...email, name: dados.name, avatar: dados.avatar, updatedAt: agora.toISOString() })
    .where('id', '=', id)
    .execute();
}

/**
 * The account of a login: by issuer and subject. An account from before issuers were recorded
 * (empty issuer) is adopted by the first login of its subject.
 */
async function contaDoLogin(trx: Db, dados: DadosDoProvedor) {
  const propria = await trx
    .selectFrom('appuser')
    .selectAll()
    .where('emissor', '=', dados.emissor)
    .where('providerId', '=', dados.providerId)
    .executeTakeFirst();
  if (propria !== undefined || dados.emissor === '') return propria;
  const antiga = await trx
    .selectFrom('appuser')
    .selectAll()
    .where('emissor', '=', '')
    .where('providerId', '=', dados.providerId)
    .executeTakeFirst();
  if (antiga === undefined) return undefined;
  await trx.updateTable('appuser').set({ emissor: dados.emissor }).where('id', '=', antiga.id).execute();
  return { ...antiga, emissor: dados.emissor };
}

/**
 * The person behind a login (src/domain/identidades.ts): the account's own person, bound to this
 * login, or the person its verified e-mail names, who becomes the same account. A person bound to
 * another subject of this issuer refuses the login (Proibido), so nothing of the login is kept.
 */
async function ligarPessoa(trx: Db, id: number, dados: DadosDoProvedor, agora: Date): Promise<void> {
  const conta = await trx
    .selectFrom('appuser')
    .select(['usuarioId', 'emailChave', 'emailVerificado'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const vinculo = { emissor: dados.emissor, sub: dados.providerId };
  if (conta.usuarioId !== null) {
    await vincularIdentidade(trx, conta.usuarioId, vinculo, agora);
    return;
  }
  if (!conta.emailVerificado) return;
  const pessoa = await trx
    .selectFrom('usuario')
    .select('id')
    .where('emailChave', '=', conta.emailChave)
    .executeTakeFirst();
  if (pessoa === undefined) return;
  if ((await situacaoDoVinculo(trx, pessoa.id, vinculo)) === 'outra') throw loginDeOutraPessoa();
  // The profiles this login gave a new account (Consumidor, the first-login path) join the person's roles.
  await unirPorEmail(trx, conta.emailChave, agora);
}

async function entrar(
  trx: Db,
  dados: DadosDoProvedor,
  verificado: boolean,
  token: string,
  ctx: ContextoLogin,
): Promise<Login> {
  const existente = await contaDoLogin(trx, dados);
  let id: number;
  if (existente === undefined) {
    id = await criarConta(trx, dados, verificado, ctx);
  } else {
    id = existente.id;
    await atualizarConta(trx, id, existente, dados, verificado, ctx.agora);
  }
  await ligarPessoa(trx, id, dados, ctx.agora);
  if (ctx.sessaoAnterior !== null) {
    await trx.deleteFrom('appsession').where('id', '=', chaveDaSessao(ctx.sessaoAnterior)).execute();
  }
  // A session begins after the person last ended all their sessions, even on a clock behind the
  // one that recorded it (the session read compares the two).
  const pessoa = await trx
    .selectFrom('appuser as u')
    .innerJoin('usuario as pe', 'pe.id', 'u.usuarioId')
    .select('pe.sessoesDesde')
    .where('u.id', '=', id)
    .executeTakeFirst();
  const desde = pessoa?.sessoesDesde == null ? 0 : Date.parse(pessoa.sessoesDesde) + 1;
  const inicio = new Date(Math.max(ctx.agora.getTime(), desde));
  const iso = inicio.toISOString();
  await trx
    .insertInto('appsession')
    .values({
      id: chaveDaSessao(token),
      userId: id,
      expiresAt: new Date(inicio.getTime() + DURACAO_SESSAO_MS).toISOString(),
      createdAt: iso,
      updatedAt: iso,
    })
    .execute();
  const conta = await contaPorId(trx, id);
  if (conta === null) throw new Error(`conta ${id} sumiu durante o login`);
  return { conta, criada: existente === undefined, sessao: token };
}

/**
 * Logs in the person the provider vouched for: finds the account by providerId or creates it
 * with profile Consumidor (and Administrador for e-mails in ADMIN_EMAILS), ends the browser's
 * previous session and opens a new one, all in one transaction: on failure nothing is created.
 */
export async function entrarComProvedor(banco: Banco, perfil: PerfilDoProvedor, ctx: ContextoLogin): Promise<Login> {
  const dados = lerPerfilDoProvedor(perfil);
  const token = novoToken();
  try {
    return await emTransacao(banco, (trx) => entrar(trx, dados, perfil.emailVerificado, token, ctx));
  } catch (e) {
    // NOTE: two first logins of one person at once (two tabs): the slower one either hits the
    // unique providerId or, if the faster one already committed, sees its e-mail as taken. Either
    // way the account now exists under this providerId, so a second attempt simply finds it.
    if (!violouUnicidade(e) && !(e instanceof Conflito)) throw e;
    const criadaAoLado = await banco
      .selectFrom('appuser')
      .select('id')
      .where('emissor', '=', dados.emissor)
      .where('providerId', '=', dados.providerId)
      .executeTakeFirst();
    if (criadaAoLado === undefined) throw e;
    return emTransacao(banco, (trx) => entrar(trx, dados, perfil.emailVerificado, token, ctx));
  }
}

/** Ends a session; true when there was one to end. */
export async function encerrarSessao(db: Db, token: string): Promise<boolean> {
  const r = await db.deleteFrom('appsession').where('id', '=', chaveDaSessao(token)).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Deletes every expired session; idempotent, safe to run from several processes at once. */
export async function purgarSessoesExpiradas(db: Db, agora: Date): Promise<number> {
  const r = await db.deleteFrom('appsession').where('expiresAt', '<=', agora.toISOString()).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Serialises every change to who holds Administrador. NOTE: two administrators removing each
 * other at once would each see the other still there and both succeed; on PostgreSQL the
 * profile row is locked for the rest of the transaction, and SQLite serialises writers already.
 */
async function travarAdministradores(trx: Transaction<DB>): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await trx.selectFrom('profile').select('id').where('name', '=', 'Administrador').forUpdate().execute();
}

/**
 * Who holds Administrador: accounts not linked with the profile row, and active people whose roles
 * include admin or master (with or without a Mercados account: the role is the person's).
 */
async function contarAdministradores(db: Db): Promise<number> {
  const contas = await db
    .selectFrom('appuserprofile as up')
    .innerJoin('profile as p', 'p.id', 'up.profileId')
    .innerJoin('appuser as u', 'u.id', 'up.userId')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('p.name', '=', 'Administrador')
    .where('u.usuarioId', 'is', null)
    .executeTakeFirstOrThrow();
  const pessoas = await db
    .selectFrom('usuario')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ativo', '=', true)
    .where((eb) => eb.or([eb('perfil', 'like', '%"admin"%'), eb('perfil', 'like', '%"master"%')]))
    .executeTakeFirstOrThrow();
  return Number(contas.n) + Number(pessoas.n);
}

/** Writes the new profiles where the account keeps them: the linked person's roles, or its own rows. */
async function gravarPerfisDaConta(trx: Db, alvo: Conta, perfis: readonly NomePerfil[], iso: string): Promise<void> {
  if (alvo.usuarioId !== null) {
    const pessoa = await trx
      .selectFrom('usuario')
      .select('perfil')
      .where('id', '=', alvo.usuarioId)
      .executeTakeFirstOrThrow();
    const papeis = papeisComPerfisDoMercados(lerPapeis(pessoa.perfil), perfis);
    await trx
      .updateTable('usuario')
      .set({ perfil: gravarPapeis(papeis), updatedAt: iso })
      .where('id', '=', alvo.usuarioId)
      .execute();
    return;
  }
  await trx.deleteFrom('appuserprofile').where('userId', '=', alvo.id).execute();
  const ids = await trx.selectFrom('profile').select('id').where('name', 'in', perfis).execute();
  await trx
    .insertInto('appuserprofile')
    .values(ids.map((p) => ({ userId: alvo.id, profileId: p.id, createdAt: iso, updatedAt: iso })))
    .execute();
}

/**
 * An Administrador replaces a user's profiles with the given set (at least one). Nobody drops
 * their own Administrador, and the last Administrador stays. The actor's own profiles are read
 * again under the lock: a session loaded before a concurrent change may be out of date.
 */
export async function atribuirPerfis(
  banco: Banco,
  ator: AtorMercados,
  entrada: { readonly userId: number; readonly perfis: readonly NomePerfil[] },
  agora: Date,
): Promise<Conta> {
  autorizarMercados(ator, 'atribuirPerfis', null);
  const { userId } = entrada;
  if (entrada.perfis.length === 0) recusarInvalidos({ perfis: 'Informe pelo menos um perfil' });
  const perfis = PROFILES.filter((p) => entrada.perfis.includes(p));
  return emTransacao(banco, async (trx) => {
    await travarAdministradores(trx);
    autorizarMercados((await contaPorId(trx, ator.id)) ?? { ...ator, profiles: [] }, 'atribuirPerfis', null);
    const alvo = await contaPorId(trx, userId);
    if (alvo === null)
      throw new Invalido('USUARIO_NAO_ENCONTRADO', 'Usuário não encontrado', { userId: 'Usuário não encontrado' });
    const perdeAdministrador = alvo.profiles.includes('Administrador') && !perfis.includes('Administrador');
    if (perdeAdministrador && alvo.id === ator.id) {
      throw new Proibido('PERFIL_PROPRIO', 'Você não pode retirar o seu próprio perfil Administrador');
    }
    // NOTE: with the rule above and the actor re-read under the lock, an Administrador can only
    // remove another one; this states the invariant itself, so it holds whatever rule changes.
    if (perdeAdministrador && (await contarAdministradores(trx)) <= 1) {
      throw new Conflito(
        'ULTIMO_ADMINISTRADOR',
        'Este é o último Administrador: conceda o perfil a outra pessoa antes',
      );
    }
    await gravarPerfisDaConta(trx, alvo, perfis, agora.toISOString());
    await auditar(trx, atorDaAuditoria(ator), agora, {
      acao: 'atribuirPerfis',
      entidade: 'appuser',
      entidadeId: userId,
      antes: { profiles: alvo.profiles },
      depois: { profiles: perfis },
    });
    const depois = await contaPorId(trx, userId);
    if (depois === null) throw new Error(`conta ${userId} sumiu ao atribuir perfis`);
    return depois;
  });
}

/**
 * Accounts from before issuers were recorded (migration 20261128_1000) belong to the issuer the
 * Mercados face is configured with: each takes it, and the login becomes one of its person's. An
 * account linked to a person who is bound to another subject of that issuer was linked by an
 * impostor's login (the hole this closes): it is unlinked, its sessions end, and that is audited.
 * Runs when the face starts; with nothing left to adopt it is one read.
 */
export async function adotarContasAntigas(
  banco: Banco,
  emissor: string,
  agora: Date,
): Promise<{ adotadas: number; desligadas: number }> {
  const antigas = await banco
    .selectFrom('appuser')
    .select(['id', 'providerId', 'usuarioId'])
    .where('emissor', '=', '')
    .execute();
  if (antigas.length === 0 || emissor === '') return { adotadas: 0, desligadas: 0 };
  return emTransacao(banco, async (trx) => {
    let adotadas = 0;
    let desligadas = 0;
    for (const c of antigas) {
      const r = await trx
        .updateTable('appuser')
        .set({ emissor })
        .where('id', '=', c.id)
        .where('emissor', '=', '')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) continue;
      adotadas++;
      if (c.usuarioId === null) continue;
      const vinculo = { emissor, sub: c.providerId };
      if ((await situacaoDoVinculo(trx, c.usuarioId, vinculo)) !== 'outra') {
        await vincularIdentidade(trx, c.usuarioId, vinculo, agora);
        continue;
      }
      desligadas++;
      const iso = agora.toISOString();
      await trx
        .updateTable('appuser')
        .set({ usuarioId: null, emailVerificado: false, updatedAt: iso })
        .where('id', '=', c.id)
        .execute();
      await trx.deleteFrom('appsession').where('userId', '=', c.id).execute();
      const padrao = await trx
        .selectFrom('profile')
        .select('id')
        .where('name', '=', PERFIL_PADRAO)
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('appuserprofile')
        .values({ userId: c.id, profileId: padrao.id, createdAt: iso, updatedAt: iso })
        .execute();
      await auditar(trx, { email: 'sistema', nome: 'Cestaria', usuarioid: null, perfil: [], ativo: true }, agora, {
        acao: 'desligar conta de outro login',
        entidade: 'appuser',
        entidadeId: c.id,
        antes: { usuarioId: c.usuarioId, providerId: c.providerId },
        depois: { usuarioId: null },
      });
    }
    return { adotadas, desligadas };
  });
}
