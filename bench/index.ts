/**
 * `npm run bench [-- --pg URL [--only-pg]] [-- --smoke] [-- --profile] [-- --cenarios a,b] [-- --duration S]`
 *
 * Builds the big dataset, starts the real server in production mode in a child process (with the
 * development provider running here, as the "external" issuer), logs many distinct people in
 * through it once each, and drives each scenario with autocannon at 50 connections. A bare
 * Fastify hello-world runs in the same way first: every throughput is also a ratio to it.
 * With --pg, the whole run is made on SQLite and then on PostgreSQL, back to back, and the
 * PostgreSQL run also measures Fastify answering one prepared single-row query over the service's
 * pool settings (bench/base-pg.ts): every PostgreSQL throughput is also a ratio to that.
 * Prints a table per database, writes bench/results/<date>.json (and <date>-postgres.json) and
 * the summaries in docs/performance.md.
 *
 * --smoke: a small dataset and one-second scenarios; exits non-zero on any error or failed check
 * (for CI: it proves the bench works, not that the service is fast; with --pg, on both databases).
 * Writes nothing.
 * --profile: the server runs with --cpu-prof; the self-time summary goes to the terminal and to
 * bench/results/<date>-perfil.json (profiled numbers are slower, so docs are left alone).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { BancoConfig } from '../src/config.ts';
import { CONEXOES_DO_POOL } from '../src/db/banco.ts';
import { iniciarProvedorDev } from '../src/idp/provedor.ts';
import { emParalelo, entrarPeloProvedor } from './http.ts';
import { resumirPerfis, type ResumoDoPerfil } from './perfil.ts';
import { TZ, cestasVendidasDemais, prepararBanco, type DadosDoBench } from './preparo.ts';
import {
  cpuMs,
  medirInicio,
  medirPicoDeRss,
  parar,
  portaLivre,
  rss,
  subirBase,
  subirBasePg,
  subirServidor,
  RAIZ,
  type Filho,
} from './processos.ts';
import {
  medirRelatorios,
  pedirPdf,
  pedirRelatorioJson,
  tabelaDeRelatorios,
  type ResultadoRelatorio,
} from './relatorios.ts';

const { values } = parseArgs({
  options: {
    pg: { type: 'string' },
    'only-pg': { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    cenarios: { type: 'string' },
    duration: { type: 'string' },
    runs: { type: 'string' },
    'node-options': { type: 'string' },
  },
});

const SMOKE = values.smoke;
const CONEXOES = 50;
const DURACAO = Number(values.duration ?? (SMOKE ? '1' : '10'));
const AQUECIMENTO = SMOKE ? 0 : 2;
const RODADAS = Number(values.runs ?? (SMOKE ? '1' : '10'));
const TAMANHO = SMOKE
  ? {
      consumidores: 300,
      fornecedores: 60,
      linhas: 400,
      pedintes: 30,
      mercados: 200,
      loginsFornecedores: 6,
      loginsMercados: 5,
    }
  : {
      consumidores: 5000,
      fornecedores: 60,
      linhas: 400,
      pedintes: 1000,
      mercados: 200,
      loginsFornecedores: 60,
      loginsMercados: 50,
    };
const filtro = values.cenarios === undefined ? null : new Set(values.cenarios.split(','));
const incluir = (id: string) => filtro === null || filtro.has(id);
const GRAPHQL = '{ mercados { admin { name } precos { produto { nome } } } }';
/**
 * As in the Dockerfile: V8 sizes the young generation from the machine's memory, and on this
 * 24 GiB machine it grew to 128 MB under load; 16 MB semi-spaces keep it at 32 MB (docs/operations.md).
 */
const NODE_OPTIONS_DE_PRODUCAO = '--max-semi-space-size=16 --max-old-space-size=512';

/**
 * The issues' targets (#9 for SQLite, #22 for PostgreSQL): the ratio to the bare baseline, the
 * ratio to the PostgreSQL one-query reference, the absolute floor and the p99 ceiling.
 */
interface Meta {
  readonly razao?: number;
  readonly razaoPg?: number;
  readonly rps?: number;
  readonly p99Ms?: number;
}
type Metas = Readonly<Record<BancoConfig['tipo'], Meta>>;
const LEITURA: Metas = {
  sqlite: { razao: 0.25, rps: 3000, p99Ms: 50 },
  postgres: { razaoPg: 0.5, rps: 2500, p99Ms: 50 },
};
const ESCRITA_PEDIDO: Metas = { sqlite: { razao: 0.08, rps: 1000, p99Ms: 100 }, postgres: { rps: 800, p99Ms: 100 } };
const OFERTA: Metas = { sqlite: {}, postgres: { rps: 300 } };
const GRAPHQL_META: Metas = { sqlite: { rps: 1000 }, postgres: { rps: 1000 } };
/** Issue #22 sets no PostgreSQL target for /auth/status; SQLite keeps issue #9's read target. */
const AUTH_STATUS: Metas = { sqlite: LEITURA.sqlite, postgres: {} };
/** The mix: peak RSS on SQLite (#9); the p99 on PostgreSQL (#22). */
const MISTURA: Readonly<Record<BancoConfig['tipo'], { picoMb?: number; p99Ms?: number }>> = {
  sqlite: { picoMb: 250 },
  postgres: { p99Ms: 300 },
};

