/**
 * `npm run bench:primeira-visita [-- --paginas /dashboard,/avisos] [-- --vezes 7]`
 *
 * How long the Mercados client takes to show a page's content on its first load, with the CPU
 * really 4× slower (`Emulation.setCPUThrottlingRate`), 150 ms of latency, 1.6 Mbit/s and the cache
 * off: the real server on a fresh SQLite with the demo data, Debian's chromium signed in as
 * ana@exemplo.org through the development provider. For each page, the medians over the loads, in
 * ms from the start of the navigation, of when /auth/status and the first GraphQL request left
 * and of when the content showed (the `main` has its `h1` and no "Carregando…"). Lighthouse's
 * simulated LCP does not see React's own waits; this does (docs/performance.md, "A sessão e a
 * primeira consulta de cada página").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { parar, portaLivre, subirServidor } from './processos.ts';

const { values } = parseArgs({
  options: {
    paginas: { type: 'string', default: '/dashboard,/mercados/1,/avisos,/ciclos,/ciclos/3/mercados' },
    vezes: { type: 'string', default: '7' },
  },
});
const paginas = (values.paginas ?? '').split(',').filter((p) => p !== '');
const vezes = Number(values.vezes);

interface Tempos {
  readonly conteudo: number;
  readonly status: number;
  readonly graphql: number;
}

const mediana = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function principal(): Promise<void> {
  const pasta = mkdtempSync(join(tmpdir(), 'cestaria-primeira-visita-'));
  const [cestas, mercados, idp] = [await portaLivre(), await portaLivre(), await portaLivre()];
  const servidor = await subirServidor({
    NODE_ENV: 'development',
    DEMO_DATA: 'true',
    DEV_SMTP: 'false',
    WORKERS: '1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `sqlite:${join(pasta, 'cestaria.db')}`,
    UPLOAD_DIR: join(pasta, 'arquivos'),
    CESTAS_PORT: String(cestas),
    MERCADOS_PORT: String(mercados),
    DEV_IDP_PORT: String(idp),
    HOST: '127.0.0.1',
    VARIANTS: 'cestas,mercados',
  });
  const origem = `http://localhost:${mercados}`;
  const navegador = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const contexto = await navegador.newContext({ locale: 'pt-BR' });
    // The moment the content first shows, seen from inside the page (not `window.conteudo`: that is the <main id="conteudo">).
    await contexto.addInitScript(() => {
      const janela = window as unknown as { conteudoEm?: number };
      new MutationObserver(() => {
        const main = document.querySelector('main');
        if (janela.conteudoEm === undefined && main?.querySelector('h1') && !main.querySelector('.carregando'))
          janela.conteudoEm = performance.now();
      }).observe(document, { subtree: true, childList: true });
    });
    const aba = await contexto.newPage();
    await aba.goto(`${origem}/login`);
    await aba.waitForURL(/\/interaction\//);
    await aba.fill('#email', 'ana@exemplo.org');
    await aba.fill('#nome', 'Ana');
    await Promise.all([
      aba.waitForURL((u) => u.href.startsWith(origem)),
      aba.click('form button[type=submit] >> nth=0'),
    ]);
    const cdp = await contexto.newCDPSession(aba);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    console.log(
      `CPU 4×, 150 ms de latência, cache desligado; medianas de ${vezes} aberturas, em ms desde o início da navegação\n`,
    );
    for (const caminho of paginas) {
      const medidas: Tempos[] = [];
      for (let i = 0; i < vezes; i++) {
        await aba.goto(`${origem}${caminho}`);
        await aba.waitForFunction(() => (window as unknown as { conteudoEm?: number }).conteudoEm !== undefined, null, {
          timeout: 30_000,
        });
        medidas.push(
          await aba.evaluate(() => {
            const recursos = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
            const saida = (caminho: string) =>
              recursos.find((r) => new URL(r.name).pathname === caminho)?.startTime ?? Number.NaN;
            return {
              conteudo: (window as unknown as { conteudoEm: number }).conteudoEm,
              status: saida('/auth/status'),
              graphql: saida('/graphql'),
            };
          }),
        );
      }
      const m = (k: keyof Tempos) => String(Math.round(mediana(medidas.map((x) => x[k])))).padStart(5);
      console.log(
        `${caminho.padEnd(24)} conteúdo ${m('conteudo')}   /auth/status sai ${m('status')}   1ª consulta sai ${m('graphql')}   (conteúdo: ${medidas.map((x) => Math.round(x.conteudo)).join(' ')})`,
      );
    }
  } finally {
    await navegador.close();
    await parar(servidor);
    rmSync(pasta, { recursive: true, force: true });
  }
}

await principal();
