/**
 * Every answer is ours: errors thrown by the routes and hooks, the router's own refusals, the
 * HTTP parser's, and what Node would answer by itself all leave in the `{success, code, message}`
 * shape, by the functions of errors.ts.
 */
import type { FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { answerClientError, answerError, answerNodeRefusals } from '../errors.ts';
import type { Cors } from './cors.ts';

/** The server's options for what passes no hook (given to Fastify when the app is made). */
export function errorAnswerOptions(
  cors: Cors,
): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    // The router's refusals pass no hook: their answers get the CORS headers here.
    frameworkErrors: (error, request, reply) => {
      cors.addHeaders(request, reply);
      return answerError(error, request, reply);
    },
    clientErrorHandler: answerClientError,
  };
}

/** The one error handler, and Node's own answers (an `Expect` it cannot meet, CONNECT). */
export const errorHandler = fp(
  async (app) => {
    app.setErrorHandler(answerError);
    answerNodeRefusals(app.server);
  },
  { name: 'error-handler' },
);
