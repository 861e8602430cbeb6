/**
 * `npm install` (the `prepare` script): builds the Mercados browser client (web/mercados, React +
 * Vite) into dist/mercados, which the Mercados face serves.
 *
 * A production install (`npm ci --omit=dev`) has no Vite: there the build must already exist
 * (the Dockerfile builds it in an earlier stage and copies it in), and this script only checks
 * that it does. Without Vite and without a build, it fails with a message that says what to do.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

/** Builds web/mercados into `saida` (hashed file names under assets/, no inline scripts). */
export async function construirCliente(saida = SAIDA): Promise<'construido' | 'ja-existia'> {
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
  return 'construido';
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const r = await construirCliente();
    console.log(r === 'construido' ? `cliente Mercados construído em ${SAIDA.replace(RAIZ, '')}` : 'cliente Mercados: usando a construção existente (sem Vite nesta instalação)');
  } catch (e) {
    console.error(`construir-cliente: ${(e as Error).message}`);
    process.exit(1);
  }
}
