import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { criarAppMercados } from '../../src/mercados/app.ts';
import { opcoesGraphqlPadrao, type OpcoesGraphql } from '../../src/mercados/graphql/rota.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, graphql } from './apoio.ts';

/** What changes between development and production: the GraphQL IDE and introspection. */
describe('GraphQL por ambiente', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  /** A Mercados face of its own, on the test database, with the given GraphQL options. */
  async function face(opcoes: OpcoesGraphql): Promise<{ app: FastifyInstance; url: string; nav: Navegador }> {
    const app = await criarAppMercados({
      config: amb.config,
      banco: amb.banco,
      relogio: amb.relogio,
      provedor: { issuer: amb.idp, clientId: 'x', clientSecret: 'y' },
      graphql: opcoes,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://localhost:${(app.server.address() as { port: number }).port}`;
    const nav = new Navegador();
    await contaComSessao(amb, nav, url, { perfis: ['Consumidor'] });
    return { app, url, nav };
  }

  test('o padrão: IDE só em desenvolvimento; introspecção em tudo menos produção', () => {
    assert.deepEqual(opcoesGraphqlPadrao({ nodeEnv: 'development', graphqlIntrospeccao: true }), {
      ide: true,
      introspeccao: true,
    });
    assert.deepEqual(opcoesGraphqlPadrao({ nodeEnv: 'test', graphqlIntrospeccao: true }), {
      ide: false,
      introspeccao: true,
    });
    assert.deepEqual(opcoesGraphqlPadrao({ nodeEnv: 'production', graphqlIntrospeccao: false }), {
      ide: false,
      introspeccao: false,
    });
  });

  describe('como em desenvolvimento', () => {
    let f: Awaited<ReturnType<typeof face>>;
    before(async () => {
      f = await face(opcoesGraphqlPadrao({ nodeEnv: 'development', graphqlIntrospeccao: true }));
    });
    after(() => f.app.close());

    test('GET /graphql num navegador logado mostra o GraphiQL, sem script embutido, sob a CSP da face', async () => {
      const r = await f.nav.get(`${f.url}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml' } });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(r.texto, /<html lang="pt-BR">/);
      assert.match(r.texto, /<script src="\/graphql-ide\/ide\.js"><\/script>/);
      assert.doesNotMatch(r.texto, /<script(?![^>]*\bsrc=)[^>]*>/, 'nenhum script embutido');
      assert.doesNotMatch(r.texto, /unpkg|cdn|https?:\/\//i, 'nada de fora da origem');
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /default-src 'self'/);
      const opcoes = /data-opcoes="([^"]*)"/.exec(r.texto)?.[1] ?? '';
      const lidas = JSON.parse(
        opcoes
          .replaceAll('&quot;', '"')
          .replaceAll('&#39;', "'")
          .replaceAll('&lt;', '<')
          .replaceAll('&gt;', '>')
          .replaceAll('&amp;', '&'),
      ) as Record<string, unknown>;
      assert.equal(lidas.credentials, 'same-origin');
      assert.match(String(lidas.defaultQuery), /mercados\(ativo: true\)/);
    });

    test('os arquivos do GraphiQL saem da própria origem, como JavaScript e CSS', async () => {
      const nav = new Navegador();
      for (const [arquivo, tipo] of [
        ['ide.js', /^text\/javascript/],
        ['graphiql.js', /^text\/javascript/],
        ['graphiql.css', /^text\/css/],
        ['editor.worker.js', /^text\/javascript/],
        ['json.worker.js', /^text\/javascript/],
        ['graphql.worker.js', /^text\/javascript/],
      ] as const) {
        const r = await nav.get(`${f.url}/graphql-ide/${arquivo}`);
        assert.equal(r.status, 200, arquivo);
        assert.match(r.headers.get('content-type') ?? '', tipo, arquivo);
        assert.ok(r.texto.length > 0, arquivo);
      }
      const inicio = (await nav.get(`${f.url}/graphql-ide/ide.js`)).texto;
      for (const worker of ['editor.worker.js', 'json.worker.js', 'graphql.worker.js', 'graphiql.js'])
        assert.ok(inicio.includes(worker), worker);
    });

    test('sem login, o navegador recebe o 401 do contrato, não a IDE', async () => {
      const r = await new Navegador().get(`${f.url}/graphql`, { headers: { accept: 'text/html' } });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json(), { errors: [{ message: 'Não autenticado', extensions: { code: 'UNAUTHENTICATED' } }] });
    });
  });

  describe('como em produção', () => {
    let f: Awaited<ReturnType<typeof face>>;
    before(async () => {
      f = await face(opcoesGraphqlPadrao({ nodeEnv: 'production', graphqlIntrospeccao: false }));
    });
    after(() => f.app.close());

    test('introspecção recusada em português; o resto do GraphQL funciona', async () => {
      const r = await graphql(f.url, f.nav, '{ __schema { types { name } } }');
      assert.deepEqual(
        r.corpo.errors?.map((e) => [e.message, e.extensions?.code]),
        [['A introspecção do esquema está desativada neste servidor', 'INTROSPECCAO_DESATIVADA']],
      );
      assert.equal(r.corpo.data, undefined);
      const tipo = await graphql(f.url, f.nav, '{ __type(name: "Mercado") { name } }');
      assert.equal(tipo.corpo.errors?.[0]?.extensions?.code, 'INTROSPECCAO_DESATIVADA');
      assert.deepEqual((await graphql(f.url, f.nav, '{ __typename me { profiles } }')).corpo, {
        data: { __typename: 'Query', me: { profiles: ['Consumidor'] } },
      });
    });

    test('sem IDE: nem a página nem os arquivos existem', async () => {
      const r = await f.nav.get(`${f.url}/graphql`, { headers: { accept: 'text/html' } });
      assert.doesNotMatch(r.headers.get('content-type') ?? '', /text\/html/);
      assert.doesNotMatch(r.texto, /graphql-ide/);
      assert.equal((await f.nav.getJson(`${f.url}/graphql-ide/ide.js`)).status, 404);
    });
  });
});
