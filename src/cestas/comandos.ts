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

const ehRegistro = (v: unknown): v is Readonly<Record<string, unknown>> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value a field holds by itself (text, number, yes/no, null, a list of such): not a list of rows. */
const valorSimples = (v: unknown): boolean =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every(valorSimples));

/**
 * A JSON save of a record that exists keeps what it does not send: before the command reads the
 * body, each of the command's fields the body leaves out gets the record's value as the record's
 * JSON says it (what a program reads is what it may send back). `null` is sent, so it clears a
 * field that may be empty. A form sends every field, and is read as it came; lists of rows (a
 * cycle's tables) already keep what is not sent, by their own rule.
 */
export function mantendoOQueNaoVeio(req: FastifyRequest, comando: Comando<unknown>, registro: object): void {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json') || !ehRegistro(req.body)) return;
  const atual: Readonly<Record<string, unknown>> = { ...registro };
  const corpo: Record<string, unknown> = { ...req.body };
  for (const campo of comando.raizes)
    if (!Object.hasOwn(corpo, campo) && Object.hasOwn(atual, campo) && valorSimples(atual[campo]))
      corpo[campo] = atual[campo];
  req.body = corpo;
}
