import type { Db } from './banco.ts';

/**
 * Ended Cestas sessions: logging out records the session id until the cookie would have expired,
 * so a copy of the cookie taken before logout no longer opens anything, anywhere.
 */
export async function registrarSessaoEncerrada(db: Db, sid: string, expiraEmMs: number, agora: Date): Promise<void> {
  await db
    .insertInto('sessaoencerrada')
    .values({ sid, expiraEm: new Date(expiraEmMs).toISOString() })
    .onConflict((oc) => oc.column('sid').doNothing())
    .execute();
  // Rows past their cookie's expiry protect nothing any more; dropping them here keeps the table small.
  await db.deleteFrom('sessaoencerrada').where('expiraEm', '<', agora.toISOString()).execute();
}

export async function sessaoFoiEncerrada(db: Db, sid: string): Promise<boolean> {
  return (await db.selectFrom('sessaoencerrada').select('sid').where('sid', '=', sid).executeTakeFirst()) !== undefined;
}
