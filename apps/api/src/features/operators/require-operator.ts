/**
 * The one gate for the merchant's routes, for people and for the shop's own systems. Who asks (an
 * `Actor`) is an operator, by the session cookie, or an API key, by `Authorization: Bearer <key>`
 * (a request that sends a Bearer header is judged by it alone, whatever cookie it carries). Any
 * other scheme is no key of ours and is ignored, as if absent: a proxy's HTTP Basic sign-in makes
 * browsers send `Authorization: Basic …` with every request.
 *
 * `requireAccess(deps, { role, scope })` lets through an operator whose role is at least `role`
 * and a key whose scope is `scope`; a route that names no scope is for operators only, so a key can
 * never do what only an owner may. Refused: 401 UNAUTHENTICATED with no credential (or a stale or
 * revoked session), 401 for a key that is not valid (unknown or revoked: never said which), 403
 * ROLE_NOT_ALLOWED below the role, 403 SCOPE_NOT_ALLOWED for a key of another scope. A key needs
 * no CSRF token (nothing ambient: no browser sends it on its own); no route that takes a key
 * checks one today.
 *
 * What a gate lets through is the shop's, or depends on who asks: a guarded route runs `uncached`
 * before its gate, so that its answers, refusals included, are kept by no cache on the way (a
 * shared one would hand them to the next person).
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from 'fastify';
import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import { apiKeyInvalid, roleNotAllowed, scopeNotAllowed, unauthenticated } from '../../errors.ts';
import { keyFor, type KeyHolder } from './keys/keys.service.ts';
import { refuseCrossSite } from './cross-site.ts';
import { roleAtLeast, type OperatorRole } from './roles.ts';
import { sessionFor, type SessionDeps, type SignedIn } from './sessions.service.ts';

export interface AuthDeps extends SessionDeps {
  cookieName: string;
  /**
   * When given, a request let through by its session cookie is refused if a page on another site
   * sent it (cross-site.ts), reads included: whatever a browser sends on its own is held to the
   * shop's own pages. A key is sent by a program, never on its own: it is not held so.
   */
  corsOrigins?: '*' | readonly string[] | undefined;
}

export type Actor = ({ kind: 'operator' } & SignedIn) | ({ kind: 'key' } & KeyHolder);

/** What a route takes: an operator of at least `role`, or (if named) a key with `scope`. */
export interface AccessRule {
  role: OperatorRole;
  scope?: ApiKeyScope | undefined;
}

/** What a request carries: nothing usable, a key that is not valid, or someone. */
type Credential = { kind: 'none' } | { kind: 'invalid-key' } | Actor;

const actors = new WeakMap<FastifyRequest, Actor>();

/**
 * The bearer token of `Authorization`, if the header is sent with the Bearer scheme (an empty
 * string if the rest is malformed); undefined for no header or another scheme (Basic, Digest…).
 */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined || !/^Bearer(?:\s|$)/i.test(header)) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? '';
}

async function credentialOf(deps: AuthDeps, request: FastifyRequest): Promise<Credential> {
  const bearer = bearerOf(request);
  if (bearer !== undefined) {
    const key = await keyFor(deps, bearer);
    return key ? { kind: 'key', ...key } : { kind: 'invalid-key' };
  }
  const operator = await sessionFor(deps, request.cookies[deps.cookieName]);
  return operator ? { kind: 'operator', ...operator } : { kind: 'none' };
}

/** Records the actor a gate let `request` through for, for `accessOf`. */
export function recordAccess(request: FastifyRequest, actor: Actor): void {
  actors.set(request, actor);
}

/** The actor a gate let `request` through for, if any (none on an open route). */
export function accessOf(request: FastifyRequest): Actor | undefined {
  return actors.get(request);
}

/** Why `rule` does not allow `actor`, or undefined when it does. */
function refusalOf(actor: Actor, rule: AccessRule) {
  if (actor.kind === 'key') return actor.scope === rule.scope ? undefined : scopeNotAllowed();
  return roleAtLeast(actor.role, rule.role) ? undefined : roleNotAllowed();
}

/** Refuses `actor` what `rule` does not allow it. */
export function checkAccess(actor: Actor, rule: AccessRule): void {
  const refusal = refusalOf(actor, rule);
  if (refusal) throw refusal;
}

/**
 * The hook a guarded route runs before its gate: `Cache-Control: no-store` on the answer, and
 * `vary` added to any Vary already set (CORS's `Origin`): a payment's page, whose answer depends
 * on the credential sent, varies with `Cookie` and `Authorization`.
 */
export function uncached(vary: readonly string[] = []): onRequestAsyncHookHandler {
  return async function noStore(_request, reply) {
    reply.header('Cache-Control', 'no-store');
    if (vary.length > 0) reply.header('Vary', varyWith(reply, vary));
  };
}

function varyWith(reply: FastifyReply, vary: readonly string[]): string {
  const before = reply.getHeader('vary');
  const listed = (Array.isArray(before) ? before.join(',') : String(before ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const known = new Set(listed.map((name) => name.toLowerCase()));
  return [...listed, ...vary.filter((name) => !known.has(name.toLowerCase()))].join(', ');
}

/**
 * Who sent `request`, as the gates take it: nobody (undefined), or an operator or a key. A key
 * that is not valid is refused 401, and a session sent by another site's page refused too.
 */
export function identifier(deps: AuthDeps) {
  const crossSite = deps.corsOrigins === undefined ? undefined : refuseCrossSite(deps.corsOrigins);
  return async function identify(
    this: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Actor | undefined> {
    const credential = await credentialOf(deps, request);
    if (credential.kind === 'none') return undefined;
    if (credential.kind === 'invalid-key') throw apiKeyInvalid();
    if (credential.kind === 'operator') await crossSite?.call(this, request, reply);
    return credential;
  };
}

export function requireAccess(deps: AuthDeps, rule: AccessRule): onRequestAsyncHookHandler {
  const identify = identifier(deps);
  return async function gate(request, reply) {
    const actor = await identify.call(this, request, reply);
    if (!actor) throw unauthenticated();
    checkAccess(actor, rule);
    actors.set(request, actor);
  };
}

/**
 * The gate of a route open to all that says more to the shop (a payment's page): lets everyone
 * through, and records the actor only when `rule` allows it (`accessOf` then gives it). A key that
 * is not valid is still refused 401, so that a program learns its key no longer works; a session
 * sent from another site is refused as everywhere.
 */
export function recogniseAccess(deps: AuthDeps, rule: AccessRule): onRequestAsyncHookHandler {
  const identify = identifier(deps);
  return async function recognise(request, reply) {
    const actor = await identify.call(this, request, reply);
    // Anyone else, the shop's reader or not, sees the page as anyone does.
    if (actor && !refusalOf(actor, rule)) actors.set(request, actor);
  };
}

/** The operator a guarded request was let through for (an operators-only route's). */
export function operatorOf(request: FastifyRequest): SignedIn {
  const actor = actors.get(request);
  if (actor?.kind !== 'operator') throw unauthenticated();
  return { operatorId: actor.operatorId, name: actor.name, role: actor.role };
}

/** The gate of a route for operators only, of at least `minimum`: a key is refused 403. */
export function requireOperator(
  deps: AuthDeps,
  minimum: OperatorRole = 'viewer',
): onRequestAsyncHookHandler {
  return requireAccess(deps, { role: minimum });
}
