import type { Config } from '../config.ts';
import type { Banco } from '../db/banco.ts';
import type { Limitador } from '../db/limites.ts';
import type { Avisos } from '../domain/avisos.ts';
import type { Relogio } from '../domain/tempo.ts';
import type { Cofre } from '../http/cofre.ts';
import type { ClienteWeb } from './cliente.ts';
import type { ClienteOauth } from './oauth.ts';

/** Everything the Mercados routes and hooks need, built once in app.ts. */
export interface ContextoMercados {
  readonly config: Config;
  readonly banco: Banco;
  readonly relogio: Relogio;
  readonly oauth: ClienteOauth;
  /** Seals state, nonce and PKCE verifier between /auth/<name> and its callback. */
  readonly cofreVerificacao: Cofre;
  /** The public address, known once the server listens. */
  readonly baseUrl: () => string;
  readonly cookiesSeguros: boolean;
  /** `/auth/<OAUTH_PROVIDER_NAME>`. */
  readonly caminhoAuth: string;
  /** Counts login attempts across processes (the database, or Redis). */
  readonly limitador: Limitador;
  /** The built browser client (its HTML shell and assets). */
  readonly cliente: ClienteWeb;
  /** Where order receipts and notices go (the outbox src/servicos.ts builds once); null for a face built without it. */
  readonly avisos: Avisos | null;
  /** The Cestas face's public address, when it runs beside this one. */
  readonly enderecoCestas: () => string | null;
}
