import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DIALETO, bancoNovo, urlDoBanco } from './helpers/banco.ts';
import { comandoDoScript } from './helpers/processos.ts';

/** Waits for a line of the process output to match, with a deadline. */
function esperarSaida(filho: ReturnType<typeof spawn>, padrao: RegExp, prazoMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let acumulado = '';
    const prazo = setTimeout(
      () => reject(new Error(`sem "${padrao.source}" em ${prazoMs} ms; saída:\n${acumulado}`)),
      prazoMs,
    );
    const ler = (c: Buffer) => {
      acumulado += c.toString();
      const m = padrao.exec(acumulado);
      if (m !== null) {
        clearTimeout(prazo);
        resolve(m);
      }
    };
    filho.stdout?.on('data', ler);
    filho.stderr?.on('data', ler);
    filho.on('exit', (codigo) => {
      clearTimeout(prazo);
      reject(new Error(`o processo saiu com ${codigo}; saída:\n${acumulado}`));
    });
  });
}

const RAIZ = join(import.meta.dirname, '..');

/**
 * The exact command behind `npm start`, run without the npm wrapper: npm answers a SIGTERM by
 * exiting 143 itself, so the server's own drain-and-exit is checked on the server process.
 */
const START = comandoDoScript('start');

test('npm start sobe as faces em segundos, com dados de demonstração, e termina limpo com SIGTERM', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cestaria-inicio-'));
  const banco = DIALETO === 'sqlite' ? `sqlite:${join(dir, 'novo.db')}` : urlDoBanco(await bancoNovo());
  const inicio = Date.now();
  const filho = spawn(process.execPath, START.args, {
    cwd: RAIZ,
    env: {
      ...process.env,
      ...START.env,
      NODE_ENV: 'development',
      DATABASE_URL: banco,
      CESTAS_PORT: '0',
      MERCADOS_PORT: '0',
      DEV_IDP_PORT: '0',
      DEV_SMTP_PORT: '0',
      DEV_MAIL_PORT: '0',
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const m = await esperarSaida(
      filho,
      /Cestas:\s+(http:\/\/\S+)[\s\S]*Mercados:\s+(http:\/\/\S+)[\s\S]*Login de desenvolvimento:\s+(http:\/\/\S+)[\s\S]*gabriel@exemplo\.org[\s\S]*E-mails enviados \(desenvolvimento\):\s+(http:\/\/\S+)/,
      30_000,
    );
    const [, cestas = '', mercados = '', idp = '', emails = ''] = m;
    const status = await fetch(`${mercados}/auth/status`);
    assert.equal(status.status, 200);
    assert.deepEqual(await status.json(), { authenticated: false });
    const r = await fetch(`${cestas}/`, { redirect: 'manual' });
    assert.equal(r.status, 302);
    assert.ok((r.headers.get('location') ?? '').startsWith(`${idp}/auth?`));
    const descoberta = await fetch(`${idp}/.well-known/openid-configuration`);
    assert.equal(descoberta.status, 200);
    assert.equal(((await descoberta.json()) as { issuer: string }).issuer, idp);
    // The development e-mail page: the demo's open offer window has already told its suppliers.
    assert.ok(emails.startsWith('http://localhost:'), emails);
    let lista = '';
    for (let i = 0; i < 100 && !lista.includes('Ofertas abertas:'); i++) {
      lista = await (await fetch(emails)).text();
      if (!lista.includes('Ofertas abertas:')) await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(lista, /<td>dora@exemplo\.org<\/td><td><a href="\/m\/(\d+)">Ofertas abertas: /);
    const uma = await fetch(
      `${emails}/m/${/<td>dora@exemplo\.org<\/td><td><a href="\/m\/(\d+)">Ofertas abertas: /.exec(lista)?.[1]}/corpo`,
    );
    assert.equal(uma.status, 200);
    assert.match(uma.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.match(await uma.text(), /Registrar minha oferta/);
    const segundos = (Date.now() - inicio) / 1000;
    assert.ok(segundos < 30, `respondeu em ${segundos.toFixed(1)} s`);

    const saida = new Promise<number | null>((resolve) => filho.on('exit', (codigo) => resolve(codigo)));
    filho.kill('SIGTERM');
    assert.equal(await saida, 0);
  } finally {
    if (filho.exitCode === null) filho.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
