/**
 * Query strings and requests, read through the types (the TypeScript checker over src/):
 * - a route that reads `req.query` declares it: without a `querystring` schema the TypeBox
 *   provider types it `unknown`, so any read of an `unknown` query is a route that forgot to;
 * - no route parses `req.url` by hand, except the reads listed below with their reason;
 * - no request is cast (`req.body as …`, `req.params as …`, `(… req.query …) as …`): schemas,
 *   checked helpers and typed transports give the types;
 * - the OpenAPI documents list every query parameter, in the table below (which doubles as their
 *   index: docs/http.md explains each).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { before, describe, test } from 'node:test';
import ts from 'typescript';

const RAIZ = resolve(import.meta.dirname, '../..');
const SRC = join(RAIZ, 'src');

function arquivosTs(pasta: string): string[] {
  return readdirSync(pasta).flatMap((n) => {
    const p = join(pasta, n);
    if (statSync(p).isDirectory()) return arquivosTs(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Where `req.url` may be read, and why (file → how many reads). */
const URL_LIDA_EM: Readonly<Record<string, string>> = {
  // The OAuth callbacks forward the provider's answer verbatim to openid-client (consultaCrua).
  'src/cestas/rotas/login.ts': 'o callback OAuth repassa a consulta como veio',
  'src/mercados/rotas/autenticacao.ts': 'o callback OAuth repassa a consulta como veio',
  // The login remembers the whole address to come back to it; a missing rule names the route.
  'src/cestas/autenticacao.ts': 'a volta depois do login e a mensagem de uma rota sem regra',
  // The access guard compares paths (the address without its query).
  'src/mercados/acesso.ts': 'o caminho, sem a consulta, para a guarda',
};

/** Every operation of the OpenAPI documents that reads a query, with its parameters. */
const PARAMETROS_DECLARADOS: Readonly<Record<string, string>> = {
  'cestas GET /ciclo-index': 'pagina,porPagina,ordem,direcao,busca',
  'cestas GET /categoria-index': 'pagina,porPagina,ordem,direcao,busca,ativo,categoriaid',
  'cestas GET /cesta-index': 'pagina,porPagina,ordem,direcao,busca,ativo,categoriaid',
  'cestas GET /produto-index': 'pagina,porPagina,ordem,direcao,busca,ativo,categoriaid',
  'cestas GET /pontoentrega-index': 'pagina,porPagina,ordem,direcao,busca,ativo,categoriaid',
  'cestas GET /usuario-index': 'pagina,porPagina,ordem,direcao,busca,perfil,ativo',
  'cestas GET /auditoria': 'pagina,porPagina,ordem,direcao,busca,entidade,entidadeId,usuarioid',
  'cestas GET /oferta-index': 'cicloid',
  'cestas GET /oferta/{id}': 'usuarioid',
  'cestas GET /pedidoconsumidores/{id}': 'usuarioid',
  'cestas GET /assinaturas': 'usuarioid',
  'cestas POST /assinaturas/{id}/pular/{cicloId}': 'de',
  'cestas GET /assinaturas/todas': 'cicloId',
  'cestas GET /saldo': 'usuarioid',
  'cestas GET /pedidosfornecedorestodos/{id}': 'mercadoId,formato',
  'cestas GET /pedidosfornecedoressobra/{id}': 'formato',
  'cestas GET /pedidosfornecedoresciclos': 'ciclos,cicloid,cicloId,mercadoId,formato',
  'cestas GET /pedidosconsumidoresciclos': 'ciclos,cicloid,cicloId,mercadoId,formato',
  'cestas GET /relatorioprodutosciclos': 'ciclos,cicloid,cicloId,mercadoId,formato',
  'cestas GET /downloadpedidosfornecedoresciclos': 'ciclos,cicloid,cicloId,mercadoId,formato',
  'cestas GET /entregaCicloPDF/{id}': 'mercadoId',
  'cestas GET /movimentacaotodos': 'usuarioid,cicloid,tipoMovimentacaoId,de,ate,formato',
  'cestas GET /mensagens': 'estado',
  'mercados GET /login': 'error,voltar',
  'mercados GET /auth/idp': 'voltar',
  'mercados GET /graphql': 'query,operationName,variables,extensions',
  'mercados GET /planilhas/mercados/{id}/pedidos': 'cicloId,formato',
  'mercados GET /planilhas/mercados/{id}/precos': 'formato',
  'mercados GET /planilhas/ciclos/{id}/entregas': 'formato',
};

interface Achado {
  readonly onde: string;
  readonly texto: string;
}

