import { Type } from '@sinclair/typebox';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { arquivoEstatico } from './esquemas.ts';
import { migracoesPendentes, usoDoPool, type Banco, type UsoDoPool } from '../db/banco.ts';
import type { Relogio } from '../domain/tempo.ts';

/** Upper bounds (seconds) of the request latency histogram. */
export const BALDES_SEGUNDOS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** How long /readyz waits for the database before calling it unreachable. */
const PRAZO_PRONTIDAO_MS = 2_000;

/** The route label of requests that matched no route: one series, whatever the path. */
const SEM_ROTA = '(sem rota)';

/** One series: a route, method and status, with its count, total time and histogram buckets. */
export interface Serie {
  readonly rotulos: string;
  contagem: number;
  soma: number;
  readonly baldes: number[];
}

/** What one process measured for a face: its HTTP series and its PostgreSQL pool. */
export interface Amostra {
  readonly series: readonly Serie[];
  readonly pool: UsoDoPool | null;
}

/**
 * How /metrics gathers the samples to add up: by default this process alone; under WORKERS, the
 * cluster worker replaces it with a collection from every worker (src/cluster.ts), so that one
 * scrape, whichever worker answers it, counts the requests of all of them.
 */
export type ColetaDeMetricas = (face: string, local: Amostra) => Promise<readonly Amostra[]>;
let coleta: ColetaDeMetricas = async (_face, local) => [local];

export function usarColetaDeMetricas(c: ColetaDeMetricas): void {
  coleta = c;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's measurements of the face, for a cluster-wide /metrics. */
    amostraDeMetricas(): Amostra;
  }
}

/** Request counts and latency histograms of one face, per route pattern, method and status. */
export class MetricasHttp {
  readonly #series = new Map<string, Serie>();

  registrar(metodo: string, rota: string, status: number, segundos: number): void {
    const rotulos = `method="${escapar(metodo)}",route="${escapar(rota)}",status="${status}"`;
    let serie = this.#series.get(rotulos);
    if (serie === undefined) {
      serie = { rotulos, contagem: 0, soma: 0, baldes: BALDES_SEGUNDOS.map(() => 0) };
      this.#series.set(rotulos, serie);
    }
    serie.contagem++;
    serie.soma += segundos;
    BALDES_SEGUNDOS.forEach((limite, i) => {
      if (segundos <= limite) serie.baldes[i] = (serie.baldes[i] ?? 0) + 1;
    });
  }

