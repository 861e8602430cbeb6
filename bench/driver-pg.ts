/**
 * `npm run bench:driver -- --pg URL [--duration S] [--warmup S] [--rounds N] [--callers C] [--only drivers|pool]`
 *
 * The PostgreSQL driver on its own, in one process, against one database (issue #22): the same two
 * queries through `pg` (the service's driver, pool opened with `configDoPool`, named prepared
 * statements) and through postgres.js (the `postgres` package, prepared statements, the same
 * number of connections), directly and through Kysely; then `pg` with pools of 2, 5, 10 and 20
 * connections. Each measurement is C concurrent callers (50, as the bench's HTTP scenarios) for a
 * fixed time after a warm-up, and reports queries per second, p50/p99 latency, this process's CPU
 * per query (`process.cpuUsage()`, which on a shared machine varies much less than throughput)
 * and the database backends' CPU per query (from /proc, for the connections of this database).
 * The variants take turns, round after round, and the summary is the median of the rounds.
 *
 * The queries, on tables of its own (schema `bench_driver`, dropped and filled at the start):
 * - `pk`: one person by primary key, `id, nome, email` (what bench/base-pg.ts reads);
 * - `junção`: a person's 30 order lines joined to their products, 8 text and integer columns.
 *
 * The Kysely variants are the service's path (`abrirBanco`, with its named statements) and a
 * postgres.js dialect written here as `kysely-postgres-js` 3.0.0 does it (that package is not a
 * dependency): a reserved connection per query, so queries from different callers are not
 * pipelined on one connection as plain postgres.js does; once with prepared statements, and once
 * without, as that package sends them.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql as sqlKysely,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import pg from 'pg';
import postgres from 'postgres';
import { abrirBanco, configDoPool, CONEXOES_DO_POOL } from '../src/db/banco.ts';

const { values } = parseArgs({
  options: {
    pg: { type: 'string' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    callers: { type: 'string', default: '50' },
    only: { type: 'string' },
  },
});
const URL_PG = values.pg;
if (URL_PG === undefined) throw new Error('uso: npm run bench:driver -- --pg postgres://…');
const DURACAO_MS = Number(values.duration) * 1000;
const AQUECIMENTO_MS = Number(values.warmup) * 1000;
const RODADAS = Number(values.rounds);
const CHAMADORES = Number(values.callers);
const TAMANHOS_DE_POOL = [2, 5, 10, 20] as const;

const PESSOAS = 2000;
const PRODUTOS = 400;
const LINHAS_POR_PESSOA = 30;
const SQL_PK = 'select id, nome, email from bench_driver.pessoa where id = $1';
const SQL_JUNCAO = `select i.id, i.quantidade_milesimos, i.preco_centavos, i.observacao, p.id as produto_id, p.nome, p.descricao, p.unidade
  from bench_driver.pedido_item i join bench_driver.produto p on p.id = i.produto_id
  where i.pessoa_id = $1 order by i.id`;
const CONSULTAS = {
  pk: { texto: SQL_PK, linhas: 1 },
  junção: { texto: SQL_JUNCAO, linhas: LINHAS_POR_PESSOA },
} as const;
type NomeDaConsulta = keyof typeof CONSULTAS;

/** One way of running a query: given its name, text and parameter, resolves to the rows it got. */
interface Cliente {
  consultar(nome: NomeDaConsulta, texto: string, id: number): Promise<number>;
  fechar(): Promise<void>;
}

