import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { BancoConfig } from '../../src/config.ts';
import { abrirBanco, migrar } from '../../src/db/banco.ts';

export type Dialeto = BancoConfig['tipo'];

/** The dialect this run of the suite tests (scripts/test.ts runs it once per dialect). */
export const DIALETO: Dialeto = process.env.TEST_DIALETO === 'postgres' ? 'postgres' : 'sqlite';

function urlComBanco(base: string, nome: string): string {
  const u = new URL(base);
  u.pathname = `/${nome}`;
  return u.href;
}

async function criarDoModeloPg(base: string, modelo: string, nome: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    // Two copies of one template at the same instant can collide; retry briefly.
    for (let tentativa = 0; ; tentativa++) {
      try {
        await admin.query(`CREATE DATABASE "${nome}" TEMPLATE "${modelo}"`);
        return;
      } catch (e) {
        if (tentativa >= 50 || !String(e).includes('being accessed by other users')) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.end();
  }
}

/**
 * A fresh, migrated database for one test file: a copy of the run's template when the runner
 * made one, else migrated here.
 */
export async function bancoNovo(): Promise<BancoConfig> {
  const id = randomBytes(5).toString('hex');
  if (DIALETO === 'sqlite') {
    const dir = process.env.TEST_DIR ?? mkdtempSync(join(tmpdir(), 'cestaria-teste-'));
    const caminho = join(dir, `t_${id}.db`);
    const modelo = process.env.TEST_MODELO;
    if (modelo !== undefined) {
      copyFileSync(modelo, caminho);
      return { tipo: 'sqlite', caminho };
    }
    const cfg = { tipo: 'sqlite', caminho } as const;
    const b = abrirBanco(cfg);
    await migrar(b, 'sqlite');
    await b.destroy();
    return cfg;
  }
  const base = process.env.TEST_DATABASE_URL;
  if (base === undefined) throw new Error('TEST_DATABASE_URL é necessário para os testes em PostgreSQL');
  const prefixo = process.env.TEST_PREFIXO ?? 'cestaria_t_avulso';
  const nome = `${prefixo}_${id}`;
  const modelo = process.env.TEST_MODELO;
  if (modelo !== undefined) {
    await criarDoModeloPg(base, modelo, nome);
    return { tipo: 'postgres', url: urlComBanco(base, nome) };
  }
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${nome}"`);
  await admin.end();
  const cfg = { tipo: 'postgres', url: urlComBanco(base, nome) } as const;
  const b = abrirBanco(cfg);
  await migrar(b, 'postgres');
  await b.destroy();
  return cfg;
}

/** The environment value that points the service at this database. */
export function urlDoBanco(cfg: BancoConfig): string {
  return cfg.tipo === 'sqlite' ? `sqlite:${cfg.caminho}` : cfg.url;
}

/** An empty database with no migrations applied, to test migrations from an older state. */
export async function bancoVazio(): Promise<BancoConfig> {
  const id = randomBytes(5).toString('hex');
  if (DIALETO === 'sqlite') {
    const dir = process.env.TEST_DIR ?? mkdtempSync(join(tmpdir(), 'cestaria-teste-'));
    return { tipo: 'sqlite', caminho: join(dir, `vazio_${id}.db`) };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (base === undefined) throw new Error('TEST_DATABASE_URL é necessário para os testes em PostgreSQL');
  const nome = `${process.env.TEST_PREFIXO ?? 'cestaria_t_avulso'}_${id}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${nome}"`);
  await admin.end();
  return { tipo: 'postgres', url: urlComBanco(base, nome) };
}
