/**
 * The links' routes (issue 38). The shop's side, for its signed-in people whatever HISTORY_ACCESS
 * says: a viewer sees the links; an owner or a cashier makes one or switches it off, refused
 * cross-site and without the CSRF token. The payer's side, open to anyone with the code: the link
 * as its page shows it, and its payment, limited as the payment form's are. And each link's QR
 * codes: its own (SVG, PNG) for a viewer and up, M-PESA's for an owner or a cashier.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LINK_CODE_LENGTH,
  createLinkBodySchema,
  payLinkBodySchema,
} from '@mpesa/shared/contract-links';
import { tooManyRequests } from '../../errors.ts';
import { clientAddress, limitKeyFor } from '../../lib/client-address.ts';
import { floodLimit } from '../../limits/flood-limit.ts';
import { guardedSchema, operatorOf } from '../operators/index.ts';
import { promptOnce } from '../payments/index.ts';
import * as doc from './links.openapi.ts';
import {
  createLink,
  getLinkDto,
  listLinkDtos,
  payLink,
  payerLink,
  switchOffLink,
  type LinkActor,
  type LinkDeps,
} from './links.service.ts';
import { linkQr, mpesaQrOfLink, type LinkQrDeps } from './links-qr.service.ts';

export interface LinkRoutesOptions {
  deps: LinkDeps;
  qr: LinkQrDeps;
  /** Signed in with at least each role (features/operators/require-operator.ts). */
  gates: Record<'viewer' | 'cashier', onRequestAsyncHookHandler[]>;
  /** The payment form's limits (STKPUSH_RATE_LIMIT and the rest), which a link's payment shares. */
  rateLimit: { max: number; requestsMax: number; windowS: number };
  /** features/payments/index.ts says why. */
  idempotencyKeyAbandonedMs: number;
  paymentBytes: number;
}

const idParams = z.object({ id: z.string().max(64).describe('The link’s `id`') });
const codeParams = z.object({
  code: z
    .string()
    .max(LINK_CODE_LENGTH * 2)
    .describe('The link’s `code`, the end of `/pay/<code>`'),
});
const always = { always: true };
const IDEMPOTENCY_KEY =
  'Any unique value of 1 to 255 visible ASCII characters: sent again with the same body, the payment is started once.';

function actorOf(request: FastifyRequest): LinkActor {
  const operator = operatorOf(request);
  return { operatorId: operator.operatorId, name: operator.name, address: clientAddress(request) };
}

type App = Parameters<FastifyPluginAsyncZod<LinkRoutesOptions>>[0];

/**
 * The origin the page that asks is on, as cross-site.ts reads it: behind a proxy that TRUST_PROXY
 * trusts, the proxy's X-Forwarded-Proto and X-Forwarded-Host. No setting names the web app's public
 * address; the API serves the web app on its own origin, and the Vite dev server passes the Host on.
 */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

const IMAGE_TYPES = { svg: 'image/svg+xml; charset=utf-8', png: 'image/png' } as const;

function qrRoutes(app: App, { qr, gates }: LinkRoutesOptions) {
  for (const format of ['svg', 'png'] as const) {
    app.get(
      `/links/:id/qr.${format}`,
      {
        onRequest: gates.viewer,
        schema: guardedSchema(
          { ...doc.QR_DESCRIBED[format], params: idParams, response: doc.QR_ANSWERS[format] },
          { role: 'viewer' },
          always,
        ),
      },
      async (request, reply) => {
        const { code, image } = await linkQr(qr, request.params.id, originOf(request), format);
        return (
          reply
            .type(IMAGE_TYPES[format])
            // The address on another host is another code: kept by this browser only, and asked
            // again after a while.
            .header('Cache-Control', 'private, max-age=3600')
            .header('Vary', 'Host, X-Forwarded-Host')
            .header('Content-Disposition', `inline; filename="pay-${code}.${format}"`)
            .send(image)
        );
      },
    );
  }

  app.post(
    '/links/:id/mpesa-qr',
    {
      onRequest: gates.cashier,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        { ...doc.MPESA_QR_DESCRIBED, params: idParams, response: doc.MPESA_QR_ANSWERS },
        { role: 'cashier' },
        always,
      ),
    },
    async (request) => ({
      success: true as const,
      data: await mpesaQrOfLink({ ...qr, log: request.log }, request.params.id),
    }),
  );
}

