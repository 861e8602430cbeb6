import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { SINCRONIAS_SQLITE, SINCRONIA_SQLITE_PADRAO, type SincroniaSqlite } from '../config.ts';
import { criarPastaPrivada, garantirArquivoPrivado, tornarPrivado } from './arquivos-privados.ts';

type Valor = null | number | bigint | string | NodeJS.ArrayBufferView;

/** node:sqlite refuses booleans and undefined as parameters; the schema stores booleans as 0/1. */
function parametro(v: unknown): Valor {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined) return null;
  return v as Valor;
}

const MAX_CACHE = 500;

/** How long a process opening the file tries to turn it to WAL while others do the same (as busy_timeout). */
const WAL_ESPERA_MS = 10_000;

/**
 * Turns the file to WAL. NOTE: two processes that open the same new file at once both hold its
 * shared lock while each asks for the exclusive one; SQLite answers one of them "database is
 * locked" at once, without the busy handler (waiting could never end). That one tries again a
 * moment later (test/operacao/migracoes-concorrentes.test.ts starts three processes together;
 * about one start in twelve met it).
 */
function emWal(db: DatabaseSync): void {
  const limite = Date.now() + WAL_ESPERA_MS;
  const pausa = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL;');
      return;
    } catch (e) {
      const ocupado = (e as { errcode?: unknown }).errcode === SQLITE_BUSY;
      if (!ocupado || Date.now() >= limite) throw e;
      // Opening happens once, at start, before anything else is served: a short synchronous pause.
      Atomics.wait(pausa, 0, 0, 20);
    }
  }
}

/** SQLite's result code for a lock another connection holds. */
const SQLITE_BUSY = 5;

/**
 * Opens an embedded SQLite database through node:sqlite, shaped as Kysely's SqliteDatabase.
 * Columns declared BOOLEAN come back as true/false, so both dialects return identical rows.
 * `sincronia` is PRAGMA synchronous (SQLITE_SYNCHRONOUS); this is the one place that sets it.
 */
export function abrirSqlite(caminho: string, sincronia: SincroniaSqlite = SINCRONIA_SQLITE_PADRAO): SqliteDatabase {
  // The value goes into the SQL text below: only the known words get there.
  if (!SINCRONIAS_SQLITE.includes(sincronia)) throw new Error(`PRAGMA synchronous desconhecido: ${String(sincronia)}`);
  if (caminho !== ':memory:') {
    criarPastaPrivada(dirname(caminho));
    // SQLite creates the -wal and -shm files with the database file's mode: private too.
    garantirArquivoPrivado(caminho);
    for (const anexo of [`${caminho}-wal`, `${caminho}-shm`]) if (existsSync(anexo)) tornarPrivado(anexo);
  }
  const db = new DatabaseSync(caminho);
  // NOTE: busy_timeout first. Turning a new file to WAL takes its exclusive lock; without the
  // timeout already set, a process that opens the file while another one migrates it fails at
  // once with "database is locked" instead of waiting its turn (and emWal covers the case the
  // timeout does not).
  db.exec('PRAGMA busy_timeout = 10000;');
  emWal(db);
  db.exec(`
    PRAGMA synchronous = ${sincronia};
    PRAGMA foreign_keys = ON;
  `);
  // NOTE: Kysely prepares every query anew; caching the compiled statements by SQL text
  // saves the parse on the hot paths (the set of distinct SQL strings is small and bounded).
  const cache = new Map<string, SqliteStatement>();

  function preparar(sql: string): SqliteStatement {
    const stmt: StatementSync = db.prepare(sql);
    const colunas = stmt.columns();
    const nomes = colunas.map((c) => c.name);
    const booleana = colunas.map((c) => c.type?.toUpperCase() === 'BOOLEAN');
    // NOTE: node:sqlite builds each row object with a null prototype, property by property in
    // C++, which costs more than the query itself on wide results (4,000 rows: ~13 ms against
    // ~5 ms). Rows come back as arrays instead and become plain objects here, with the same keys
    // in the same order (a repeated name keeps the last value, as node:sqlite does), and the
    // columns declared BOOLEAN turned into true/false.
    if (colunas.length > 0) stmt.setReturnArrays(true);
    const converter = (linha: unknown): unknown => {
      const valores = linha as readonly unknown[];
      const obj: Record<string, unknown> = {};
      for (let i = 0; i < nomes.length; i++) {
        const v = valores[i];
        obj[nomes[i] as string] = booleana[i] === true && v !== null && v !== undefined ? v === 1 || v === 1n : v;
      }
      return obj;
    };
    return {
      reader: colunas.length > 0,
      all: (ps) => stmt.all(...ps.map(parametro)).map(converter),
      run: (ps) => {
        const r = stmt.run(...ps.map(parametro));
        return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
      },
      iterate: (ps) => {
        const it = stmt.iterate(...ps.map(parametro));
        return (function* () {
          for (const linha of it) yield converter(linha);
        })();
      },
    };
  }

  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = preparar(sql);
        if (cache.size >= MAX_CACHE) {
          const primeira = cache.keys().next().value;
          if (primeira !== undefined) cache.delete(primeira);
        }
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}
