/**
 * The owner's webhook routes (docs/webhooks.md): endpoints (list, add with the secret shown once,
 * change, rotate the secret, remove), each endpoint's deliveries, resending, and a test event. HTTP
 * only: the rules are in webhooks.service.ts. An owner signed in (each change with the CSRF token,
 * never from another site), or an API key with the scope `webhooks:manage` (a program's: no CSRF
 * token, nothing a browser sends on its own).
 */
import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeWebhookEndpointBodySchema,
  createWebhookEndpointBodySchema,
  webhookDeliveriesQuerySchema,
} from '@mpesa/shared/contract-webhooks';
import { invalidCursor, unauthenticated } from '../../errors.ts';
import { clientAddress } from '../../lib/client-address.ts';
import {
  guardedSchema,
  refuseCrossSite,
  accessOf,
  requireAccess,
  type AccessRule,
  type AuthDeps,
} from '../operators/index.ts';
import { decodeCursor } from '../../db/list-cursor.ts';
import { WEBHOOKS_ANSWERS } from './webhooks.openapi.ts';
import * as service from './webhooks.service.ts';

export interface WebhookRoutesOptions {
  auth: AuthDeps;
  service: service.WebhookServiceDeps;
  corsOrigins: '*' | readonly string[];
}

/** An owner, or a key that manages webhooks. */
export const WEBHOOK_ACCESS: AccessRule = { role: 'owner', scope: 'webhooks:manage' };
const tags = ['Webhooks'];
const endpointParams = z.object({ id: z.string().describe('The endpoint’s `id`') });
const deliveryParams = z.object({ id: z.string().describe('The delivery’s `id`') });

type RoutesApp = Parameters<FastifyPluginAsyncZod>[0];

/** Who asks, as the audit trail names them. */
function actorOf(request: FastifyRequest): service.WebhookActor {
  const actor = accessOf(request);
  if (!actor) throw unauthenticated();
  return {
    actorKind: actor.kind,
    actor: actor.name,
    address: clientAddress(request),
  };
}

/** The CSRF token, from a session only: a key is sent by a program, never by a browser on its own. */
function csrfForSessions(app: RoutesApp): preHandlerHookHandler {
  return function csrf(request, reply, done) {
    if (accessOf(request)?.kind === 'key') {
      done();
      return;
    }
    app.csrfProtection.call(this, request, reply, done);
  };
}

export const webhookRoutes: FastifyPluginAsyncZod<WebhookRoutesOptions> = async (app, options) => {
  // A new secret is in one answer, and deliveries show the shop's systems: no cache keeps them.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
  });
  const read = requireAccess(options.auth, WEBHOOK_ACCESS);
  const change = changeGates(app, options);
  endpointRoutes(app, options, read, change);
  endpointChangeRoutes(app, options, change);
  deliveryRoutes(app, options, read, change);
  endpointSendRoutes(app, options, change);
};

function endpointRoutes(
  app: RoutesApp,
  options: WebhookRoutesOptions,
  read: ReturnType<typeof requireAccess>,
  change: ReturnType<typeof changeGates>,
) {
  const deps = options.service;
  app.get(
    '/webhooks/endpoints',
    {
      onRequest: read,
      schema: guardedSchema(
        { summary: 'The webhook endpoints', tags, response: WEBHOOKS_ANSWERS.list },
        WEBHOOK_ACCESS,
      ),
    },
    async () => ({
      success: true as const,
      data: { endpoints: await service.listEndpoints(deps.db) },
    }),
  );
  app.post(
    '/webhooks/endpoints',
    {
      ...change,
      schema: guardedSchema(
        {
          summary: 'Add a webhook endpoint',
          description:
            'Events of the chosen types are POSTed to the URL, signed with the secret the answer ' +
            'carries (shown this once): see docs/webhooks.md.',
          tags,
          body: createWebhookEndpointBodySchema,
          response: WEBHOOKS_ANSWERS.create,
        },
        WEBHOOK_ACCESS,
      ),
    },
    async (request, reply) => {
      const created = await service.createEndpoint(deps, request.body, actorOf(request));
      return reply.code(201).send({ success: true as const, data: created });
    },
  );
}