async function prepararTabelas(): Promise<void> {
  const c = new pg.Client({ connectionString: URL_PG });
  await c.connect();
  try {
    await c.query(`drop schema if exists bench_driver cascade;
      create schema bench_driver;
      create table bench_driver.pessoa (id int primary key, nome text not null, email text not null);
      create table bench_driver.produto (id int primary key, nome text not null, descricao text not null, unidade text not null);
      create table bench_driver.pedido_item (id int primary key, pessoa_id int not null references bench_driver.pessoa,
        produto_id int not null references bench_driver.produto, quantidade_milesimos int not null, preco_centavos int not null, observacao text not null);
      insert into bench_driver.pessoa select g, 'Pessoa de Teste ' || g, 'pessoa' || g || '@exemplo.org' from generate_series(1, ${PESSOAS}) g;
      insert into bench_driver.produto select g, 'Produto ' || g, 'Cesta de hortaliças e legumes da estação, lote ' || g, 'kg' from generate_series(1, ${PRODUTOS}) g;
      insert into bench_driver.pedido_item
        select (p - 1) * ${LINHAS_POR_PESSOA} + n, p, 1 + (p * 7 + n * 13) % ${PRODUTOS}, 500 * n, 150 * n + p % 100, 'sem observação ' || n
        from generate_series(1, ${PESSOAS}) p, generate_series(1, ${LINHAS_POR_PESSOA}) n;
      create index on bench_driver.pedido_item (pessoa_id);
      analyze bench_driver.pessoa, bench_driver.produto, bench_driver.pedido_item;`);
  } finally {
    await c.end();
  }
}

// ---- the clients ----

/** `pg`, as bench/base-pg.ts and the service: a pool with `configDoPool`, a named statement per text. */
function clientePg(max: number): Cliente {
  const pool = new pg.Pool(configDoPool(URL_PG as string, max));
  return {
    consultar: async (name, text, id) => (await pool.query({ name, text, values: [id] })).rows.length,
    fechar: () => pool.end(),
  };
}

function abrirPostgresJs(max: number): postgres.Sql {
  return postgres(URL_PG as string, { max, onnotice: () => undefined });
}

/**
 * NOTE: postgres.js prepares its tagged templates (sql`…`) by default, but not `sql.unsafe(text,
 * values)`, the only form a query builder can call: unless `{ prepare: true }` is passed, each
 * query with parameters is parsed and described in one round trip, then bound and executed in a
 * second. Kysely's dialect for it (`kysely-postgres-js` 3.0.0) calls `unsafe(sql, parameters)`.
 */
const PREPARADA = { prepare: true } as const;

/** postgres.js as its pool works by itself: a query goes to a free connection or is pipelined on a busy one. */
function clientePostgresJs(max: number): Cliente {
  const sql = abrirPostgresJs(max);
  return {
    consultar: async (_nome, texto, id) => (await sql.unsafe(texto, [id], PREPARADA)).length,
    fechar: () => sql.end(),
  };
}

/** postgres.js with a connection reserved for each query, as a Kysely dialect must (one query at a time per connection). */
function clientePostgresJsReservado(max: number): Cliente {
  const sql = abrirPostgresJs(max);
  return {
    consultar: async (_nome, texto, id) => {
      const conexao = await sql.reserve();
      try {
        return (await conexao.unsafe(texto, [id], PREPARADA)).length;
      } finally {
        conexao.release();
      }
    },
    fechar: () => sql.end(),
  };
}

/**
 * What `kysely-postgres-js` 3.0.0 does: a reserved postgres.js connection per acquisition,
 * transactions as plain commands; with `preparar`, its queries go as prepared statements (the
 * package itself does not ask for that).
 */
class ConexaoPostgresJs implements DatabaseConnection {
  readonly reservada: postgres.ReservedSql;
  readonly preparar: boolean;
  constructor(reservada: postgres.ReservedSql, preparar: boolean) {
    this.reservada = reservada;
    this.preparar = preparar;
  }
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const resultado = await this.reservada.unsafe<R[]>(q.sql, [...q.parameters] as postgres.ParameterOrJSON<never>[], {
      prepare: this.preparar,
    });
    return { rows: Array.from(resultado) };
  }
  // eslint-disable-next-line require-yield -- the bench never streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('sem streaming neste bench');
  }
}

function driverPostgresJs(sql: postgres.Sql, preparar: boolean): Driver {
  const comando = (texto: string) => async (c: DatabaseConnection) => {
    await c.executeQuery(CompiledQuery.raw(texto));
  };
  return {
    init: async () => undefined,
    acquireConnection: async () => new ConexaoPostgresJs(await sql.reserve(), preparar),
    beginTransaction: comando('begin'),
    commitTransaction: comando('commit'),
    rollbackTransaction: comando('rollback'),
    releaseConnection: async (c) => {
      (c as ConexaoPostgresJs).reservada.release();
    },
    destroy: () => sql.end(),
  };
}

