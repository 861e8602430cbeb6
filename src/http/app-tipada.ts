import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';

/**
 * The Fastify instance both faces build (`withTypeProvider<TypeBoxTypeProvider>()`): a route's
 * TypeBox schemas type its `req.params`, `req.query` and `req.body`, so no route casts them.
 */
export type AppTipada = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
