/** Daraja's error envelope, in which every refusal of its routes leaves (docs/daraja-protocol.md §3.5). */
import type { FastifyReply } from 'fastify';
import type { Failure } from '../catalogue.ts';
import { requestId } from '../ids.ts';

/** Daraja's error envelope. */
export function darajaError([, errorCode, errorMessage]: Failure, id = requestId()) {
  return { requestId: id, errorCode, errorMessage };
}

export function fail(reply: FastifyReply, failure: Failure, id = requestId()) {
  return reply.code(failure[0]).send(darajaError(failure, id));
}

/** Any other method than a route's own. */
export const methodNotAllowed = (method: string): Failure => [
  405,
  '405.001',
  `${method} Method Not Allowed`,
];
