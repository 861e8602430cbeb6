import { arquivo, pagina } from './esquemas.ts';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { AppTipada } from '../http/app-tipada.ts';
import { enviarEstatico, prepararEstatico, type ArquivoEstatico, type Codificacao } from '../http/estaticos.ts';
import { isAuthenticated, type Guarda } from './acesso.ts';

/** Where `npm install` (scripts/construir-cliente.ts) puts the built browser client. */
export const PASTA_CLIENTE = fileURLToPath(new URL('../../dist/mercados/', import.meta.url));

/** The prefix of the built assets; their names carry a content hash, so they never change. */
export const CAMINHO_ASSETS = '/assets';

const TIPOS: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

/**
 * The addresses the client draws, and who the server lets reach each shell. The server checks
 * the login (spec 5.B.8: no session → /login); the profile a page needs is the client's to
 * mirror, because the data behind it is guarded by GraphQL's @auth, the real protection.
 * /login is served by the login route (the client shows it only for ?error=auth_failed).
 */
export const PAGINAS_DO_CLIENTE: ReadonlyArray<readonly [string, Guarda]> = [
  ['/', 'publico'],
  ['/unauthorized', 'publico'],
  ['/dashboard', isAuthenticated],
  ['/mercados', isAuthenticated],
  ['/mercados/novo', isAuthenticated],
  ['/mercados/:id', isAuthenticated],
  ['/mercados/:id/editar', isAuthenticated],
  ['/mercados/:id/precos', isAuthenticated],
  ['/usuarios', isAuthenticated],
  ['/avisos', isAuthenticated],
  ['/ciclos', isAuthenticated],
  ['/ciclos/:id/pedido', isAuthenticated],
  ['/pedidos', isAuthenticated],
  ['/ciclos/:id/oferta', isAuthenticated],
  ['/ciclos/:id/entregas', isAuthenticated],
  ['/entregas', isAuthenticated],
  ['/mercados/:id/ciclos/:cicloId/pedidos', isAuthenticated],
  ['/ciclos/:id/mercados', isAuthenticated],
];

/** The suffixes of the precompressed copies the build writes next to each asset. */
export const SUFIXOS_COMPRIMIDOS: Readonly<Record<Codificacao, string>> = { br: '.br', gzip: '.gz' };

/** The cache of a hashed asset: its name changes with its content, so it never does. */
export const CACHE_IMUTAVEL = 'public, max-age=31536000, immutable';

/** The built client, read once at start: the HTML shell and its assets, all in memory (~500 kB with their variants). */
export interface ClienteWeb {
  /** Null when the client was never built (development or tests without `npm install`). */
  readonly shell: Buffer | null;
  /** By file name; the .br and .gz copies are variants of their asset, not assets of their own. */
  readonly assets: ReadonlyMap<string, ArquivoEstatico>;
}

/** The files of one folder that have a known type, each with its precompressed copies when the build wrote them. */
function lerArquivos(pasta: string): Map<string, ArquivoEstatico> {
  const arquivos = new Map<string, ArquivoEstatico>();
  const nomes = new Set(existsSync(pasta) ? readdirSync(pasta) : []);
  const ler = (nome: string) => (nomes.has(nome) ? readFileSync(join(pasta, nome)) : undefined);
  for (const nome of nomes) {
    const tipo = TIPOS[extname(nome)];
    if (tipo === undefined) continue;
    const conteudo = ler(nome);
    if (conteudo === undefined) continue;
    // A build made before the copies existed gets them made at the first request that wants them.
    const br = ler(`${nome}${SUFIXOS_COMPRIMIDOS.br}`);
    const gzip = ler(`${nome}${SUFIXOS_COMPRIMIDOS.gzip}`);
    arquivos.set(
      nome,
      prepararEstatico(tipo, conteudo, {
        ...(br === undefined ? {} : { br }),
        ...(gzip === undefined ? {} : { gzip }),
      }),
    );
  }
  return arquivos;
}

