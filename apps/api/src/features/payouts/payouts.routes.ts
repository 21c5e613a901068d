/**
 * The payouts' routes (issue 37), for the shop's signed-in people whatever HISTORY_ACCESS says:
 * they move the shop's money. A viewer sees them; an owner or a cashier proposes; an owner approves
 * or declines. Every change is refused cross-site and without the CSRF token, as every owner's is.
 */
import type { onRequestAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PAYOUT_BATCH_MAX_CHARS,
  payoutExportQuerySchema,
  payoutListQuerySchema,
  declinePayoutBodySchema,
  proposeBatchBodySchema,
  proposePayoutBodySchema,
} from '@mpesa/shared/contract-payouts';
import type { FastifyRequest } from 'fastify';
import { clientAddress } from '../../lib/client-address.ts';
import { recordAudit } from '../../audit/audit.ts';
import { auditDetail } from '../../audit/audit-details.ts';
import { businessDayOf } from '../../lib/business-day.ts';
import { guardedSchema, operatorOf, uncached } from '../operators/index.ts';
import { exportPayouts, listPayoutPage, payoutSummary } from './payout-history.ts';
import * as doc from './payouts.openapi.ts';
import { payoutBatchRefused } from './payout-refusals.ts';
import { readPayoutCsv } from './payout-csv.ts';
import {
  approvePayout,
  decideBatch,
  declinePayout,
  findPayoutDto,
  type PayoutActor,
  type PayoutDeps,
} from './payouts.service.ts';
import { proposeBatch, proposePayout } from './payout-proposal.ts';

export interface PayoutRoutesOptions {
  deps: PayoutDeps;
  /** Signed in with at least each role (features/operators/require-operator.ts). */
  gates: Record<'viewer' | 'cashier' | 'owner', onRequestAsyncHookHandler[]>;
}

const idParams = z.object({ id: z.string().max(64).describe('The payout’s `id`') });
const batchParams = z.object({ id: z.string().max(64).describe('The batch’s `batchId`') });
const always = { always: true };

function actorOf(request: FastifyRequest): PayoutActor {
  const operator = operatorOf(request);
  return { ...operator, address: clientAddress(request) };
}

type App = Parameters<FastifyPluginAsyncZod<PayoutRoutesOptions>>[0];
type DepsOf = (request: FastifyRequest) => PayoutDeps;

/** The list and one payout: anyone signed in. */
function readRoutes(app: App, base: PayoutDeps, gates: PayoutRoutesOptions['gates']) {
  app.get(
    '/payouts',
    {
      onRequest: gates.viewer,
      schema: guardedSchema(
        {
          ...doc.LIST_DESCRIBED,
          querystring: payoutListQuerySchema,
          response: doc.LIST_ANSWERS,
        },
        { role: 'viewer' },
        always,
      ),
    },
    async (request) => {
      const { cursor, limit, ...filters } = request.query;
      return {
        success: true as const,
        data: await listPayoutPage(base, filters, { cursor, limit }),
      };
    },
  );

  app.get(
    '/payouts/:id',
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
      data: await findPayoutDto(base, request.params.id),
    }),
  );
}

/** Money out at a glance (anyone signed in) and as CSV (an owner's, in the audit trail). */
function moneyOutRoutes(app: App, base: PayoutDeps, gates: PayoutRoutesOptions['gates']) {
  app.get(
    '/payouts/summary',
    {
      onRequest: gates.viewer,
      schema: guardedSchema(
        { ...doc.SUMMARY_DESCRIBED, response: doc.SUMMARY_ANSWERS },
        { role: 'viewer' },
        always,
      ),
    },
    async () => ({ success: true as const, data: await payoutSummary(base) }),
  );

  app.get(
    '/payouts/export',
    {
      onRequest: [uncached(), ...gates.owner],
      schema: guardedSchema(
        {
          ...doc.EXPORT_DESCRIBED,
          querystring: payoutExportQuerySchema,
          response: doc.EXPORT_ANSWERS,
        },
        { role: 'owner' },
        always,
      ),
    },
    async (request, reply) => {
      const { lang, ...filters } = request.query;
      const by = actorOf(request);
      await recordAudit(base.db, {
        at: base.now(),
        actorKind: 'operator',
        actor: by.name,
        action: 'payouts_export',
        detail: auditDetail.payoutsExport(filters),
        address: by.address,
      });
      const day = businessDayOf(base.now(), base.timeZone);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="payouts-${day}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(exportPayouts(base, filters, lang));
    },
  );
}

