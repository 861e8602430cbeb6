/**
 * The compile cache (NODE_COMPILE_CACHE, set by `npm start` and the image): once
 * scripts/aquecer-compilacao.ts filled it, a new process reads every module of src/ already
 * stripped of its types, and never runs the type stripper (docs/operations.md).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIALETO } from '../helpers/banco.ts';
import { RAIZ, comandoDoScript } from '../helpers/processos.ts';

test(
  'com o cache aquecido, um processo novo lê cada módulo de src/ já sem os tipos',
  { skip: DIALETO === 'postgres' ? 'não depende do banco: roda na suíte do SQLite' : false, timeout: 180_000 },
  () => {
    assert.equal(
      comandoDoScript('start').env.NODE_COMPILE_CACHE,
      'node_modules/.cache/cestaria-compilacao',
      'npm start usa o cache',
    );
    const pasta = mkdtempSync(join(tmpdir(), 'cestaria-compilacao-'));
    try {
      const env = { ...process.env, NODE_COMPILE_CACHE: join(pasta, 'cache') };
      const aquecer = spawnSync(
        process.execPath,
        ['--disable-warning=ExperimentalWarning', 'scripts/aquecer-compilacao.ts'],
        { cwd: RAIZ, env, encoding: 'utf8' },
      );
      assert.equal(aquecer.status, 0, aquecer.stderr);
      const [, modulos] = /: (\d+) módulos de src\//.exec(aquecer.stdout) ?? [];
      assert.ok(Number(modulos) > 200, aquecer.stdout);

      // A command that loads what `serve` loads at start (config, database, both faces' code).
      const depois = spawnSync(
        process.execPath,
        [
          '--disable-warning=ExperimentalWarning',
          '--input-type=module',
          '-e',
          "await import('./src/servicos.ts'); await import('./src/mercados/app.ts');",
        ],
        {
          cwd: RAIZ,
          env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
          encoding: 'utf8',
          maxBuffer: 256 * 1024 * 1024,
        },
      );
      assert.equal(depois.status, 0, depois.stderr.slice(-2000));
      const linhas = depois.stderr.split('\n');
      const lidos = linhas.filter((l) => /retrieving transpile cache for StrippedTypeScript .*success/.test(l));
      const faltaram = linhas.filter((l) => /no transpile cache for StrippedTypeScript/.test(l));
      assert.deepEqual(faltaram, [], 'nenhum módulo tirou os tipos de novo');
      assert.ok(lidos.length > 200, `${lidos.length} módulos lidos do cache`);
    } finally {
      rmSync(pasta, { recursive: true, force: true });
    }
  },
);