export function carregarCliente(pasta: string = PASTA_CLIENTE): ClienteWeb {
  const indice = join(pasta, 'index.html');
  if (!existsSync(indice)) return { shell: null, assets: new Map() };
  return { shell: readFileSync(indice), assets: lerArquivos(join(pasta, 'assets')) };
}

const SEM_CLIENTE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Cestaria Mercados</title></head>
<body><h1>Cliente web não construído</h1><p>O cliente da face Mercados ainda não foi construído.
Rode <code>npm install</code> (ou <code>npm run prepare</code>) e reinicie o serviço.</p></body></html>`;

/**
 * The browser client: its HTML shell at each of its addresses and its hashed assets with a
 * year-long cache, brotli or gzip as the browser accepts. Without a build, production refuses to start; elsewhere the shell explains
 * what to run (503) and the start is logged as an error.
 */
export function rotasCliente(
  app: AppTipada,
  cliente: ClienteWeb,
  opcoes: { producao: boolean; log: FastifyBaseLogger },
): void {
  if (cliente.shell === null) {
    if (opcoes.producao)
      throw new Error(`o cliente web da face Mercados não foi construído em ${PASTA_CLIENTE}: rode npm install`);
    opcoes.log.error(`o cliente web não foi construído em ${PASTA_CLIENTE}: rode npm install (ou npm run prepare)`);
  }

  rotasDoShell(app, PAGINAS_DO_CLIENTE, (reply) => responderShell(reply, cliente));
  rotaDosAssets(app, CAMINHO_ASSETS, cliente.assets);
}

/** A client's pages, each answered with its shell; every id in an address (`:id`, `:cicloId`) is a number, anything else a 400. */
function rotasDoShell(
  app: AppTipada,
  paginas: ReadonlyArray<readonly [string, Guarda]>,
  responder: (reply: FastifyReply) => FastifyReply,
): void {
  for (const [url, guarda] of paginas) {
    const ids = [...url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
    const params = Object.fromEntries(ids.map((nome) => [nome, Type.String({ pattern: '^[0-9]{1,10}$' })]));
    const schema = { ...(ids.length > 0 ? { params: Type.Object(params) } : {}), response: pagina };
    app.get(url, { config: { guarda }, schema }, async (_req, reply) => responder(reply));
  }
}

/** A client's hashed assets under `caminho`, with a year-long cache. */
function rotaDosAssets(app: AppTipada, caminho: string, assets: ReadonlyMap<string, ArquivoEstatico>): void {
  app.get(
    `${caminho}/:arquivo`,
    {
      config: { guarda: 'publico' },
      schema: {
        hide: true,
        params: Type.Object({ arquivo: Type.String() }),
        response: arquivo('application/octet-stream'),
      },
    },
    (req, reply) => {
      const a = assets.get(req.params.arquivo);
      if (a === undefined) return reply.callNotFound();
      return enviarEstatico(req, reply, a, CACHE_IMUTAVEL);
    },
  );
}

/** The shell: the same for everyone; no-store so a new build's asset names are picked up at once. */
export function responderShell(reply: FastifyReply, cliente: ClienteWeb): FastifyReply {
  reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
  if (cliente.shell === null) return reply.code(503).send(SEM_CLIENTE);
  return reply.send(cliente.shell);
}

// --- The pickup app (/retirada) --------------------------------------------------------------

/** Where the build puts the pickup app (web/retirada): its shell, assets, manifest, icons and service worker. */
export const PASTA_RETIRADA = fileURLToPath(new URL('../../dist/retirada/', import.meta.url));

/**
 * The pickup app's addresses, each the same shell. The data behind them is GraphQL's, guarded by
 * who may work at each point (docs/api.md); once installed, the service worker answers these
 * addresses itself, with no network.
 */
export const PAGINAS_DA_RETIRADA: ReadonlyArray<readonly [string, Guarda]> = [
  ['/retirada', isAuthenticated],
  ['/retirada/:cicloId/:pontoId', isAuthenticated],
  ['/retirada/:cicloId/:pontoId/pedido/:pedidoId', isAuthenticated],
];

/** The files at the app's root the browser asks for by name: the service worker, the manifest, the icons. */
export const ARQUIVOS_DA_RETIRADA = ['sw.js', 'manifest.webmanifest', 'icone-192.png', 'icone-512.png'] as const;

/**
 * The service worker and the manifest are asked again on every check (an update must reach the
 * phones the next time they open the app online); the ETag answers 304 when nothing changed.
 */
export const CACHE_REVALIDAR = 'no-cache';

export interface ClienteRetirada extends ClienteWeb {
  readonly raiz: ReadonlyMap<string, ArquivoEstatico>;
}

export function carregarRetirada(pasta: string = PASTA_RETIRADA): ClienteRetirada {
  const indice = join(pasta, 'index.html');
  if (!existsSync(indice)) return { shell: null, assets: new Map(), raiz: new Map() };
  const raiz = lerArquivos(pasta);
  for (const nome of raiz.keys()) if (!ARQUIVOS_DA_RETIRADA.some((a) => a === nome)) raiz.delete(nome);
  return { shell: readFileSync(indice), assets: lerArquivos(join(pasta, 'assets')), raiz };
}

const SEM_RETIRADA = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Retirada · Cestaria</title></head>
<body><h1>Aplicativo da retirada não construído</h1><p>O aplicativo da retirada ainda não foi construído.
Rode <code>npm install</code> (ou <code>npm run prepare</code>) e reinicie o serviço.</p></body></html>`;

