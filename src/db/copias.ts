import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { BancoConfig } from '../config.ts';
import type { Banco } from './banco.ts';
import { MODO_ARQUIVO, criarPastaPrivada, tornarPrivado } from './arquivos-privados.ts';

/** A backup, restore or export that cannot go on; the message is for the operator, in Portuguese. */
export class ErroCopia extends Error {
  override name = 'ErroCopia';
}

/**
 * The tables with the community's data, parents before children. Sessions, ended-session marks
 * and login attempt counters are operational state and stay out of an export.
 */
export const TABELAS_EXPORTADAS = [
  'categoria',
  'cesta',
  'produto',
  'pontoentrega',
  'usuario',
  'tipomovimentacao',
  'appuser',
  'profile',
  'appuserprofile',
  'mercado',
  'precomercado',
  'ciclo',
  'cicloentrega',
  'ciclopontoentrega',
  'ciclocesta',
  'cicloproduto',
  'ciclomercado',
  'ciclomercadoponto',
  'oferta',
  'ofertaproduto',
  'composicao',
  'composicaoproduto',
  'lote',
  'loteproduto',
  // A subscription before the order lines that name it; its cycles after the orders they name.
  'assinatura',
  'assinaturapausa',
  'pedido',
  'pedidoproduto',
  'assinaturaciclo',
  'voluntario',
  'acaoretirada',
  'movimentacao',
  'auditoria',
  'mensagem',
  'mapeamentoextrato',
  'extratolinha',
  'extratochave',
] as const;

export interface Exportacao {
  readonly formato: 'cestaria-exportacao';
  readonly versao: 1;
  readonly geradoEm: string;
  readonly migracoes: readonly string[];
  readonly tabelas: Readonly<Record<string, readonly unknown[]>>;
}

/** Every business row of every table, ordered by id: the same data gives the same JSON on both databases. */
export async function exportar(banco: Banco, agora: Date = new Date()): Promise<Exportacao> {
  const tabelas: Record<string, unknown[]> = {};
  for (const t of TABELAS_EXPORTADAS) tabelas[t] = await banco.selectFrom(t).selectAll().orderBy('id').execute();
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(banco);
  return {
    formato: 'cestaria-exportacao',
    versao: 1,
    geradoEm: agora.toISOString(),
    migracoes: rows.map((r) => r.name),
    tabelas,
  };
}

interface Manifesto {
  readonly formato: 'cestaria-backup';
  readonly dialeto: BancoConfig['tipo'];
  readonly criadoEm: string;
  readonly banco: string;
}

const ARQUIVO_SQLITE = 'cestaria.db';
const ARQUIVO_PG = 'cestaria.dump';
const PASTA_ARQUIVOS = 'arquivos';

/**
 * How pg_dump and pg_restore reach the database: the URL without its password, which goes in
 * PGPASSWORD instead. NOTE: a program's arguments are visible to every user of the machine
 * (`ps`), its environment is not.
 */
export function conexaoParaProgramas(url: string): {
  readonly url: string;
  readonly env: Readonly<Record<string, string>>;
} {
  const u = new URL(url);
  if (u.password === '') return { url, env: {} };
  const senha = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.href, env: { PGPASSWORD: senha } };
}