function shopRoutes(app: App, options: LinkRoutesOptions) {
  const { deps: base, gates } = options;
  const deps = (request: FastifyRequest): LinkDeps => ({ ...base, log: request.log });
  app.get(
    '/links',
    {
      onRequest: gates.viewer,
      schema: guardedSchema(
        { ...doc.LIST_DESCRIBED, response: doc.LIST_ANSWERS },
        { role: 'viewer' },
        always,
      ),
    },
    async () => ({ success: true as const, data: { links: await listLinkDtos(base) } }),
  );

  app.get(
    '/links/:id',
    {
      onRequest: gates.viewer,
      schema: guardedSchema(
        { ...doc.ONE_DESCRIBED, params: idParams, response: doc.ONE_ANSWERS },
        { role: 'viewer' },
        always,
      ),
    },
    async (request) => ({
      success: true as const,
      data: await getLinkDto(base, request.params.id),
    }),
  );

  qrRoutes(app, options);

  app.post(
    '/links',
    {
      onRequest: gates.cashier,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        {
          ...doc.CREATE_DESCRIBED,
          body: createLinkBodySchema.meta({
            'x-examples': {
              fixed: {
                summary: 'KES 1,500, one payment, a week',
                value: {
                  amount: 1500,
                  purpose: 'Kitenge dress, size M',
                  reference: 'ORDER-77',
                  oneOnly: true,
                  expiresInDays: 7,
                },
              },
            },
          }),
          response: doc.CREATE_ANSWERS,
        },
        { role: 'cashier' },
        always,
      ),
    },
    async (request, reply) =>
      reply.code(201).send(await createLink(deps(request), request.body, actorOf(request))),
  );

  app.post(
    '/links/:id/off',
    {
      onRequest: gates.cashier,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        { ...doc.OFF_DESCRIBED, params: idParams, response: doc.OFF_ANSWERS },
        { role: 'cashier' },
        always,
      ),
    },
    async (request) => switchOffLink(deps(request), request.params.id, actorOf(request)),
  );
}

function payerRoutes(app: App, options: LinkRoutesOptions) {
  const { deps, rateLimit } = options;
  const flood = floodLimit({ max: rateLimit.requestsMax, windowS: rateLimit.windowS });
  const limitFlood = async (request: FastifyRequest) => {
    const waitS = flood.hit(limitKeyFor(clientAddress(request)), deps.now());
    if (waitS !== null) throw tooManyRequests(waitS);
  };

  app.get(
    '/pay/:code',
    { schema: { ...doc.PAYER_DESCRIBED, params: codeParams, response: doc.PAYER_ANSWERS } },
    async (request) => ({
      success: true as const,
      data: await payerLink(deps, request.params.code),
    }),
  );

  app.post(
    '/pay/:code',
    {
      bodyLimit: options.paymentBytes,
      onRequest: limitFlood,
      schema: {
        ...doc.PAY_DESCRIBED,
        params: codeParams,
        body: payLinkBodySchema.meta({
          'x-examples': {
            phone: { summary: 'The payer’s phone', value: { phoneNumber: '0712345678' } },
          },
        }),
        headers: z.object({ 'idempotency-key': z.string().optional().describe(IDEMPOTENCY_KEY) }),
        response: doc.PAY_ANSWERS,
      },
    },
    async (request, reply) => {
      // The payer's address counts as the payment form's does (the same key: one allowance).
      const limit = {
        key: `POST /api/mpesa/stkpush|${limitKeyFor(clientAddress(request))}`,
        max: rateLimit.max,
        windowS: rateLimit.windowS,
      };
      const { code } = request.params;
      return promptOnce(
        reply,
        deps,
        {
          key: request.headers['idempotency-key'],
          abandonedAfterMs: options.idempotencyKeyAbandonedMs,
        },
        { code, ...request.body },
        (key) => payLink({ ...deps, log: request.log }, code, request.body, limit, key),
      );
    },
  );
}

export const linkRoutes: FastifyPluginAsyncZod<LinkRoutesOptions> = async (app, options) => {
  shopRoutes(app, options);
  payerRoutes(app, options);
};
