/**
 * `npm start` with WORKERS=2, as a real process tree, on the dialect under test: both faces share
 * each port across the workers, a login through the provider holds whichever worker answers,
 * reservations never oversell, /metrics counts every worker's requests, a worker that dies is
 * replaced, and SIGTERM ends the whole tree cleanly.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { abrirBanco, migrar } from '../../src/db/banco.ts';
import { DIALETO, bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { criarCicloAberto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { RAIZ, comandoDoScript, parar } from '../helpers/processos.ts';

async function portaLivre(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const a = s.address();
  await new Promise((r) => s.close(r));
  if (typeof a !== 'object' || a === null) throw new Error('sem porta');
  return a.port;
}

function filhosDe(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function ate(condicao: () => boolean | Promise<boolean>, descricao: string, prazoMs = 30_000): Promise<void> {
  const inicio = Date.now();
  while (!(await condicao())) {
    if (Date.now() - inicio > prazoMs) throw new Error(`não aconteceu a tempo: ${descricao}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function contagemNasMetricas(url: string, rota: string): Promise<{ requisicoes: number; processos: number }> {
  const texto = await (await fetch(`${url}/metrics`)).text();
  let requisicoes = 0;
  for (const linha of texto.split('\n')) {
    if (linha.startsWith('cestaria_http_requests_total{') && linha.includes(`route="${rota}"`))
      requisicoes += Number(linha.split(' ').at(-1));
  }
  const processos = Number(/^cestaria_processes (\d+)$/m.exec(texto)?.[1] ?? 'NaN');
  return { requisicoes, processos };
}

/**
 * Starts `npm start` with WORKERS=2 on ports picked just before. A port picked free can still be
 * taken by some other process before the primary binds it; only that case (EADDRINUSE) is retried,
 * with new ports. Any other failure to start fails the test with the server's output.
 */
