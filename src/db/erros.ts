/**
 * What a database refusal means, read from the driver's error code and never from its message
 * text (which changes between versions and languages): PostgreSQL's SQLSTATE (`code`) and
 * SQLite's extended result code (`errcode`, from node:sqlite).
 */

/** SQLite extended result codes (sqlite.org/rescode.html). */
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** PostgreSQL SQLSTATE codes (Appendix A of its manual). */
const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';

function codigos(e: unknown): { readonly sqlstate: unknown; readonly sqlite: unknown } {
  if (e === null || typeof e !== 'object') return { sqlstate: undefined, sqlite: undefined };
  return { sqlstate: 'code' in e ? e.code : undefined, sqlite: 'errcode' in e ? e.errcode : undefined };
}

/** True when the database refused a write for a unique constraint (or a repeated primary key). */
export function violouUnicidade(e: unknown): boolean {
  const { sqlstate, sqlite } = codigos(e);
  return (
    sqlstate === PG_UNIQUE_VIOLATION || sqlite === SQLITE_CONSTRAINT_UNIQUE || sqlite === SQLITE_CONSTRAINT_PRIMARYKEY
  );
}

/** True when the database refused a write for a foreign key. */
export function violouReferencia(e: unknown): boolean {
  const { sqlstate, sqlite } = codigos(e);
  return sqlstate === PG_FOREIGN_KEY_VIOLATION || sqlite === SQLITE_CONSTRAINT_FOREIGNKEY;
}
