/**
 * `npm install` (the `prepare` script): builds the Mercados browser client (web/mercados, React +
 * Vite) into dist/mercados, and the installable pickup app (web/retirada: React, a Workbox service
 * worker through vite-plugin-pwa, a web app manifest and its PNG icons, drawn here) into
 * dist/retirada; the Mercados face serves both.
 *
 * A production install (`npm ci --omit=dev`) has no Vite: there the build must already exist
 * (the Dockerfile builds it in an earlier stage and copies it in), and this script only checks
 * that it does. Without Vite and without a build, it fails with a message that says what to do.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, crc32, deflateSync, gzipSync } from 'node:zlib';

const RAIZ = fileURLToPath(new URL('..', import.meta.url));
const FONTE = fileURLToPath(new URL('../web/mercados/', import.meta.url));
export const SAIDA = fileURLToPath(new URL('../dist/mercados/', import.meta.url));
const FONTE_RETIRADA = fileURLToPath(new URL('../web/retirada/', import.meta.url));
export const SAIDA_RETIRADA = fileURLToPath(new URL('../dist/retirada/', import.meta.url));

/** Vite, its React plugin and vite-plugin-pwa, or null when devDependencies are not installed. */
async function carregarVite() {
  try {
    const [vite, react, pwa] = await Promise.all([
      import('vite'),
      import('@vitejs/plugin-react'),
      import('vite-plugin-pwa'),
    ]);
    return { build: vite.build, react: react.default, pwa: pwa.VitePWA };
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw e;
  }
}

// NOTE: self-contained (the Dockerfile copies this file alone); src/mercados/cliente.ts reads
// the copies by these suffixes, and test/navegador/mercados-construcao.test.ts checks they exist.
const SUFIXOS = { br: '.br', gzip: '.gz' } as const;

interface Tamanho {
  readonly nome: string;
  readonly bruto: number;
  readonly br: number;
  readonly gzip: number;
}

/** The assets worth compressing: text. */
const COMPRIMIVEIS = /\.(js|css|svg|json)$/;

/**
 * Writes X.br (brotli at its highest quality) and X.gz (gzip -9) next to each text asset X, for
 * the server to send as they are (src/http/estaticos.ts). Returns the sizes, for the build's log.
 */
