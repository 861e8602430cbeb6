/**
 * The processes the bench measures: the real server (`src/main.ts serve`, as `npm start` runs
 * it), the bare Fastify baseline, and their memory as the kernel reports it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const RAIZ = join(import.meta.dirname, '..');

export interface Filho {
  readonly processo: ChildProcess;
  readonly pid: number;
  saida(): string;
}

/** A free TCP port on 127.0.0.1 (the provider must know the faces' addresses before they start). */
export function portaLivre(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const porta = typeof a === 'object' && a !== null ? a.port : 0;
      s.close(() => resolve(porta));
    });
  });
}

function iniciar(
  args: readonly string[],
  env: Record<string, string>,
  opcoes: { comando?: string; grupo?: boolean } = {},
): Filho {
  const processo = spawn(opcoes.comando ?? process.execPath, args, {
    cwd: RAIZ,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: opcoes.grupo === true,
  });
  let acumulado = '';
  processo.stdout?.on('data', (c: Buffer) => {
    acumulado += c.toString();
  });
  processo.stderr?.on('data', (c: Buffer) => {
    acumulado += c.toString();
  });
  return { processo, pid: processo.pid ?? 0, saida: () => acumulado };
}

/** Waits until `pronto` holds, the process exits (an error) or the deadline passes. */
async function esperar(filho: Filho, pronto: () => boolean | Promise<boolean>, prazoMs: number): Promise<void> {
  const inicio = Date.now();
  for (;;) {
    if (await pronto()) return;
    if (filho.processo.exitCode !== null)
      throw new Error(`o processo saiu (${filho.processo.exitCode}):\n${filho.saida()}`);
    if (Date.now() - inicio > prazoMs)
      throw new Error(`o processo não ficou pronto em ${prazoMs} ms:\n${filho.saida()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Starts the real server the way production does, and waits for both faces' addresses. */
export async function subirServidor(env: Record<string, string>, opcoes: { perfilEm?: string } = {}): Promise<Filho> {
  const perfil = opcoes.perfilEm === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${opcoes.perfilEm}`];
  // The compile cache `npm start` keeps (package.json): the types stripped once, not at every start.
  const filho = iniciar(['--disable-warning=ExperimentalWarning', ...perfil, 'src/main.ts', 'serve'], {
    NODE_COMPILE_CACHE: 'node_modules/.cache/cestaria-compilacao',
    ...env,
  });
  await esperar(
    filho,
    () => /Mercados:\s+http/.test(filho.saida()) || (/Cestas:\s+http/.test(filho.saida()) && env.VARIANTS === 'cestas'),
    60_000,
  );
  return filho;
}

/** Starts the bare Fastify hello-world in its own process, like the server. */
export async function subirBase(porta: number): Promise<Filho> {
  const filho = iniciar(
    ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'base.ts'), String(porta)],
    {},
  );
  await esperar(filho, () => filho.saida().includes('base pronta'), 20_000);
  return filho;
}

/** Starts the PostgreSQL one-query reference (bench/base-pg.ts) on the database at `url`. */
export async function subirBasePg(porta: number, url: string): Promise<Filho> {
  const filho = iniciar(
    ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'base-pg.ts'), String(porta), url],
    {},
  );
  await esperar(filho, () => filho.saida().includes('base pronta'), 20_000);
  return filho;
}

async function responde(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(500) });
    await r.arrayBuffer();
    return r.status === 200;
  } catch {
    return false;
  }
}

/**
 * `npm start` on a migrated database, timed from the spawn to the first 200 of /readyz (the
 * database answers and every migration is applied). npm runs in its own process group, so the
 * whole group (npm, its shell, the server) is stopped afterwards.
 */
export async function medirInicio(env: Record<string, string>, cestasUrl: string): Promise<number> {
  const inicio = performance.now();
  const filho = iniciar(['start'], env, { comando: 'npm', grupo: true });
  try {
    await esperar(filho, () => responde(`${cestasUrl}/readyz`), 30_000);
    return performance.now() - inicio;
  } finally {
    await pararGrupo(filho);
    // npm exits at once on SIGTERM; the server behind it drains for a moment more. The next
    // measurement (or the real server) must not find this one still answering on the port.
    const prazo = Date.now() + 15_000;
    while ((await responde(`${cestasUrl}/healthz`)) && Date.now() < prazo) await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGTERM and wait: the server finishes its requests and writes its CPU profile on exit. */
export async function parar(filho: Filho): Promise<void> {
  if (filho.processo.exitCode !== null || filho.processo.signalCode !== null) return;
  const saiu = new Promise((r) => filho.processo.once('exit', r));
  filho.processo.kill('SIGTERM');
  await saiu;
}

async function pararGrupo(filho: Filho): Promise<void> {
  if (filho.processo.exitCode !== null || filho.processo.signalCode !== null) return;
  const saiu = new Promise((r) => filho.processo.once('exit', r));
  try {
    process.kill(-filho.pid, 'SIGTERM');
  } catch {
    filho.processo.kill('SIGTERM');
  }
  await saiu;
}

function campoDeStatus(pid: number, campo: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${campo}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] === undefined ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Current resident memory of a process, in bytes (0 where /proc is missing). */
export function rss(pid: number): number {
  return campoDeStatus(pid, 'VmRSS');
}

/**
 * CPU time (user + system) a process has used, in milliseconds, from /proc/<pid>/stat. On a shared
 * machine throughput depends on what else runs; the CPU a request costs the server does not.
 */
export function cpuMs(pid: number): number {
  try {
    // The fields after the command name (which may hold spaces) start at state (field 3); utime and stime are 14 and 15.
    const campos = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
    return ((Number(campos[11]) + Number(campos[12])) * 1000) / TIQUES_POR_SEGUNDO;
  } catch {
    return Number.NaN;
  }
}
/** USER_HZ: 100 on every Linux build that matters here. */
const TIQUES_POR_SEGUNDO = 100;

/**
 * Peak resident memory of a process over a stretch of time: the kernel's high-water mark is
 * reset at the start (clear_refs 5), and a 20 ms sampler covers kernels that refuse the reset.
 */
export function medirPicoDeRss(pid: number): { parar(): number } {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Without the reset the high-water mark is the process's lifetime peak; the sampler still runs.
  }
  let maior = rss(pid);
  const amostra = setInterval(() => {
    maior = Math.max(maior, rss(pid));
  }, 20);
  return {
    parar() {
      clearInterval(amostra);
      const hwm = campoDeStatus(pid, 'VmHWM');
      return Math.max(maior, rss(pid), hwm);
    },
  };
}
