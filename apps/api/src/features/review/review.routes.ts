/**
 * `POST /api/mpesa/transactions/:id/review`: an owner reviews a payment from the web app, as
 * `npm run review -- clear` does (review.ts). Owners only, whatever HISTORY_ACCESS says, since it
 * changes a payment's status; refused cross-site and without the CSRF token.
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { transactionResponseSchema } from '@mpesa/shared/contract';
import { reviewBodySchema } from '@mpesa/shared/contract-admin';
import type { Database } from '../../db/schema.ts';
import { transactionNotFound, validationError } from '../../errors.ts';
import { reviewRefused } from './review-refusals.ts';
import { clientAddress } from '../../lib/client-address.ts';
import { guardedSchema, AUTH_REFUSED, operatorOf } from '../operators/index.ts';
import { PATH_REFUSALS, REFUSED, answer, refusal, refusals } from '../../openapi/responses.ts';
import { SAMPLE, toTransactionDto } from '../payments/index.ts';
import { ReviewError, ReviewedPaymentMissing, clearFlag } from './review.ts';

export interface ReviewRoutesOptions {
  db: Kysely<Database>;
  now: () => Date;
  /** A signed-in owner (features/operators/require-operator.ts), and not from another site. */
  ownerGate: onRequestAsyncHookHandler[];
}

const NOTE_MISSING = 'Say why the flag is cleared: write a note.';

export const reviewRoutes: FastifyPluginAsyncZod<ReviewRoutesOptions> = async (
  app,
  { db, now, ownerGate },
) => {
  app.post(
    '/mpesa/transactions/:id/review',
    {
      onRequest: ownerGate,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        {
          summary: 'Review a payment',
          description:
            'Clears a flagged payment’s flag, keeping its status or settling it as `status`, or ' +
            'settles a payment of unknown outcome (`status` required) from the M-PESA statement. The ' +
            'note and the owner’s name are kept in its timeline and in the audit trail.',
          tags: ['History'],
          params: z.object({ id: z.string().max(1000).describe('The payment’s `transactionId`') }),
          body: reviewBodySchema,
          response: {
            200: answer(transactionResponseSchema, 'The payment as reviewed.', {
              reviewed: { summary: 'Flag cleared', value: { success: true, data: SAMPLE.paid } },
            }),
            ...refusals([
              AUTH_REFUSED.unauthenticated,
              AUTH_REFUSED.roleNotAllowed,
              AUTH_REFUSED.crossSite,
              AUTH_REFUSED.csrf,
              ...PATH_REFUSALS,
              REFUSED.validation,
              refusal('The note is empty', validationError(NOTE_MISSING, 'note')),
              REFUSED.transactionNotFound,
              refusal(
                'The payment is not waiting for review, or changed meanwhile',
                reviewRefused(
                  `Transaction ${SAMPLE.transactionId} is neither flagged nor of unknown outcome.`,
                ),
              ),
              REFUSED.databaseUnavailable,
            ]),
          },
        },
        { role: 'owner' },
      ),
    },
    async (request) => {
      const { note, status } = request.body;
      if (note.trim() === '') throw validationError(NOTE_MISSING, 'note');
      try {
        const row = await clearFlag(db, request.params.id, {
          note,
          ...(status ? { status } : {}),
          now: now(),
          by: {
            actorKind: 'operator',
            actor: operatorOf(request).name,
            address: clientAddress(request),
          },
        });
        return { success: true as const, data: toTransactionDto(row) };
      } catch (error) {
        if (error instanceof ReviewedPaymentMissing) throw transactionNotFound();
        if (error instanceof ReviewError) throw reviewRefused(error.message);
        throw error;
      }
    },
  );
};
