import { Type } from '@sinclair/typebox';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Conta } from '../../src/domain/contas.ts';
import { PROFILES, type NomePerfil } from '../../src/domain/politica-mercados.ts';
import {
  contextoGraphql,
  guardaDaAcao,
  hasAnyProfile,
  hasProfile,
  isAuthenticated,
} from '../../src/mercados/acesso.ts';
import { criarAppMercados } from '../../src/mercados/app.ts';
import { LIMITE_LOGIN } from '../../src/mercados/rotas/autenticacao.ts';
import { Navegador, tokenCsrf } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, zerarLimiteDeLogin } from './apoio.ts';

const NAO_AUTENTICADO_GRAPHQL = { errors: [{ message: 'Não autenticado', extensions: { code: 'UNAUTHENTICATED' } }] };

describe('acesso à face Mercados', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('/graphql sem sessão → 401 com a lista de erros no formato GraphQL, em qualquer método', async () => {
    const nav = new Navegador();
    const url = `${amb.urlMercados}/graphql`;
    const respostas = [
      await nav.get(url),
      await nav.get(`${url}?query=%7Bmercados%7Bid%7D%7D`),
      await nav.post(url, { json: { query: '{ me { id } }' } }),
      await nav.post(url, { form: { query: '{ me { id } }' } }),
      await nav.requisitar('PUT', url, { corpo: { json: {} } }),
      await nav.requisitar('DELETE', url),
    ];
    for (const r of respostas) {
      assert.equal(r.status, 401);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(r.json(), NAO_AUTENTICADO_GRAPHQL);
    }
    assert.equal(
      respostas[0]?.texto,
      '{"errors":[{"message":"Não autenticado","extensions":{"code":"UNAUTHENTICATED"}}]}',
    );
  });

  test('/graphql com sessão: POST só em application/json (formulário → 415); JSON passa pela autenticação', async () => {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados);
    const form = await nav.post(`${amb.urlMercados}/graphql`, { form: { query: '{ me { id } }' } });
    assert.equal(form.status, 415);
    assert.equal(
      form.json<{ errors: { extensions: { code: string } }[] }>().errors[0]?.extensions.code,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    const json = await nav.post(`${amb.urlMercados}/graphql`, { json: { query: '{ me { id } }' } });
    for (const recusa of [401, 403, 415]) assert.notEqual(json.status, recusa);
  });

  test('isAuthenticated: fora de /graphql, quem não entrou vai para /login', async () => {
    const r = await new Navegador().get(`${amb.urlMercados}/dashboard`, { seguir: false });
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), '/login');
  });

  test('o painel é o cliente web: o shell, sem cache e com os cabeçalhos de segurança', async () => {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['AdminMercado', 'Fornecedor'] });
    const r = await nav.get(`${amb.urlMercados}/dashboard`);
    assert.equal(r.status, 200);
    assert.match(r.texto, /<div id="raiz">/);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(r.headers.get('x-frame-options'), 'SAMEORIGIN');
    // Every id in a page's address is a number: the market's and the cycle's.
    for (const [caminho, status] of [
      ['/mercados/1/ciclos/2/pedidos', 200],
      ['/mercados/1/ciclos/abc/pedidos', 400],
      ['/mercados/x/ciclos/2/pedidos', 400],
      ['/ciclos/3/mercados', 200],
      ['/ciclos/abc/mercados', 400],
    ] as const) {
      assert.equal(
        (await nav.get(`${amb.urlMercados}${caminho}`, { headers: { accept: 'text/html' }, seguir: false })).status,
        status,
        caminho,
      );
    }
  });

  test('/unauthorized e a página inicial existem, em português; o resto é 404', async () => {
    const nav = new Navegador();
    for (const caminho of ['/', '/unauthorized', '/login?error=auth_failed']) {
      const r = await nav.get(`${amb.urlMercados}${caminho}`, { seguir: false });
      assert.equal(r.status, 200, caminho);
      assert.match(r.texto, /<html lang="pt-BR">/, caminho);
      assert.match(r.texto, /<div id="raiz">/, caminho);
    }
    const nada = await nav.getJson(`${amb.urlMercados}/nada`);
    assert.equal(nada.status, 404);
    assert.deepEqual(nada.json(), { error: 'Página ou registro não encontrado' });
    const paginaNada = await nav.get(`${amb.urlMercados}/nada`, { headers: { accept: 'text/html' } });
    assert.equal(paginaNada.status, 404);
    assert.match(paginaNada.texto, /Página ou registro não encontrado/);
    const idRuim = await nav.get(`${amb.urlMercados}/mercados/abc`, {
      headers: { accept: 'text/html' },
      seguir: false,
    });
    assert.equal(idRuim.status, 302, 'sem sessão, o login vem antes de conferir o endereço');
  });

  describe('hasProfile e hasAnyProfile', () => {
    let app: FastifyInstance;
    let url: string;
    before(async () => {
      app = await criarAppMercados({
        config: amb.config,
        banco: amb.banco,
        relogio: amb.relogio,
        provedor: { issuer: amb.idp, clientId: 'x', clientSecret: 'y' },
      });
      // Routes as later issues will declare them (with their response schema), guarded by the middleware under test.
      const schema = { response: { 200: Type.Object({ ok: Type.Boolean() }) } };
      app.get('/teste/administrador', { config: { guarda: hasProfile('Administrador') }, schema }, async () => ({
        ok: true,
      }));
      app.get(
        '/teste/gestao',
        { config: { guarda: hasAnyProfile(['Administrador', 'AdminMercado']) }, schema },
        async () => ({ ok: true }),
      );
      app.get('/teste/logado', { config: { guarda: isAuthenticated }, schema }, async () => ({ ok: true }));
      // A route names a policy action; its guard is the middleware for the action's profiles.
      app.get('/teste/acao/gestao', { config: { guarda: guardaDaAcao('verPedidosDoMercado') }, schema }, async () => ({
        ok: true,
      }));
      app.get('/teste/acao/fornecedor', { config: { guarda: guardaDaAcao('ofertar') }, schema }, async () => ({
        ok: true,
      }));
      await app.listen({ host: '127.0.0.1', port: 0 });
      const a = app.server.address() as { port: number };
      url = `http://localhost:${a.port}`;
    });
    after(() => app.close());

    test('sem sessão: 401 {error: "Não autenticado"} nos dois', async () => {
      for (const caminho of ['/teste/administrador', '/teste/gestao']) {
        const r = await new Navegador().getJson(`${url}${caminho}`);
        assert.equal(r.status, 401);
        assert.equal(r.texto, '{"error":"Não autenticado"}');
      }
    });

    // Expected outcome per set of profiles: [hasProfile('Administrador'), hasAnyProfile([Administrador, AdminMercado])].
    const MATRIZ: ReadonlyArray<readonly [readonly NomePerfil[], boolean, boolean]> = [
      [['Administrador'], true, true],
      [['AdminMercado'], false, true],
      [['Fornecedor'], false, false],
      [['Consumidor'], false, false],
      [['Fornecedor', 'Consumidor'], false, false],
      [['AdminMercado', 'Consumidor'], false, true],
      [[], false, false],
    ];
    for (const [perfis, administrador, gestao] of MATRIZ) {
      test(`perfis [${perfis.join(', ')}]: administrador ${administrador ? 'passa' : '403'}, gestão ${gestao ? 'passa' : '403'}`, async () => {
        const nav = new Navegador();
        await contaComSessao(amb, nav, url, { perfis });
        const a = await nav.getJson(`${url}/teste/administrador`);
        if (administrador) assert.equal(a.status, 200);
        else {
          assert.equal(a.status, 403);
          assert.equal(a.texto, '{"error":"Acesso negado","required":"Administrador"}');
        }
        const g = await nav.getJson(`${url}/teste/gestao`);
        if (gestao) assert.equal(g.status, 200);
        else {
          assert.equal(g.status, 403);
          assert.equal(g.texto, '{"error":"Acesso negado","required":"Um dos perfis: Administrador, AdminMercado"}');
        }
        assert.equal((await nav.getJson(`${url}/teste/logado`)).status, 200);
        const acao = await nav.getJson(`${url}/teste/acao/gestao`);
        assert.deepEqual(
          [acao.status, acao.status === 403 ? acao.texto : ''],
          [g.status, g.status === 403 ? g.texto : ''],
        );
        const fornecedor = await nav.getJson(`${url}/teste/acao/fornecedor`);
        if (perfis.includes('Fornecedor')) assert.equal(fornecedor.status, 200);
        else {
          assert.equal(fornecedor.status, 403);
          assert.equal(fornecedor.texto, '{"error":"Acesso negado","required":"Fornecedor"}');
        }
      });
    }
  });

  test('guardaDaAcao não guarda uma ação de qualquer conta: essa rota usa isAuthenticated', () => {
    assert.throws(() => guardaDaAcao('verMercados'), /não pede perfil/);
  });

  test('toda rota declara quem pode acessá-la: sem guarda o app não sobe', async () => {
    const app = await criarAppMercados({
      config: amb.config,
      banco: amb.banco,
      relogio: amb.relogio,
      provedor: { issuer: amb.idp, clientId: 'x', clientSecret: 'y' },
    });
    try {
      assert.throws(() => app.get('/sem-regra', async () => 'x'), /sem regra de acesso/);
    } finally {
      await app.close();
    }
  });

  test('o contexto de cada requisição GraphQL: user, isAuthenticated, hasProfile, hasAnyProfile', () => {
    const anonimo = contextoGraphql(null);
    assert.equal(anonimo.user, null);
    assert.equal(anonimo.isAuthenticated, false);
    assert.equal(anonimo.hasProfile('Consumidor'), false);
    assert.equal(anonimo.hasAnyProfile([...PROFILES]), false);
    const conta: Conta = {
      id: 7,
      providerId: 's',
      email: 'a@b.org',
      name: 'A',
      emailVerificado: true,
      avatar: null,
      usuarioId: null,
      profiles: ['AdminMercado', 'Consumidor'],
    };
    const logado = contextoGraphql(conta);
    assert.equal(logado.user, conta);
    assert.equal(logado.isAuthenticated, true);
    assert.equal(logado.hasProfile('AdminMercado'), true);
    assert.equal(logado.hasProfile('Administrador'), false);
    assert.equal(logado.hasAnyProfile(['Administrador', 'AdminMercado']), true);
    assert.equal(logado.hasAnyProfile(['Administrador', 'Fornecedor']), false);
  });

  test('a 6ª tentativa em /auth/idp em 15 minutos → 429 com a mensagem; depois da janela, libera', async () => {
    await zerarLimiteDeLogin(amb.banco);
    const nav = new Navegador();
    for (let i = 1; i <= LIMITE_LOGIN.tentativas; i++) {
      const r = await nav.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
      assert.equal(r.status, 302, `tentativa ${i}`);
    }
    const sexta = await nav.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
    assert.equal(sexta.status, 429);
    assert.equal(sexta.texto, '{"error":"Muitas tentativas de login. Tente novamente em 15 minutos."}');
    assert.ok(Number(sexta.headers.get('retry-after')) > 0);
    // /login leads to the same limited route.
    const viaLogin = await nav.get(`${amb.urlMercados}/login`);
    assert.equal(viaLogin.status, 429);

    amb.relogio.avancar(LIMITE_LOGIN.janelaMs - 1000);
    try {
      assert.equal(
        (await nav.get(`${amb.urlMercados}/auth/idp`, { seguir: false })).status,
        429,
        'ainda dentro da janela',
      );
      amb.relogio.avancar(1000);
      const depois = await nav.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
      assert.equal(depois.status, 302);
      assert.ok((depois.headers.get('location') ?? '').startsWith(`${amb.idp}/auth?`));
    } finally {
      amb.relogio.avancar(-LIMITE_LOGIN.janelaMs);
      await zerarLimiteDeLogin(amb.banco);
    }
  });

  describe('CSRF', () => {
    test('o token da sessão vai para as páginas do servidor e para o cliente em GET /auth/csrf; sem sessão, 401', async () => {
      const anonimo = await new Navegador().getJson(`${amb.urlMercados}/auth/csrf`);
      assert.equal(anonimo.status, 401);
      assert.deepEqual(anonimo.json(), { error: 'Não autenticado' });
      const nav = new Navegador();
      await contaComSessao(amb, nav, amb.urlMercados);
      const { csrfToken } = (await nav.getJson(`${amb.urlMercados}/auth/csrf`)).json<{ csrfToken: string }>();
      assert.match(csrfToken, /^[\w-]{40,}$/);
      // The pages the server still renders (errors) carry it in their logout form.
      assert.equal(
        tokenCsrf((await nav.get(`${amb.urlMercados}/nada`, { headers: { accept: 'text/html' } })).texto),
        csrfToken,
      );
      const outra = new Navegador();
      await contaComSessao(amb, outra, amb.urlMercados);
      assert.notEqual(
        (await outra.getJson(`${amb.urlMercados}/auth/csrf`)).json<{ csrfToken: string }>().csrfToken,
        csrfToken,
        'um token por sessão',
      );
    });
  });
});
