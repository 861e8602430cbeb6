/**
 * One identity per person across both faces (docs/security.md, "Uma pessoa, uma identidade").
 *
 * A person (Usuario) is bound to the logins that vouched for them: (issuer, subject) pairs, at most
 * one subject per issuer, and each subject belongs to one person. The first verified login for the
 * person's e-mail binds, in either face; a later login from another subject of the same issuer is
 * refused in both faces until a master releases the person's logins. Releasing, a new e-mail given
 * by an administrator and deactivation end every session of the person in both faces.
 */
import type { Db } from '../db/banco.ts';
import { PERFIL_PADRAO } from './politica-mercados.ts';
import { Proibido } from './erros.ts';

/** A login's issuer and subject. */
export interface Vinculo {
  readonly emissor: string;
  readonly sub: string;
}

export const MENSAGEM_LOGIN_DE_OUTRA_PESSOA =
  'Este e-mail já está ligado a outra conta do provedor de login. Se você trocou de conta, peça a alguém com perfil master para liberar o seu cadastro.';

export function loginDeOutraPessoa(): Proibido {
  return new Proibido('LOGIN_DE_OUTRA_PESSOA', MENSAGEM_LOGIN_DE_OUTRA_PESSOA);
}

function loginDeOutroCadastro(): Proibido {
  return new Proibido(
    'LOGIN_DE_OUTRO_CADASTRO',
    'Esta conta do provedor de login já está ligada a outro cadastro, com outro e-mail. Peça a alguém com perfil master para liberar aquele cadastro.',
  );
}

/**
 * How a login stands with a person: `mesma` when the person is bound to it, `livre` when the
 * person has no subject of that issuer and the subject is nobody's, `outra` otherwise.
 */
export async function situacaoDoVinculo(db: Db, usuarioid: number, v: Vinculo): Promise<'mesma' | 'livre' | 'outra'> {
  const linhas = await db
    .selectFrom('identidade')
    .select(['usuarioid', 'sub'])
    .where('emissor', '=', v.emissor)
    .where((eb) => eb.or([eb('usuarioid', '=', usuarioid), eb('sub', '=', v.sub)]))
    .execute();
  if (linhas.some((l) => l.usuarioid === usuarioid && l.sub === v.sub)) return 'mesma';
  return linhas.length === 0 ? 'livre' : 'outra';
}

/**
 * Binds a login to a person, or refuses it (Proibido) when the person is bound to another subject
 * of that issuer, or the subject to another person. Two first logins at once bind one of them:
 * the insert skips a conflict and the binding is read again.
 */
export async function vincularIdentidade(trx: Db, usuarioid: number, v: Vinculo, agora: Date): Promise<void> {
  const situacao = await situacaoDoVinculo(trx, usuarioid, v);
  if (situacao === 'mesma') return;
  if (situacao === 'livre') {
    await trx
      .insertInto('identidade')
      .values({ usuarioid, emissor: v.emissor, sub: v.sub, createdAt: agora.toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    if ((await situacaoDoVinculo(trx, usuarioid, v)) === 'mesma') return;
  }
  const doSub = await trx
    .selectFrom('identidade')
    .select('usuarioid')
    .where('emissor', '=', v.emissor)
    .where('sub', '=', v.sub)
    .executeTakeFirst();
  throw doSub !== undefined && doSub.usuarioid !== usuarioid ? loginDeOutroCadastro() : loginDeOutraPessoa();
}

/** Whether any login is bound to the person. */
export async function temIdentidade(db: Db, usuarioid: number): Promise<boolean> {
  return (
    (await db.selectFrom('identidade').select('id').where('usuarioid', '=', usuarioid).executeTakeFirst()) !== undefined
  );
}

/**
 * Ends every session of a person in both faces, at once: Cestas sessions that began until now
 * (their cookies are checked against `sessoesDesde` on every request) and the person's Mercados
 * sessions (deleted; the session read checks `sessoesDesde` as well).
 */
export async function encerrarSessoesDaPessoa(trx: Db, usuarioid: number, agora: Date): Promise<void> {
  const iso = agora.toISOString();
  await trx.updateTable('usuario').set({ sessoesDesde: iso }).where('id', '=', usuarioid).execute();
  await trx
    .deleteFrom('appsession')
    .where('userId', 'in', (eb) =>
      eb.selectFrom('appuser').select('appuser.id').where('appuser.usuarioId', '=', usuarioid),
    )
    .execute();
}

/**
 * Releases a person's logins: the bindings go, the Mercados account they had is nobody's again
 * (with the default profile of an account of its own, and no claim on the e-mail), and every
 * session of the person ends. The next verified login for the person's e-mail binds anew.
 * Returns the bindings that were released, for the audit trail.
 */
export async function desligarLogins(trx: Db, usuarioid: number, agora: Date): Promise<Vinculo[]> {
  const antes = await trx
    .selectFrom('identidade')
    .select(['emissor', 'sub'])
    .where('usuarioid', '=', usuarioid)
    .orderBy('id')
    .execute();
  await encerrarSessoesDaPessoa(trx, usuarioid, agora);
  await trx.deleteFrom('identidade').where('usuarioid', '=', usuarioid).execute();
  const contas = await trx.selectFrom('appuser').select('id').where('usuarioId', '=', usuarioid).execute();
  if (contas.length > 0) {
    const iso = agora.toISOString();
    const ids = contas.map((c) => c.id);
    await trx
      .updateTable('appuser')
      .set({ usuarioId: null, emailVerificado: false, updatedAt: iso })
      .where('id', 'in', ids)
      .execute();
    const padrao = await trx
      .selectFrom('profile')
      .select('id')
      .where('name', '=', PERFIL_PADRAO)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('appuserprofile')
      .values(ids.map((userId) => ({ userId, profileId: padrao.id, createdAt: iso, updatedAt: iso })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return antes;
}
