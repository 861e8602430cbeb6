import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type Dialect,
  type Driver,
  type LogEvent,
  type PostgresPool,
  type PostgresPoolClient,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { BancoConfig } from '../config.ts';
import { NOMES_MIGRACOES, provedorDeMigracoes } from './migrations/index.ts';
import { Lote, juntas, leitura, type Leitura } from './juntas.ts';
import { abrirSqlite } from './sqlite.ts';
import type { DB } from './tipos.ts';

export type Banco = Kysely<DB>;
/** What helpers take: the database or the transaction they were handed. */
export type Db = Kysely<DB> | Transaction<DB>;
export type Dialeto = BancoConfig['tipo'];

export interface OpcoesBanco {
  /** Called after every query; tests use it to count queries. */
  readonly aoConsultar?: (evento: LogEvent) => void;
  readonly maxConexoes?: number;
}

const dentroDeTransacao = new AsyncLocalStorage<boolean>();

/** The PostgreSQL pool behind each handle, for the pool gauges of /metrics. */
const pools = new WeakMap<Banco, pg.Pool>();

/**
 * Connections of a PostgreSQL pool that transactions never take: a transaction may wait on a row
 * lock (orders of the same basket, a cycle's final offers take turns) while holding its
 * connection, and with every connection held by waiting writers, every read would wait behind
 * them too. Under the bench's mix that made reads as slow as the slowest write (docs/performance.md).
 */
export const CONEXOES_SO_DE_LEITURA = 3;

/** At most `n` at a time, the others waiting in line (first come, first served). */
class Vagas {
  #livres: number;
  readonly #fila: Array<() => void> = [];

  constructor(n: number) {
    this.#livres = n;
  }

  async tomar(): Promise<void> {
    if (this.#livres > 0) {
      this.#livres--;
      return;
    }
    await new Promise<void>((pronto) => this.#fila.push(pronto));
  }

  soltar(): void {
    const proxima = this.#fila.shift();
    if (proxima === undefined) this.#livres++;
    else proxima();
  }
}

/** The transactions' share of each PostgreSQL handle's pool (SQLite has one connection and its own lock). */
const vagasDeTransacao = new WeakMap<Banco, Vagas>();

export interface UsoDoPool {
  readonly total: number;
  readonly ociosas: number;
  readonly esperando: number;
}

/** Thrown when code inside a transaction queries through the outer handle. */
export class ErroForaDaTransacao extends Error {
  override name = 'ErroForaDaTransacao';
}

/**
 * Wraps a dialect so that acquiring a connection through the outer handle while a transaction
 * runs in the same async context fails loudly. On SQLite such a query would otherwise wait
 * forever for the single connection; on PostgreSQL it would silently escape the transaction.
 */
function comGuarda(dialeto: Dialect): Dialect {
  return {
    createAdapter: () => dialeto.createAdapter(),
    createIntrospector: (db) => dialeto.createIntrospector(db),
    createQueryCompiler: () => dialeto.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = dialeto.createDriver();
      return new Proxy(driver, {
        get(alvo, prop) {
          if (prop === 'acquireConnection') {
            return async () => {
              if (dentroDeTransacao.getStore() === true) {
                throw new ErroForaDaTransacao('consulta pelo banco externo dentro de uma transação');
              }
              return alvo.acquireConnection();
            };
          }
          const v: unknown = Reflect.get(alvo, prop, alvo);
          return typeof v === 'function' ? v.bind(alvo) : v;
        },
      });
    },
  };
}

/**
 * SQLite's default BEGIN is deferred: a transaction that reads and then writes must upgrade its
 * lock, and when another process wrote in between, SQLite answers SQLITE_BUSY at once instead of
 * waiting (busy_timeout cannot help). BEGIN IMMEDIATE takes the write lock up front, so with
 * several processes (WORKERS, or a CLI command beside the server) writers queue on busy_timeout.
 * Within one process the single connection already serialises transactions, so nothing changes.
 */