/** Runs an external program (pg_dump, pg_restore); a missing program is a clear error. */
function executar(
  programa: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<void> {
  return new Promise((ok, falha) => {
    const filho = spawn(programa, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let erro = '';
    filho.stderr.on('data', (c: Buffer) => {
      erro += c.toString();
    });
    filho.on('error', (e: NodeJS.ErrnoException) => {
      falha(
        new ErroCopia(
          e.code === 'ENOENT'
            ? `${programa} não foi encontrado. Instale o cliente do PostgreSQL (pacote postgresql-client) na mesma versão do servidor.`
            : `não foi possível executar ${programa}: ${e.message}`,
        ),
      );
    });
    filho.on('exit', (codigo) => {
      if (codigo === 0) ok();
      else
        falha(
          new ErroCopia(
            `${programa} terminou com erro (código ${codigo ?? '?'}): ${erro.trim().split('\n').slice(-3).join(' ')}`,
          ),
        );
    });
  });
}

/**
 * Writes a consistent snapshot into a new timestamped folder under `destino`: the database
 * (SQLite through VACUUM INTO, PostgreSQL through pg_dump) and a copy of the receipts folder.
 * Returns the folder.
 */
export async function fazerBackup(
  cfg: BancoConfig,
  dirArquivos: string,
  destino: string,
  agora: Date = new Date(),
): Promise<string> {
  const pasta = resolve(destino, `cestaria-${agora.toISOString().replace(/[:.]/g, '-')}`);
  if (existsSync(pasta)) throw new ErroCopia(`a pasta ${pasta} já existe; espere um instante e rode de novo`);
  criarPastaPrivada(pasta);
  let arquivoBanco: string;
  if (cfg.tipo === 'sqlite') {
    if (cfg.caminho === ':memory:') throw new ErroCopia('um banco sqlite::memory: não tem o que copiar');
    if (!existsSync(cfg.caminho)) throw new ErroCopia(`o banco ${cfg.caminho} não existe`);
    arquivoBanco = ARQUIVO_SQLITE;
    const db = new DatabaseSync(cfg.caminho);
    try {
      // VACUUM INTO reads one transaction's snapshot: the copy is consistent while the service writes.
      db.prepare('VACUUM INTO ?').run(join(pasta, arquivoBanco));
    } finally {
      db.close();
    }
  } else {
    arquivoBanco = ARQUIVO_PG;
    const conexao = conexaoParaProgramas(cfg.url);
    await executar(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${join(pasta, arquivoBanco)}`, conexao.url],
      conexao.env,
    );
  }
  if (existsSync(dirArquivos)) cpSync(dirArquivos, join(pasta, PASTA_ARQUIVOS), { recursive: true });
  else criarPastaPrivada(join(pasta, PASTA_ARQUIVOS));
  const manifesto: Manifesto = {
    formato: 'cestaria-backup',
    dialeto: cfg.tipo,
    criadoEm: agora.toISOString(),
    banco: arquivoBanco,
  };
  writeFileSync(join(pasta, 'manifesto.json'), `${JSON.stringify(manifesto, null, 2)}\n`, { mode: MODO_ARQUIVO });
  tornarPrivado(pasta);
  return pasta;
}

function lerManifesto(pasta: string): Manifesto {
  let m: Partial<Manifesto>;
  try {
    m = JSON.parse(readFileSync(join(pasta, 'manifesto.json'), 'utf8')) as Partial<Manifesto>;
  } catch {
    throw new ErroCopia(`${pasta} não é uma cópia do Cestaria (falta manifesto.json legível)`);
  }
  if (
    m.formato !== 'cestaria-backup' ||
    (m.dialeto !== 'sqlite' && m.dialeto !== 'postgres') ||
    typeof m.banco !== 'string'
  ) {
    throw new ErroCopia(`${pasta}/manifesto.json não descreve uma cópia do Cestaria`);
  }
  return m as Manifesto;
}

/** Whether the target database has no tables yet: restore never overwrites data. */
async function bancoSemTabelas(cfg: BancoConfig, banco: Banco): Promise<boolean> {
  if (cfg.tipo === 'sqlite') {
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`.execute(
      banco,
    );
    return Number(rows[0]?.n ?? 0) === 0;
  }
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`.execute(banco);
  return Number(rows[0]?.n ?? 0) === 0;
}

/**
 * Restores a backup folder into the configured database, which must be new (no tables), and
 * copies its receipts into `dirArquivos`. `abrir` opens the target only to check that it is empty.
 */
export async function restaurar(
  cfg: BancoConfig,
  dirArquivos: string,
  pasta: string,
  abrir: () => Banco,
): Promise<void> {
  const manifesto = lerManifesto(pasta);
  if (manifesto.dialeto !== cfg.tipo) {
    throw new ErroCopia(`a cópia é de um banco ${manifesto.dialeto}, mas DATABASE_URL aponta para ${cfg.tipo}`);
  }
  const origem = join(pasta, manifesto.banco);
  if (!existsSync(origem)) throw new ErroCopia(`a cópia está incompleta: falta ${origem}`);
  if (cfg.tipo === 'sqlite' && cfg.caminho === ':memory:')
    throw new ErroCopia('não há como restaurar num banco sqlite::memory:');
  const semArquivo = cfg.tipo === 'sqlite' && (!existsSync(cfg.caminho) || statSync(cfg.caminho).size === 0);
  if (!semArquivo) {
    const banco = abrir();
    try {
      if (!(await bancoSemTabelas(cfg, banco))) {
        throw new ErroCopia(
          'o banco de destino já tem tabelas; restaure num banco novo (aponte DATABASE_URL para um banco vazio)',
        );
      }
    } finally {
      await banco.destroy();
    }
  }
  if (cfg.tipo === 'sqlite') {
    copyFileSync(origem, cfg.caminho);
    tornarPrivado(cfg.caminho);
  } else {
    const conexao = conexaoParaProgramas(cfg.url);
    await executar(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${conexao.url}`, origem],
      conexao.env,
    );
  }
  const arquivos = join(pasta, PASTA_ARQUIVOS);
  criarPastaPrivada(dirArquivos);
  if (existsSync(arquivos)) cpSync(arquivos, dirArquivos, { recursive: true, force: false });
  tornarPrivado(dirArquivos);
}
