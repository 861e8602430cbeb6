import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const RAIZ = join(import.meta.dirname, '..', '..');

/**
 * An npm script as `NOME=valor … node <argumentos>`: the variables it sets and Node's arguments,
 * to run it directly with this Node (as production does, without npm in between).
 */
export function comandoDoScript(nome: string): { readonly env: Record<string, string>; readonly args: string[] } {
  const pacote = JSON.parse(readFileSync(join(RAIZ, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const script = pacote.scripts[nome];
  if (script === undefined) throw new Error(`script ${nome} não existe`);
  const partes = script.split(/\s+/);
  const env: Record<string, string> = {};
  for (let p = partes[0]; p !== undefined && /^[A-Z_]+=/.test(p); p = partes[0]) {
    const i = p.indexOf('=');
    env[p.slice(0, i)] = p.slice(i + 1);
    partes.shift();
  }
  if (partes.shift() !== 'node') throw new Error(`o script ${nome} não roda o node: ${script}`);
  return { env, args: partes };
}

/** The arguments of an npm script, run directly with this Node (as production does). */
export function argumentosDoScript(nome: string): string[] {
  return comandoDoScript(nome).args;
}

export interface ProcessoServidor {
  readonly filho: ChildProcess;
  readonly url: string;
  saida(): string;
}

/** Starts `npm start` (only the Cestas face) as a real process and waits for its address. */
export async function subirServidor(env: Record<string, string>): Promise<ProcessoServidor> {
  const start = comandoDoScript('start');
  const filho = spawn(process.execPath, start.args, {
    cwd: RAIZ,
    env: {
      ...process.env,
      ...start.env,
      NODE_ENV: 'development',
      CESTAS_PORT: '0',
      DEV_IDP_PORT: '0',
      DEV_SMTP_PORT: '0',
      DEV_MAIL_PORT: '0',
      VARIANTS: 'cestas',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let acumulado = '';
  filho.stdout?.on('data', (c: Buffer) => {
    acumulado += c.toString();
  });
  filho.stderr?.on('data', (c: Buffer) => {
    acumulado += c.toString();
  });
  const inicio = Date.now();
  for (;;) {
    const url = /Cestas:\s+(http:\/\/\S+)/.exec(acumulado)?.[1];
    if (url !== undefined) return { filho, url, saida: () => acumulado };
    if (filho.exitCode !== null || Date.now() - inicio > 60_000) throw new Error(`o servidor não subiu: ${acumulado}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends SIGTERM and waits for the process to exit. */
export async function parar(filho: ChildProcess): Promise<void> {
  if (filho.exitCode !== null || filho.signalCode !== null) return;
  const saiu = new Promise((r) => filho.once('exit', r));
  filho.kill('SIGTERM');
  await saiu;
}

/** Runs a CLI command of src/main.ts to the end; resolves with its exit code and output. */
export function rodarComando(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ codigo: number | null; saida: string; erro: string }> {
  return new Promise((resolve) => {
    const filho = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'src/main.ts', ...args], {
      cwd: RAIZ,
      env: { ...process.env, NODE_ENV: 'development', DEMO_DATA: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let saida = '';
    let erro = '';
    filho.stdout.on('data', (c: Buffer) => {
      saida += c.toString();
    });
    filho.stderr.on('data', (c: Buffer) => {
      erro += c.toString();
    });
    filho.on('exit', (codigo) => resolve({ codigo, saida, erro }));
  });
}
