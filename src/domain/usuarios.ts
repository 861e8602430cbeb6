import { sql, type ExpressionBuilder } from 'kysely';
import { contem, totalDaLista } from '../db/consultas.ts';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import { violouUnicidade } from '../db/erros.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import type { Alteracao, DB, Linha } from '../db/tipos.ts';
import { autorizar, ehMaster, type Acao, type Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { sessaoFoiEncerrada } from '../db/sessoes-encerradas.ts';
import { Conflito, NaoEncontrado, Proibido, recusarInvalidos } from './erros.ts';
import { desligarLogins, encerrarSessoesDaPessoa, vincularIdentidade, type Vinculo } from './identidades.ts';
import { PERFIS_AUTOCADASTRO, gravarPerfis, lerPerfis, type Perfil } from './perfis.ts';
import { gravarPapeis, lerPapeis, papeisComPerfisDaCestas, type Papel } from './papeis.ts';
import { unirPorEmail } from './pessoas.ts';
import { exigirSemReferencias, montarPagina, type Pagina, type PedidoDePagina, type Referencia } from './registros.ts';
import { chaveDeNome } from './textos.ts';

export interface Usuario {
  readonly id: number;
  readonly nome: string;
  readonly email: string;
  readonly perfil: Perfil[];
  readonly nomeoficial: string | null;
  readonly celular: string | null;
  readonly descritivo: string | null;
  readonly cientepolitica: boolean;
  readonly ativo: boolean;
  /** Whether a login is bound to the account (see conferirVinculoDeLogin). */
  readonly loginVinculado: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The identity delivered by the OpenID provider. */
export interface Identidade {
  readonly sub: string;
  /** The issuer that vouched for `sub`. */
  readonly iss?: string | undefined;
  readonly email: string;
  readonly name: string;
  readonly picture?: string | undefined;
  readonly email_verified?: boolean | undefined;
}

export function chaveDeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Writes an edit of a person's record and audits it, from the record as it was. */
async function regravar(
  trx: Db,
  ator: Ator,
  agora: Date,
  antes: Usuario,
  alteracao: Alteracao<'usuario'>,
): Promise<Usuario> {
  await trx
    .updateTable('usuario')
    .set({ ...alteracao, updatedAt: agora.toISOString() })
    .where('id', '=', antes.id)
    .execute();
  const depois = await obterUsuario(trx, antes.id);
  await auditar(trx, ator, agora, { acao: 'atualizar', entidade: 'usuario', entidadeId: antes.id, antes, depois });
  return depois;
}

/** Whether a login is bound to the record (src/domain/identidades.ts), as a column of the read. */
function loginVinculado(eb: ExpressionBuilder<DB, 'usuario'>) {
  return eb
    .exists(eb.selectFrom('identidade').select('identidade.id').whereRef('identidade.usuarioid', '=', 'usuario.id'))
    .as('loginVinculado');
}

function paraUsuario(l: Linha<'usuario'> & { readonly loginVinculado: unknown }): Usuario {
  return {
    id: l.id,
    nome: l.nome,
    email: l.email,
    perfil: lerPerfis(l.perfil),
    nomeoficial: l.nomeoficial,
    celular: l.celular,
    descritivo: l.descritivo,
    cientepolitica: l.cientepolitica,
    ativo: l.ativo,
    loginVinculado: l.loginVinculado === true || Number(l.loginVinculado) === 1,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
  };
}

/** Finds the Usuario matching a login e-mail, case-insensitively. */
export async function usuarioPorEmail(db: Db, email: string): Promise<Usuario | undefined> {
  const l = await db
    .selectFrom('usuario')
    .selectAll()
    .select(loginVinculado)
    .where('emailChave', '=', chaveDeEmail(email))
    .executeTakeFirst();
  return l === undefined ? undefined : paraUsuario(l);
}

export async function usuarioPorId(db: Db, id: number): Promise<Usuario | undefined> {
  const l = await db.selectFrom('usuario').selectAll().select(loginVinculado).where('id', '=', id).executeTakeFirst();
  return l === undefined ? undefined : paraUsuario(l);
}

/**
 * The Cestas actor of an account of the other face, linked to the person `usuarioid` (null: no
 * record yet): the person's name, profiles and state, as the cycle's rules judge them. An account
 * with no record (or a record gone) is an actor without one, who may do nothing on cycles.
 */
export async function atorDaConta(
  db: Db,
  usuarioid: number | null,
  conta: { readonly email: string; readonly nome: string },
): Promise<Ator> {
  const semCadastro: Ator = { email: conta.email, nome: conta.nome, usuarioid: null, perfil: [], ativo: true };
  if (usuarioid === null) return semCadastro;
  const u = await db
    .selectFrom('usuario')
    .select(['nome', 'perfil', 'ativo'])
    .where('id', '=', usuarioid)
    .executeTakeFirst();
  if (u === undefined) return semCadastro;
  return { email: conta.email, nome: u.nome, usuarioid, perfil: lerPerfis(u.perfil), ativo: Boolean(u.ativo) };
}

/**
 * What an account of the other face must pass to act on cycles, as the Cestas routes' access rule
 * (src/cestas/autenticacao.ts exigirAcesso): a Cestas record first (an account without one yet is
 * told how to complete it), then the action's rule (an inactive person may do nothing).
 */
export function autorizarNosCiclos(ator: Ator, acao: Acao): void {
  if (ator.usuarioid === null) {
    throw new Proibido(
      'CADASTRO_PENDENTE',
      'Esta conta ainda não tem cadastro na face Cestas: complete-o em /usuarionovo para agir nos ciclos',
    );
  }
  autorizar(ator, acao);
}

/** Every protected Cestas request runs this: compiled once (see consultaPreparada). */
const usuarioDaSessao = consultaPreparada(
  (db: Db, sid: string, emailChave: string, emissor: string, sub: string) =>
    db
      .selectFrom('usuario')
      .select(['id', 'nome', 'perfil', 'ativo', 'sessoesDesde'])
      .select((eb) => eb.exists(eb.selectFrom('sessaoencerrada').select('sid').where('sid', '=', sid)).as('encerrada'))
      // The person is bound to another subject of this session's issuer (src/domain/identidades.ts).
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('identidade')
              .select('identidade.id')
              .whereRef('identidade.usuarioid', '=', 'usuario.id')
              .where('identidade.emissor', '=', emissor)
              .where('identidade.sub', '<>', sub),
          )
          .as('outroLogin'),
      )
      // A literal true, not a parameter: PostgreSQL's generic plan of this named statement can then use the partial index on active subscriptions.
      .select((eb) =>
        eb
          .exists(
            eb
              .selectFrom('assinatura')
              .select('assinatura.id')
              .whereRef('assinatura.usuarioid', '=', 'usuario.id')
              .where('assinatura.ativa', '=', sql<boolean>`true`),
          )
          .as('assinante'),
      )
      .where('emailChave', '=', emailChave),
  4,
);

