import type { Banco } from '../db/banco.ts';
import type { Config } from '../config.ts';
import type { Limitador } from '../db/limites.ts';
import type { Relogio } from '../domain/tempo.ts';
import type { VitrineDosCiclos } from './vitrine.ts';
import type { Cofre } from '../http/cofre.ts';
import type { ClienteOidc } from './oidc.ts';
import type { ServicoDeAvisos } from '../mensagens/servico.ts';

/** Everything the Cestas routes need, built once in app.ts. */
export interface ContextoCestas {
  readonly config: Config;
  readonly banco: Banco;
  readonly relogio: Relogio;
  readonly oidc: ClienteOidc;
  readonly cofreSessao: Cofre;
  readonly cofreVerificacao: Cofre;
  /** The public address, known once the server listens. */
  readonly baseUrl: () => string;
  readonly cookiesSeguros: boolean;
  /** Counts login attempts across processes (the database, or Redis). */
  readonly limitador: Limitador;
  /** What the order page shows of each cycle, kept per version of the cycle data. */
  readonly vitrine: VitrineDosCiclos;
  /** The e-mail service (src/servicos.ts builds it once): receipts, unsubscribe links, the coordination's messages. */
  readonly correio: ServicoDeAvisos;
}
