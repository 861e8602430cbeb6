import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/**
 * The Fastify instance both faces build (`withTypeProvider<TypeBoxTypeProvider>()`): a route's
 * TypeBox schemas type its `req.params`, `req.query` and `req.body`, so no route casts them.
 */
export type AppTipada = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * The params a route's schema already validated, for code the error handler calls with the bare
 * request (a refused form's redraw, `Redesenho`): checked against the same schema, never cast.
 */
export function parametrosDa<T extends TSchema>(req: FastifyRequest, esquema: T): Static<T> {
  const params: unknown = req.params;
  if (!Value.Check(esquema, params))
    throw new Error(`${req.method} ${req.routeOptions.url ?? ''}: os parâmetros não seguem o esquema da rota`);
  return params;
}
