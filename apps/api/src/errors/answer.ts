/**
 * The one mapping that turns every error into `{success: false, code, message}` (with the `field`
 * a validation error is about, and the `transactionId` a refusal of a saved payment carries) and a
 * sentence a payer can read: our own errors, Fastify's (in a route, in the router, on a broken
 * connection) and Node's. 5xx details stay in the log.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, unavailableReason } from '../db/unavailable.ts';
import { AppError, type Answer } from './app-error.ts';
import { CLIENT_MISTAKES, UNREADABLE, httpRefusal } from './client-mistakes.ts';
import {
  connectNotSupported,
  databaseUnavailable,
  expectationFailed,
  internalError,
  validationError,
} from './refusals.ts';

/** The answer to an error, or undefined when it is ours to fix (a 5xx that is not an AppError). */
function answerFor(error: FastifyError): Answer | undefined {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    // The input the first problem is in: the first step of its path ("/amount", "/status/0").
    const field = first?.instancePath.split('/')[1] || undefined;
    return validationError(first?.message ?? 'The request is not valid', field);
  }
  const known = error.code ? CLIENT_MISTAKES[error.code] : undefined;
  if (known) return known;
  const status = error.statusCode ?? 500;
  return status >= 400 && status < 500 ? httpRefusal(status) : undefined;
}

/**
 * The one error handler: the app's (`setErrorHandler`), and the router's (`frameworkErrors`: what
 * it refuses before any route is involved, such as an overlong path parameter or a broken %-escape).
 */
export function answerError(thrown: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  let error = thrown;
  if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
    request.log.warn(unavailableReason(error), 'database unavailable: answered 503');
    error = databaseUnavailable({ cause: error }) as AppError & FastifyError;
  }
  const answer = answerFor(error);
  if (!answer) request.log.error({ err: error }, 'request failed');
  const { statusCode, code, message, field } = answer ?? internalError();
  const body = { success: false, code, message, ...(field === undefined ? {} : { field }) };
  if (error instanceof AppError) {
    if (error.retryAfterS !== undefined) reply.header('Retry-After', String(error.retryAfterS));
    if (error.allow !== undefined) reply.header('Allow', error.allow.join(', '));
    if (error.problems !== undefined) {
      return reply.code(statusCode).send({ ...body, problems: error.problems });
    }
    if (error.transactionId !== undefined) {
      return reply.code(statusCode).send({ ...body, transactionId: error.transactionId });
    }
  }
  return reply.code(statusCode).send(body);
}

/**
 * Fastify's `clientErrorHandler`: errors Node raises on a connection before or while a request is
 * read (malformed HTTP, a broken chunked body, a header or request timeout). They are the client's
 * doing, so they are worth a debug line, never an error; the raw packet is not logged, since it
 * can hold a callback path's secret.
 */
export function answerClientError(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has no one left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: error.code, reason: error.message }, 'client error');
  const { statusCode, code, message } = (error.code && CLIENT_MISTAKES[error.code]) || UNREADABLE;
  // A response still being prepared for an earlier request on this connection (one that arrived
  // whole, pipelined, and waits for Daraja) goes out first: a client reading answers in order must
  // not take ours for its. The request that broke gets our answer at once, if nothing of its own
  // answer has gone yet.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  const refuse = () => {
    if (socket.writable && !(inFlight?.headersSent && !inFlight.writableFinished)) {
      socket.write(rawAnswer({ statusCode, code, message }));
    }
    socket.destroy(error);
  };
  if (inFlight?.req.complete && !inFlight.writableFinished && !inFlight.destroyed) {
    inFlight.once('finish', refuse);
    inFlight.once('close', () => socket.destroy(error));
    return;
  }
  refuse();
}

/** A whole HTTP/1.1 answer in our shape, for a socket no Fastify reply is attached to. */
export function rawAnswer({ statusCode, code, message }: Answer): string {
  const body = JSON.stringify({ success: false, code, message });
  return (
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * What Node answers on its own, before Fastify sees a request, answered in our shape instead: an
 * `Expect` it cannot meet (417), and CONNECT (405; this is no proxy). A missing Host header is
 * refused in `onRequest` (Node's own check is turned off for it).
 */
export function answerNodeRefusals(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const { statusCode, code, message } = expectationFailed();
    const body = JSON.stringify({ success: false, code, message });
    response.writeHead(statusCode, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    response.end(body);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.end(rawAnswer(connectNotSupported()));
  });
}
