/**
 * API keys for the shop's own systems (an owner's): list, create (the key shown once), revoke.
 * HTTP only: the rules are in keys.service.ts, the gate in features/operators/require-operator.ts. Only an
 * operator manages keys: a key, whatever its scope, is refused. A key ends with its maker
 * (keys.service.ts revokeKeysOfMaker).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createApiKeyBodySchema, type ApiKeyScope } from '@mpesa/shared/contract-admin';
import { recordAudit } from '../../../audit/audit.ts';
import { auditDetail } from '../../../audit/audit-details.ts';
import { clientAddress } from '../../../lib/client-address.ts';
import { guardedSchema } from '../access-doc.ts';
import { refuseCrossSite } from '../cross-site.ts';
import { operatorOf, requireAccess, type AccessRule, type AuthDeps } from '../require-operator.ts';
import { KEYS_ANSWERS, WEBHOOKS_SCOPE_WARNING } from './keys.openapi.ts';
import { createKey, listKeys, revokeKey } from './keys.service.ts';

export interface KeysRoutesOptions {
  deps: AuthDeps;
  corsOrigins: '*' | readonly string[];
}

const OWNER: AccessRule = { role: 'owner' };
const tags = ['API keys'];

type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];

/** Writes a key's creation or revocation into the audit trail, with the owner who did it. */
function auditKey(
  deps: AuthDeps,
  request: FastifyRequest,
  action: 'key_created' | 'key_revoked',
  key: { name: string; scope: ApiKeyScope },
) {
  return recordAudit(deps.db, {
    at: deps.now(),
    actorKind: 'operator',
    actor: operatorOf(request).name,
    action,
    target: key.name,
    detail: auditDetail.key(key.scope),
    address: clientAddress(request),
  });
}

export const keysRoutes: FastifyPluginAsyncZod<KeysRoutesOptions> = async (app, options) => {
  // A new key's secret is in one answer: no cache on the way keeps it.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  const owner = requireAccess(options.deps, OWNER);
  app.get(
    '/keys',
    {
      onRequest: owner,
      schema: guardedSchema(
        {
          summary: 'The API keys',
          description:
            'Never the keys themselves. Each says who made it and, once revoked, why: revoked by ' +
            'an owner, or ended with its maker (removed, or no longer an owner).\n\n' +
            WEBHOOKS_SCOPE_WARNING,
          tags,
          response: KEYS_ANSWERS.list,
        },
        OWNER,
      ),
    },
    async () => ({ success: true as const, data: { keys: await listKeys(options.deps.db) } }),
  );

  changeRoutes(app, options);
};

/** Creating and revoking: refused cross-site, and without the CSRF token. */
function changeRoutes(app: RoutesApp, { deps, corsOrigins }: KeysRoutesOptions) {
  const changes = {
    onRequest: [refuseCrossSite(corsOrigins), requireAccess(deps, OWNER)],
    preHandler: app.csrfProtection,
  };
  app.post(
    '/keys',
    {
      ...changes,
      schema: guardedSchema(
        {
          summary: 'Create an API key',
          description:
            'Its scope is what it may do: `payments:read` the history, the figures and the timelines; ' +
            '`payments:request` send payment requests; `webhooks:manage` manage the webhook ' +
            'endpoints and their deliveries. Sent as `Authorization: Bearer <key>`.\n\n' +
            WEBHOOKS_SCOPE_WARNING +
            '\n\nA key ends with its maker: removing the owner who made it, or making them a ' +
            'cashier or a viewer, revokes it.',
          tags,
          body: createApiKeyBodySchema,
          response: KEYS_ANSWERS.create,
        },
        OWNER,
      ),
    },
    async (request, reply) => {
      const maker = operatorOf(request);
      const created = await createKey(deps.db, {
        ...request.body,
        createdBy: maker.name,
        createdById: maker.operatorId,
        now: deps.now(),
      });
      await auditKey(deps, request, 'key_created', created.key);
      return reply.code(201).send({ success: true as const, data: created });
    },
  );

  app.delete(
    '/keys/:id',
    {
      ...changes,
      schema: guardedSchema(
        {
          summary: 'Revoke an API key',
          description: 'Every instance refuses it at once. It stays listed, as revoked.',
          tags,
          params: z.object({ id: z.string().describe('The key’s `id`') }),
          response: KEYS_ANSWERS.revoke,
        },
        OWNER,
      ),
    },
    async (request) => {
      const { key, revokedNow } = await revokeKey(
        deps.db,
        request.params.id,
        deps.now(),
        operatorOf(request).name,
      );
      if (revokedNow) await auditKey(deps, request, 'key_revoked', key);
      return { success: true as const, data: { key } };
    },
  );
}
