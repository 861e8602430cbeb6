import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Html, Interpolavel } from '../http/html.ts';
import { layout } from './views/layout.ts';

/**
 * Content negotiation: JSON when the client sent a JSON body, or asks for JSON (Accept:
 * application/json without text/html). Browsers, which send forms and accept HTML, get HTML.
 */
export function querJson(req: FastifyRequest): boolean {
  // A JSON body comes from a program, never from a page's form: it gets JSON, whatever Accept says.
  if ((req.headers['content-type'] ?? '').startsWith('application/json')) return true;
  const aceita = req.headers.accept ?? '';
  return aceita.includes('application/json') && !aceita.includes('text/html');
}

export function paginaHtml(req: FastifyRequest, titulo: string, conteudo: Interpolavel): Html {
  return layout(
    {
      titulo,
      ator: req.ator,
      csrf: req.sessao?.csrf ?? null,
      flash: req.flash,
      mercados: req.server.enderecoMercados(),
    },
    conteudo,
  );
}

/**
 * What an envelope's `data` may hold: an object, or null (the contract's §4). A list never goes
 * there bare: it goes inside the object, as `itens`, so the type refuses arrays.
 */
export type Dados<T> = T extends readonly unknown[] ? never : T;

/**
 * `data` already written as JSON text, by a presenter that writes it in one pass the bytes the
 * route's response schema would (a report of megabytes: relatorioEmJson). It goes out as it is.
 */
export class JsonPronto {
  readonly texto: string;
  constructor(texto: string) {
    this.texto = texto;
  }
}

/** Answers a JSON client with the envelope `{success: true, data, message}`. */
export function enviarJson<T extends object | null>(
  reply: FastifyReply,
  dados: Dados<T> | JsonPronto,
  mensagem: string,
  status = 200,
): FastifyReply {
  if (dados instanceof JsonPronto)
    return reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send(`{"success":true,"data":${dados.texto},"message":${JSON.stringify(mensagem)}}`);
  return reply.code(status).send({ success: true, data: dados, message: mensagem });
}

export interface Resposta<T extends object | null> {
  readonly titulo: string;
  /** What the page shows, as JSON `data`. */
  readonly dados: Dados<T> | JsonPronto;
  readonly corpo: () => Interpolavel;
  readonly status?: number;
  readonly mensagem?: string;
}

/** Answers a page: the envelope for JSON clients, the rendered page for browsers. */
export function responder<T extends object | null>(
  req: FastifyRequest,
  reply: FastifyReply,
  r: Resposta<T>,
): FastifyReply {
  if (querJson(req)) return enviarJson(reply, r.dados, r.mensagem ?? r.titulo, r.status);
  reply.code(r.status ?? 200);
  return reply.type('text/html; charset=utf-8').send(paginaHtml(req, r.titulo, r.corpo()).texto);
}

export const COOKIE_FLASH = 'flash';

/** After a browser form post: 303 to the next page with a one-time message. */
export function redirecionarComAviso(reply: FastifyReply, destino: string, aviso: string): FastifyReply {
  reply.setCookie(COOKIE_FLASH, aviso, { path: '/', httpOnly: true, sameSite: 'lax', signed: true, maxAge: 60 });
  return reply.redirect(destino, 303);
}

/** Reads and clears the one-time message. */
export function lerAviso(req: FastifyRequest, reply: FastifyReply): string | null {
  const bruto = req.cookies[COOKIE_FLASH];
  if (bruto === undefined) return null;
  reply.clearCookie(COOKIE_FLASH, { path: '/' });
  const r = req.unsignCookie(bruto);
  return r.valid && r.value !== null ? r.value : null;
}

/** A local path to go back to after login; anything else becomes "/". */
export function caminhoLocal(v: string | undefined): string {
  if (v === undefined || !v.startsWith('/') || v.startsWith('//') || v.startsWith('/\\')) return '/';
  return v.length > 2000 ? '/' : v;
}
