/**
 * How a Cestas route reads a command (src/comandos): the command is the route's body schema, so
 * `req.body` is the command once validated; before that, `donosPrimeiro` checks, first of all, that
 * the actor may act for every person the body names. The body as sent is kept for drawing a refused
 * form again with what was typed.
 */
import type { FastifyRequest } from 'fastify';
import type { Comando } from '../comandos/comando.ts';
import { exigirAgirPor, type Posse } from '../domain/acesso.ts';
import { atorDe } from './autenticacao.ts';

const recebidos = new WeakMap<FastifyRequest, unknown>();

/** A command route's preValidation where nobody is named: the body as sent is kept. */
export async function guardarRecebido(req: FastifyRequest): Promise<void> {
  recebidos.set(req, req.body);
}

/** The route's preValidation: the body as sent is kept, and ownership is checked before any validation. */
export function donosPrimeiro(comando: Comando<unknown>, posse: Posse) {
  return async (req: FastifyRequest): Promise<void> => {
    await guardarRecebido(req);
    const ator = atorDe(req);
    for (const u of comando.donos(req.body)) exigirAgirPor(ator, u, posse);
  };
}

/** The body as the browser sent it (before the command replaced it), to draw its form again. */
export function corpoRecebido(req: FastifyRequest): unknown {
  return recebidos.has(req) ? recebidos.get(req) : req.body;
}
