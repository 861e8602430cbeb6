import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Acao, Ator } from '../domain/acesso.ts';
import type { Sessao } from './sessao.ts';
import type { ServicoDeAvisos } from '../mensagens/servico.ts';

/**
 * Who may reach a route: anyone, any logged-in identity (even before registration), or an action
 * of the access table. Every Cestas route must declare one; app.ts refuses to start otherwise.
 */
export type Acesso = 'publico' | 'identidade' | Acao;

/** A refusal of a form post (400 or 409 from the domain), as the error handler mapped it. */
export interface Recusa {
  readonly status: number;
  readonly mensagem: string;
  readonly detalhes: Readonly<Record<string, unknown>>;
}

/**
 * How a route draws its form page again after a refusal: the message, each field's error and what
 * was typed (read from the request's body). Null when there is no page to draw it on (no valid
 * cycle named, say); the error page is shown then. The error handler alone decides the status and
 * when to call it: a browser request, a 400 or 409 from the domain. A 403 or 404 never redraws a
 * form, so a refusal never shows what the page would deny.
 */
export type Redesenho = (req: FastifyRequest, reply: FastifyReply, recusa: Recusa) => Promise<FastifyReply | null>;

declare module 'fastify' {
  interface FastifyContextConfig {
    acesso?: Acesso;
    redesenhar?: Redesenho;
  }
  interface FastifyInstance {
    /** "METHOD /path" of every route, for the access matrix test. */
    rotasRegistradas?: readonly string[];
    /** The e-mail service this face was given (src/servicos.ts builds it once for both faces). */
    correio?: ServicoDeAvisos;
    /** The Mercados face's public address, when it runs beside this one (the navigation links to it). */
    enderecoMercados: () => string | null;
  }
  interface FastifyRequest {
    sessao: Sessao | null;
    ator: Ator | null;
    flash: string | null;
  }
}