  /** A copy of the series, safe to send to another process. */
  series(): Serie[] {
    return [...this.#series.values()].map((s) => ({ ...s, baldes: [...s.baldes] }));
  }
}

/** Adds up the series of several processes, label set by label set. */
export function somarSeries(listas: readonly (readonly Serie[])[]): Serie[] {
  const total = new Map<string, Serie>();
  for (const lista of listas) {
    for (const s of lista) {
      const t = total.get(s.rotulos);
      if (t === undefined) total.set(s.rotulos, { ...s, baldes: [...s.baldes] });
      else {
        t.contagem += s.contagem;
        t.soma += s.soma;
        s.baldes.forEach((n, i) => (t.baldes[i] = (t.baldes[i] ?? 0) + n));
      }
    }
  }
  return [...total.values()];
}

/** Series in the Prometheus text exposition format (version 0.0.4). */
function textoDasSeries(face: string, series: readonly Serie[]): string {
  const f = `face="${escapar(face)}"`;
  const linhas = [
    '# HELP cestaria_http_requests_total Requisições HTTP respondidas, por rota, método e status.',
    '# TYPE cestaria_http_requests_total counter',
  ];
  for (const s of series) linhas.push(`cestaria_http_requests_total{${f},${s.rotulos}} ${s.contagem}`);
  linhas.push(
    '# HELP cestaria_http_request_duration_seconds Tempo de resposta das requisições HTTP, em segundos.',
    '# TYPE cestaria_http_request_duration_seconds histogram',
  );
  for (const s of series) {
    BALDES_SEGUNDOS.forEach((limite, i) => {
      linhas.push(
        `cestaria_http_request_duration_seconds_bucket{${f},${s.rotulos},le="${limite}"} ${s.baldes[i] ?? 0}`,
      );
    });
    linhas.push(`cestaria_http_request_duration_seconds_bucket{${f},${s.rotulos},le="+Inf"} ${s.contagem}`);
    linhas.push(`cestaria_http_request_duration_seconds_sum{${f},${s.rotulos}} ${s.soma}`);
    linhas.push(`cestaria_http_request_duration_seconds_count{${f},${s.rotulos}} ${s.contagem}`);
  }
  return `${linhas.join('\n')}\n`;
}

/** A label value with the three characters the text format escapes. */
function escapar(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function ehLoopback(ip: string | undefined): boolean {
  if (ip === undefined) return false;
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}

function mesmoSegredo(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/**
 * Whether a request may read /metrics: from the machine itself (loopback), or carrying
 * `Authorization: Bearer <METRICS_TOKEN>` when that token is configured.
 */
export function metricasPermitidas(
  ip: string | undefined,
  autorizacao: string | undefined,
  token: string | undefined,
): boolean {
  if (ehLoopback(ip)) return true;
  if (token === undefined || autorizacao === undefined) return false;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(autorizacao);
  return m?.[1] !== undefined && mesmoSegredo(m[1], token);
}

/** Whether the database answers and has every migration applied; the reason in Portuguese when not. */
export async function verificarProntidao(banco: Banco): Promise<{ pronto: true } | { pronto: false; motivo: string }> {
  let prazo: NodeJS.Timeout | undefined;
  const limite = new Promise<'prazo'>((r) => {
    prazo = setTimeout(() => r('prazo'), PRAZO_PRONTIDAO_MS);
  });
  try {
    const pendentes = await Promise.race([migracoesPendentes(banco), limite]);
    if (pendentes === 'prazo') return { pronto: false, motivo: 'O banco de dados não respondeu a tempo.' };
    if (pendentes.length > 0)
      return { pronto: false, motivo: `Há migrações pendentes no banco de dados: ${pendentes.join(', ')}.` };
    return { pronto: true };
  } catch {
    return { pronto: false, motivo: 'O banco de dados está inacessível.' };
  } finally {
    clearTimeout(prazo);
  }
}

export interface OpcoesOperacao {
  readonly face: string;
  readonly banco: Banco;
  readonly relogio: Relogio;
  readonly metricsToken: string | undefined;
  /** The face's access rule that makes a route public. */
  readonly rotaPublica: FastifyContextConfig;
  /** The face's error body for a refused /metrics. */
  readonly corpoDeErro: (mensagem: string) => object;
  /** Said by /readyz when e-mail is off (production without SMTP_URL); null when it is on. */
  readonly emailDesligado?: string | null;
}

async function sessoesAtivas(banco: Banco, agora: Date): Promise<number> {
  const r = await banco
    .selectFrom('appsession')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('expiresAt', '>', agora.toISOString())
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The outbox by state, from the table: the same figures whichever process answers. */
async function mensagensPorEstado(banco: Banco): Promise<string[]> {
  const linhas = await banco
    .selectFrom('mensagem')
    .select(['estado'])
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .groupBy('estado')
    .execute();
  const por = new Map(linhas.map((l) => [l.estado, Number(l.n)]));
  return (['enviada', 'pendente', 'enviando', 'falhou'] as const).map(
    (e) => `cestaria_mensagens{estado="${e}"} ${por.get(e) ?? 0}`,
  );
}

/** Gauges: the PostgreSQL pools of every process added up, the Mercados sessions and the outbox. */
async function medidasDoBanco(opcoes: OpcoesOperacao, amostras: readonly Amostra[]): Promise<string> {
  const linhas: string[] = [];
  const pools = amostras.map((a) => a.pool).filter((p) => p !== null);
  if (pools.length > 0) {
    const soma = (f: (p: UsoDoPool) => number) => pools.reduce((t, p) => t + f(p), 0);
    linhas.push(
      '# HELP cestaria_db_pool_connections Conexões dos pools do PostgreSQL dos processos desta face, por estado.',
      '# TYPE cestaria_db_pool_connections gauge',
      `cestaria_db_pool_connections{state="total"} ${soma((p) => p.total)}`,
      `cestaria_db_pool_connections{state="idle"} ${soma((p) => p.ociosas)}`,
      `cestaria_db_pool_connections{state="waiting"} ${soma((p) => p.esperando)}`,
    );
  }
  linhas.push(
    '# HELP cestaria_processes Processos cujas medidas entram nesta resposta.',
    '# TYPE cestaria_processes gauge',
    `cestaria_processes ${amostras.length}`,
    '# HELP cestaria_sessions Sessões da face Mercados ainda válidas (linhas de appsession), em todos os processos.',
    '# TYPE cestaria_sessions gauge',
    `cestaria_sessions ${await sessoesAtivas(opcoes.banco, opcoes.relogio.agora())}`,
    '# HELP cestaria_mensagens Mensagens da caixa de saída de e-mail, por estado (enviada, pendente, enviando, falhou).',
    '# TYPE cestaria_mensagens gauge',
    ...(await mensagensPorEstado(opcoes.banco)),
  );
  return `${linhas.join('\n')}\n`;
}

/**
 * Registers /healthz, /readyz and /metrics on a face and starts counting its requests. Call it
 * before any other route so that the hook sees every request.
 */
export function registrarOperacao(app: FastifyInstance, opcoes: OpcoesOperacao): void {
  const metricas = new MetricasHttp();
  app.decorate('amostraDeMetricas', (): Amostra => ({ series: metricas.series(), pool: usoDoPool(opcoes.banco) }));
  app.addHook('onResponse', async (req, reply) => {
    metricas.registrar(req.method, req.routeOptions.url ?? SEM_ROTA, reply.statusCode, reply.elapsedTime / 1000);
  });

  const Estado = Type.Object({ status: Type.String(), mensagem: Type.String() });
  app.get('/healthz', { config: opcoes.rotaPublica, schema: { response: { 200: Estado } } }, async (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok', mensagem: 'Processo no ar.' }),
  );

  app.get(
    '/readyz',
    { config: opcoes.rotaPublica, schema: { response: { 200: Estado, 503: Estado } } },
    async (_req, reply) => {
      const r = await verificarProntidao(opcoes.banco);
      reply.header('cache-control', 'no-store');
      if (r.pronto)
        return reply.send({
          status: 'pronto',
          mensagem: `Banco de dados acessível e migrações aplicadas.${opcoes.emailDesligado == null ? '' : ` ${opcoes.emailDesligado}`}`,
        });
      return reply.code(503).send({ status: 'indisponivel', mensagem: r.motivo });
    },
  );

  app.get(
    '/metrics',
    {
      config: opcoes.rotaPublica,
      schema: {
        response: {
          ...arquivoEstatico('text/plain', 'As métricas, no formato de texto do Prometheus'),
          403: Type.Unsafe<unknown>({ description: 'Fora da máquina e sem o token de METRICS_TOKEN' }),
        },
      },
    },
    async (req, reply) => {
      if (!metricasPermitidas(req.socket.remoteAddress, req.headers.authorization, opcoes.metricsToken)) {
        return reply
          .code(403)
          .send(
            opcoes.corpoDeErro('As métricas só podem ser lidas da própria máquina ou com o token de METRICS_TOKEN.'),
          );
      }
      const amostras = await coleta(opcoes.face, app.amostraDeMetricas());
      const texto =
        textoDasSeries(opcoes.face, somarSeries(amostras.map((a) => a.series))) +
        (await medidasDoBanco(opcoes, amostras));
      return reply.header('cache-control', 'no-store').type('text/plain; version=0.0.4; charset=utf-8').send(texto);
    },
  );
}
