/**
 * The SQLite file runs with the PRAGMA synchronous the configuration asks for (SQLITE_SYNCHRONOUS),
 * read back from the open database: through the opener itself, and from the environment through
 * the configuration and abrirBanco, as the server opens it. SQLite answers the setting as a number
 * (FULL 2, NORMAL 1). Each connection starts at the compiled default, which in node:sqlite is FULL
 * (DEFAULT_WAL_SYNCHRONOUS=2): NORMAL read back, the default included, proves the value reached
 * the connection, and FULL read back after a NORMAL connection on the same file proves nothing of
 * it stayed behind.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { carregarConfig, type SincroniaSqlite } from '../../src/config.ts';
import { abrirBanco } from '../../src/db/banco.ts';
import { abrirSqlite } from '../../src/db/sqlite.ts';
import { DIALETO } from '../helpers/banco.ts';

const NUMERO: Readonly<Record<SincroniaSqlite, number>> = { FULL: 2, NORMAL: 1 };
const so = { skip: DIALETO !== 'sqlite' && 'só SQLite' };

function comPasta(fn: (pasta: string) => Promise<void> | void): Promise<void> {
  const pasta = mkdtempSync(join(tmpdir(), 'cestaria-sincronia-'));
  return Promise.resolve(fn(pasta)).finally(() => rmSync(pasta, { recursive: true, force: true }));
}

test('abrirSqlite aplica FULL e NORMAL ao arquivo em WAL, e NORMAL quando não se diz nada', so, () =>
  comPasta((pasta) => {
    const casos: Array<[SincroniaSqlite | undefined, number]> = [
      ['NORMAL', 1],
      ['FULL', 2],
      [undefined, 1],
      ['FULL', 2],
    ];
    for (const [sincronia, esperado] of casos) {
      const db = abrirSqlite(join(pasta, 'um.db'), sincronia);
      try {
        const [linha] = db.prepare('PRAGMA synchronous').all([]) as Array<{ synchronous: number }>;
        assert.equal(linha?.synchronous, esperado, `pedido ${String(sincronia)}`);
        const [modo] = db.prepare('PRAGMA journal_mode').all([]) as Array<{ journal_mode: string }>;
        assert.equal(modo?.journal_mode, 'wal');
      } finally {
        db.close();
      }
    }
  }),
);

test('abrirSqlite recusa uma palavra que não é FULL nem NORMAL antes de abrir', so, () =>
  comPasta((pasta) => {
    for (const v of ['OFF', 'EXTRA', 'FULL; DROP TABLE x']) {
      assert.throws(
        () => abrirSqlite(join(pasta, 'dois.db'), v as SincroniaSqlite),
        (e: unknown) => e instanceof Error && e.message === `PRAGMA synchronous desconhecido: ${v}`,
      );
    }
    assert.equal(existsSync(join(pasta, 'dois.db')), false, 'nenhum arquivo foi criado');
  }),
);

test('SQLITE_SYNCHRONOUS chega à conexão que o servidor abre (configuração → abrirBanco)', so, () =>
  comPasta(async (pasta) => {
    const casos: Array<[Record<string, string>, SincroniaSqlite]> = [
      [{ SQLITE_SYNCHRONOUS: 'NORMAL' }, 'NORMAL'],
      [{ SQLITE_SYNCHRONOUS: 'FULL' }, 'FULL'],
      [{}, 'NORMAL'],
      [{ SQLITE_SYNCHRONOUS: 'full' }, 'FULL'],
    ];
    for (const [env, esperado] of casos) {
      const config = carregarConfig({ NODE_ENV: 'test', DATABASE_URL: `sqlite:${join(pasta, 'tres.db')}`, ...env });
      const banco = abrirBanco(config.banco);
      try {
        const r = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(banco);
        assert.equal(r.rows[0]?.synchronous, NUMERO[esperado], JSON.stringify(env));
      } finally {
        await banco.destroy();
      }
    }
  }),
);
