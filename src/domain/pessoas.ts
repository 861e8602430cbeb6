/**
 * One account per person across both faces. A person is their Usuario (the Cestas record, which
 * holds their history and their roles); a Mercados account (`appuser`) belongs to the person whose
 * e-mail its provider verified (`appuser.usuarioId`). Until then the account keeps its own
 * profiles (`appuserprofile`); once linked, those rows go and the person's roles are the only
 * ones (src/domain/papeis.ts).
 */
import type { Db } from '../db/banco.ts';
import type { Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { situacaoDoVinculo, vincularIdentidade } from './identidades.ts';
import { lerPapeis, gravarPapeis, perfisDoMercados, somarPerfisDoMercados, type Papel } from './papeis.ts';
import { PERFIS_AUTOCADASTRO, type Perfil } from './perfis.ts';
import { PROFILES, type NomePerfil } from './politica-mercados.ts';

/** A Mercados account not linked to anyone, whose provider verified its e-mail. */
export interface ContaParaLigar {
  readonly id: number;
  readonly name: string;
  /** The login behind the account: its issuer (empty for an account from before issuers were recorded) and subject. */
  readonly emissor: string;
  readonly providerId: string;
  readonly profiles: readonly NomePerfil[];
}

async function perfisDaConta(db: Db, contaId: number): Promise<NomePerfil[]> {
  const nomes = new Set(
    (
      await db
        .selectFrom('appuserprofile as up')
        .innerJoin('profile as p', 'p.id', 'up.profileId')
        .select('p.name')
        .where('up.userId', '=', contaId)
        .execute()
    ).map((l) => l.name),
  );
  return PROFILES.filter((p) => nomes.has(p));
}

/**
 * The Mercados account an e-mail would link: not linked yet, and with the e-mail verified by its
 * provider (an address nobody vouched for could be anyone's). Null when there is none.
 */
export async function contaParaLigar(db: Db, emailChave: string): Promise<ContaParaLigar | null> {
  const conta = await db
    .selectFrom('appuser')
    .select(['id', 'name', 'emissor', 'providerId'])
    .where('emailChave', '=', emailChave)
    .where('usuarioId', 'is', null)
    .where('emailVerificado', '=', true)
    .executeTakeFirst();
  if (conta === undefined) return null;
  return { ...conta, profiles: await perfisDaConta(db, conta.id) };
}

/** The roles a person reaches in a face: ajusted by the caller where a form chose some of them. */
type Ajuste = (papeis: readonly Papel[]) => readonly Papel[];

/**
 * Links the Mercados account and the Usuario that share a verified e-mail, when both exist and
 * neither is linked yet: the person keeps the union of both role sets (or what `ajustar` makes of
 * it), the account's own profile rows go, and the merge is audited. Returns whether it linked.
 * Runs in the caller's transaction.
 */
export async function unirPorEmail(
  trx: Db,
  emailChave: string,
  agora: Date,
  opcoes: { ator?: Ator; ajustar?: Ajuste } = {},
): Promise<boolean> {
  const pessoa = await trx
    .selectFrom('usuario')
    .select(['id', 'email', 'nome', 'perfil'])
    .where('emailChave', '=', emailChave)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('appuser').select('id').whereRef('appuser.usuarioId', '=', 'usuario.id'))),
    )
    .executeTakeFirst();
  if (pessoa === undefined) return false;
  const conta = await contaParaLigar(trx, emailChave);
  if (conta === null) return false;
  // The account's login becomes one of the person's (src/domain/identidades.ts); an account of
  // another subject of an issuer the person is bound to stays apart, whoever created it first.
  if (conta.emissor !== '') {
    if ((await situacaoDoVinculo(trx, pessoa.id, { emissor: conta.emissor, sub: conta.providerId })) === 'outra')
      return false;
    await vincularIdentidade(trx, pessoa.id, { emissor: conta.emissor, sub: conta.providerId }, agora);
  }
  const antes = lerPapeis(pessoa.perfil);
  const uniao = somarPerfisDoMercados(antes, conta.profiles);
  const depois = opcoes.ajustar === undefined ? uniao : [...opcoes.ajustar(uniao)];
  const iso = agora.toISOString();
  await trx
    .updateTable('usuario')
    .set({ perfil: gravarPapeis(depois), updatedAt: iso })
    .where('id', '=', pessoa.id)
    .execute();
  await trx.deleteFrom('appuserprofile').where('userId', '=', conta.id).execute();
  await trx.updateTable('appuser').set({ usuarioId: pessoa.id, updatedAt: iso }).where('id', '=', conta.id).execute();
  const ator: Ator = opcoes.ator ?? {
    email: pessoa.email,
    nome: pessoa.nome,
    usuarioid: pessoa.id,
    perfil: [],
    ativo: true,
  };
  await auditar(trx, ator, agora, {
    acao: 'unir contas',
    entidade: 'usuario',
    entidadeId: pessoa.id,
    antes: { perfil: antes, conta: { id: conta.id, profiles: conta.profiles } },
    depois: { perfil: depois, contaId: conta.id, profiles: perfisDoMercados(depois) },
  });
  return true;
}

/**
 * What the Cestas self-registration form offers already checked to someone who has a Mercados
 * account: their consumidor and fornecedor roles (their others join the record as they are).
 */
export async function escolhaSugeridaNoCadastro(db: Db, emailChave: string): Promise<Perfil[]> {
  const conta = await contaParaLigar(db, emailChave);
  if (conta === null) return [];
  const papeis = somarPerfisDoMercados([], conta.profiles);
  return PERFIS_AUTOCADASTRO.filter((p) => papeis.includes(p));
}