function dialetoPostgresJs(sql: postgres.Sql, preparar: boolean): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driverPostgresJs(sql, preparar),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}

/** A Kysely raw query with the same text and one parameter, compiled to `$1` as the dialect's compiler does. */
function clienteKysely(db: Kysely<unknown>): Cliente {
  const com = {
    pk: (id: number) => sqlKysely`select id, nome, email from bench_driver.pessoa where id = ${id}`,
    junção: (
      id: number,
    ) => sqlKysely`select i.id, i.quantidade_milesimos, i.preco_centavos, i.observacao, p.id as produto_id, p.nome, p.descricao, p.unidade
  from bench_driver.pedido_item i join bench_driver.produto p on p.id = i.produto_id
  where i.pessoa_id = ${id} order by i.id`,
  };
  return {
    consultar: async (nome, _texto, id) => (await com[nome](id).execute(db)).rows.length,
    fechar: () => db.destroy(),
  };
}

const VARIANTES_DE_DRIVER: ReadonlyArray<readonly [string, () => Cliente]> = [
  ['pg', () => clientePg(CONEXOES_DO_POOL)],
  ['postgres.js', () => clientePostgresJs(CONEXOES_DO_POOL)],
  ['postgres.js, conexão reservada', () => clientePostgresJsReservado(CONEXOES_DO_POOL)],
  [
    'Kysely + pg (o serviço)',
    () => clienteKysely(abrirBanco({ tipo: 'postgres', url: URL_PG }) as unknown as Kysely<unknown>),
  ],
  [
    'Kysely + postgres.js',
    () => clienteKysely(new Kysely<unknown>({ dialect: dialetoPostgresJs(abrirPostgresJs(CONEXOES_DO_POOL), true) })),
  ],
  [
    'Kysely + postgres.js sem preparar (kysely-postgres-js 3.0.0)',
    () => clienteKysely(new Kysely<unknown>({ dialect: dialetoPostgresJs(abrirPostgresJs(CONEXOES_DO_POOL), false) })),
  ],
];

// ---- measuring ----

/** utime + stime of a process, in ms (Linux: clock ticks of 10 ms). */
function cpuDoProcessoMs(pid: number): number {
  try {
    const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(campos[11]) + Number(campos[12])) * 10;
  } catch {
    return 0; // the backend ended
  }
}

async function backends(admin: pg.Client): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return rows.map((r) => r.pid);
}

interface Medida {
  readonly variante: string;
  readonly consulta: NomeDaConsulta;
  readonly rodada: number;
  readonly carga: string;
  readonly qps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** This process's CPU per query, µs. */
  readonly cpuUs: number;
  /** The database backends' CPU per query, µs (10 ms ticks over the whole run). */
  readonly cpuBancoUs: number;
}

function percentil(ordenados: Float64Array, p: number): number {
  return ordenados[Math.min(ordenados.length - 1, Math.floor(ordenados.length * p))] ?? 0;
}