class SqliteImediato extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (conexao) => {
      await conexao.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/** Connections in each process's PostgreSQL pool, unless a caller asks otherwise. */
export const CONEXOES_DO_POOL = 10;

/**
 * The settings of every PostgreSQL pool the service opens (the bench's one-query reference opens
 * its pool with them too, so the two compare like with like).
 */
export function configDoPool(url: string, maxConexoes = CONEXOES_DO_POOL): pg.PoolConfig {
  return {
    connectionString: url,
    max: maxConexoes,
    // Statements queued on a connection go out at once, without waiting for the answer of the
    // one before (juntas.ts; the BEGIN of a transaction, in poolComNomes). The server answers
    // them in order; a connection is one caller's at a time, so only those two ever queue.
    pipeline: true,
    types: {
      // NOTE: COUNT and SUM come back as int8; our values fit a double exactly, so read numbers.
      getTypeParser: ((oid: number, formato?: 'text' | 'binary') =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, formato)) as typeof pg.types.getTypeParser,
    },
  };
}

/** The answer of a statement that returns no rows, as `pg` gives it. */
const SEM_LINHAS = { command: 'SELECT', rowCount: 0, rows: [] as unknown[] };

/** Distinct statement texts that get a name; past this, statements go unnamed (server memory per connection stays bounded). */
const MAXIMO_DE_NOMEADAS = 1000;
const nomesDasConsultas = new Map<string, string | null>();

/**
 * `select *`, `"t".*`, `returning *`: a statement whose columns are whatever the table has. A
 * prepared one fails ("cached plan must not change result type") once a migration adds a column,
 * as a process still running the previous release would meet during a rolling deploy.
 */
const TODAS_AS_COLUNAS = /(?:\bselect|\breturning|,)\s+(?:"[^"]+"\.)?\*/i;

function nomeDaConsulta(texto: string): string | null {
  let nome = nomesDasConsultas.get(texto);
  if (nome === undefined) {
    if (nomesDasConsultas.size >= MAXIMO_DE_NOMEADAS) return null;
    nome = TODAS_AS_COLUNAS.test(texto) ? null : `c${nomesDasConsultas.size + 1}`;
    nomesDasConsultas.set(texto, nome);
  }
  return nome;
}

/**
 * The pool as Kysely sees it, with every statement that has parameters sent as a named prepared
 * statement: each connection parses and plans a text once, then only binds and executes it.
 * NOTE: measured on the bench (docs/performance.md, "PostgreSQL"): with unnamed statements every
 * request made the server parse and plan each of its statements again. Statements without
 * parameters (BEGIN, COMMIT, the migrations' DDL) stay on the simple protocol, one message each.
 */
function poolComNomes(pool: pg.Pool): PostgresPool {
  const clientes = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const embrulhar = (cliente: pg.PoolClient): PostgresPoolClient => {
    const enviar = (texto: string, valores: readonly unknown[]) => {
      const name = valores.length === 0 ? null : nomeDaConsulta(texto);
      return name === null
        ? cliente.query(texto, [...valores])
        : cliente.query({ name, text: texto, values: [...valores] });
    };
    // A BEGIN already sent whose answer nobody has awaited yet (see below).
    let inicio: Promise<unknown> | null = null;
    const consultar = (texto: string, valores: readonly unknown[]): Promise<unknown> => {
      // NOTE: a transaction's BEGIN answers nothing a use case needs, so it is sent and not
      // awaited: the pipeline puts the first statement right behind it, and that statement's
      // answer waits for the BEGIN's too (and fails with it). One round trip fewer per transaction.
      if (texto === 'begin') {
        inicio = cliente.query(texto);
        // Awaited with the next statement; a failure with no next statement is the connection's.
        inicio.catch(() => undefined);
        return Promise.resolve(SEM_LINHAS);
      }
      const lote = valores.length === 1 && valores[0] instanceof Lote ? valores[0] : null;
      const resposta =
        lote === null
          ? enviar(texto, valores)
          : Promise.all(lote.consultas.map((c) => enviar(c.sql, c.parameters))).then((rs) => ({
              ...SEM_LINHAS,
              rows: rs.map((r) => r.rows),
            }));
      const antes = inicio;
      inicio = null;
      return antes === null ? resposta : Promise.all([antes, resposta]).then(([, r]) => r);
    };
    return {
      // Kysely calls query(sql, parameters) only: no cursors are configured.
      query: consultar as unknown as PostgresPoolClient['query'],
      release: () => cliente.release(),
    };
  };
  return {
    connect: async () => {
      const cliente = await pool.connect();
      let e = clientes.get(cliente);
      if (e === undefined) {
        e = embrulhar(cliente);
        clientes.set(cliente, e);
      }
      return e;
    },
    end: () => pool.end(),
  };
}

