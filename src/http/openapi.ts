import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyContextConfig } from 'fastify';
import { html, type Html } from './html.ts';
import { comTiposDoFio } from '../comandos/leitor/fio.ts';
import { arquivoEstatico } from './esquemas.ts';

/**
 * OpenAPI from the routes' own schemas (@fastify/swagger): the same schemas that validate the
 * bodies and serialise the answers describe them, so the document cannot drift from the code.
 * `docs/openapi.json` (Cestas) and `docs/openapi-mercados.json` are generated from it
 * (`npm run openapi`) and a test fails when they are stale.
 */
export async function registrarOpenApi(
  app: FastifyInstance,
  face: { titulo: string; descricao: string },
): Promise<void> {
  // A write reads JSON or a form (the edge reads both alike) unless its route says otherwise.
  app.addHook('onRoute', (rota) => {
    if (rota.schema?.body !== undefined && rota.schema.consumes === undefined) {
      rota.schema = { ...rota.schema, consumes: ['application/json', 'application/x-www-form-urlencoded'] };
    }
  });
  await app.register(swagger, {
    // A command's fields are read by keywords; the document also says the types each accepts as sent.
    transform: ({ schema, url }) => ({ schema: comTiposDoFio(schema) as typeof schema, url }),
    openapi: {
      openapi: '3.1.0',
      info: {
        title: face.titulo,
        description: face.descricao,
        version: '1.0.0',
        license: { name: 'AGPL-3.0-or-later' },
      },
    },
  });
}

interface Operacao {
  readonly description?: string;
  readonly requestBody?: { content?: Record<string, { schema?: Esquema }> };
  readonly parameters?: ReadonlyArray<{ name: string; in: string; description?: string; schema?: Esquema }>;
  readonly responses?: Record<string, { description?: string; content?: Record<string, unknown> }>;
}
interface Esquema {
  readonly description?: string;
  readonly properties?: Record<string, Esquema>;
  readonly type?: string | readonly string[];
}

/** The document as a page people read: each route with what it reads and what it answers. */
function paginaDaDocumentacao(titulo: string, documento: { paths?: Record<string, Record<string, Operacao>> }): Html {
  const rotas = Object.entries(documento.paths ?? {}).flatMap(([caminho, metodos]) =>
    Object.entries(metodos).map(([metodo, op]) => ({ caminho, metodo, op })),
  );
  const campos = (e: Esquema | undefined) => Object.entries(e?.properties ?? {});
  return html`<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${titulo}: API</title><link rel="stylesheet" href="/static/estilo.css"></head>
<body><main>
<h1>${titulo}: API</h1>
<p>O documento OpenAPI 3.1 está em <a href="/docs/openapi.json">/docs/openapi.json</a>. Cada rota abaixo, com o que lê e o que responde.</p>
${rotas.map(({ caminho, metodo, op }) => {
  const corpo = op.requestBody?.content === undefined ? undefined : Object.values(op.requestBody.content)[0]?.schema;
  return html`<section>
  <h2><code>${metodo.toUpperCase()} ${caminho}</code></h2>
  ${(op.parameters ?? []).length === 0 ? '' : html`<p>Parâmetros: ${(op.parameters ?? []).map((p) => html`<code>${p.name}</code> (${p.in}) `)}</p>`}
  ${corpo === undefined ? '' : html`<p>${corpo.description ?? 'Corpo'}</p><ul>${campos(corpo).map(([nome, e]) => html`<li><code>${nome}</code>: ${e.description ?? ''}</li>`)}</ul>`}
  <ul>${Object.entries(op.responses ?? {}).map(([status, r]) => html`<li><strong>${status}</strong> ${r.description ?? ''} ${Object.keys(r.content ?? {}).map((t) => html`<code>${t}</code> `)}</li>`)}</ul>
</section>`;
})}
</main></body></html>`;
}

/** /docs (the page) and /docs/openapi.json (the document), outside production only. */
export function rotasDaDocumentacao(
  app: FastifyInstance,
  opcoes: { producao: boolean; titulo: string; config: FastifyContextConfig },
): void {
  if (opcoes.producao) return;
  app.get(
    '/docs/openapi.json',
    {
      config: opcoes.config,
      schema: { hide: true, response: arquivoEstatico('application/json', 'O documento OpenAPI') },
    },
    async (_req, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(app.swagger())),
  );
  app.get(
    '/docs',
    { config: opcoes.config, schema: { hide: true, response: arquivoEstatico('text/html', 'A documentação da API') } },
    async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          paginaDaDocumentacao(opcoes.titulo, app.swagger() as { paths?: Record<string, Record<string, Operacao>> })
            .texto,
        ),
  );
}
