import * as client from 'openid-client';
import {
  descobertaPreguicosa,
  iniciarAutorizacao,
  trocarCodigo,
  type Desafio,
  type Provedor,
  type Tokens,
} from '../http/codigo-de-autorizacao.ts';
import type { Identidade } from '../domain/usuarios.ts';

export type ConfigOidc = Provedor;

/** What must survive between the redirect to the provider and the callback, and where to go back. */
export interface Verificacao extends Desafio {
  readonly volta: string;
}

/** A login that could not be completed; the message is safe to show. */
export class ErroLogin extends Error {
  override name = 'ErroLogin';
}

export interface ClienteOidc {
  /** `reautenticar`: the provider must ask the person again, even with a session of its own. */
  iniciar(volta: string, reautenticar: boolean): Promise<{ url: URL; verificacao: Verificacao }>;
  concluir(query: string, verificacao: Verificacao): Promise<{ identidade: Identidade; idToken: string | undefined }>;
  urlDeSaida(idToken: string, depois: string): Promise<URL | null>;
}

function texto(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * OpenID Connect relying party (authorization code + PKCE, state and nonce checked, ID token
 * signature validated by openid-client). Discovery is lazy and retried after a failure, so the
 * service starts even when the provider is briefly down.
 */
export function criarClienteOidc(cfg: ConfigOidc): ClienteOidc {
  const configuracao = descobertaPreguicosa(
    cfg,
    (e) => new ErroLogin('O provedor de login não respondeu. Tente novamente em instantes.', { cause: e }),
  );

  return {
    async iniciar(volta, reautenticar) {
      const { url, desafio } = await iniciarAutorizacao(await configuracao(), cfg, 'openid email profile', {
        reautenticar,
      });
      return { url, verificacao: { ...desafio, volta } };
    },

    async concluir(query, verificacao) {
      const config = await configuracao();
      let tokens: Tokens;
      try {
        tokens = await trocarCodigo(config, cfg, query, verificacao, true);
      } catch (e) {
        throw new ErroLogin('Não foi possível confirmar o login com o provedor. Tente entrar novamente.', { cause: e });
      }
      const claims = tokens.claims();
      if (claims === undefined) throw new ErroLogin('O provedor não enviou a identidade.');
      let email = texto(claims.email);
      let name = texto(claims.name);
      let picture = texto(claims.picture);
      let verificado = typeof claims.email_verified === 'boolean' ? claims.email_verified : undefined;
      if (email === undefined || name === undefined || verificado === undefined) {
        // Some providers keep profile claims out of the ID token; the userinfo endpoint has them.
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => undefined);
        email ??= texto(info?.email);
        name ??= texto(info?.name);
        picture ??= texto(info?.picture);
        verificado ??= typeof info?.email_verified === 'boolean' ? info.email_verified : undefined;
      }
      if (email === undefined) throw new ErroLogin('O provedor de login não informou o seu e-mail.');
      return {
        identidade: {
          sub: claims.sub,
          iss: claims.iss,
          email,
          name: name ?? email,
          picture,
          email_verified: verificado,
        },
        idToken: tokens.id_token,
      };
    },

    async urlDeSaida(idToken, depois) {
      const config = await configuracao().catch(() => null);
      if (config === null || config.serverMetadata().end_session_endpoint === undefined) return null;
      return client.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: depois });
    },
  };
}