/**
 * The actor of a session, checking in the same query that the session has not ended: null when
 * it was logged out, when the account ended all its sessions after it began (a new e-mail, or
 * "sair de todos os aparelhos"), or when the account is bound to another login. Every
 * authenticated request runs this, so it is one primary-key probe and one unique-key lookup in a
 * single statement; only an identity without a Usuario (someone about to register) takes a second.
 */
export async function atorDaSessao(
  db: Db,
  sessao: { sid: string; inicio: number; identidade: Identidade },
): Promise<Ator | null> {
  const { sid, identidade } = sessao;
  const [l] = await usuarioDaSessao(
    db,
    sid,
    chaveDeEmail(identidade.email),
    vinculoDe(identidade).emissor,
    identidade.sub,
  );
  if (l === undefined) return (await sessaoFoiEncerrada(db, sid)) ? null : atorSemCadastro(identidade);
  if (l.encerrada === true || Number(l.encerrada) === 1) return null;
  if (l.sessoesDesde !== null && sessao.inicio <= Date.parse(l.sessoesDesde)) return null;
  if (l.outroLogin === true || Number(l.outroLogin) === 1) return null;
  return {
    email: identidade.email,
    nome: l.nome,
    usuarioid: l.id,
    perfil: lerPerfis(l.perfil),
    ativo: l.ativo,
    assinante: l.assinante === true || Number(l.assinante) === 1,
  };
}

