import * as client from 'openid-client';
import { descobertaPreguicosa, iniciarAutorizacao, trocarCodigo, type Desafio, type Provedor, type Tokens } from '../http/autorizacao.ts';
import type { PerfilDoProvedor } from '../domain/contas.ts';

export type ConfigOauth = Provedor;

/** What must survive between the redirect to the provider and the callback. */
export type Verificacao = Desafio;

/** A login that could not be completed: denied, forged, replayed, or the provider is down. */
export class ErroLogin extends Error {
  override name = 'ErroLogin';
}

/**
 * The scopes asked for. The spec names profile and email; openid is added because OpenID
 * providers (the development one included) answer the userinfo endpoint only for tokens that
 * carry it, and it brings a signed ID token whose nonce is checked.
 */
const ESCOPOS = 'openid profile email';

export interface ClienteOauth {
  iniciar(): Promise<{ url: URL; verificacao: Verificacao }>;
  /** Exchanges the code and reads the user info; throws ErroLogin on any failure. */
  concluir(query: string, verificacao: Verificacao): Promise<PerfilDoProvedor>;
}

function texto(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The picture: OpenID's `picture`, or the first of `photos` as some OAuth profiles send it. */
function primeiraFoto(dados: Readonly<Record<string, unknown>>): string | undefined {
  const foto = texto(dados.picture);
  if (foto !== undefined) return foto;
  const fotos = dados.photos;
  if (!Array.isArray(fotos)) return undefined;
  const primeira: unknown = fotos[0];
  if (typeof primeira === 'string') return texto(primeira);
  return primeira !== null && typeof primeira === 'object' ? texto((primeira as Record<string, unknown>).value) : undefined;
}

/**
 * OAuth 2.0 authorization code flow with PKCE and state (plus nonce, since openid is asked),
 * through openid-client. Discovery is lazy and retried after a failure, so the face starts even
 * when the provider is briefly down.
 */
export function criarClienteOauth(cfg: ConfigOauth): ClienteOauth {
  const configuracao = descobertaPreguicosa(cfg, (e) => new ErroLogin('o provedor de login não respondeu', { cause: e }));

  return {
    async iniciar() {
      const { url, desafio } = await iniciarAutorizacao(await configuracao(), cfg, ESCOPOS);
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
      const claims = tokens.claims();
      let info: client.UserInfoResponse | undefined;
      try {
        info = await client.fetchUserInfo(config, tokens.access_token, claims?.sub ?? client.skipSubjectCheck);
      } catch (e) {
        // Without userinfo the ID token may still carry the profile; without either, no login.
        if (claims === undefined) throw new ErroLogin('o provedor não entregou o perfil', { cause: e });
      }
      const dados: Readonly<Record<string, unknown>> = { ...claims, ...info };
      const providerId = texto(dados.sub);
      if (providerId === undefined) throw new ErroLogin('o provedor não informou o identificador da pessoa');
      const email = texto(dados.email);
      return {
        providerId,
        email,
        name: texto(dados.name) ?? texto(dados.preferred_username) ?? email,
        avatar: primeiraFoto(dados),
        emailVerificado: dados.email_verified === true,
      };
    },
  };
}