function dialetoPara(cfg: BancoConfig, opcoes: OpcoesBanco, guardarPool: (p: pg.Pool) => void): Dialect {
  if (cfg.tipo === 'sqlite') return new SqliteImediato({ database: abrirSqlite(cfg.caminho, cfg.sincronia) });
  const pool = new pg.Pool(configDoPool(cfg.url, opcoes.maxConexoes));
  guardarPool(pool);
  return new PostgresDialect({ pool: poolComNomes(pool) });
}

/** Opens the configured database (SQLite file or PostgreSQL pool). */
export function abrirBanco(cfg: BancoConfig, opcoes: OpcoesBanco = {}): Banco {
  const aoConsultar = opcoes.aoConsultar;
  let pool: pg.Pool | null = null;
  const banco = new Kysely<DB>({
    dialect: comGuarda(dialetoPara(cfg, opcoes, (p) => (pool = p))),
    ...(aoConsultar ? { log: (e: LogEvent) => aoConsultar(e) } : {}),
  });
  if (pool !== null) {
    pools.set(banco, pool);
    const conexoes = opcoes.maxConexoes ?? CONEXOES_DO_POOL;
    vagasDeTransacao.set(banco, new Vagas(Math.max(1, conexoes - CONEXOES_SO_DE_LEITURA)));
  }
  return banco;
}

/** Connections of the PostgreSQL pool (total, idle, clients waiting); null on SQLite, which has one connection. */
export function usoDoPool(banco: Banco): UsoDoPool | null {
  const pool = pools.get(banco);
  return pool === undefined ? null : { total: pool.totalCount, ociosas: pool.idleCount, esperando: pool.waitingCount };
}

/** What to do once each open transaction of emTransacao commits. */
const depoisDeCadaCommit = new WeakMap<Transaction<DB>, Array<() => void>>();

/**
 * Runs a use case in one transaction; only use cases call this. On PostgreSQL it never takes the
 * pool's last CONEXOES_SO_DE_LEITURA connections, so reads go on while writers wait on a lock.
 */
export async function emTransacao<T>(db: Banco, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const depois: Array<() => void> = [];
  // Called from inside a transaction (a bug the connection's guard refuses loudly), it takes no
  // slot: waiting for one held by that same transaction would hang instead.
  const vagas = dentroDeTransacao.getStore() === true ? undefined : vagasDeTransacao.get(db);
  await vagas?.tomar();
  let r: T;
  try {
    r = await db.transaction().execute((trx) => {
      depoisDeCadaCommit.set(trx, depois);
      return dentroDeTransacao.run(true, () => fn(trx));
    });
  } finally {
    vagas?.soltar();
  }
  // Committed: back in the caller's context, outside the transaction.
  for (const f of depois) f();
  return r;
}

/**
 * Runs `fn` once what `db` wrote is committed and visible to other connections: after the commit
 * of an emTransacao transaction (never, if it rolls back), or at once outside one. `fn` runs
 * outside the transaction's context, so it may use the outer handle.
 */
export function depoisDoCommit(db: Db, fn: () => void): void {
  const fila = db.isTransaction ? depoisDeCadaCommit.get(db as Transaction<DB>) : undefined;
  if (fila === undefined) dentroDeTransacao.exit(fn);
  else fila.push(fn);
}

/** The key of the session-level advisory lock that serialises migrations across processes. */
export const CHAVE_TRAVA_MIGRACOES = 7_263_118_401;

/**
 * Applies every pending migration (or up to `ate`); safe to run any number of times, and by
 * several processes at once. On PostgreSQL the run holds an advisory lock on one dedicated
 * connection, so a process that starts while another migrates waits, then finds nothing to do.
 * On SQLite the whole run is one BEGIN IMMEDIATE transaction: it takes the file's write lock
 * before reading the migration table, so a second process waits for it (busy_timeout) and then
 * reads the finished table, instead of failing when a deferred transaction upgrades to writing.
 * Foreign keys are off during the run and checked as a whole before it commits.
 */
