/**
 * `npm run mutation`: StrykerJS over the domain's rule modules (stryker.config.json), with the
 * tests that exercise them through HTTP and the domain functions, on SQLite. As `npm test`
 * does, the database is migrated once into a template that every test file copies. Extra
 * arguments go to Stryker (for example `--mutate src/decimal.ts`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { abrirBanco, migrar } from '../src/db/banco.ts';

async function mutar(dir: string): Promise<number> {
  const modelo = join(dir, 'modelo.db');
  const banco = abrirBanco({ tipo: 'sqlite', caminho: modelo });
  await migrar(banco, 'sqlite');
  await banco.destroy();
  return new Promise<number>((resolve) => {
    const filho = spawn('stryker', ['run', ...process.argv.slice(2)], {
      stdio: 'inherit',
      // Every mutant starts the same test files again: keep their compiled code between processes.
      env: {
        ...process.env,
        NODE_ENV: 'test',
        TEST_DIALETO: 'sqlite',
        TEST_MODELO: modelo,
        TEST_DIR: dir,
        NODE_COMPILE_CACHE: join(dir, 'cache'),
      },
    });
    filho.on('exit', (c) => resolve(c ?? 1));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cestaria-mutacao-'));
const codigo = await mutar(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
process.exit(codigo);
