import type {} from '@fastify/cookie';
import type { Acao, Ator } from '../domain/acesso.ts';
import type { Sessao } from './sessao.ts';

/**
 * Who may reach a route: anyone, any logged-in identity (even before registration), or an action
 * of the access table. Every Cestas route must declare one; app.ts refuses to start otherwise.
 */
export type Acesso = 'publico' | 'identidade' | Acao;

declare module 'fastify' {
  interface FastifyContextConfig {
    acesso?: Acesso;
  }
  interface FastifyInstance {
    /** "METHOD /path" of every route, for the access matrix test. */
    rotasRegistradas?: readonly string[];
  }
  interface FastifyRequest {
    sessao: Sessao | null;
    ator: Ator | null;
    flash: string | null;
  }
}
