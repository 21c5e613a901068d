/**
 * `POST /api/mpesa/receipt-checks` and `GET /api/mpesa/receipt-checks/:id`: the merchant types
 * the receipt from a payer's SMS for a till or paybill payment that is not in the history
 * (receipt-checks.service.ts). With HISTORY_ACCESS=operators, for those who take payments (a
 * cashier or an owner, or a key that requests payments), a session's request with the CSRF token;
 * with `open`, open as the payment form is.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { receiptCheckRequestSchema } from '@mpesa/shared/contract';
import { clientAddress, limitKeyFor } from '../../lib/client-address.ts';
import { guardedSchema, type Gate, accessOf, uncached } from '../operators/index.ts';
import { RECEIPT_CHECK_ANSWERS } from './c2b.openapi.ts';
import {
  RECEIPT_CHECKS_PER_ADDRESS,
  getReceiptCheck,
  startReceiptCheck,
  type ReceiptCheckDeps,
} from './receipt-checks.service.ts';

export interface ReceiptCheckRoutesOptions {
  deps: ReceiptCheckDeps;
  /** HISTORY_ACCESS=operators: those who may take payments. */
  gate?: Gate | undefined;
}

const tags = ['Payments'];

export const receiptCheckRoutes: FastifyPluginAsyncZod<ReceiptCheckRoutesOptions> = async (
  app,
  { deps, gate },
) => {
  const guarded = gate ? { onRequest: [uncached(), gate.onRequest] } : {};
  // A session's request needs the CSRF token; a key's is sent by a program, never on its own.
  const csrf = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (accessOf(request)?.kind === 'operator') app.csrfProtection(request, reply, done);
    else done();
  };

  app.post(
    '/mpesa/receipt-checks',
    {
      ...guarded,
      ...(gate ? { preHandler: csrf } : {}),
      schema: guardedSchema(
        {
          summary: 'Find a till or paybill payment by its M-PESA receipt',
          description:
            'For a payment made from the payer’s phone (till or paybill) that is not in the ' +
            'history: M-PESA is asked by transaction status, and the payment is recorded once it ' +
            'answers. A receipt already in the history is `found` at once. Follow the check with ' +
            `\`GET /api/mpesa/receipt-checks/{id}\`. An address may ask ${RECEIPT_CHECKS_PER_ADDRESS} ` +
            'times a minute.',
          tags,
          body: receiptCheckRequestSchema.meta({
            'x-examples': {
              receipt: {
                summary: 'The receipt from the payer’s SMS',
                value: { receipt: 'UCE7RT61SV' },
              },
            },
          }),
          response: RECEIPT_CHECK_ANSWERS.create,
        },
        gate?.rule,
      ),
    },
    async (request) => {
      const actor = accessOf(request);
      const data = await startReceiptCheck(
        { ...deps, log: request.log },
        request.body.receipt,
        actor?.name ?? 'anonymous',
        limitKeyFor(clientAddress(request)),
      );
      return { success: true as const, data };
    },
  );

  app.get(
    '/mpesa/receipt-checks/:id',
    {
      ...guarded,
      schema: guardedSchema(
        {
          summary: 'How a receipt check went',
          description: 'Ask again while `status` is `asked`: M-PESA answers within seconds.',
          tags,
          params: z.object({ id: z.string().describe('The check’s `id`') }),
          response: RECEIPT_CHECK_ANSWERS.byId,
        },
        gate?.rule,
      ),
    },
    async (request) => ({
      success: true as const,
      data: await getReceiptCheck(deps, request.params.id),
    }),
  );
};