async function medir(
  admin: pg.Client,
  variante: string,
  criar: () => Cliente,
  consulta: NomeDaConsulta,
  rodada: number,
): Promise<Medida> {
  const cliente = criar();
  const { texto, linhas } = CONSULTAS[consulta];
  let proximo = 0;
  const rodar = async (ate: number, latencias: number[] | null): Promise<void> => {
    await Promise.all(
      Array.from({ length: CHAMADORES }, async () => {
        while (performance.now() < ate) {
          const id = 1 + (proximo++ % PESSOAS);
          const t0 = performance.now();
          const n = await cliente.consultar(consulta, texto, id);
          latencias?.push(performance.now() - t0);
          if (n !== linhas) throw new Error(`${variante}, ${consulta}: ${n} linhas em vez de ${linhas}`);
        }
      }),
    );
  };
  try {
    await rodar(performance.now() + AQUECIMENTO_MS, null);
    const carga = loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
    const pids = await backends(admin);
    const cpuBanco0 = pids.reduce((s, p) => s + cpuDoProcessoMs(p), 0);
    const latencias: number[] = [];
    const cpu0 = process.cpuUsage();
    const inicio = performance.now();
    await rodar(inicio + DURACAO_MS, latencias);
    const decorrido = performance.now() - inicio;
    const cpu = process.cpuUsage(cpu0);
    const cpuBanco = pids.reduce((s, p) => s + cpuDoProcessoMs(p), 0) - cpuBanco0;
    const n = latencias.length;
    const ordenados = Float64Array.from(latencias).sort();
    return {
      variante,
      consulta,
      rodada,
      carga,
      qps: Math.round((n / decorrido) * 1000),
      p50Ms: Number(percentil(ordenados, 0.5).toFixed(2)),
      p99Ms: Number(percentil(ordenados, 0.99).toFixed(2)),
      cpuUs: Math.round((cpu.user + cpu.system) / n),
      cpuBancoUs: Math.round((cpuBanco * 1000) / n),
    };
  } finally {
    await cliente.fechar();
  }
}

function mediana(xs: readonly number[]): number {
  const o = [...xs].sort((a, b) => a - b);
  const m = Math.floor(o.length / 2);
  return o.length % 2 === 1 ? (o[m] ?? 0) : ((o[m - 1] ?? 0) + (o[m] ?? 0)) / 2;
}

function resumir(titulo: string, medidas: readonly Medida[]): void {
  console.log(
    `\n## ${titulo}: medianas de ${RODADAS} rodadas, ${CHAMADORES} chamadores, ${DURACAO_MS / 1000} s cada\n`,
  );
  console.log(
    '| Variante | Consulta | consultas/s | p50 ms | p99 ms | CPU do cliente por consulta | CPU do banco por consulta | cargas (1 min) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const grupos = new Map<string, Medida[]>();
  for (const m of medidas) {
    const chave = `${m.variante}\u0000${m.consulta}`;
    grupos.set(chave, [...(grupos.get(chave) ?? []), m]);
  }
  for (const g of grupos.values()) {
    const [primeira] = g;
    if (primeira === undefined) continue;
    const med = (f: (m: Medida) => number) => mediana(g.map(f));
    console.log(
      `| ${primeira.variante} | ${primeira.consulta} | ${med((m) => m.qps)} | ${med((m) => m.p50Ms)} | ${med((m) => m.p99Ms)} | ${med((m) => m.cpuUs)} µs | ${med((m) => m.cpuBancoUs)} µs | ${g.map((m) => m.carga.split(' ')[0]).join(', ')} |`,
    );
  }
}

async function rodadas(
  admin: pg.Client,
  variantes: ReadonlyArray<readonly [string, () => Cliente]>,
): Promise<Medida[]> {
  const medidas: Medida[] = [];
  for (let rodada = 1; rodada <= RODADAS; rodada++) {
    for (const consulta of Object.keys(CONSULTAS) as NomeDaConsulta[]) {
      for (const [variante, criar] of variantes) {
        const m = await medir(admin, variante, criar, consulta, rodada);
        medidas.push(m);
        console.log(
          `rodada ${rodada}, ${consulta}, ${variante}: ${m.qps}/s, p50 ${m.p50Ms} ms, p99 ${m.p99Ms} ms, cliente ${m.cpuUs} µs, banco ${m.cpuBancoUs} µs por consulta (carga ${m.carga})`,
        );
      }
    }
  }
  return medidas;
}

await prepararTabelas();
const admin = new pg.Client({ connectionString: URL_PG });
await admin.connect();
try {
  console.log(
    `carga no início: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  if (values.only !== 'pool') {
    resumir(`Drivers (${CONEXOES_DO_POOL} conexões)`, await rodadas(admin, VARIANTES_DE_DRIVER));
  }
  if (values.only !== 'drivers') {
    resumir(
      'Tamanho do pool do pg',
      await rodadas(
        admin,
        TAMANHOS_DE_POOL.map((n) => [`pg, pool de ${n}`, () => clientePg(n)] as const),
      ),
    );
  }
} finally {
  await admin.end();
}
