/**
 * The balance's routes, for the shop's signed-in people whatever HISTORY_ACCESS says: the latest
 * reading with the day's money beside it (anyone signed in), and a reading asked now (an owner or
 * a cashier, on this site with the CSRF token).
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { guardedSchema, operatorOf } from '../operators/index.ts';
import { BALANCE_ANSWERS, BALANCE_ASKED_ANSWERS } from './balance.openapi.ts';
import { askBalance, latestBalance, type BalanceDeps } from './balance.service.ts';

export interface BalanceRoutesOptions {
  deps: BalanceDeps;
  gates: Record<'viewer' | 'cashier', onRequestAsyncHookHandler[]>;
}

export const balanceRoutes: FastifyPluginAsyncZod<BalanceRoutesOptions> = async (
  app,
  { deps, gates },
) => {
  app.get(
    '/balance',
    {
      onRequest: gates.viewer,
      schema: guardedSchema(
        {
          summary: 'The balance M-PESA holds, and the day’s money beside it',
          description:
            'The latest Account Balance read (its accounts, and when it was asked and read), and the business day’s money in, money out and fees, with whether they make the change in balance between the day’s first and latest readings.',
          tags: ['Payouts'],
          response: BALANCE_ANSWERS,
        },
        { role: 'viewer' },
        { always: true },
      ),
    },
    async (request) => ({
      success: true as const,
      data: await latestBalance({ ...deps, log: request.log }),
    }),
  );

  app.post(
    '/balance/read',
    {
      onRequest: gates.cashier,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        {
          summary: 'Ask M-PESA for the balance now',
          description:
            'Asks Account Balance now: the answer is the reading as asked; its accounts come with M-PESA’s Result, a few seconds later (`GET /api/balance`).',
          tags: ['Payouts'],
          response: BALANCE_ASKED_ANSWERS,
        },
        { role: 'cashier' },
        { always: true },
      ),
    },
    async (request, reply) => {
      const reading = await askBalance({ ...deps, log: request.log }, operatorOf(request).name);
      return reply.code(202).send({ success: true as const, data: reading });
    },
  );
};
