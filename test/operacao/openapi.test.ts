import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { ARQUIVOS_OPENAPI, gerarOpenApi } from '../../scripts/openapi.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const ESCRITAS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('os esquemas das rotas e o OpenAPI', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('toda rota registrada, nas duas faces, declara o esquema da resposta, e toda escrita o do corpo', () => {
    for (const [face, app] of [
      ['cestas', amb.servicos.cestas],
      ['mercados', amb.servicos.mercados],
    ] as const) {
      const rotas = app?.esquemasDasRotas ?? [];
      assert.ok(rotas.length > (face === 'cestas' ? 60 : 15), `${face}: ${rotas.length} rotas`);
      for (const r of rotas) {
        assert.ok(r.schema.response !== undefined, `${face}: ${r.metodo} ${r.url} sem esquema de resposta`);
        if (ESCRITAS.has(r.metodo))
          assert.ok(r.schema.body !== undefined, `${face}: ${r.metodo} ${r.url} sem esquema de corpo`);
      }
    }
  });

  test('uma rota sem esquema de resposta, ou uma escrita sem o do corpo, impede a face de subir', async () => {
    const { criarAppCestas } = await import('../../src/cestas/app.ts');
    const app = await criarAppCestas({
      config: amb.config,
      banco: amb.banco,
      relogio: amb.relogio,
      provedor: { issuer: amb.idp, clientId: 'x', clientSecret: 'y' },
    });
    try {
      assert.throws(
        () => app.get('/sem-esquema', { config: { acesso: 'publico' } }, async () => 'x'),
        /sem esquema de response/,
      );
      const response = { 200: Type.Object({ ok: Type.Boolean() }) };
      assert.throws(
        () =>
          app.post('/sem-corpo', { config: { acesso: 'publico' }, schema: { response } }, async () => ({ ok: true })),
        /sem esquema de body/,
      );
      assert.doesNotThrow(() =>
        app.get('/com-esquema', { config: { acesso: 'publico' }, schema: { response } }, async () => ({ ok: true })),
      );
    } finally {
      await app.close();
    }
  });

  test('docs/openapi.json e docs/openapi-mercados.json estão em dia com os esquemas (npm run openapi os refaz)', async () => {
    const gerados = await gerarOpenApi();
    for (const face of ['cestas', 'mercados'] as const) {
      const salvo = readFileSync(ARQUIVOS_OPENAPI[face], 'utf8');
      assert.ok(salvo === gerados[face], `${ARQUIVOS_OPENAPI[face]} está desatualizado: rode npm run openapi`);
    }
  });

  test('o documento descreve o que o contrato diz de uma rota: o corpo, as respostas e os tipos de conteúdo', () => {
    const doc = JSON.parse(readFileSync(ARQUIVOS_OPENAPI.cestas, 'utf8')) as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, unknown> };
            responses: Record<string, { content?: Record<string, unknown> }>;
          }
        >
      >;
    };
    assert.equal(doc.openapi, '3.1.0');
    const salvar = doc.paths['/pedidoconsumidores']?.post;
    assert.ok(salvar !== undefined);
    assert.deepEqual(Object.keys(salvar.requestBody?.content ?? {}).sort(), [
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    assert.deepEqual(Object.keys(salvar.responses).sort(), ['200', '201', '303', '4XX', '5XX']);
    assert.deepEqual(Object.keys(salvar.responses['201']?.content ?? {}).sort(), ['application/json', 'text/html']);
    const pdf = doc.paths['/entregaCicloPDF/{id}']?.get;
    assert.ok(pdf?.responses['200']?.content?.['application/pdf'] !== undefined);
  });

  test('todo campo de todo corpo e todo parâmetro, nas duas faces, diz os tipos que aceita como enviado', () => {
    interface No {
      readonly type?: unknown;
      readonly anyOf?: unknown;
      readonly oneOf?: unknown;
      readonly enum?: unknown;
      readonly const?: unknown;
      readonly properties?: Record<string, No>;
      readonly items?: No & { readonly else?: No };
    }
    interface Documento {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: No }> };
            parameters?: ReadonlyArray<{ name: string; schema?: No }>;
          }
        >
      >;
    }
    const temTipo = (n: No | undefined) =>
      n !== undefined && ['type', 'anyOf', 'oneOf', 'enum', 'const'].some((k) => Object.hasOwn(n, k));
    const semTipo: string[] = [];
    let campos = 0;
    const percorrer = (n: No, onde: string): void => {
      for (const [nome, campo] of Object.entries(n.properties ?? {})) {
        campos++;
        if (!temTipo(campo)) semTipo.push(`${onde}.${nome}`);
        percorrer(campo, `${onde}.${nome}`);
      }
      const linha = n.items?.else ?? n.items;
      if (linha !== undefined) percorrer(linha, `${onde}[]`);
    };
    for (const face of ['cestas', 'mercados'] as const) {
      const doc = JSON.parse(readFileSync(ARQUIVOS_OPENAPI[face], 'utf8')) as Documento;
      for (const [caminho, metodos] of Object.entries(doc.paths))
        for (const [metodo, op] of Object.entries(metodos)) {
          const json = op.requestBody?.content['application/json']?.schema;
          if (json !== undefined) percorrer(json, `${face}: ${metodo} ${caminho} `);
          for (const p of op.parameters ?? []) {
            campos++;
            if (!temTipo(p.schema)) semTipo.push(`${face}: ${metodo} ${caminho} ?${p.name}`);
          }
        }
    }
    assert.ok(campos > 300, `${campos} campos`);
    assert.deepEqual(semTipo, []);
    // A command's id: a JSON integer in range, or its digits from a form or GraphQL.
    const doc = JSON.parse(readFileSync(ARQUIVOS_OPENAPI.cestas, 'utf8')) as Documento;
    const pedido = doc.paths['/pedidoconsumidores']?.post?.requestBody?.content['application/json']?.schema;
    assert.deepEqual(pedido?.properties?.cicloid?.anyOf, [
      { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
      { type: 'string', pattern: '^\\s*\\d{1,15}\\s*$' },
    ]);
    const quantidade = pedido?.properties?.produtos?.items?.else?.properties?.quantidade;
    assert.deepEqual(quantidade?.anyOf, [{ type: 'number', minimum: 0.001, maximum: 10_000 }, { type: 'string' }]);
  });

  test('/docs mostra as rotas e /docs/openapi.json é o documento, fora de produção', async () => {
    const pagina = await fetch(`${amb.url}/docs`);
    assert.equal(pagina.status, 200);
    assert.match(pagina.headers.get('content-type') ?? '', /text\/html/);
    const texto = await pagina.text();
    assert.match(texto, /POST \/pedidoconsumidores</);
    assert.match(texto, /<code>pontoEntregaId<\/code>: Onde retirar/);
    const doc = await fetch(`${amb.url}/docs/openapi.json`);
    assert.equal(doc.status, 200);
    assert.deepEqual(await doc.json(), JSON.parse(readFileSync(ARQUIVOS_OPENAPI.cestas, 'utf8')));
    const mercados = await fetch(`${amb.urlMercados}/docs/openapi.json`);
    assert.deepEqual(await mercados.json(), JSON.parse(readFileSync(ARQUIVOS_OPENAPI.mercados, 'utf8')));
  });

  test('a resposta é a lista branca do que sai: um campo que o esquema não nomeia não sai', async () => {
    const { criarAppCestas } = await import('../../src/cestas/app.ts');
    const app = await criarAppCestas({
      config: amb.config,
      banco: amb.banco,
      relogio: amb.relogio,
      provedor: { issuer: amb.idp, clientId: 'x', clientSecret: 'y' },
    });
    try {
      const schema = { response: { 200: Type.Object({ id: Type.Integer() }) } };
      app.get('/teste/lista-branca', { config: { acesso: 'publico' }, schema }, async () => ({
        id: 1,
        segredo: 'não sai',
      }));
      const r = await app.inject({ method: 'GET', url: '/teste/lista-branca' });
      assert.equal(r.body, '{"id":1}');
    } finally {
      await app.close();
    }
  });
});