async function subirComDoisProcessos(databaseUrl: string) {
  for (let tentativa = 1; ; tentativa++) {
    const [pc, pm, pi] = [await portaLivre(), await portaLivre(), await portaLivre()];
    const start = comandoDoScript('start');
    const filho = spawn(process.execPath, start.args, {
      cwd: RAIZ,
      env: {
        ...process.env,
        ...start.env,
        NODE_ENV: 'development',
        WORKERS: '2',
        DATABASE_URL: databaseUrl,
        CESTAS_PORT: String(pc),
        MERCADOS_PORT: String(pm),
        DEV_IDP_PORT: String(pi),
        DEV_SMTP_PORT: '0',
        DEV_MAIL_PORT: '0',
        VARIANTS: 'cestas,mercados',
        DEMO_DATA: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let saida = '';
    filho.stdout.on('data', (c: Buffer) => (saida += c.toString()));
    filho.stderr.on('data', (c: Buffer) => (saida += c.toString()));
    try {
      await ate(
        () => saida.includes('Cestaria no ar (2 processos)') || filho.exitCode !== null,
        'o serviço anunciar que está no ar',
        90_000,
      );
    } catch (e) {
      await parar(filho);
      throw new Error(`${String(e)}: ${saida}`, { cause: e });
    }
    if (filho.exitCode !== null && saida.includes('EADDRINUSE') && tentativa < 3) continue;
    return { filho, cestas: `http://localhost:${pc}`, mercados: `http://localhost:${pm}`, saida: () => saida };
  }
}

test(
  `WORKERS=2: dois processos servem as duas faces como um só serviço (${DIALETO})`,
  { timeout: 300_000 },
  async () => {
    const cfg = await bancoNovo();
    const banco = abrirBanco(cfg);
    await migrar(banco, DIALETO);
    const ciclo = await criarCicloAberto(banco, 12);
    const consumidores = [];
    for (let i = 0; i < 30; i++) consumidores.push(await criarUsuario(banco, { perfil: ['consumidor'] }));

    const { filho, cestas, mercados, saida } = await subirComDoisProcessos(urlDoBanco(cfg));
    try {
      assert.equal(filho.exitCode, null, saida());
      assert.equal(filhosDe(filho.pid ?? 0).length, 2, 'dois processos de trabalho');

      // Cestas: a real login; the sealed session opens in both workers (round-robin spreads the requests).
      const nav = new Navegador();
      await entrarPeloProvedor(nav, `${cestas}/`, { email: consumidores[0]?.email ?? '' });
      for (let i = 0; i < 8; i++)
        assert.equal((await nav.getJson(`${cestas}/`)).status, 200, 'a sessão vale em qualquer processo');

      // Mercados: the login and its database session, likewise.
      const navM = new Navegador();
      await entrarPeloProvedor(navM, `${mercados}/auth/idp`, { email: 'mercados.pessoa@exemplo.org' });
      for (let i = 0; i < 8; i++) {
        const status = (await navM.getJson(`${mercados}/auth/status`)).json<{ authenticated?: boolean }>();
        assert.equal(status.authenticated, true, 'a sessão da face Mercados vale em qualquer processo');
      }

      // Reservations from 30 people spread over both workers: exactly the 12 baskets, none oversold.
      const navs = await Promise.all(
        consumidores.map(async (c) => {
          const n = new Navegador();
          await entrarPeloProvedor(n, `${cestas}/`, { email: c.email });
          return n;
        }),
      );
      const respostas = await Promise.all(
        navs.map((n) =>
          n.postJson(`${cestas}/pedidoconsumidores`, {
            cicloid: ciclo.cicloid,
            pontoEntregaId: ciclo.ponto,
            produtos: [{ cicloCestaId: ciclo.cicloCestaId, quantidade: 1 }],
          }),
        ),
      );
      assert.equal(respostas.filter((r) => r.status === 201).length, 12, respostas.map((r) => r.status).join(','));
      assert.equal(respostas.filter((r) => r.status === 409).length, 18);
      const soma = await banco
        .selectFrom('pedidoproduto')
        .select((eb) => eb.fn.sum<number>('quantidadeMilesimos').as('s'))
        .where('cicloCestaId', '=', ciclo.cicloCestaId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(soma.s), 12_000);

      // /metrics adds up both workers: every one of these requests is counted, whoever answered.
      const antes = await contagemNasMetricas(cestas, '/healthz');
      for (let i = 0; i < 20; i++) assert.equal((await fetch(`${cestas}/healthz`)).status, 200);
      const depois = await contagemNasMetricas(cestas, '/healthz');
      assert.equal(depois.processos, 2);
      assert.equal(depois.requisicoes - antes.requisicoes, 20);

      // A worker killed outright is replaced, and the service keeps answering meanwhile.
      const [vitima] = filhosDe(filho.pid ?? 0);
      process.kill(vitima ?? 0, 'SIGKILL');
      // Connections the dead worker held die with it (a balancer would retry them); new ones go to the living.
      await ate(() => filhosDe(filho.pid ?? 0).every((pid) => pid !== vitima), 'o processo morto sumir');
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 6; i++) assert.equal((await nav.getJson(`${cestas}/`)).status, 200);
      await ate(() => saida().includes('iniciando outro'), 'o primário anunciar a troca');
      await ate(
        async () =>
          filhosDe(filho.pid ?? 0).length === 2 && (await contagemNasMetricas(cestas, '/healthz')).processos === 2,
        'um novo processo de trabalho',
      );
      assert.ok(!filhosDe(filho.pid ?? 0).includes(vitima ?? 0));

      // SIGTERM: the whole tree ends, with 0.
      const filhos = filhosDe(filho.pid ?? 0);
      const saiu = new Promise<number | null>((r) => filho.once('exit', (codigo) => r(codigo)));
      filho.kill('SIGTERM');
      assert.equal(await saiu, 0, saida());
      for (const pid of filhos) assert.throws(() => process.kill(pid, 0), 'nenhum processo de trabalho fica para trás');
    } finally {
      await parar(filho);
      await banco.destroy();
    }
  },
);
