/**
 * `npm test`: the whole suite on SQLite, then on PostgreSQL when TEST_DATABASE_URL is set
 * (CI always sets it; under CI=true its absence is a failure, never a silent skip).
 * Each dialect is migrated once into a template; every test file gets a fresh copy of it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { abrirBanco, migrar } from '../src/db/banco.ts';

const argumentos = process.argv.slice(2);
const arquivos = argumentos.length > 0 ? argumentos : ['test/**/*.test.ts'];
const urlPg = process.env.TEST_DATABASE_URL;
const emCi = process.env.CI === 'true';

if (emCi && (urlPg === undefined || urlPg === '')) {
  console.error('CI=true exige TEST_DATABASE_URL: a suíte precisa rodar também no PostgreSQL.');
  process.exit(1);
}

/** What each suite's failing-tests section said, repeated at the very end so it is never scrolled away. */
const resumosDeFalha: string[] = [];

function rodarSuite(nome: string, env: Record<string, string>): Promise<number> {
  console.log(`\n=== Suíte em ${nome} ===`);
  return new Promise((resolve) => {
    const filho = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', '--test', '--test-concurrency=2', '--test-timeout=120000', ...arquivos],
      { stdio: ['inherit', 'pipe', 'inherit'], env: { ...process.env, ...env, NODE_ENV: 'test' } },
    );
    let falhas: string | null = null;
    filho.stdout.on('data', (pedaco: Buffer) => {
      process.stdout.write(pedaco);
      const texto = pedaco.toString('utf8');
      if (falhas !== null) falhas += texto;
      else {
        const i = texto.indexOf('failing tests:');
        if (i >= 0) falhas = texto.slice(i);
      }
    });
    filho.on('exit', (codigo) => {
      if (codigo !== 0) resumosDeFalha.push(`--- ${nome}: ${falhas ?? `saiu com ${String(codigo)}`}`.slice(0, 20_000));
      resolve(codigo ?? 1);
    });
  });
}

async function suiteSqlite(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'cestaria-teste-'));
  try {
    const modelo = join(dir, 'modelo.db');
    const banco = abrirBanco({ tipo: 'sqlite', caminho: modelo });
    await migrar(banco, 'sqlite');
    await banco.destroy();
    return await rodarSuite('SQLite', { TEST_DIALETO: 'sqlite', TEST_MODELO: modelo, TEST_DIR: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function urlComBanco(base: string, nome: string): string {
  const u = new URL(base);
  u.pathname = `/${nome}`;
  return u.href;
}

async function suitePostgres(base: string): Promise<number> {
  const prefixo = `cestaria_t_${randomBytes(4).toString('hex')}`;
  const modelo = `${prefixo}_modelo`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${modelo}"`);
    const banco = abrirBanco({ tipo: 'postgres', url: urlComBanco(base, modelo) });
    await migrar(banco, 'postgres');
    await banco.destroy();
    return await rodarSuite('PostgreSQL', {
      TEST_DIALETO: 'postgres',
      TEST_MODELO: modelo,
      TEST_PREFIXO: prefixo,
      TEST_DATABASE_URL: base,
    });
  } finally {
    const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${prefixo}%`,
    ]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.end();
  }
}

let falhas = 0;
if ((await suiteSqlite()) !== 0) falhas++;
if (urlPg !== undefined && urlPg !== '') {
  if ((await suitePostgres(urlPg)) !== 0) falhas++;
} else {
  console.log('\nTEST_DATABASE_URL não definido: suíte do PostgreSQL não executada (defina-o para rodá-la).');
}
if (resumosDeFalha.length > 0) {
  console.log('\n=== Resumo das falhas ===');
  for (const r of resumosDeFalha) console.log(r);
}
process.exit(falhas === 0 ? 0 : 1);
