/**
 * The one gate for the merchant's routes: a hook that lets a request through only with a valid
 * session cookie of an operator whose role is at least `minimum` (401 UNAUTHENTICATED without
 * one, 403 ROLE_NOT_ALLOWED below it). The operator is then `operatorOf(request)`.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { roleNotAllowed, unauthenticated } from '../errors.ts';
import { roleAtLeast, type OperatorRole } from './roles.ts';
import { sessionFor, type SessionDeps, type SignedIn } from './sessions.service.ts';

export interface AuthDeps extends SessionDeps {
  cookieName: string;
}

const operators = new WeakMap<FastifyRequest, SignedIn>();

/** The operator a guarded request was let through for. */
export function operatorOf(request: FastifyRequest): SignedIn {
  const operator = operators.get(request);
  if (!operator) throw unauthenticated();
  return operator;
}

export function requireOperator(
  deps: AuthDeps,
  minimum: OperatorRole = 'viewer',
): onRequestAsyncHookHandler {
  return async (request) => {
    const operator = await sessionFor(deps, request.cookies[deps.cookieName]);
    if (!operator) throw unauthenticated();
    if (!roleAtLeast(operator.role, minimum)) throw roleNotAllowed();
    operators.set(request, operator);
  };
}