export function comprimirAssets(saida = SAIDA): Tamanho[] {
  const pasta = join(saida, 'assets');
  const tamanhos: Tamanho[] = [];
  for (const nome of existsSync(pasta) ? readdirSync(pasta).sort() : []) {
    if (!COMPRIMIVEIS.test(nome)) continue;
    const conteudo = readFileSync(join(pasta, nome));
    const br = brotliCompressSync(conteudo, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: conteudo.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
    const gzip = gzipSync(conteudo, { level: constants.Z_BEST_COMPRESSION });
    writeFileSync(join(pasta, `${nome}${SUFIXOS.br}`), br);
    writeFileSync(join(pasta, `${nome}${SUFIXOS.gzip}`), gzip);
    tamanhos.push({ nome, bruto: conteudo.length, br: br.length, gzip: gzip.length });
  }
  return tamanhos;
}

/** Builds web/mercados into `saida` (hashed file names under assets/, no inline scripts, .br and .gz copies). */
export async function construirCliente(saida = SAIDA): Promise<Tamanho[] | 'ja-existia'> {
  const vite = await carregarVite();
  if (vite === null || !existsSync(FONTE)) {
    if (existsSync(`${saida}index.html`)) return 'ja-existia';
    throw new Error(
      `o cliente web não está construído em ${saida} e não há como construí-lo aqui ` +
        '(falta o Vite das devDependencies ou a pasta web/mercados): rode `npm install` com as devDependencies',
    );
  }
  await vite.build({
    root: FONTE,
    base: '/',
    configFile: false,
    envDir: false,
    logLevel: 'warn',
    publicDir: false,
    plugins: [vite.react()],
    build: {
      outDir: saida,
      emptyOutDir: true,
      assetsDir: 'assets',
      // NOTE: the CSP allows scripts from 'self' only; nothing may be inlined as a data: URL.
      assetsInlineLimit: 0,
      sourcemap: false,
      target: 'es2022',
    },
  });
  return comprimirAssets(saida);
}

// --- The pickup app's icons -------------------------------------------------------------------

/** A PNG (8-bit RGB, no interlace) of `lado`×`lado` pixels, each given by `cor(x, y)` → [r, g, b]. */
export function png(lado: number, cor: (x: number, y: number) => readonly [number, number, number]): Buffer {
  const bloco = (tipo: string, dados: Buffer) => {
    const cabeca = Buffer.alloc(8);
    cabeca.writeUInt32BE(dados.length, 0);
    cabeca.write(tipo, 4, 'ascii');
    const fim = Buffer.alloc(4);
    fim.writeUInt32BE(crc32(Buffer.concat([cabeca.subarray(4), dados])) >>> 0, 0);
    return Buffer.concat([cabeca, dados, fim]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(lado, 0);
  ihdr.writeUInt32BE(lado, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const linhas = Buffer.alloc(lado * (1 + lado * 3));
  for (let y = 0; y < lado; y++) {
    const inicio = y * (1 + lado * 3);
    for (let x = 0; x < lado; x++) linhas.set(cor(x, y), inicio + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    bloco('IHDR', ihdr),
    bloco('IDAT', deflateSync(linhas, { level: 9 })),
    bloco('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Whether the point (u, v) of the unit square is on the icon's white basket: a rim, a body that
 * narrows downwards and a handle. Everything lies within the central circle of radius 0.4 that a
 * maskable icon keeps whatever mask the phone applies.
 */
function naCesta(u: number, v: number): boolean {
  const aro = v >= 0.44 && v <= 0.5 && u >= 0.18 && u <= 0.82;
  const t = (v - 0.5) / 0.24;
  const meia = 0.28 - 0.06 * t;
  const corpo = t >= 0 && t <= 1 && Math.abs(u - 0.5) <= meia;
  const r = Math.hypot(u - 0.5, v - 0.46);
  const alca = v <= 0.46 && r >= 0.19 && r <= 0.245;
  // Two bands across the body, in the background colour, make it read as woven.
  const faixa = corpo && ((v > 0.57 && v < 0.595) || (v > 0.655 && v < 0.68));
  return (aro || corpo || alca) && !faixa;
}

/** The icon at `lado` px: the Mercados blue, full bleed (it is also the maskable icon), the basket in white, antialiased. */
export function iconeDaRetirada(lado: number): Buffer {
  const fundo = [0x24, 0x3b, 0x7a] as const;
  const N = 4;
  return png(lado, (x, y) => {
    let dentro = 0;
    for (let i = 0; i < N; i++)
      for (let j = 0; j < N; j++) if (naCesta((x + (i + 0.5) / N) / lado, (y + (j + 0.5) / N) / lado)) dentro++;
    const a = dentro / (N * N);
    return [0, 1, 2].map((k) => Math.round((fundo[k as 0 | 1 | 2] ?? 0) * (1 - a) + 255 * a)) as [
      number,
      number,
      number,
    ];
  });
}

/** The pickup app's icon files, in the build's root beside the manifest that names them. */
export const ICONES_DA_RETIRADA = [
  { arquivo: 'icone-192.png', lado: 192 },
  { arquivo: 'icone-512.png', lado: 512 },
] as const;

/**
 * Builds web/retirada into `saida`: the shell (index.html), hashed assets, the web app manifest,
 * the icons and the service worker (sw.js, Workbox, its runtime inlined) that precaches all of
 * them, so that the app opens and works with no network after one online visit. The service
 * worker answers every navigation under /retirada with the shell.
 */
export async function construirRetirada(saida = SAIDA_RETIRADA): Promise<Tamanho[] | 'ja-existia'> {
  const vite = await carregarVite();
  if (vite === null || !existsSync(FONTE_RETIRADA)) {
    if (existsSync(join(saida, 'index.html'))) return 'ja-existia';
    throw new Error(
      `o aplicativo da retirada não está construído em ${saida} e não há como construí-lo aqui ` +
        '(falta o Vite das devDependencies ou a pasta web/retirada): rode `npm install` com as devDependencies',
    );
  }
  // Vite copies the public folder into the build before Workbox lists what to precache.
  const publico = mkdtempSync(join(tmpdir(), 'cestaria-retirada-'));
  try {
    for (const i of ICONES_DA_RETIRADA) writeFileSync(join(publico, i.arquivo), iconeDaRetirada(i.lado));
    await vite.build({
      root: FONTE_RETIRADA,
      base: '/retirada/',
      configFile: false,
      envDir: false,
      logLevel: 'warn',
      publicDir: publico,
      plugins: [
        vite.react(),
        vite.pwa({
          strategies: 'generateSW',
          filename: 'sw.js',
          manifestFilename: 'manifest.webmanifest',
          scope: '/retirada',
          base: '/retirada/',
          // main.tsx registers it itself (no inline script: the CSP allows none).
          injectRegister: false,
          includeManifestIcons: true,
          manifest: {
            id: '/retirada',
            name: 'Cestaria: retirada',
            short_name: 'Retirada',
            description:
              'A retirada das cestas no ponto, com ou sem sinal: quem já retirou, faltas, pagamentos e notas.',
            lang: 'pt-BR',
            dir: 'ltr',
            start_url: '/retirada',
            scope: '/retirada',
            display: 'standalone',
            orientation: 'portrait',
            theme_color: '#243b7a',
            background_color: '#f6f7fb',
            icons: ICONES_DA_RETIRADA.flatMap((i) => [
              { src: `/retirada/${i.arquivo}`, sizes: `${i.lado}x${i.lado}`, type: 'image/png', purpose: 'any' },
              { src: `/retirada/${i.arquivo}`, sizes: `${i.lado}x${i.lado}`, type: 'image/png', purpose: 'maskable' },
            ]),
          },
          workbox: {
            // The manifest is added by the plugin itself.
            globPatterns: ['**/*.{js,css,html,png}'],
            navigateFallback: '/retirada/index.html',
            navigateFallbackAllowlist: [/^\/retirada(?:\/|$)/],
            // The hashed assets carry their version in the name: no revision query needed.
            dontCacheBustURLsMatching: /^assets\//,
            inlineWorkboxRuntime: true,
            // The first visit's page is controlled at once (the app must work offline after it);
            // a new version waits until every window of the app is closed, so a pickup in progress
            // never mixes two builds.
            clientsClaim: true,
            skipWaiting: false,
            cleanupOutdatedCaches: true,
            sourcemap: false,
            mode: 'production',
          },
        }),
      ],
      build: {
        outDir: saida,
        emptyOutDir: true,
        assetsDir: 'assets',
        assetsInlineLimit: 0,
        sourcemap: false,
        target: 'es2022',
      },
    });
  } finally {
    rmSync(publico, { recursive: true, force: true });
  }
  return comprimirAssets(saida);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    for (const [nome, construir, saida] of [
      ['cliente Mercados', construirCliente, SAIDA],
      ['aplicativo da retirada', construirRetirada, SAIDA_RETIRADA],
    ] as const) {
      const r = await construir();
      if (r === 'ja-existia') console.log(`${nome}: usando a construção existente (sem Vite nesta instalação)`);
      else {
        console.log(`${nome} construído em ${saida.replace(RAIZ, '')} (bytes: bruto, gzip, brotli)`);
        for (const t of r)
          console.log(
            `  assets/${t.nome.padEnd(36)} ${String(t.bruto).padStart(8)} ${String(t.gzip).padStart(8)} ${String(t.br).padStart(8)}`,
          );
      }
    }
  } catch (e) {
    console.error(`construir-cliente: ${(e as Error).message}`);
    process.exit(1);
  }
}
