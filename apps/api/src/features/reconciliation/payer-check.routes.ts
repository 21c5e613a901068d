/**
 * POST /mpesa/transactions/:id/check: a payer's "I have paid". Open to anyone with the payment's
 * link, as its page is (GET /mpesa/transactions/:id), and answered as that page shows the payment,
 * with what M-PESA was found to say (payer-check.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { checkResponseSchema } from '@mpesa/shared/contract-check';
import { checkTooSoon, checksSpent, tooManyChecks } from '../../errors.ts';
import { clientAddress, limitKeyFor } from '../../lib/client-address.ts';
import { guardedSchema, type Gate, accessOf, uncached } from '../operators/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import {
  SAMPLE,
  findTransaction,
  payersView,
  getMerchantView,
  getTransaction,
} from '../payments/index.ts';
import { CHECK_GAP_S, CHECKS_PER_ADDRESS, CHECKS_PER_PAYMENT } from './payer-check.ts';
import { checkWithMpesa } from './payer-check.ts';
import type { PaymentDeps } from '../payments/index.ts';

export interface PayerCheckRoutesOptions {
  deps: PaymentDeps;
  /** The payment page's gate (HISTORY_ACCESS=operators): the payer's view, or the merchant's. */
  paymentPageGuard?: Gate | undefined;
}

const DESCRIBED = {
  summary: 'Ask M-PESA now about a pending payment (“I have paid”)',
  description:
    'For a payer who has paid and is still told to wait: M-PESA is asked at once (an STK query) ' +
    'and a final answer is applied as reconciliation applies one. `found` says what came of it: ' +
    '`result` (M-PESA gave the outcome; `data` shows it), `processing` (M-PESA is still waiting ' +
    'for the payer), `unreachable` (M-PESA could not be asked), `not_sent` (M-PESA has not ' +
    'acknowledged the request yet), `settled` (the payment was no longer pending: M-PESA was not ' +
    `asked). A payment may be checked once every ${CHECK_GAP_S} s and ${CHECKS_PER_PAYMENT} times ` +
    `in all; an address ${CHECKS_PER_ADDRESS} times a minute.`,
  tags: ['Payments'],
};

const ANSWERS = {
  200: answer(checkResponseSchema, 'The payment as its page shows it, and what M-PESA said.', {
    paid: {
      summary: 'M-PESA said it was paid',
      value: { success: true, data: SAMPLE.paid, found: 'result' },
    },
    waiting: {
      summary: 'M-PESA is still waiting for the payer',
      value: { success: true, data: SAMPLE.pending, found: 'processing' },
    },
  }),
  ...refusals([
    ...PATH_REFUSALS,
    REFUSED.transactionNotFound,
    refusal(`This payment was checked less than ${CHECK_GAP_S} s ago`, checkTooSoon(7)),
    refusal('This payment was checked as often as a payer may', checksSpent(1800)),
    refusal('This address checked too many payments this minute', tooManyChecks(42)),
    REFUSED.databaseUnavailable,
  ]),
};

export const payerCheckRoutes: FastifyPluginAsyncZod<PayerCheckRoutesOptions> = async (
  app,
  { deps, paymentPageGuard: gate },
) => {
  app.post(
    '/mpesa/transactions/:id/check',
    {
      // The payer's view or the merchant's, by the credential sent: kept by no cache on the way.
      ...(gate ? { onRequest: [uncached(['Cookie', 'Authorization']), gate.onRequest] } : {}),
      schema: guardedSchema(
        {
          ...DESCRIBED,
          params: z.object({
            id: z.string().describe('The `transactionId` the payment was started with'),
          }),
          response: ANSWERS,
        },
        gate?.rule,
        { open: true },
      ),
    },
    async (request) => {
      const { id } = request.params;
      const row = await findTransaction(deps, id);
      const { found } = await checkWithMpesa(
        { ...deps, log: request.log },
        row,
        limitKeyFor(clientAddress(request)),
      );
      const reader = gate ? accessOf(request) : undefined;
      const data = !gate
        ? await getTransaction(deps, id)
        : reader
          ? await getMerchantView(deps, id, {
              owner: reader.kind === 'operator' && reader.role === 'owner',
            })
          : payersView(await getTransaction(deps, id));
      return { success: true as const, data, found };
    },
  );
};
