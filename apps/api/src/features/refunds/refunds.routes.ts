/**
 * `POST /api/mpesa/transactions/:id/refund`: an owner refunds a paid payment (docs/product.md
 * §10). Owners only, signed in, whatever HISTORY_ACCESS says: it sends the shop's money back, so
 * no one does it for the merchant without signing in. Refused cross-site and without the CSRF
 * token, as every owner's change (features/review/review.routes.ts).
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refundRequestSchema } from '@mpesa/shared/contract';
import { clientAddress } from '../../lib/client-address.ts';
import { guardedSchema, operatorOf } from '../operators/index.ts';
import { REFUND_ANSWERS, REFUND_DESCRIBED } from './refunds.openapi.ts';
import { requestRefund, type RefundDeps } from './refunds.service.ts';

export interface RefundRoutesOptions {
  deps: RefundDeps;
  /** A signed-in owner (features/operators/require-operator.ts), and not from another site. */
  ownerGate: onRequestAsyncHookHandler[];
}

export const refundRoutes: FastifyPluginAsyncZod<RefundRoutesOptions> = async (
  app,
  { deps, ownerGate },
) => {
  app.post(
    '/mpesa/transactions/:id/refund',
    {
      onRequest: ownerGate,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        {
          ...REFUND_DESCRIBED,
          params: z.object({ id: z.string().max(1000).describe('The payment’s `transactionId`') }),
          body: refundRequestSchema.meta({
            'x-examples': {
              refund: {
                summary: 'The whole 450 KES back',
                value: { reason: 'The order was cancelled', amount: 450 },
              },
            },
          }),
          response: REFUND_ANSWERS,
        },
        { role: 'owner' },
        { always: true },
      ),
    },
    async (request, reply) => {
      const owner = operatorOf(request);
      const refund = await requestRefund(
        { ...deps, log: request.log },
        request.params.id,
        request.body,
        {
          name: owner.name,
          operatorId: owner.operatorId,
          address: clientAddress(request),
        },
      );
      return reply.code(202).send({ success: true as const, data: refund });
    },
  );
};