/** Changing and removing an endpoint. */
function endpointChangeRoutes(
  app: RoutesApp,
  options: WebhookRoutesOptions,
  change: ReturnType<typeof changeGates>,
) {
  const deps = options.service;
  app.patch(
    '/webhooks/endpoints/:id',
    {
      ...change,
      schema: guardedSchema(
        {
          summary: 'Change a webhook endpoint',
          description:
            'Its URL, its events, enable or disable it; `rotateSecret: true` makes a new secret ' +
            '(in the answer, this once): the old one signs nothing more.',
          tags,
          params: endpointParams,
          body: changeWebhookEndpointBodySchema,
          response: WEBHOOKS_ANSWERS.change,
        },
        WEBHOOK_ACCESS,
      ),
    },
    async (request) => ({
      success: true as const,
      data: await service.changeEndpoint(deps, request.params.id, request.body, actorOf(request)),
    }),
  );
  app.delete(
    '/webhooks/endpoints/:id',
    {
      ...change,
      schema: guardedSchema(
        {
          summary: 'Remove a webhook endpoint',
          description: 'Nothing more is sent to it; its deliveries go with it.',
          tags,
          params: endpointParams,
          response: WEBHOOKS_ANSWERS.remove,
        },
        WEBHOOK_ACCESS,
      ),
    },
    async (request) => {
      await service.removeEndpoint(deps, request.params.id, actorOf(request));
      return { success: true as const, data: { removed: true as const } };
    },
  );
}

function changeGates(app: RoutesApp, options: WebhookRoutesOptions) {
  return {
    onRequest: [refuseCrossSite(options.corsOrigins), requireAccess(options.auth, WEBHOOK_ACCESS)],
    preHandler: csrfForSessions(app),
  };
}

function deliveryRoutes(
  app: RoutesApp,
  options: WebhookRoutesOptions,
  read: ReturnType<typeof requireAccess>,
  change: ReturnType<typeof changeGates>,
) {
  const deps = options.service;
  app.get(
    '/webhooks/endpoints/:id/deliveries',
    {
      onRequest: read,
      schema: guardedSchema(
        {
          summary: 'An endpoint’s deliveries',
          description:
            'Newest first: when, the event, the HTTP status, how long it took, the start of the answer.',
          tags,
          params: endpointParams,
          querystring: webhookDeliveriesQuerySchema,
          response: WEBHOOKS_ANSWERS.deliveries,
        },
        WEBHOOK_ACCESS,
      ),
    },
    async (request) => {
      const { cursor, limit } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (after === null) throw invalidCursor();
      return {
        success: true as const,
        data: await service.listDeliveries(deps.db, request.params.id, after, limit),
      };
    },
  );
  app.post(
    '/webhooks/deliveries/:id/resend',
    {
      ...change,
      schema: guardedSchema(
        {
          summary: 'Resend a delivery',
          description:
            'Due again now, with the same event id; tried once more if it is past three days.',
          tags,
          params: deliveryParams,
          response: WEBHOOKS_ANSWERS.resend,
        },
        WEBHOOK_ACCESS,
      ),
    },
    async (request) => ({
      success: true as const,
      data: { delivery: await service.resendDelivery(deps, request.params.id, actorOf(request)) },
    }),
  );
}

/** Resending an endpoint's failed deliveries, and a test event. */
function endpointSendRoutes(
  app: RoutesApp,
  options: WebhookRoutesOptions,
  change: ReturnType<typeof changeGates>,
) {
  const deps = options.service;
  app.post(
    '/webhooks/endpoints/:id/resend-failed',
    {
      ...change,
      schema: guardedSchema(
        {
          summary: 'Resend every failed delivery of an endpoint',
          tags,
          params: endpointParams,
          response: WEBHOOKS_ANSWERS.resendFailed,
        },
        WEBHOOK_ACCESS,
      ),
    },
    async (request) => ({
      success: true as const,
      data: { resent: await service.resendFailed(deps, request.params.id, actorOf(request)) },
    }),
  );
  app.post(
    '/webhooks/endpoints/:id/test',
    {
      ...change,
      schema: guardedSchema(
        {
          summary: 'Send a test event',
          description: 'A `webhook.test` event, to this endpoint only, with a made-up payment.',
          tags,
          params: endpointParams,
          response: WEBHOOKS_ANSWERS.test,
        },
        WEBHOOK_ACCESS,
      ),
    },
    async (request, reply) => {
      const delivery = await service.sendTest(deps, request.params.id, actorOf(request));
      return reply.code(201).send({ success: true as const, data: { delivery } });
    },
  );
}
