/**
 * Mercados against a plain OAuth 2.0 provider, configured by its three endpoints: no discovery
 * document, no OpenID scope, no ID token. The provider is a small real authorization server that
 * checks the client, the redirect and the PKCE verifier, as a real one would.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaPorEmail, sessoesDe } from './apoio.ts';

const CLIENTE = { id: 'mercados-teste', segredo: randomBytes(16).toString('hex') };
const PESSOA = {
  id: 4242,
  login: 'maria.simples',
  name: 'Maria Simples',
  email: 'maria.simples@oauth.example',
  avatar_url: 'https://avatars.example/4242.png',
};

interface Pedido {
  readonly metodo: string;
  readonly caminho: string;
}

/** A plain OAuth 2.0 authorization server: authorize, token and userinfo, nothing else. */
class ProvedorOauth2 {
  readonly pedidos: Pedido[] = [];
  readonly trocas: Array<{ pkceConfere: boolean; escopo: string | null }> = [];
  recusarToken = false;
  #codigos = new Map<string, { desafio: string; redirect: string; escopo: string | null }>();
  #tokens = new Set<string>();
  #servidor: Server = createServer((req, res) => void this.#responder(req.method ?? 'GET', req.url ?? '/', req, res));

  async iniciar(): Promise<string> {
    await new Promise<void>((r) => this.#servidor.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.#servidor.address() as AddressInfo).port}`;
  }

  fechar(): Promise<void> {
    return new Promise((r) => this.#servidor.close(() => r()));
  }

  async #responder(metodo: string, bruto: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(bruto, 'http://provedor');
    this.pedidos.push({ metodo, caminho: url.pathname });
    const json = (status: number, corpo: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(corpo));
    if (metodo === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      if (
        q.get('client_id') !== CLIENTE.id ||
        q.get('response_type') !== 'code' ||
        q.get('code_challenge_method') !== 'S256'
      )
        return void json(400, { error: 'invalid_request' });
      const codigo = randomBytes(12).toString('hex');
      this.#codigos.set(codigo, {
        desafio: q.get('code_challenge') ?? '',
        redirect: q.get('redirect_uri') ?? '',
        escopo: q.get('scope'),
      });
      const volta = new URL(q.get('redirect_uri') ?? '');
      volta.searchParams.set('code', codigo);
      volta.searchParams.set('state', q.get('state') ?? '');
      return void res.writeHead(302, { location: volta.href }).end();
    }
    if (metodo === 'POST' && url.pathname === '/token') {
      let texto = '';
      for await (const parte of req) texto += String(parte);
      const f = new URLSearchParams(texto);
      const codigo = this.#codigos.get(f.get('code') ?? '');
      this.#codigos.delete(f.get('code') ?? '');
      if (
        this.recusarToken ||
        codigo === undefined ||
        f.get('client_id') !== CLIENTE.id ||
        f.get('client_secret') !== CLIENTE.segredo ||
        f.get('redirect_uri') !== codigo.redirect
      ) {
        return void json(400, { error: 'invalid_grant' });
      }
      const pkceConfere =
        createHash('sha256')
          .update(f.get('code_verifier') ?? '')
          .digest('base64url') === codigo.desafio;
      this.trocas.push({ pkceConfere, escopo: codigo.escopo });
      if (!pkceConfere) return void json(400, { error: 'invalid_grant' });
      const token = randomBytes(16).toString('hex');
      this.#tokens.add(token);
      return void json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (metodo === 'GET' && url.pathname === '/user') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      if (!this.#tokens.has(token)) return void json(401, { error: 'invalid_token' });
      return void json(200, PESSOA);
    }
    // No discovery document, no JWKS: this provider is not OpenID Connect.
    return void json(404, { error: 'not_found' });
  }
}

describe('face Mercados com um provedor OAuth 2.0 sem OpenID Connect', () => {
  const provedor = new ProvedorOauth2();
  let amb: AmbienteDeTeste;
  before(async () => {
    const base = await provedor.iniciar();
    amb = await iniciarAmbiente({
      mercados: true,
      env: {
        OAUTH_AUTHORIZATION_URL: `${base}/authorize`,
        OAUTH_TOKEN_URL: `${base}/token`,
        OAUTH_USERINFO_URL: `${base}/user`,
        OAUTH_CLIENT_ID: CLIENTE.id,
        OAUTH_CLIENT_SECRET: CLIENTE.segredo,
      },
    });
  });
  after(async () => {
    await amb.fechar();
    await provedor.fechar();
  });

  test('o login vai ao provedor sem openid nem nonce, troca o código com PKCE, lê o perfil e abre a sessão', async () => {
    const nav = new Navegador();
    const ida = await nav.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
    assert.equal(ida.status, 302);
    const destino = new URL(ida.headers.get('location') ?? '');
    assert.equal(destino.pathname, '/authorize');
    assert.equal(destino.searchParams.get('scope'), 'profile email', 'os escopos do contrato, sem openid');
    assert.equal(destino.searchParams.get('nonce'), null, 'sem ID token, sem nonce');
    const fim = await nav.get(destino.href);
    assert.equal(new URL(fim.url).pathname, '/dashboard', fim.texto.slice(0, 300));
    assert.deepEqual(provedor.trocas.at(-1), { pkceConfere: true, escopo: 'profile email' });

    const estado = (await nav.getJson(`${amb.urlMercados}/auth/status`)).json<{
      authenticated: boolean;
      user: { name: string; email: string; profiles: string[] };
    }>();
    assert.equal(estado.authenticated, true);
    assert.deepEqual(estado.user, {
      ...estado.user,
      name: 'Maria Simples',
      email: PESSOA.email,
      profiles: ['Consumidor'],
    });
    const conta = await contaPorEmail(amb.banco, PESSOA.email);
    assert.equal(conta?.providerId, '4242', 'o id numérico do perfil identifica a pessoa');
    assert.equal(conta?.avatar, PESSOA.avatar_url);
    assert.deepEqual(
      provedor.pedidos.filter((p) => p.caminho.startsWith('/.well-known')),
      [],
      'nenhuma descoberta foi pedida',
    );
  });

  test('um state trocado ou um provedor que recusa o código terminam em /login?error=auth_failed, sem sessão', async () => {
    const conta = await contaPorEmail(amb.banco, PESSOA.email);
    const antes = await sessoesDe(amb.banco, conta?.id ?? 0);
    const forjado = new Navegador();
    const ida = await forjado.get(`${amb.urlMercados}/auth/idp`, { seguir: false });
    const noProvedor = await forjado.get(ida.headers.get('location') ?? '', { seguir: false });
    const volta = new URL(noProvedor.headers.get('location') ?? '');
    volta.searchParams.set('state', 'outro-state');
    const recusa = await forjado.get(volta.href, { seguir: false });
    assert.equal(recusa.status, 302);
    assert.equal(recusa.headers.get('location'), '/login?error=auth_failed');

    provedor.recusarToken = true;
    try {
      const outro = new Navegador();
      const fim = await outro.get(`${amb.urlMercados}/auth/idp`);
      assert.equal(`${new URL(fim.url).pathname}${new URL(fim.url).search}`, '/login?error=auth_failed');
      assert.equal(
        (await outro.getJson(`${amb.urlMercados}/auth/status`)).json<{ authenticated: boolean }>().authenticated,
        false,
      );
    } finally {
      provedor.recusarToken = false;
    }
    assert.equal(await sessoesDe(amb.banco, conta?.id ?? 0), antes, 'nenhuma sessão nova');
  });
});