interface Pedido {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

interface Cenario {
  readonly id: string;
  readonly nome: string;
  readonly base: 'cestas' | 'mercados' | 'baseline';
  readonly meta: Metas;
  readonly pedido: (i: number) => Pedido;
}

export interface Linha {
  readonly id: string;
  readonly cenario: string;
  readonly rps: number;
  readonly razao: number | null;
  /** The ratio to the one-query PostgreSQL reference of the same run (PostgreSQL runs only). */
  readonly razaoPg?: number | null;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requisicoes: number;
  readonly erros: number;
  readonly status: Record<string, number>;
  readonly picoRssMb: number;
  readonly meta: string;
  readonly ok: boolean | null;
  readonly falta: string;
  /** The server's CPU time per completed request (user + system): steadier than req/s on a shared machine. */
  readonly cpuMsPorReq?: number;
}

function descreverMeta(m: Meta): string {
  const partes = [
    m.razao === undefined ? '' : `≥ ${m.razao} da base`,
    m.razaoPg === undefined ? '' : `≥ ${m.razaoPg} da base PG`,
    m.rps === undefined ? '' : `≥ ${m.rps} req/s`,
    m.p99Ms === undefined ? '' : `p99 ≤ ${m.p99Ms} ms`,
  ];
  return partes.filter((p) => p !== '').join(', ') || '(sem meta)';
}

/** Runs one autocannon load; every request is built by `pedido(i)` with a fresh counter. */
async function carregar(
  url: string,
  pedido: (i: number) => Pedido,
  duracao: number,
  conexoes = CONEXOES,
): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url,
    connections: conexoes,
    duration: duracao,
    timeout: 20,
    requests: [{ setupRequest: (req) => ({ ...req, ...pedido(n++) }) }],
  });
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Completed requests per second over the whole run (the per-second samples miss a short run's tail). */
function vazao(r: autocannon.Result): number {
  return r.duration > 0 ? Math.round(r.requests.total / r.duration) : 0;
}

function errosDe(r: autocannon.Result): number {
  // 3xx counts too: every scenario answers 200 when it works (JSON clients are never redirected).
  return r.errors + r.timeouts + r.non2xx;
}

function statusDe(r: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count ?? 0)]));
}

const razaoA = (rps: number, base: number | null) =>
  base === null || base === 0 ? null : Math.round((rps / base) * 1000) / 1000;

function avaliar(
  id: string,
  nome: string,
  r: autocannon.Result,
  base: number | null,
  meta: Meta,
  picoRss: number,
  basePg: number | null = null,
): Linha {
  const rps = vazao(r);
  const razao = razaoA(rps, base);
  const razaoPg = razaoA(rps, basePg);
  const faltas: string[] = [];
  if (meta.razao !== undefined && razao !== null && razao < meta.razao)
    faltas.push(`razão ${razao} < ${meta.razao} (${Math.round((1 - razao / meta.razao) * 100)}% abaixo)`);
  if (meta.razaoPg !== undefined && razaoPg !== null && razaoPg < meta.razaoPg)
    faltas.push(
      `razão à base PG ${razaoPg} < ${meta.razaoPg} (${Math.round((1 - razaoPg / meta.razaoPg) * 100)}% abaixo)`,
    );
  if (meta.rps !== undefined && rps < meta.rps)
    faltas.push(`${rps} < ${meta.rps} req/s (${Math.round((1 - rps / meta.rps) * 100)}% abaixo)`);
  if (meta.p99Ms !== undefined && r.latency.p99 > meta.p99Ms) faltas.push(`p99 ${r.latency.p99} > ${meta.p99Ms} ms`);
  const erros = errosDe(r);
  if (erros > 0) faltas.push(`${erros} erros`);
  const temMeta =
    meta.razao !== undefined || meta.razaoPg !== undefined || meta.rps !== undefined || meta.p99Ms !== undefined;
  return {
    id,
    cenario: nome,
    rps,
    razao,
    ...(basePg === null ? {} : { razaoPg }),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requisicoes: r.requests.total,
    erros,
    status: statusDe(r),
    picoRssMb: mb(picoRss),
    meta: descreverMeta(meta),
    ok: temMeta ? faltas.length === 0 : erros === 0 ? null : false,
    falta: faltas.join('; '),
  };
}

