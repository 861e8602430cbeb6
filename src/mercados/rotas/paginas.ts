import { readFileSync } from 'node:fs';
import type { AppTipada } from '../../http/app-tipada.ts';
import { enviarEstatico, prepararEstatico } from '../../http/estaticos.ts';
import { carregarRetirada, rotasCliente, rotasRetirada } from '../cliente.ts';
import type { ContextoMercados } from '../contexto-mercados.ts';
import { arquivo } from '../esquemas.ts';

const CSS = prepararEstatico('text/css; charset=utf-8', readFileSync(new URL('../static/estilo.css', import.meta.url)));

/**
 * The pages people see: the browser client (its shell at each of its addresses, and its
 * assets), the pickup app (/retirada, installable, offline), and the stylesheet of the few pages
 * the server still renders itself (errors and 404).
 */
export function rotasPaginas(app: AppTipada, ctx: ContextoMercados): void {
  app.get(
    '/static/estilo.css',
    { config: { guarda: 'publico' }, schema: { hide: true, response: arquivo('text/css') } },
    (req, reply) => enviarEstatico(req, reply, CSS, 'public, max-age=3600'),
  );
  rotasCliente(app, ctx.cliente, { producao: ctx.config.producao, log: app.log });
  rotasRetirada(app, carregarRetirada(), { producao: ctx.config.producao, log: app.log });
}