function atorSemCadastro(identidade: Identidade): Ator {
  return { email: identidade.email, nome: identidade.name, usuarioid: null, perfil: [], ativo: true };
}

/** The personal fields a person edits about themselves, as the edge read them. */
export interface DadosPessoais {
  readonly nome: string;
  readonly nomeoficial: string | null;
  readonly celular: string | null;
  readonly descritivo: string | null;
  readonly cientepolitica: boolean;
}

/** Self-registration: one's personal fields and the perfis chosen. */
export interface EntradaAutocadastro extends DadosPessoais {
  readonly perfil: readonly Perfil[];
}

/** One's own record: personal fields and, where the page offers them, the perfis chosen again (null: kept). */
export interface EntradaProprioCadastro extends DadosPessoais {
  readonly perfil: readonly Perfil[] | null;
}

/** A user as an administrator writes it; `ativo` null when not sent (a new account is active, an edit keeps it). */
export interface EntradaUsuario extends DadosPessoais {
  readonly email: string;
  readonly perfil: readonly Perfil[];
  readonly ativo: boolean | null;
}

/**
 * The perfis one chooses for oneself (DOMAIN.md): only consumidor and/or fornecedor, and at
 * least one. Another perfil is forbidden rather than invalid, and is refused at once.
 */
export function regrasDaEscolhaDePerfis(perfil: readonly Perfil[]): Record<string, string> {
  const proibidos = perfil.filter((p) => !(PERFIS_AUTOCADASTRO as readonly string[]).includes(p));
  if (proibidos.length > 0) {
    throw new Proibido(
      'PERFIL_NAO_PERMITIDO',
      `No cadastro próprio só é possível escolher consumidor ou fornecedor (pedido: ${proibidos.join(', ')})`,
    );
  }
  return perfil.length === 0 ? { perfil: 'Escolha consumidor, fornecedor ou ambos' } : {};
}

/** A self-registration declares that the person knows the community's policy. */
export function regraDaPolitica(cientepolitica: boolean): Record<string, string> {
  return cientepolitica ? {} : { cientepolitica: 'É preciso declarar ciência da política da comunidade' };
}

/** DOMAIN.md: a user's perfil is a non-empty set. */
export function regraDosPerfis(perfil: readonly Perfil[]): Record<string, string> {
  return perfil.length === 0 ? { perfil: 'Escolha pelo menos um perfil' } : {};
}

/** Only one's own record, and only once there is one: checked before anything the body says. */
export function exigirProprioCadastro(ator: Ator, id: number): void {
  if (ator.usuarioid === null) throw new NaoEncontrado('SEM_CADASTRO', 'Você ainda não tem cadastro');
  if (ator.usuarioid !== id)
    throw new Proibido('CADASTRO_DE_OUTRA_PESSOA', 'Você só pode alterar o seu próprio cadastro');
}

export interface ContextoEscrita {
  readonly agora: Date;
  readonly adminEmails: ReadonlySet<string>;
}

/** Whether a login's e-mail may open an account: only one its provider has verified. */
export function emailVerificado(identidade: Identidade): boolean {
  return identidade.email_verified === true;
}

/** The binding a login gives the account it opens: its issuer (empty when the provider names none) and subject. */
function vinculoDe(identidade: Identidade): Vinculo {
  return { emissor: identidade.iss ?? '', sub: identidade.sub };
}

