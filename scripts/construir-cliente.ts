/**
 * `npm install` (the `prepare` script): builds the Mercados browser client (web/mercados, React +
 * Vite) into dist/mercados, which the Mercados face serves.
 *
 * A production install (`npm ci --omit=dev`) has no Vite: there the build must already exist
 * (the Dockerfile builds it in an earlier stage and copies it in), and this script only checks
 * that it does. Without Vite and without a build, it fails with a message that says what to do.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const RAIZ = fileURLToPath(new URL('..', import.meta.url));
const FONTE = fileURLToPath(new URL('../web/mercados/', import.meta.url));
export const SAIDA = fileURLToPath(new URL('../dist/mercados/', import.meta.url));

/** Vite and its React plugin, or null when devDependencies are not installed. */
async function carregarVite() {
  try {
    const [vite, react] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
    return { build: vite.build, react: react.default };
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

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const r = await construirCliente();
    if (r === 'ja-existia') console.log('cliente Mercados: usando a construção existente (sem Vite nesta instalação)');
    else {
      console.log(`cliente Mercados construído em ${SAIDA.replace(RAIZ, '')} (bytes: bruto, gzip, brotli)`);
      for (const t of r)
        console.log(
          `  assets/${t.nome.padEnd(36)} ${String(t.bruto).padStart(8)} ${String(t.gzip).padStart(8)} ${String(t.br).padStart(8)}`,
        );
    }
  } catch (e) {
    console.error(`construir-cliente: ${(e as Error).message}`);
    process.exit(1);
  }
}