export async function migrar(db: Banco, dialeto: Dialeto, ate?: string): Promise<string[]> {
  if (dialeto === 'sqlite') {
    return db.connection().execute(async (conexao) => {
      // SQLite's way to change a table's shape (sqlite.org/lang_altertable.html, "other kinds of
      // table schema changes"): foreign keys off for the run, which can only change outside a
      // transaction, so that rebuilding a table fires no ON DELETE action; every reference is
      // checked before the commit instead.
      await sql`pragma foreign_keys = off`.execute(conexao);
      try {
        await sql`begin immediate`.execute(conexao);
        try {
          const aplicadas = await migrarCom(conexao, dialeto, ate, true);
          const quebradas = await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(conexao);
          if (quebradas.rows.length > 0) {
            const onde = [...new Set(quebradas.rows.map((r) => `${r.table} → ${r.parent}`))].join(', ');
            throw new Error(`as migrações deixariam referências quebradas: ${onde}`);
          }
          await sql`commit`.execute(conexao);
          return aplicadas;
        } catch (e) {
          await sql`rollback`.execute(conexao);
          throw e;
        }
      } finally {
        await sql`pragma foreign_keys = on`.execute(conexao);
      }
    });
  }
  return db.connection().execute(async (conexao) => {
    await sql`select pg_advisory_lock(${sql.lit(CHAVE_TRAVA_MIGRACOES)})`.execute(conexao);
    try {
      return await migrarCom(conexao, dialeto, ate);
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(CHAVE_TRAVA_MIGRACOES)})`.execute(conexao);
    }
  });
}

/** Migrations the database has not applied yet; throws when the database cannot be read. */
export async function migracoesPendentes(db: Banco): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const aplicadas = new Set(rows.map((r) => r.name));
  return NOMES_MIGRACOES.filter((n) => !aplicadas.has(n));
}

async function migrarCom(
  db: Banco,
  dialeto: Dialeto,
  ate: string | undefined,
  emTransacaoPropria = false,
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: provedorDeMigracoes({ dialeto }),
    disableTransactions: emTransacaoPropria,
  });
  const { error, results } = ate === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(ate);
  if (error !== undefined) {
    const falhou = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migração ${falhou ?? ''} falhou: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether a handle talks to PostgreSQL (row locks exist there; SQLite serialises writers). */
export function ehPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Takes transaction-level advisory locks on PostgreSQL, one per `chave` within `grupo` (the
 * two-number key space, apart from the one-number keys of migrations and statement imports),
 * in ascending order, so two writers that take several never deadlock. They are held until the
 * transaction ends. SQLite's transaction already holds the one writer, so there it does nothing.
 */
export async function travarChaves(trx: Transaction<DB>, grupo: number, chaves: readonly number[]): Promise<void> {
  await juntas(trx, [leituraDasChaves(trx, grupo, chaves)]);
}

/** travarChaves as one statement of a batch (juntas.ts): none on SQLite or with no keys. */
export function leituraDasChaves(trx: Transaction<DB>, grupo: number, chaves: readonly number[]): Leitura<void> {
  const ordem = [...new Set(chaves)].sort((a, b) => a - b);
  // One statement: unnest yields the keys in the array's order, and each row takes its lock in turn.
  const consulta =
    chaves.length === 0 || !ehPostgres(trx)
      ? null
      : sql`select pg_advisory_xact_lock(${grupo}::integer, k) from unnest(${ordem}::integer[]) as k`.compile(trx);
  return leitura(consulta, () => undefined);
}

/**
 * Locks rows for the rest of the transaction, in id order (no deadlocks between two writers).
 * NOTE: on SQLite every transaction already holds the one connection, so writers are serialised
 * and there is nothing to lock; on PostgreSQL this is SELECT … FOR UPDATE.
 */
export async function travar(
  trx: Transaction<DB>,
  tabela: 'ciclo' | 'ciclocesta' | 'cicloproduto' | 'ofertaproduto',
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0 || !ehPostgres(trx)) return;
  await trx
    .selectFrom(tabela)
    .select('id')
    .where(
      'id',
      'in',
      [...new Set(ids)].sort((a, b) => a - b),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
}
