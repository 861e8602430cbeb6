import * as client from 'openid-client';
import {
  configuracaoManual,
  descobertaPreguicosa,
  iniciarAutorizacao,
  trocarCodigo,
  type Desafio,
  type Provedor,
  type Tokens,
} from '../http/codigo-de-autorizacao.ts';
import type { PerfilDoProvedor } from '../domain/contas.ts';

export type ConfigOauth = Provedor;

/** What must survive between the redirect to the provider and the callback. */
export type Verificacao = Desafio;

/** A login that could not be completed: denied, forged, replayed, or the provider is down. */
export class ErroLogin extends Error {
  override name = 'ErroLogin';
}

/**
 * The scopes asked for. The spec names profile and email; with an OpenID provider (the default,
 * and the development one) openid is added, because such providers answer the userinfo endpoint
 * only for tokens that carry it, and it brings a signed ID token whose nonce is checked. A plain
 * OAuth 2.0 provider gets the spec's two.
 */
const ESCOPOS_OPENID = 'openid profile email';
const ESCOPOS_OAUTH = 'profile email';

export interface ClienteOauth {
  /** `reautenticar`: the provider must ask the person again, even with a session of its own. */
  iniciar(reautenticar: boolean): Promise<{ url: URL; verificacao: Verificacao }>;
  /** Exchanges the code and reads the user info; throws ErroLogin on any failure. */
  concluir(query: string, verificacao: Verificacao): Promise<PerfilDoProvedor>;
}

function texto(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** An identifier: OpenID's `sub`, or the `id` (text or number) plain OAuth profiles send. */
function identificador(dados: Readonly<Record<string, unknown>>): string | undefined {
  const sub = texto(dados.sub);
  if (sub !== undefined) return sub;
  if (typeof dados.id === 'number' && Number.isSafeInteger(dados.id)) return String(dados.id);
  return texto(dados.id);
}

/** The picture: OpenID's `picture`, `avatar_url`, or the first of `photos` as some OAuth profiles send it. */
function primeiraFoto(dados: Readonly<Record<string, unknown>>): string | undefined {
  const foto = texto(dados.picture) ?? texto(dados.avatar_url);
  if (foto !== undefined) return foto;
  const fotos = dados.photos;
  if (!Array.isArray(fotos)) return undefined;
  const primeira: unknown = fotos[0];
  if (typeof primeira === 'string') return texto(primeira);
  return primeira !== null && typeof primeira === 'object'
    ? texto((primeira as Record<string, unknown>).value)
    : undefined;
}

/**
 * OAuth 2.0 authorization code flow with PKCE and state (plus nonce, since openid is asked),
 * through openid-client. Discovery is lazy and retried after a failure, so the face starts even
 * when the provider is briefly down. A plain OAuth 2.0 provider (`enderecos`) needs no discovery:
 * no nonce, no ID token, and its userinfo answer is read as the profile.
 */
export function criarClienteOauth(cfg: ConfigOauth): ClienteOauth {
  const enderecos = cfg.enderecos;
  const manual = enderecos === undefined ? null : configuracaoManual({ ...cfg, enderecos });
  const configuracao =
    manual === null
      ? descobertaPreguicosa(cfg, (e) => new ErroLogin('o provedor de login não respondeu', { cause: e }))
      : async () => manual;

  /** A plain OAuth 2.0 provider's userinfo: any JSON object, `sub` or not (checked below). */
  async function perfilOauth(
    config: client.Configuration,
    token: string,
    endereco: string,
  ): Promise<Readonly<Record<string, unknown>>> {
    const resposta = await client.fetchProtectedResource(
      config,
      token,
      new URL(endereco),
      'GET',
      undefined,
      new Headers({ accept: 'application/json' }),
    );
    if (!resposta.ok) throw new ErroLogin(`o provedor recusou o perfil (HTTP ${resposta.status})`);
    const corpo: unknown = await resposta.json();
    if (corpo === null || typeof corpo !== 'object' || Array.isArray(corpo))
      throw new ErroLogin('o provedor não entregou o perfil');
    return corpo as Readonly<Record<string, unknown>>;
  }

  return {
    async iniciar(reautenticar) {
      const { url, desafio } = await iniciarAutorizacao(
        await configuracao(),
        cfg,
        manual === null ? ESCOPOS_OPENID : ESCOPOS_OAUTH,
        { comNonce: manual === null, reautenticar },
      );
      return { url, verificacao: desafio };
    },

    async concluir(query, verificacao) {
      const config = await configuracao();
      let tokens: Tokens;
      try {
        tokens = await trocarCodigo(config, cfg, query, verificacao, false);
      } catch (e) {
        throw new ErroLogin('o provedor recusou a troca do código', { cause: e });
      }
      let dados: Readonly<Record<string, unknown>>;
      if (enderecos !== undefined) {
        try {
          dados = await perfilOauth(config, tokens.access_token, enderecos.userinfo);
        } catch (e) {
          throw e instanceof ErroLogin ? e : new ErroLogin('o provedor não entregou o perfil', { cause: e });
        }
      } else {
        const claims = tokens.claims();
        let info: client.UserInfoResponse | undefined;
        try {
          info = await client.fetchUserInfo(config, tokens.access_token, claims?.sub ?? client.skipSubjectCheck);
        } catch (e) {
          // Without userinfo the ID token may still carry the profile; without either, no login.
          if (claims === undefined) throw new ErroLogin('o provedor não entregou o perfil', { cause: e });
        }
        dados = { ...claims, ...info };
      }
      const providerId = identificador(dados);
      if (providerId === undefined) throw new ErroLogin('o provedor não informou o identificador da pessoa');
      const email = texto(dados.email);
      return {
        // The ID token's issuer when there is one (the same text the Cestas face binds), else the configured one.
        emissor: texto(dados.iss) ?? cfg.issuer,
        providerId,
        email,
        name: texto(dados.name) ?? texto(dados.preferred_username) ?? texto(dados.login) ?? email,
        avatar: primeiraFoto(dados),
        emailVerificado: dados.email_verified === true,
      };
    },
  };
}
