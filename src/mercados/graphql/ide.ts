import { arquivo } from '../esquemas.ts';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { GraphiQLOptions } from 'graphql-yoga';
import { html } from '../../http/html.ts';

/**
 * The development GraphQL IDE: Yoga's GraphiQL, served from this origin instead of a CDN, so it
 * works offline and under the face's CSP (script-src 'self') without loosening it. The bundle
 * (several megabytes) is loaded only when the IDE is on, never in production.
 */
export const CAMINHO_IDE = '/graphql-ide';

const INICIO = readFileSync(new URL('./static/ide.js', import.meta.url));

export const OPCOES_IDE: GraphiQLOptions = {
  title: 'Cestaria Mercados · GraphQL',
  credentials: 'same-origin',
  defaultQuery: `# Você está logado: esta sessão vale aqui. O esquema completo está em Docs.
query {
  me { id name profiles }
  mercados(ativo: true) {
    id nome tipo
    admin { name }
    precos { preco produto { nome unidade } }
  }
}
`,
};

/** Registers the IDE's static files (GraphiQL, the Monaco editor workers and the starter). */
export async function rotasDaIde(app: FastifyInstance): Promise<void> {
  const graphiql = await import('@graphql-yoga/render-graphiql/graphiql');
  const arquivos: ReadonlyArray<readonly [string, string | Buffer, string]> = [
    ['graphiql.css', graphiql.css, 'text/css; charset=utf-8'],
    ['graphiql.js', graphiql.js, 'text/javascript; charset=utf-8'],
    ['editor.worker.js', graphiql.editorWorkerService, 'text/javascript; charset=utf-8'],
    ['json.worker.js', graphiql.jsonWorker, 'text/javascript; charset=utf-8'],
    ['graphql.worker.js', graphiql.graphqlWorker, 'text/javascript; charset=utf-8'],
    ['ide.js', INICIO, 'text/javascript; charset=utf-8'],
  ];
  for (const [nome, conteudo, tipo] of arquivos) {
    app.get(
      `${CAMINHO_IDE}/${nome}`,
      { config: { guarda: 'publico' }, schema: { hide: true, response: arquivo(tipo.split(';')[0] ?? tipo) } },
      (_req, reply) => reply.type(tipo).header('cache-control', 'public, max-age=3600').send(conteudo),
    );
  }
}

/** The IDE page Yoga answers to a browser's GET /graphql; its options travel in a data attribute. */
export function paginaDaIde(opcoes: GraphiQLOptions): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opcoes.title ?? 'GraphQL'}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${CAMINHO_IDE}/graphiql.css">
</head>
<body>
<div id="root" data-opcoes="${JSON.stringify(opcoes)}">Carregando o GraphiQL…</div>
<script src="${CAMINHO_IDE}/ide.js"></script>
</body>
</html>`.texto;
}