function responderShellDaRetirada(reply: FastifyReply, cliente: ClienteRetirada): FastifyReply {
  reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
  if (cliente.shell === null) return reply.code(503).send(SEM_RETIRADA);
  return reply.send(cliente.shell);
}

/**
 * The pickup app: its shell at each address (and at /retirada/index.html, the copy its service
 * worker keeps: the same bytes for everyone, no data), its hashed assets with a year-long cache,
 * and the service worker, scoped to /retirada (`Service-Worker-Allowed`) and never cached long.
 */
export function rotasRetirada(
  app: AppTipada,
  cliente: ClienteRetirada,
  opcoes: { producao: boolean; log: FastifyBaseLogger },
): void {
  if (cliente.shell === null) {
    if (opcoes.producao)
      throw new Error(`o aplicativo da retirada não foi construído em ${PASTA_RETIRADA}: rode npm install`);
    opcoes.log.error(
      `o aplicativo da retirada não foi construído em ${PASTA_RETIRADA}: rode npm install (ou npm run prepare)`,
    );
  }
  rotasDoShell(app, PAGINAS_DA_RETIRADA, (reply) => responderShellDaRetirada(reply, cliente));
  app.get(
    '/retirada/index.html',
    { config: { guarda: 'publico' }, schema: { hide: true, response: pagina } },
    async (_req, reply) => responderShellDaRetirada(reply, cliente),
  );
  rotaDosAssets(app, '/retirada/assets', cliente.assets);
  for (const nome of ARQUIVOS_DA_RETIRADA) {
    app.get(
      `/retirada/${nome}`,
      {
        config: { guarda: 'publico' },
        schema: { hide: true, response: arquivo(TIPOS[extname(nome)] ?? 'application/octet-stream') },
      },
      (req, reply) => {
        const a = cliente.raiz.get(nome);
        if (a === undefined) return reply.callNotFound();
        // The worker's path is /retirada/sw.js; its scope, /retirada, is one level up (the app's own address).
        if (nome === 'sw.js') reply.header('service-worker-allowed', '/retirada');
        return enviarEstatico(req, reply, a, CACHE_REVALIDAR);
      },
    );
  }
}