function commitAtual(): string {
  try {
    // A worktree's .git is a file pointing elsewhere: ask git itself first.
    return execFileSync('git', ['rev-parse', '--short=7', 'HEAD'], {
      cwd: RAIZ,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // No git on the path: read the refs by hand below.
  }
  try {
    const head = readFileSync(join(RAIZ, '.git', 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head.slice(0, 7);
    const ref = head.slice(5);
    const solto = join(RAIZ, '.git', ref);
    if (existsSync(solto)) return readFileSync(solto, 'utf8').trim().slice(0, 7);
    const empacotado = readFileSync(join(RAIZ, '.git', 'packed-refs'), 'utf8')
      .split('\n')
      .find((l) => l.endsWith(` ${ref}`));
    return empacotado?.slice(0, 7) ?? 'desconhecido';
  } catch {
    return 'desconhecido';
  }
}

const carga = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** What one database's run measured. */
interface Medicao {
  readonly cfgBanco: BancoConfig;
  readonly falhas: string[];
  readonly linhas: Linha[];
  readonly relatorios: ResultadoRelatorio[];
  readonly inicioMs: number | null;
  readonly inicioOk: boolean | null;
  readonly cargaAntes: string;
  readonly cargaDepois: string;
  readonly arquivo: string | null;
}

// ---------------------------------------------------------------------------------------------
// Dataset, provider, server: one whole run on one database (`pg`: its URL; undefined: SQLite).

async function medirBanco(pg: string | undefined): Promise<Medicao> {
  const falhas: string[] = [];
  const t0 = performance.now();
  const cargaAntes = carga();
  console.log(
    `\n== ${pg === undefined ? 'SQLite' : 'PostgreSQL'}\nCarga da máquina antes (1, 5, 15 min): ${cargaAntes}`,
  );
  const pasta = mkdtempSync(join(tmpdir(), 'cestaria-bench-'));
  const url = pg ?? `sqlite:${join(pasta, 'bench.db')}`;
  const cfgBanco: BancoConfig = url.startsWith('sqlite:')
    ? { tipo: 'sqlite', caminho: url.slice('sqlite:'.length) }
    : { tipo: 'postgres', url };
  const dados: DadosDoBench = await prepararBanco(cfgBanco, TAMANHO);
  console.log(
    `Dados prontos em ${((performance.now() - t0) / 1000).toFixed(1)} s (${TAMANHO.consumidores} consumidores, ${cfgBanco.tipo}).`,
  );

  const idp = await iniciarProvedorDev('127.0.0.1', 0);
  const [portaCestas, portaMercados, portaBase, portaBasePg] = await Promise.all([
    portaLivre(),
    portaLivre(),
    portaLivre(),
    portaLivre(),
  ]);
  const cestas = `http://localhost:${portaCestas}`;
  const mercados = `http://localhost:${portaMercados}`;
  const segredoCestas = randomBytes(24).toString('base64url');
  const segredoMercados = randomBytes(24).toString('base64url');
  idp.ativar(
    [
      {
        clientId: 'bench-cestas',
        clientSecret: segredoCestas,
        redirectUris: [`${cestas}/callback`],
        postLogoutRedirectUris: [`${cestas}/saiu`],
      },
      {
        clientId: 'bench-mercados',
        clientSecret: segredoMercados,
        redirectUris: [`${mercados}/auth/idp/callback`],
        postLogoutRedirectUris: [],
      },
    ],
    [],
  );
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    DATABASE_URL: url,
    HOST: '127.0.0.1',
    CESTAS_PORT: String(portaCestas),
    MERCADOS_PORT: String(portaMercados),
    OIDC_ISSUER_BASE_URL: idp.issuer,
    OIDC_CLIENT_ID: 'bench-cestas',
    OIDC_CLIENT_SECRET: segredoCestas,
    OAUTH_ISSUER_URL: idp.issuer,
    OAUTH_CLIENT_ID: 'bench-mercados',
    OAUTH_CLIENT_SECRET: segredoMercados,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    APP_SESSION_SECRET: randomBytes(32).toString('base64url'),
    ADMIN_EMAILS: dados.adminEmail,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'warn',
    TZ,
    UPLOAD_DIR: join(pasta, 'arquivos'),
    // The V8 settings production runs with (the Dockerfile's NODE_OPTIONS); --node-options tries others.
    NODE_OPTIONS: values['node-options'] ?? NODE_OPTIONS_DE_PRODUCAO,
  };

  // Start-up: `npm start` on the migrated database, first 200 of /readyz (the median of three).
  const inicios: number[] = [];
  if (incluir('inicio')) {
    for (let i = 0; i < (SMOKE ? 1 : 3); i++) inicios.push(await medirInicio(env, cestas));
    inicios.sort((a, b) => a - b);
  }
  const inicioMs = inicios.length === 0 ? null : Math.round(inicios[Math.floor(inicios.length / 2)] ?? 0);
  if (inicioMs !== null)
    console.log(`npm start respondeu em ${inicioMs} ms (medidas: ${inicios.map((x) => Math.round(x)).join(', ')} ms)`);

  const pastaPerfil = values.profile ? join(pasta, 'perfil') : undefined;
  if (pastaPerfil !== undefined) mkdirSync(pastaPerfil, { recursive: true });
  let servidor: Filho | null = null;
  const linhas: Linha[] = [];
  let relatorios: ResultadoRelatorio[] = [];
  let picoMisturaMb: number | null = null;
  let misturaPorCenario: Array<{ id: string; n: number; p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number }> =
    [];
  let resumoPerfil: ResumoDoPerfil | null = null;
  const medidas: { loginsS: number | null } = { loginsS: null };
  let vendidasDemais: Awaited<ReturnType<typeof cestasVendidasDemais>> = [];

  try {
    servidor = await subirServidor(env, pastaPerfil === undefined ? {} : { perfilEm: pastaPerfil });
    const pid = servidor.pid;
    const rssInicial = rss(pid);

    // ------------------------------------------------------------------------------------------
    // Logins: each person once, through the provider's real login page, from a spread of loopback
    // addresses (at most 40 Cestas logins, 80 attempts, per address; one Mercados login each).
    const tLogin = performance.now();
    const origemCestas = (i: number) => `127.0.1.${1 + Math.floor(i / 40)}`;
    const pessoasCestas = [
      dados.adminEmail,
      ...dados.consumidores.slice(0, TAMANHO.pedintes),
      ...dados.fornecedores.slice(0, TAMANHO.loginsFornecedores).map((f) => f.email),
    ];
    const cookiesCestas = await emParalelo(pessoasCestas, 6, (email, i) =>
      entrarPeloProvedor(origemCestas(i), `${cestas}/`, email, 'appSession'),
    );
    const admin = cookiesCestas[0] ?? '';
    const consumidores = cookiesCestas.slice(1, 1 + TAMANHO.pedintes);
    const fornecedores = cookiesCestas
      .slice(1 + TAMANHO.pedintes)
      .map((cookie, i) => ({ cookie, ...(dados.fornecedores[i] ?? { email: '', produtos: [] }) }));
    const pessoasMercados = [dados.adminEmail, ...dados.consumidores.slice(0, TAMANHO.loginsMercados - 1)];
    const cookiesMercados = await emParalelo(pessoasMercados, 6, (email, i) =>
      entrarPeloProvedor(`127.0.2.${1 + i}`, `${mercados}/login`, email, 'mercadosSession'),
    );
    const adminMercados = cookiesMercados[0] ?? '';
    medidas.loginsS = (performance.now() - tLogin) / 1000;
    console.log(
      `${pessoasCestas.length + pessoasMercados.length} logins pelo provedor em ${medidas.loginsS.toFixed(1)} s; RSS do servidor: ${mb(rssInicial)} MB ao subir, ${mb(rss(pid))} MB depois dos logins.`,
    );

    const json = { accept: 'application/json' };
    const naVez = <T>(lista: readonly T[], i: number): T => lista[i % lista.length] as T;
    const cenarios: Cenario[] = [
      {
        id: 'painel',
        nome: 'painel (GET / JSON)',
        base: 'cestas',
        meta: LEITURA,
        pedido: (i) => ({ method: 'GET', path: '/', headers: { ...json, cookie: naVez(consumidores, i) } }),
      },
      {
        id: 'pedido-pagina',
        nome: 'página do pedido (GET JSON)',
        base: 'cestas',
        meta: LEITURA,
        pedido: (i) => ({
          method: 'GET',
          path: `/pedidoconsumidores/${dados.cicloPedido}`,
          headers: { ...json, cookie: naVez(consumidores, i) },
        }),
      },
      {
        id: 'pedido-salvar',
        nome: `salvar pedido (${consumidores.length} consumidores)`,
        base: 'cestas',
        meta: ESCRITA_PEDIDO,
        pedido: (i) => {
          // Consumer g always orders basket type g % 6 (the room for each type is exactly that demand).
          const g = i % consumidores.length;
          const corpo = {
            cicloid: dados.cicloPedido,
            pontoEntregaId: naVez(dados.pontos, g),
            produtos: [
              { cicloCestaId: naVez(dados.cestasDoPedido, g).cicloCestaId, quantidade: 1 },
              { cicloProdutoId: naVez(dados.extrasDoPedido, g), quantidade: `0.${1 + (i % 9)}` },
            ],
          };
          return {
            method: 'POST',
            path: '/pedidoconsumidores',
            headers: { ...json, 'content-type': 'application/json', cookie: consumidores[g] ?? '' },
            body: JSON.stringify(corpo),
          };
        },
      },
      {
        id: 'oferta-salvar',
        nome: `oferta final (${fornecedores.length} fornecedores)`,
        base: 'cestas',
        meta: OFERTA,
        pedido: (i) => {
          const f = naVez(fornecedores, i);
          const corpo = {
            cicloid: dados.cicloOferta,
            produtos: f.produtos.map((produtoid, j) => ({
              produtoid,
              quantidade: String(50 + ((i + j) % 50)),
              valor: '3.50',
            })),
          };
          return {
            method: 'POST',
            path: '/ofertasave',
            headers: { ...json, 'content-type': 'application/json', cookie: f.cookie },
            body: JSON.stringify(corpo),
          };
        },
      },
      {
        id: 'graphql',
        nome: `GraphQL mercados (${TAMANHO.mercados} mercados)`,
        base: 'mercados',
        meta: GRAPHQL_META,
        pedido: () => ({
          method: 'POST',
          path: '/graphql',
          headers: { ...json, 'content-type': 'application/json', cookie: adminMercados },
          body: JSON.stringify({ query: GRAPHQL }),
        }),
      },
      {
        id: 'auth-status',
        nome: 'Mercados /auth/status',
        base: 'mercados',
        meta: AUTH_STATUS,
        pedido: (i) => ({
          method: 'GET',
          path: '/auth/status',
          headers: { ...json, cookie: naVez(cookiesMercados, i) },
        }),
      },
    ];

    // Sanity check: one request of each scenario succeeds (2xx: a first save creates, 201) before any load is measured.
    for (const c of cenarios.filter((x) => incluir(x.id))) {
      const p = c.pedido(0);
      const t = performance.now();
      const r = await fetch(`${c.base === 'cestas' ? cestas : mercados}${p.path}`, {
        method: p.method,
        headers: p.headers,
        ...(p.body === undefined ? {} : { body: p.body }),
      });
      const texto = await r.text();
      console.log(
        `${c.nome}: primeira requisição ${r.status}, ${Math.round(Buffer.byteLength(texto) / 1024)} KiB em ${Math.round(performance.now() - t)} ms`,
      );
      if (r.status < 200 || r.status > 299 || (c.id === 'graphql' && texto.includes('"errors"')))
        falhas.push(`${c.nome}: primeira requisição ${r.status} ${texto.slice(0, 300)}`);
    }

    // ------------------------------------------------------------------------------------------
    // The baseline, then each scenario (with a short warm-up that is not recorded).
    const baseProc = await subirBase(portaBase);
    let base: number;
    try {
      if (AQUECIMENTO > 0)
        await carregar(`http://127.0.0.1:${portaBase}`, () => ({ method: 'GET', path: '/', headers: {} }), AQUECIMENTO);
      const medida = medirPicoDeRss(baseProc.pid);
      const r = await carregar(
        `http://127.0.0.1:${portaBase}`,
        () => ({ method: 'GET', path: '/', headers: {} }),
        DURACAO,
      );
      base = vazao(r);
      linhas.push(avaliar('base', 'base: Fastify hello-world', r, base, {}, medida.parar()));
    } finally {
      await parar(baseProc);
    }
    // On PostgreSQL, the second reference: one prepared single-row query per request, same pool settings.
    let basePg: number | null = null;
    if (cfgBanco.tipo === 'postgres') {
      const refProc = await subirBasePg(portaBasePg, cfgBanco.url);
      try {
        const pedidoRef = () => ({ method: 'GET' as const, path: '/', headers: {} });
        if (AQUECIMENTO > 0) await carregar(`http://127.0.0.1:${portaBasePg}`, pedidoRef, AQUECIMENTO);
        const medida = medirPicoDeRss(refProc.pid);
        const cpuAntes = cpuMs(refProc.pid);
        const r = await carregar(`http://127.0.0.1:${portaBasePg}`, pedidoRef, DURACAO);
        basePg = vazao(r);
        const linha = avaliar(
          'base-pg',
          `base PG: Fastify + 1 consulta preparada (pool de ${CONEXOES_DO_POOL})`,
          r,
          base,
          {},
          medida.parar(),
          basePg,
        );
        linhas.push({
          ...linha,
          cpuMsPorReq: Math.round(((cpuMs(refProc.pid) - cpuAntes) / Math.max(1, r.requests.total)) * 100) / 100,
        });
        console.log(`${linha.cenario}: ${linha.rps} req/s, p99 ${linha.p99Ms} ms, ${linha.erros} erros`);
        if (linha.erros > 0 || linha.requisicoes === 0)
          falhas.push(`${linha.cenario}: ${linha.erros} erros, ${linha.requisicoes} requisições`);
      } finally {
        await parar(refProc);
      }
    }

    // When a load stops, the server still owes the requests it had read (a GraphQL backlog can take
    // seconds): the next scenario starts only once both faces answer /healthz again.
    // /healthz answers between two of those requests, so the server's CPU must also go quiet (under
    // a fifth of a core over 200 ms): a 1-second smoke scenario could otherwise see none of its own
    // requests finish.
    const esperarCalma = async () => {
      for (const porta of [portaCestas, portaMercados])
        await (await fetch(`http://127.0.0.1:${porta}/healthz`)).arrayBuffer();
      const limite = Date.now() + 30_000;
      for (let antes = cpuMs(pid); Date.now() < limite;) {
        await new Promise((r) => setTimeout(r, 200));
        const agora = cpuMs(pid);
        if (agora - antes < 40) return;
        antes = agora;
      }
    };
    const enderecoDe = (c: Cenario) =>
      c.base === 'cestas' ? `http://127.0.0.1:${portaCestas}` : `http://127.0.0.1:${portaMercados}`;
    for (const c of cenarios.filter((x) => incluir(x.id))) {
      if (AQUECIMENTO > 0) await carregar(enderecoDe(c), c.pedido, AQUECIMENTO);
      await esperarCalma();
      const medida = medirPicoDeRss(pid);
      const cpuAntes = cpuMs(pid);
      const r = await carregar(enderecoDe(c), c.pedido, DURACAO);
      const linha = {
        ...avaliar(c.id, c.nome, r, base, c.meta[cfgBanco.tipo], medida.parar(), basePg),
        cpuMsPorReq: Math.round(((cpuMs(pid) - cpuAntes) / Math.max(1, r.requests.total)) * 100) / 100,
      };
      await esperarCalma();
      linhas.push(linha);
      console.log(
        `${linha.cenario}: ${linha.rps} req/s, p99 ${linha.p99Ms} ms, ${linha.erros} erros, ${linha.cpuMsPorReq} ms de CPU do servidor por requisição`,
      );
      if (linha.erros > 0) falhas.push(`${c.nome}: ${linha.erros} erros (${JSON.stringify(linha.status)})`);
      if (linha.requisicoes === 0) falhas.push(`${c.nome}: nenhuma requisição concluída`);
      if (c.id === 'pedido-salvar') {
        vendidasDemais = await cestasVendidasDemais(cfgBanco, dados);
        if (vendidasDemais.length > 0)
          falhas.push(`cestas vendidas além do que havia: ${JSON.stringify(vendidasDemais)}`);
      }
    }

    // ------------------------------------------------------------------------------------------
    // Reports, one at a time.
    await esperarCalma();
    if (incluir('relatorios')) {
      relatorios = await medirRelatorios(`http://127.0.0.1:${portaCestas}`, admin, dados.cicloEntrega, pid, RODADAS);
      for (const r of relatorios.filter((x) => x.erros > 0))
        falhas.push(`${r.cenario}: ${r.erros} respostas diferentes de 200`);
    }

    // ------------------------------------------------------------------------------------------
    // The mix: every read and write scenario at once (40 connections on Cestas, 10 on Mercados)
    // while the delivery PDF and the largest report JSON are asked over and over: peak RSS.
    if (incluir('mistura')) {
      const deCestas = cenarios.filter((c) => c.base === 'cestas');
      const deMercados = cenarios.filter((c) => c.base === 'mercados');
      const medida = medirPicoDeRss(pid);
      let fim = false;
      let relatoriosNaMistura = 0;
      let errosDosRelatorios = 0;
      const tempos = new Map<string, number[]>();
      const anotar = (id: string, ms: number) => tempos.set(id, [...(tempos.get(id) ?? []), ms]);
      const pesados = (async () => {
        const pdf = pedirPdf(`http://127.0.0.1:${portaCestas}`, admin, dados.cicloEntrega);
        const relJson = pedirRelatorioJson(`http://127.0.0.1:${portaCestas}`, admin, dados.cicloEntrega);
        while (!fim) {
          for (const [id, pedir] of [
            ['pdf-entrega', pdf],
            ['relatorio-consumidores', relJson],
          ] as const) {
            const t = performance.now();
            const r = await pedir();
            await r.arrayBuffer();
            anotar(id, performance.now() - t);
            relatoriosNaMistura++;
            if (r.status !== 200) errosDosRelatorios++;
          }
        }
      })();
      // One probe per scenario, one request at a time on its own connection, beside the load: the
      // time each kind of request takes while everything else runs (autocannon gives one p99 for all).
      const sondas = cenarios.map(async (c) => {
        const base = c.base === 'cestas' ? `http://127.0.0.1:${portaCestas}` : `http://127.0.0.1:${portaMercados}`;
        for (let i = 0; !fim; i++) {
          const p = c.pedido(10_000 + i);
          const t = performance.now();
          const r = await fetch(`${base}${p.path}`, {
            method: p.method,
            headers: p.headers,
            ...(p.body === undefined ? {} : { body: p.body }),
          });
          await r.arrayBuffer();
          anotar(c.id, performance.now() - t);
          if (r.status >= 300) errosDosRelatorios++;
          await new Promise((ok) => setTimeout(ok, 20));
        }
      });
      const duracaoMistura = SMOKE ? 2 : 15;
      const [rc, rm] = await Promise.all([
        carregar(
          `http://127.0.0.1:${portaCestas}`,
          (i) => naVez(deCestas, i).pedido(Math.floor(i / deCestas.length)),
          duracaoMistura,
          40,
        ),
        carregar(
          `http://127.0.0.1:${portaMercados}`,
          (i) => naVez(deMercados, i).pedido(Math.floor(i / deMercados.length)),
          duracaoMistura,
          10,
        ),
      ]);
      fim = true;
      await Promise.all([pesados, ...sondas]);
      const pico = medida.parar();
      misturaPorCenario = [...tempos].map(([id, ms]) => {
        const o = [...ms].sort((x, y) => x - y);
        const q = (f: number) => Math.round(o[Math.min(o.length - 1, Math.floor(f * o.length))] ?? 0);
        return { id, n: o.length, p50Ms: q(0.5), p90Ms: q(0.9), p99Ms: q(0.99), maxMs: Math.round(o.at(-1) ?? 0) };
      });
      console.log('Mistura, por cenário (uma sonda de cada, uma requisição por vez ao lado da carga):');
      console.table(misturaPorCenario);
      picoMisturaMb = mb(pico);
      const erros = errosDe(rc) + errosDe(rm) + errosDosRelatorios;
      const rps = vazao(rc) + vazao(rm);
      const p99Ms = Math.max(rc.latency.p99, rm.latency.p99);
      const meta = MISTURA[cfgBanco.tipo];
      const faltas = [
        meta.picoMb !== undefined && picoMisturaMb > meta.picoMb ? `pico ${picoMisturaMb} MB > ${meta.picoMb} MB` : '',
        meta.p99Ms !== undefined && p99Ms > meta.p99Ms ? `p99 ${p99Ms} > ${meta.p99Ms} ms` : '',
        erros > 0 ? `${erros} erros` : '',
      ].filter((x) => x !== '');
      linhas.push({
        id: 'mistura',
        cenario: `mistura (tudo junto + ${relatoriosNaMistura} PDFs/relatórios)`,
        rps,
        razao: razaoA(rps, base),
        ...(basePg === null ? {} : { razaoPg: razaoA(rps, basePg) }),
        p50Ms: Math.max(rc.latency.p50, rm.latency.p50),
        p99Ms,
        requisicoes: rc.requests.total + rm.requests.total,
        erros,
        status: { ...statusDe(rm), ...statusDe(rc) },
        picoRssMb: picoMisturaMb,
        meta: [
          meta.picoMb === undefined ? '' : `pico de RSS ≤ ${meta.picoMb} MB`,
          meta.p99Ms === undefined ? '' : `p99 ≤ ${meta.p99Ms} ms`,
        ]
          .filter((x) => x !== '')
          .join(', '),
        ok: faltas.length === 0,
        falta: faltas.join('; '),
      });
      if (erros > 0) falhas.push(`mistura: ${erros} erros`);
      vendidasDemais = await cestasVendidasDemais(cfgBanco, dados);
      if (vendidasDemais.length > 0)
        falhas.push(`cestas vendidas além do que havia depois da mistura: ${JSON.stringify(vendidasDemais)}`);
    }
  } finally {
    if (servidor !== null) {
      const saida = servidor.saida();
      await parar(servidor);
      if (/"level":(50|60)/.test(saida))
        falhas.push(
          `o servidor registrou erros:\n${saida
            .split('\n')
            .filter((l) => /"level":(50|60)/.test(l))
            .slice(0, 5)
            .join('\n')}`,
        );
    }
    await idp.fechar();
    if (pastaPerfil !== undefined) resumoPerfil = resumirPerfis(pastaPerfil);
    rmSync(pasta, { recursive: true, force: true });
  }

  const cargaDepois = carga();
  const inicioOk = inicioMs === null ? null : inicioMs <= 3000;
  if (resumoPerfil !== null) {
    console.log(`Perfil de CPU do servidor: ${resumoPerfil.totalMs} ms fora do ocioso.`);
    console.table(resumoPerfil.areas);
    console.table(resumoPerfil.funcoes);
    console.log('Por função nossa (o que ela pede às bibliotecas e ao banco incluído):');
    console.table(resumoPerfil.chamadores);
  }
  let arquivo: string | null = null;
  if (!SMOKE) {
    const resultado = {
      data: new Date().toISOString(),
      commit: COMMIT,
      maquina: MAQUINA,
      carga: { antes: cargaAntes, depois: cargaDepois },
      banco: cfgBanco.tipo,
      conexoes: CONEXOES,
      duracaoS: DURACAO,
      tamanho: TAMANHO,
      loginsS: medidas.loginsS === null ? null : Math.round(medidas.loginsS * 10) / 10,
      inicioMs,
      inicios: inicios.map(Math.round),
      cenarios: linhas,
      relatorios,
      picoMisturaMb,
      misturaPorCenario,
      vendidasDemais,
      falhas,
      ...(cfgBanco.tipo === 'postgres' ? { conexoesDoPool: CONEXOES_DO_POOL } : {}),
      ...(resumoPerfil === null ? {} : { perfil: resumoPerfil }),
    };
    const sufixo = `${cfgBanco.tipo === 'postgres' ? '-postgres' : ''}${values.profile ? '-perfil' : filtro !== null ? '-parcial' : ''}`;
    arquivo = join(import.meta.dirname, 'results', `${DIA}${sufixo}.json`);
    writeFileSync(arquivo, `${JSON.stringify(resultado, null, 2)}\n`);
  }
  return { cfgBanco, falhas, linhas, relatorios, inicioMs, inicioOk, cargaAntes, cargaDepois, arquivo };
}

// ---------------------------------------------------------------------------------------------
// Report: SQLite, then PostgreSQL when asked, back to back on the same machine.

const MAQUINA = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 1024 ** 3)} GiB`;
const COMMIT = commitAtual();
const DIA = new Date().toISOString().slice(0, 10);
const tInicio = performance.now();
const medicoes: Medicao[] = values['only-pg'] && values.pg !== undefined ? [] : [await medirBanco(undefined)];
if (values.pg !== undefined) medicoes.push(await medirBanco(values.pg));

for (const m of medicoes) {
  console.log(
    `\n== ${m.cfgBanco.tipo === 'postgres' ? 'PostgreSQL' : 'SQLite'} (carga antes ${m.cargaAntes}, depois ${m.cargaDepois})`,
  );
  console.table(
    m.linhas.map((l) => ({
      cenário: l.cenario,
      'req/s': l.rps,
      razão: l.razao,
      ...(m.cfgBanco.tipo === 'postgres' ? { 'razão PG': l.razaoPg ?? '—' } : {}),
      'p50 ms': l.p50Ms,
      'p99 ms': l.p99Ms,
      'CPU ms/req': l.cpuMsPorReq ?? '—',
      erros: l.erros,
      'pico RSS MB': l.picoRssMb,
      meta: l.meta,
      ok: l.ok === null ? '—' : l.ok ? 'sim' : 'NÃO',
    })),
  );
  if (m.relatorios.length > 0) console.table(m.relatorios);
  if (m.inicioMs !== null)
    console.log(
      `Início (npm start até /readyz 200): ${m.inicioMs} ms — meta ≤ 3000 ms: ${m.inicioOk === true ? 'sim' : 'NÃO'}`,
    );
  if (m.arquivo !== null) console.log(`Resultado em ${m.arquivo}`);
}
console.log(`Máquina: ${MAQUINA}; commit ${COMMIT}; total ${((performance.now() - tInicio) / 1000).toFixed(0)} s.`);

const falhas = medicoes.flatMap((m) => m.falhas.map((f) => `${m.cfgBanco.tipo}: ${f}`));
if (falhas.length > 0) {
  console.error(`\n${falhas.length} falha(s):\n- ${falhas.join('\n- ')}`);
}
if (!SMOKE && !values.profile && filtro === null) {
  for (const m of medicoes.filter((x) => x.falhas.length === 0)) {
    escreverResumo({
      dia: DIA,
      commit: COMMIT,
      maquina: MAQUINA,
      tipo: m.cfgBanco.tipo,
      cargaAntes: m.cargaAntes,
      cargaDepois: m.cargaDepois,
      inicioMs: m.inicioMs,
      inicioOk: m.inicioOk,
      linhas: m.linhas,
      relatorios: m.relatorios,
    });
    console.log(`Resumo (${m.cfgBanco.tipo}) gravado em docs/performance.md`);
  }
}
process.exit(falhas.length === 0 ? 0 : 1);

function escreverResumo(r: {
  dia: string;
  commit: string;
  maquina: string;
  tipo: BancoConfig['tipo'];
  cargaAntes: string;
  cargaDepois: string;
  inicioMs: number | null;
  inicioOk: boolean | null;
  linhas: readonly Linha[];
  relatorios: readonly ResultadoRelatorio[];
}): void {
  const sim = (ok: boolean | null) => (ok === null ? '—' : ok ? 'sim' : '**não**');
  const pg = r.tipo === 'postgres';
  const tabela = [
    `Medido em ${r.dia}, commit \`${r.commit}\`, ${r.maquina}, ${pg ? 'PostgreSQL (no mesmo computador)' : 'SQLite'}, produção (\`NODE_ENV=production\`), ${CONEXOES} conexões, ${DURACAO} s por cenário após ${AQUECIMENTO} s de aquecimento. Carga da máquina (média de 1, 5 e 15 min, \`uptime\`): ${r.cargaAntes} antes, ${r.cargaDepois} depois: a máquina é compartilhada e os números absolutos variam; as razões variam menos.`,
    '',
    `| Cenário | req/s | Razão à base |${pg ? ' Razão à base PG |' : ''} p50 | p99 | CPU do servidor por requisição | Erros | Pico de RSS | Meta | Dentro da meta |`,
    `|---|---|---|${pg ? '---|' : ''}---|---|---|---|---|---|---|`,
    ...r.linhas.map(
      (l) =>
        `| ${l.cenario} | ${l.rps} | ${l.razao ?? '—'} |${pg ? ` ${l.razaoPg ?? '—'} |` : ''} ${l.p50Ms} ms | ${l.p99Ms} ms | ${l.cpuMsPorReq === undefined ? '—' : `${l.cpuMsPorReq} ms`} | ${l.erros} | ${l.picoRssMb} MB | ${l.meta} | ${sim(l.ok)}${l.falta === '' ? '' : ` (${l.falta})`} |`,
    ),
    ...(r.inicioMs === null
      ? []
      : [
          `| início: \`npm start\` até \`/readyz\` 200 | — | — |${pg ? ' — |' : ''} ${r.inicioMs} ms | — | — | 0 | — | ≤ 3 s | ${sim(r.inicioOk)} |`,
        ]),
  ].join('\n');
  const caminho = join(RAIZ, 'docs', 'performance.md');
  let doc = readFileSync(caminho, 'utf8');
  const trocar = (marca: string, conteudo: string) => {
    doc = doc.replace(
      new RegExp(`<!-- ${marca}:inicio -->[\\s\\S]*<!-- ${marca}:fim -->`),
      `<!-- ${marca}:inicio -->\n${conteudo}\n<!-- ${marca}:fim -->`,
    );
  };
  trocar(pg ? 'bench-pg' : 'bench', tabela);
  if (r.relatorios.length > 0) trocar(pg ? 'relatorios-pg' : 'relatorios', tabelaDeRelatorios(r.relatorios, RODADAS));
  writeFileSync(caminho, doc);
}
