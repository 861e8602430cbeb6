import { Type } from '@sinclair/typebox';
import * as client from 'openid-client';
import { Consulta } from './consultas.ts';

/**
 * The authorization-code flow both faces use (openid-client): lazy discovery retried after a
 * failure, the redirect with state, nonce and PKCE, and the code exchange that checks them.
 * Each face keeps its own errors and reads the identity its own way.
 */
export interface Provedor {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: () => string;
  /** A plain OAuth 2.0 provider's endpoints, given by hand; absent, they come from discovery. */
  readonly enderecos?: { readonly autorizacao: string; readonly token: string; readonly userinfo: string };
}

/** What must survive between the redirect to the provider and the callback. */
export interface Desafio {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
}

export type Tokens = Awaited<ReturnType<typeof client.authorizationCodeGrant>>;

/**
 * Discovery on first use, so a face starts even when the provider is briefly down; a failure is
 * forgotten, so the next login tries again. `falha` builds the face's own error.
 */
export function descobertaPreguicosa(
  p: Provedor,
  falha: (causa: unknown) => Error,
): () => Promise<client.Configuration> {
  let descoberta: Promise<client.Configuration> | null = null;
  const inseguro = new URL(p.issuer).protocol === 'http:';
  return () => {
    descoberta ??= client
      .discovery(new URL(p.issuer), p.clientId, p.clientSecret, undefined, {
        ...(inseguro ? { execute: [client.allowInsecureRequests] } : {}),
      })
      .catch((e: unknown) => {
        descoberta = null;
        throw falha(e);
      });
    return descoberta;
  };
}

/**
 * The configuration of a plain OAuth 2.0 provider, from its endpoints (no discovery, no ID token,
 * so no keys to fetch).
 */
export function configuracaoManual(
  p: Provedor & { readonly enderecos: NonNullable<Provedor['enderecos']> },
): client.Configuration {
  const { autorizacao, token, userinfo } = p.enderecos;
  const config = new client.Configuration(
    { issuer: p.issuer, authorization_endpoint: autorizacao, token_endpoint: token, userinfo_endpoint: userinfo },
    p.clientId,
    p.clientSecret,
  );
  if ([autorizacao, token, userinfo].some((u) => new URL(u).protocol === 'http:')) client.allowInsecureRequests(config);
  return config;
}

export interface OpcoesDeAutorizacao {
  /** `nonce` goes along only to OpenID providers (it binds the ID token); on by default. */
  readonly comNonce?: boolean;
  /**
   * Asks the provider to authenticate the person again (`prompt=login`) even when it holds a
   * session for this browser: the first login after a logout (`src/http/saida.ts`).
   */
  readonly reautenticar?: boolean;
}

/** The redirect to the provider. */
export async function iniciarAutorizacao(
  config: client.Configuration,
  p: Provedor,
  escopo: string,
  { comNonce = true, reautenticar = false }: OpcoesDeAutorizacao = {},
): Promise<{ url: URL; desafio: Desafio }> {
  const desafio: Desafio = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: p.redirectUri(),
    scope: escopo,
    response_type: 'code',
    state: desafio.state,
    ...(comNonce ? { nonce: desafio.nonce } : {}),
    ...(reautenticar ? { prompt: 'login' } : {}),
    code_challenge: await client.calculatePKCECodeChallenge(desafio.verifier),
    code_challenge_method: 'S256',
  });
  return { url, desafio };
}

/** Exchanges the code of the callback's query; throws openid-client's error on any mismatch. */
export function trocarCodigo(
  config: client.Configuration,
  p: Provedor,
  query: string,
  desafio: Desafio,
  idTokenExpected: boolean,
): Promise<Tokens> {
  const atual = new URL(p.redirectUri());
  atual.search = query;
  return client.authorizationCodeGrant(config, atual, {
    pkceCodeVerifier: desafio.verifier,
    expectedState: desafio.state,
    ...(idTokenExpected || p.enderecos === undefined ? { expectedNonce: desafio.nonce } : {}),
    ...(idTokenExpected ? { idTokenExpected: true } : {}),
  });
}

/**
 * The provider's answer on the callback (RFC 6749 §4.1.2, RFC 9207): declared for the documents and
 * for the route's own checks. Other parameters a provider adds are allowed.
 */
export const ConsultaDoRetorno = Consulta({
  code: Type.Optional(Type.String({ maxLength: 4096, description: 'O código de autorização' })),
  state: Type.Optional(Type.String({ maxLength: 4096, description: 'O estado enviado ao provedor' })),
  iss: Type.Optional(Type.String({ maxLength: 4096, description: 'Quem emitiu a resposta (RFC 9207)' })),
  error: Type.Optional(Type.String({ maxLength: 4096, description: 'O erro, quando o provedor recusou' })),
  error_description: Type.Optional(Type.String({ maxLength: 4096, description: 'O erro, por extenso' })),
});

/**
 * The callback's query string exactly as it came.
 * NOTE: openid-client checks the authorization response (state, iss, code and any parameter the
 * provider signs or adds) on the URL itself, so the callback forwards it verbatim instead of
 * rebuilding it from the parsed (and filtered) `req.query`. The only route that reads `req.url`.
 */
export function consultaCrua(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}