/**
 * Checks a completed login against the account its e-mail names (src/domain/identidades.ts). The
 * first verified login for the person, in either face, binds its issuer and subject; a later login
 * for the same e-mail with another subject of that issuer is someone else who holds the address (a
 * provider that lets anyone claim any e-mail), and is refused in both faces until a master releases
 * the binding. Returns the account (undefined when the e-mail has none yet) and the instant the new
 * session begins: now, or just after the account last ended all its sessions when that is not in
 * the past (a clock behind the one that recorded it, or the same millisecond), so a login made
 * after "sair de todos os aparelhos" is never itself taken as ended.
 */
export async function conferirVinculoDeLogin(
  banco: Banco,
  identidade: Identidade,
  agora: Date,
): Promise<{ usuario: Usuario | undefined; inicio: number }> {
  return emTransacao(banco, async (trx) => {
    const usuario = await usuarioPorEmail(trx, identidade.email);
    if (usuario === undefined) return { usuario: undefined, inicio: agora.getTime() };
    const l = await trx
      .selectFrom('usuario')
      .select('sessoesDesde')
      .where('id', '=', usuario.id)
      .executeTakeFirstOrThrow();
    const inicio =
      l.sessoesDesde === null ? agora.getTime() : Math.max(agora.getTime(), Date.parse(l.sessoesDesde) + 1);
    await vincularIdentidade(trx, usuario.id, vinculoDe(identidade), agora);
    return { usuario: { ...usuario, loginVinculado: true }, inicio };
  });
}

/** A master releases an account's logins, so that the next verified login for its e-mail binds anew. */
export async function liberarVinculoDeLogin(banco: Banco, ator: Ator, id: number, agora: Date): Promise<Usuario> {
  if (!ehMaster(ator))
    throw new Proibido('SO_MASTER_LIBERA_LOGIN', 'Só quem tem o perfil master pode liberar o login de um cadastro');
  return emTransacao(banco, async (trx) => {
    await obterUsuario(trx, id);
    // The old logins' sessions end with their binding, in both faces.
    const antes = await desligarLogins(trx, id, agora);
    await auditar(trx, ator, agora, {
      acao: 'liberar login',
      entidade: 'usuario',
      entidadeId: id,
      antes: { logins: antes },
      depois: { logins: [] },
    });
    return obterUsuario(trx, id);
  });
}

/** Ends every session of an account, on every device and in both faces ("sair de todos os aparelhos"). */
export async function encerrarTodasAsSessoes(banco: Banco, ator: Ator, agora: Date): Promise<void> {
  if (ator.usuarioid === null) throw new NaoEncontrado('SEM_CADASTRO', 'Você ainda não tem cadastro');
  const id = ator.usuarioid;
  await emTransacao(banco, async (trx) => {
    await encerrarSessoesDaPessoa(trx, id, agora);
    await auditar(trx, ator, agora, { acao: 'sair de todos os aparelhos', entidade: 'usuario', entidadeId: id });
  });
}

/**
 * Creates the Usuario of the logged-in identity, bound to that login. The e-mail always comes
 * from the identity, never from the input; verified e-mails listed in ADMIN_EMAILS also get master.
 */
