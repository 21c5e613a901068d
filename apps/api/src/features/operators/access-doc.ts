/**
 * What the API's description (features/system/openapi.ts) says about who may call a guarded route: OpenAPI
 * 3.1 security requirements naming the role a session needs and the scope a key needs, and the same
 * in words in the route's description.
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import { WEBHOOKS_SCOPE_WARNING } from './keys/keys.openapi.ts';
import type { AccessRule } from './require-operator.ts';

/** The schemes' names in `components.securitySchemes`. */
export const SECURITY = { session: 'session', key: 'apiKey' } as const;

export function securitySchemes(sessionCookie: string) {
  return {
    [SECURITY.session]: {
      type: 'apiKey',
      in: 'cookie',
      name: sessionCookie,
      // For the reference page's curl examples (@mpesa/openapi-page).
      'x-csrf-header': 'X-CSRF-Token',
      description:
        'An operator’s session (POST /api/auth/sign-in). Requests that change something also send ' +
        'X-CSRF-Token (GET /api/auth/csrf). Listed with the least role a route takes.',
    },
    [SECURITY.key]: {
      type: 'http',
      scheme: 'bearer',
      'x-placeholder': 'mpk_…',
      description:
        'An API key an owner created (POST /api/keys): `Authorization: Bearer mpk_…`. Listed with ' +
        'the scope a route takes; a route that lists none takes no key. ' +
        WEBHOOKS_SCOPE_WARNING,
    },
  } as const;
}

/** A route's gate and the rule it applies, so that its description says the same. */
export interface Gate {
  onRequest: onRequestAsyncHookHandler;
  rule: AccessRule;
}

type Security = Record<string, string[]>[];

const ROLE_WORDS = { viewer: 'any operator', cashier: 'a cashier or an owner', owner: 'an owner' };

/** How a route's gate applies: `open` to a payer too; `always`, whatever HISTORY_ACCESS says. */
export interface AccessOptions {
  open?: boolean;
  always?: boolean;
}

/** `rule` as security requirements and a sentence; `open` adds "no credential" (a payer). */
export function describeAccess(
  rule: AccessRule,
  { open = false, always = false }: AccessOptions = {},
) {
  const security: Security = [
    ...(open ? [{}] : []),
    { [SECURITY.session]: [rule.role] },
    ...(rule.scope ? [{ [SECURITY.key]: [rule.scope] }] : []),
  ];
  const who = [
    `${ROLE_WORDS[rule.role]} signed in`,
    ...(rule.scope ? [`an API key with the scope \`${rule.scope}\``] : []),
  ].join(', or ');
  const when = always ? 'Whatever HISTORY_ACCESS says' : 'With HISTORY_ACCESS=operators';
  const text = open
    ? `${when}: open to a payer with no credential; a request with a session or a key acts for the shop and needs ${who}.`
    : `${when}: ${who}.`;
  return { security, text };
}

/** A route's schema with its gate's security and words; as it was when there is no gate. */
export function guardedSchema<S extends object>(
  schema: S,
  rule: AccessRule | undefined,
  options: AccessOptions = {},
): S & { description?: string; security?: Security } {
  if (!rule) return schema;
  const { security, text } = describeAccess(rule, options);
  const before = 'description' in schema ? schema.description : undefined;
  const description = typeof before === 'string' ? `${before}\n\n${text}` : text;
  return { ...schema, description, security };
}
