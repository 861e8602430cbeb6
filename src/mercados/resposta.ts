import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Interpolavel } from '../http/html.ts';
import { csrfDaRequisicao } from './acesso.ts';
import type { ContextoMercados } from './contexto-mercados.ts';
import { layout } from './views/paginas.ts';

/** Browsers (Accept: text/html) get pages; every other client gets JSON. */
export function querHtml(req: FastifyRequest): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

/** Answers a server-rendered page. Pages show who is logged in, so no cache may keep them. */
export function responderPagina(
  ctx: ContextoMercados,
  req: FastifyRequest,
  reply: FastifyReply,
  pagina: { readonly titulo: string; readonly conteudo: Interpolavel; readonly status?: number },
): FastifyReply {
  const corpo = layout(pagina.titulo, { conta: req.conta, csrf: csrfDaRequisicao(ctx, req) }, pagina.conteudo);
  return reply
    .code(pagina.status ?? 200)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(corpo.texto);
}