export async function autoCadastrar(
  banco: Banco,
  identidade: Identidade,
  entrada: EntradaAutocadastro,
  ctx: ContextoEscrita,
): Promise<Usuario> {
  recusarInvalidos({ ...regrasDaEscolhaDePerfis(entrada.perfil), ...regraDaPolitica(entrada.cientepolitica) });
  const { perfil, ...dados } = entrada;
  const email = identidade.email.trim();
  const emailChave = chaveDeEmail(email);
  const perfilFinal: readonly Perfil[] =
    ctx.adminEmails.has(emailChave) && emailVerificado(identidade) ? [...perfil, 'master'] : perfil;
  return emTransacao(banco, async (trx) => {
    const existente = await trx
      .selectFrom('usuario')
      .select('id')
      .where('emailChave', '=', emailChave)
      .executeTakeFirst();
    if (existente !== undefined) {
      throw new Conflito('USUARIO_JA_CADASTRADO', 'Já existe um cadastro para este e-mail', {
        usuarioId: existente.id,
      });
    }
    const iso = ctx.agora.toISOString();
    const linha = await trx
      .insertInto('usuario')
      .values({
        ...dados,
        nomeChave: chaveDeNome(dados.nome),
        email,
        emailChave,
        perfil: gravarPerfis(perfilFinal),
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The login that registers is the first one bound to the record.
    await vincularIdentidade(trx, linha.id, vinculoDe(identidade), ctx.agora);
    const usuario = await obterUsuario(trx, linha.id);
    const ator: Ator = { email, nome: usuario.nome, usuarioid: usuario.id, perfil: usuario.perfil, ativo: true };
    await auditar(trx, ator, ctx.agora, {
      acao: 'autocadastro',
      entidade: 'usuario',
      entidadeId: usuario.id,
      depois: usuario,
    });
    // The person's Mercados account joins the record. Its roles are kept, except consumidor and
    // fornecedor: the form offered them already checked, and what the person chose there stands.
    const ligou = await unirPorEmail(trx, emailChave, ctx.agora, {
      ator,
      ajustar: (papeis) => escolherNoCadastro(papeis, perfil),
    });
    return ligou ? obterUsuario(trx, usuario.id) : usuario;
  });
}

/** The roles with consumidor and fornecedor as the person chose them on their own. */
function escolherNoCadastro(papeis: readonly Papel[], escolha: readonly Perfil[]): Papel[] {
  const proprios: readonly string[] = PERFIS_AUTOCADASTRO;
  return [...papeis.filter((p) => !proprios.includes(p)), ...escolha];
}

/** The stored roles of a record, Mercados' included (the Usuario shows only the perfil values). */
async function papeisDe(db: Db, id: number): Promise<Papel[]> {
  const l = await db.selectFrom('usuario').select('perfil').where('id', '=', id).executeTakeFirstOrThrow();
  return lerPapeis(l.perfil);
}

/**
 * Updates one's own record: personal data and, when the input carries one, the self-registration
 * choice of consumidor/fornecedor. Perfis granted by an administrator (info, admin, master) are kept.
 */
export async function atualizarProprioCadastro(
  banco: Banco,
  ator: Ator,
  id: number,
  entrada: EntradaProprioCadastro,
  agora: Date,
): Promise<Usuario> {
  exigirProprioCadastro(ator, id);
  const { perfil: escolha, ...dados } = entrada;
  if (escolha !== null) recusarInvalidos(regrasDaEscolhaDePerfis(escolha));
  return emTransacao(banco, async (trx) => {
    const antes = await usuarioPorId(trx, id);
    if (antes === undefined) throw new NaoEncontrado('USUARIO_NAO_ENCONTRADO', 'Cadastro não encontrado');
    const perfil =
      escolha === null
        ? antes.perfil
        : [...antes.perfil.filter((p) => !(PERFIS_AUTOCADASTRO as readonly string[]).includes(p)), ...escolha];
    const papeis = papeisComPerfisDaCestas(await papeisDe(trx, id), perfil);
    return regravar(trx, ator, agora, antes, {
      ...dados,
      nomeChave: chaveDeNome(dados.nome),
      perfil: gravarPapeis(papeis),
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Administration of users (admin and master).

export const ORDENS_USUARIO = ['nome', 'email', 'ativo', 'createdAt'] as const;

/** One page of users; `busca` matches name or e-mail. */
export async function listarUsuarios(
  db: Db,
  pedido: PedidoDePagina,
  filtro: { perfil?: Perfil | undefined; ativo?: boolean | undefined } = {},
): Promise<Pagina<Usuario>> {
  let q = db.selectFrom('usuario').selectAll().select(loginVinculado).select(totalDaLista);
  if (pedido.busca !== null) {
    const termo = chaveDeNome(pedido.busca);
    q = q.where((eb) => eb.or([contem('nomeChave', termo), contem('emailChave', termo)]));
  }
  if (filtro.perfil !== undefined) q = q.where('perfil', 'like', `%"${filtro.perfil}"%`);
  if (filtro.ativo !== undefined) q = q.where('ativo', '=', filtro.ativo);
  const linhas = await q
    .orderBy(pedido.ordem === 'email' ? 'emailChave' : (pedido.ordem as 'nome'), pedido.direcao)
    .orderBy('id')
    .limit(pedido.porPagina)
    .offset((pedido.pagina - 1) * pedido.porPagina)
    .execute();
  const pagina = montarPagina(linhas, pedido, 0);
  return { ...pagina, itens: pagina.itens.map(paraUsuario) };
}

export async function obterUsuario(db: Db, id: number): Promise<Usuario> {
  const u = await usuarioPorId(db, id);
  if (u === undefined) throw new NaoEncontrado('USUARIO_NAO_ENCONTRADO', `Não encontramos o usuário ${id}`);
  return u;
}

async function mastersAtivos(db: Db): Promise<number> {
  const r = await db
    .selectFrom('usuario')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('perfil', 'like', '%"master"%')
    .where('ativo', '=', true)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * The perfil rules of DOMAIN.md: only master grants or revokes master; nobody removes their own
 * admin or master perfil or deactivates themselves; the last active master stays.
 */
async function conferirMudancaDePerfil(
  db: Db,
  ator: Ator,
  alvo: { id: number | null; perfil: readonly Perfil[]; ativo: boolean },
  novo: { perfil: readonly Perfil[]; ativo: boolean },
): Promise<void> {
  const eraMaster = ehMaster(alvo) && alvo.ativo;
  const seraMaster = ehMaster(novo) && novo.ativo;
  const mexeNoMaster = ehMaster(alvo) !== ehMaster(novo);
  if (mexeNoMaster && !ehMaster(ator)) {
    throw new Proibido(
      'SO_MASTER_CONCEDE_MASTER',
      'Só quem tem o perfil master pode conceder ou retirar o perfil master',
    );
  }
  if (alvo.id !== null && alvo.id === ator.usuarioid) {
    const perdeu = (['admin', 'master'] as const).filter((p) => alvo.perfil.includes(p) && !novo.perfil.includes(p));
    if (perdeu.length > 0)
      throw new Proibido('PERFIL_PROPRIO', `Você não pode retirar o seu próprio perfil ${perdeu.join(' e ')}`);
    if (alvo.ativo && !novo.ativo)
      throw new Proibido('DESATIVAR_A_SI', 'Você não pode desativar o seu próprio cadastro');
  }
  if (eraMaster && !seraMaster && (await mastersAtivos(db)) <= 1) {
    throw new Conflito('ULTIMO_MASTER', 'Este é o último master ativo: conceda master a outra pessoa antes');
  }
}

/**
 * An account's e-mail binds logins to it, and `ativo` lets it in at all: changing either is as
 * privileged as the account's highest perfil. Only a master changes a master's.
 */
function conferirMudancaDeAcesso(
  ator: Ator,
  alvo: { perfil: readonly Perfil[]; ativo: boolean },
  novo: { novoEmail: boolean; ativo: boolean },
): void {
  if (!ehMaster(alvo) || ehMaster(ator)) return;
  if (novo.novoEmail)
    throw new Proibido('SO_MASTER_ALTERA_MASTER', 'Só quem tem o perfil master pode mudar o e-mail de um master');
  if (novo.ativo !== alvo.ativo)
    throw new Proibido('SO_MASTER_ALTERA_MASTER', 'Só quem tem o perfil master pode ativar ou desativar um master');
}

function conflitoDeEmail(): Conflito {
  return new Conflito('EMAIL_DUPLICADO', 'Já existe um cadastro com este e-mail', {
    email: 'Já existe um cadastro com este e-mail',
  });
}

/** An administrator creates a user. */
export async function criarUsuario(banco: Banco, ator: Ator, entrada: EntradaUsuario, agora: Date): Promise<Usuario> {
  recusarInvalidos(regraDosPerfis(entrada.perfil));
  const v = { ...entrada, ativo: entrada.ativo ?? true };
  try {
    return await emTransacao(banco, async (trx) => {
      await conferirMudancaDePerfil(trx, ator, { id: null, perfil: [], ativo: true }, v);
      const iso = agora.toISOString();
      const linha = await trx
        .insertInto('usuario')
        .values({
          ...v,
          nomeChave: chaveDeNome(v.nome),
          emailChave: chaveDeEmail(v.email),
          perfil: gravarPerfis(v.perfil),
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const depois = await obterUsuario(trx, linha.id);
      await auditar(trx, ator, agora, { acao: 'criar', entidade: 'usuario', entidadeId: depois.id, depois });
      // Someone who already has a Mercados account with this (verified) e-mail is that person.
      const ligou = await unirPorEmail(trx, chaveDeEmail(v.email), agora, { ator });
      return ligou ? obterUsuario(trx, depois.id) : depois;
    });
  } catch (e) {
    if (violouUnicidade(e)) throw conflitoDeEmail();
    throw e;
  }
}

/** An administrator updates a user, under the perfil rules. */
export async function atualizarUsuario(
  banco: Banco,
  ator: Ator,
  id: number,
  entrada: EntradaUsuario,
  agora: Date,
): Promise<Usuario> {
  recusarInvalidos(regraDosPerfis(entrada.perfil));
  try {
    return await emTransacao(banco, async (trx) => {
      const antes = await obterUsuario(trx, id);
      const v = { ...entrada, ativo: entrada.ativo ?? antes.ativo };
      await conferirMudancaDePerfil(trx, ator, antes, v);
      const novoEmail = chaveDeEmail(v.email) !== chaveDeEmail(antes.email);
      conferirMudancaDeAcesso(ator, antes, { novoEmail, ativo: v.ativo });
      // The e-mail is what binds a login to this account: a new one releases its logins (every
      // session of the old address ends, in both faces, and any already open for the new one)
      // and waits for a fresh verified login to bind. Deactivation ends every session too.
      if (novoEmail) await desligarLogins(trx, id, agora);
      else if (antes.ativo && !v.ativo) await encerrarSessoesDaPessoa(trx, id, agora);
      const papeis = papeisComPerfisDaCestas(await papeisDe(trx, id), v.perfil);
      return regravar(trx, ator, agora, antes, {
        ...v,
        nomeChave: chaveDeNome(v.nome),
        emailChave: chaveDeEmail(v.email),
        perfil: gravarPapeis(papeis),
      });
    });
  } catch (e) {
    if (violouUnicidade(e)) throw conflitoDeEmail();
    throw e;
  }
}

const REFERENCIAS_USUARIO: readonly Referencia[] = [
  { tabela: 'oferta', coluna: 'usuarioid', descricao: 'ofertas' },
  { tabela: 'pedido', coluna: 'usuarioid', descricao: 'pedidos' },
  { tabela: 'movimentacao', coluna: 'usuarioid', descricao: 'movimentações' },
  { tabela: 'appuser', coluna: 'usuarioId', descricao: 'conta na face Mercados' },
];

/** Deletes a user with no history; anyone with offers, orders or money is deactivated instead. */
export async function apagarUsuario(banco: Banco, ator: Ator, id: number, agora: Date): Promise<void> {
  if (id === ator.usuarioid) throw new Proibido('APAGAR_A_SI', 'Você não pode apagar o seu próprio cadastro');
  await emTransacao(banco, async (trx) => {
    const antes = await obterUsuario(trx, id);
    await conferirMudancaDePerfil(trx, ator, antes, { perfil: [], ativo: false });
    await exigirSemReferencias(trx, REFERENCIAS_USUARIO, id, 'o usuário');
    await trx.deleteFrom('usuario').where('id', '=', id).execute();
    await auditar(trx, ator, agora, { acao: 'apagar', entidade: 'usuario', entidadeId: id, antes });
  });
}