/** One payout, or a batch from a file, proposed: an owner or a cashier. */
function proposalRoutes(app: App, deps: DepsOf, gates: PayoutRoutesOptions['gates']) {
  app.post(
    '/payouts',
    {
      onRequest: gates.cashier,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        {
          ...doc.PROPOSE_DESCRIBED,
          body: proposePayoutBodySchema.meta({
            'x-examples': {
              salary: {
                summary: 'A week’s wages to a phone',
                value: { kind: 'SalaryPayment', to: '0708374149', amount: 1500, reason: 'Wages' },
              },
            },
          }),
          response: doc.PROPOSE_ANSWERS,
        },
        { role: 'cashier' },
        always,
      ),
    },
    async (request, reply) => {
      const payout = await proposePayout(deps(request), request.body, actorOf(request));
      return reply.code(201).send({ success: true as const, data: payout });
    },
  );

  app.post(
    '/payouts/batches',
    {
      onRequest: gates.cashier,
      preHandler: app.csrfProtection,
      // The file's text, JSON-escaped: up to about twice its characters.
      bodyLimit: PAYOUT_BATCH_MAX_CHARS * 2 + 1024,
      schema: guardedSchema(
        {
          ...doc.BATCH_DESCRIBED,
          body: proposeBatchBodySchema.meta({
            'x-examples': {
              three: {
                summary: 'Three payouts',
                value: {
                  csv: 'to,amount,reason\n0708374149,1500,Wages\n0705912645,800,Delivery\n600000,2000,Stock',
                },
              },
            },
          }),
          response: doc.BATCH_ANSWERS,
        },
        { role: 'cashier' },
        always,
      ),
    },
    async (request, reply) => {
      const read = readPayoutCsv(request.body.csv);
      if (!read.ok) {
        const rows = new Set(read.problems.map((problem) => problem.row)).size;
        throw payoutBatchRefused(
          read.problems,
          `The file was not taken: ${rows} ${rows === 1 ? 'row has a problem' : 'rows have problems'}. Nothing was proposed.`,
        );
      }
      const batch = await proposeBatch(deps(request), read.lines, actorOf(request));
      return reply.code(201).send({ success: true as const, data: batch });
    },
  );
}

/** A payout, or a batch's, approved or declined: an owner, never the proposer for approval. */
function decisionRoutes(app: App, deps: DepsOf, gates: PayoutRoutesOptions['gates']) {
  app.post(
    '/payouts/:id/approve',
    {
      onRequest: gates.owner,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        { ...doc.APPROVE_DESCRIBED, params: idParams, response: doc.APPROVE_ANSWERS },
        { role: 'owner' },
        always,
      ),
    },
    async (request) => ({
      success: true as const,
      data: await approvePayout(deps(request), request.params.id, actorOf(request)),
    }),
  );

  app.post(
    '/payouts/:id/decline',
    {
      onRequest: gates.owner,
      preHandler: app.csrfProtection,
      schema: guardedSchema(
        {
          ...doc.DECLINE_DESCRIBED,
          params: idParams,
          body: declinePayoutBodySchema.meta({
            'x-examples': {
              declined: { summary: 'Declined, with why', value: { note: 'Paid in cash already' } },
            },
          }),
          response: doc.DECLINE_ANSWERS,
        },
        { role: 'owner' },
        always,
      ),
    },
    async (request) => ({
      success: true as const,
      data: await declinePayout(
        deps(request),
        request.params.id,
        actorOf(request),
        request.body?.note,
      ),
    }),
  );

  for (const decision of ['approve', 'decline'] as const) {
    app.post(
      `/payouts/batches/:id/${decision}`,
      {
        onRequest: gates.owner,
        preHandler: app.csrfProtection,
        schema: guardedSchema(
          {
            ...doc.BATCH_DECISION_DESCRIBED,
            params: batchParams,
            response: doc.BATCH_DECISION_ANSWERS,
          },
          { role: 'owner' },
          always,
        ),
      },
      async (request) => ({
        success: true as const,
        data: {
          payouts: await decideBatch(deps(request), request.params.id, actorOf(request), decision),
        },
      }),
    );
  }
}

export const payoutRoutes: FastifyPluginAsyncZod<PayoutRoutesOptions> = async (
  app,
  { deps: base, gates },
) => {
  const deps = (request: FastifyRequest): PayoutDeps => ({ ...base, log: request.log });
  readRoutes(app, base, gates);
  moneyOutRoutes(app, base, gates);
  proposalRoutes(app, deps, gates);
  decisionRoutes(app, deps, gates);
};
