/**
 * The callback routes, one per kind of callback (features/index.ts), all alike: the body is taken
 * as text so that it is recorded exactly as it arrived, even when it is not valid JSON; the sender
 * and the path's secret are checked (callback-guard.ts); then the kind's handler keeps the raw body
 * first and applies it.
 */
import type { FastifyBaseLogger, FastifyReply, FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientAddress } from '../lib/client-address.ts';
import { callbackGuard, type CallbackGuardOptions } from './callback-guard.ts';
import { callbackRoute, type CallbackRoute } from './callback-paths.ts';

/** A callback that passed the guard. */
export interface ReceivedCallback {
  /** The body exactly as it arrived ('' when there was none). */
  raw: string;
  /** The sender's address, as it is stored. */
  ip: string;
  log: FastifyBaseLogger;
}

/** What one kind's route does: its description and answers, and what it makes of a callback. */
export interface CallbackHandler {
  /** The route's schema but its params (the secret, the same for every kind). */
  schema: Omit<FastifySchema, 'params'>;
  handle(callback: ReceivedCallback, reply: FastifyReply): Promise<FastifyReply>;
}

/** One kind of callback: where it is posted and what is made of it. */
export interface CallbackKindRoute {
  kind: string;
  route: CallbackRoute;
  handler: CallbackHandler;
}

export interface CallbackRoutesOptions extends CallbackGuardOptions {
  /** The largest body a callback may have. */
  bodyLimit: number;
  kinds: readonly CallbackKindRoute[];
}

const SECRET_PARAMS = z.object({ secret: z.string().describe('MPESA_CALLBACK_SECRET') });

/** Registered under `/api`, in a scope of its own: only these routes take any body as text. */
export const callbackRoutes: FastifyPluginAsyncZod<CallbackRoutesOptions> = async (
  plainScope,
  { bodyLimit, kinds, ...guardOptions },
) => {
  const scope = plainScope.withTypeProvider<ZodTypeProvider>();
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    done(null, body);
  });
  const guard = callbackGuard(guardOptions);
  for (const { route, handler } of kinds) {
    // The router refuses a parameter longer than the longest allowed secret (414).
    scope.post(
      callbackRoute(route),
      { schema: { ...handler.schema, params: SECRET_PARAMS } },
      async (request, reply) => {
        const ip = clientAddress(request);
        guard(request.params.secret, ip, request.log);
        const raw = typeof request.body === 'string' ? request.body : '';
        return handler.handle({ raw, ip, log: request.log }, reply);
      },
    );
  }
};
