/**
 * Opening the SQLite file while another process holds its lock waits for it. This is what made
 * three servers started together on a new file fail now and then with "database is locked": the
 * switch to WAL ran before busy_timeout was set, so it failed at once instead of waiting.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { abrirSqlite } from '../../src/db/sqlite.ts';
import { DIALETO } from '../helpers/banco.ts';

// Another process: takes the file's exclusive lock, says so, and lets go after 400 ms.
const SEGURA_A_TRAVA = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('BEGIN EXCLUSIVE; CREATE TABLE t (a)');
process.stdout.write('travado\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);
`;

test(
  'abrir o arquivo enquanto outro processo o trava espera a vez, em vez de falhar',
  { skip: DIALETO !== 'sqlite' && 'só SQLite' },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cestaria-abertura-'));
    try {
      const caminho = join(dir, 'novo.db');
      const outro = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', SEGURA_A_TRAVA, caminho], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const fim = new Promise<number | null>((resolve) => outro.on('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        outro.stdout.once('data', () => resolve());
        outro.once('exit', (c) => reject(new Error(`o outro processo saiu (${String(c)}) antes de travar`)));
      });
      const antes = performance.now();
      const db = abrirSqlite(caminho);
      const esperou = performance.now() - antes;
      try {
        assert.ok(esperou >= 200, `abriu em ${Math.round(esperou)} ms: a trava do outro processo ainda valia`);
        const [modo] = db.prepare('PRAGMA journal_mode').all([]) as Array<{ journal_mode: string }>;
        assert.equal(modo?.journal_mode, 'wal');
      } finally {
        db.close();
      }
      assert.equal(await fim, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
