/**
 * Fills Node's compile cache (NODE_COMPILE_CACHE) with every module of src/: the TypeScript of each
 * already stripped, and V8's bytecode, so a server started afterwards never loads the type stripper
 * (~7 MB of memory and a third of the start, docs/operations.md). The image runs it when it is
 * built; a local `npm start` fills the same cache on its first start.
 * `src/main.ts` runs a command when imported: it is warmed by running `migrate` on a scratch database.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

if (process.env.NODE_COMPILE_CACHE === undefined) {
  console.error('Defina NODE_COMPILE_CACHE com a pasta do cache.');
  process.exit(2);
}
const raiz = join(import.meta.dirname, '..');
const src = join(raiz, 'src');
const modulos = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && f !== 'main.ts')
  .sort();
// Modules that only development uses import development packages (the mail catcher's
// smtp-server): where those are not installed (the image, npm ci --omit=dev), they are left out,
// as a production process never loads them.
const deFora: string[] = [];
for (const f of modulos) {
  try {
    await import(pathToFileURL(join(src, f)).href);
  } catch (e) {
    const pacote = /^Cannot find package '([^']+)'/.exec(e instanceof Error ? e.message : '')?.[1];
    if (pacote === undefined) throw e;
    deFora.push(`${f} (${pacote} não instalado)`);
  }
}
const pasta = mkdtempSync(join(tmpdir(), 'cestaria-aquecer-'));
try {
  execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', join(src, 'main.ts'), 'migrate'], {
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: `sqlite:${join(pasta, 'aquecer.db')}` },
    stdio: 'inherit',
  });
} finally {
  rmSync(pasta, { recursive: true, force: true });
}
console.log(
  `Cache de compilação em ${process.env.NODE_COMPILE_CACHE}: ${modulos.length + 1 - deFora.length} módulos de ${relative(raiz, src)}/.`,
);
if (deFora.length > 0) console.log(`Fora do cache, só de desenvolvimento: ${deFora.join(', ')}.`);