describe('consultas declaradas e requisições sem casts', () => {
  const consultasSemEsquema: Achado[] = [];
  const urlsLidas: Achado[] = [];
  const casts: Achado[] = [];
  let arquivosLidos = 0;

  before(() => {
    const config = ts.readConfigFile(join(RAIZ, 'tsconfig.json'), (p) => ts.sys.readFile(p));
    const opcoes = ts.parseJsonConfigFileContent(config.config, ts.sys, RAIZ).options;
    const programa = ts.createProgram(arquivosTs(SRC), opcoes);
    const checker = programa.getTypeChecker();
    /** A Fastify request, whatever its route's generics. */
    const ehRequisicao = (e: ts.Expression): boolean => {
      const tipo = checker.getTypeAtLocation(e);
      return (tipo.aliasSymbol ?? tipo.getSymbol())?.getName() === 'FastifyRequest';
    };
    /** `req.body`, `req.params`, `req.query` or the request itself, anywhere inside a node. */
    const tocaARequisicao = (n: ts.Node): boolean => {
      if (
        ts.isPropertyAccessExpression(n) &&
        ['body', 'params', 'query', 'raw'].includes(n.name.text) &&
        ehRequisicao(n.expression)
      )
        return true;
      if (ts.isIdentifier(n) && ehRequisicao(n)) return true;
      return ts.forEachChild(n, tocaARequisicao) ?? false;
    };
    for (const fonte of programa.getSourceFiles()) {
      if (!fonte.fileName.startsWith(SRC)) continue;
      arquivosLidos++;
      const arquivo = relative(RAIZ, fonte.fileName);
      const onde = (n: ts.Node) => `${arquivo}:${fonte.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
      const visitar = (n: ts.Node): void => {
        if (
          ts.isPropertyAccessExpression(n) &&
          (n.name.text === 'query' || n.name.text === 'url') &&
          ehRequisicao(n.expression)
        ) {
          if (n.name.text === 'url') urlsLidas.push({ onde: onde(n), texto: n.parent.getText() });
          else if ((checker.getTypeAtLocation(n).flags & ts.TypeFlags.Unknown) !== 0)
            consultasSemEsquema.push({ onde: onde(n), texto: n.parent.getText() });
        }
        if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && tocaARequisicao(n.expression))
          casts.push({ onde: onde(n), texto: n.getText() });
        ts.forEachChild(n, visitar);
      };
      visitar(fonte);
    }
  });

  test('toda leitura de req.query é de uma rota que declara a consulta (um esquema querystring)', () => {
    assert.ok(arquivosLidos > 100, `leu ${arquivosLidos} arquivos de src/`);
    assert.deepEqual(consultasSemEsquema, [], 'req.query sem esquema querystring na rota');
  });

  test('nenhuma rota lê req.url à mão, fora das leituras listadas (e cada uma com o seu motivo)', () => {
    const fora = urlsLidas.filter((u) => URL_LIDA_EM[u.onde.split(':')[0] ?? ''] === undefined);
    assert.deepEqual(fora, [], 'req.url lido fora dos lugares listados');
    const arquivos = new Set(urlsLidas.map((u) => u.onde.split(':')[0]));
    for (const a of Object.keys(URL_LIDA_EM)) assert.ok(arquivos.has(a), `${a} não lê mais req.url: tire-o da lista`);
  });

  test('nenhuma requisição passa por um cast (as) em src/', () => {
    assert.deepEqual(casts, [], 'cast de requisição');
  });

  test('os documentos OpenAPI declaram cada parâmetro de consulta lido (23 operações na face Cestas, 6 na Mercados)', () => {
    const declarados: Record<string, string> = {};
    let total = 0;
    for (const [face, arquivo] of [
      ['cestas', 'docs/openapi.json'],
      ['mercados', 'docs/openapi-mercados.json'],
    ] as const) {
      const doc = JSON.parse(readFileSync(join(RAIZ, arquivo), 'utf8')) as {
        paths: Record<string, Record<string, { parameters?: ReadonlyArray<{ in: string; name: string }> }>>;
      };
      for (const [caminho, metodos] of Object.entries(doc.paths)) {
        for (const [metodo, op] of Object.entries(metodos)) {
          const nomes = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
          total += nomes.length;
          if (nomes.length > 0) declarados[`${face} ${metodo.toUpperCase()} ${caminho}`] = nomes.join(',');
        }
      }
    }
    assert.deepEqual(declarados, PARAMETROS_DECLARADOS);
    assert.equal(total, 97, 'parâmetros de consulta declarados');
  });
});
