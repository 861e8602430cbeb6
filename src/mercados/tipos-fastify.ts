import type {} from '@fastify/cookie';
import type { Conta } from '../domain/contas.ts';
import type { Guarda } from './acesso.ts';
import type { LimpezaDeSessoes } from './limpeza.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may reach a Mercados route: 'publico', or a middleware such as isAuthenticated or
     * hasProfile(name). Every Mercados route must declare one; app.ts refuses to start otherwise.
     */
    guarda?: Guarda;
  }
  interface FastifyRequest {
    /** The logged-in Mercados account, reloaded with its profiles on every request. */
    conta: Conta | null;
    /** The token of the current Mercados session, when there is one. */
    tokenSessao: string | null;
  }
  interface FastifyInstance {
    /** The Mercados face's purge of expired sessions (absent on other faces). */
    limpezaDeSessoes?: LimpezaDeSessoes;
  }
}
