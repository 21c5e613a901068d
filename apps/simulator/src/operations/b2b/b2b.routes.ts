/**
 * B2B payment requests, BusinessPayBill and BusinessBuyGoods (docs/daraja-protocol.md §M8.1):
 * checked, acknowledged at once, the payment decided (payment.ts) and its Result owed to the
 * ResultURL, as B2C's (operations/b2c/payment-route.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { DarajaGate } from '../../daraja/gate.ts';
import type { OwedResults } from '../../results/owed.ts';
import { paymentRoute } from '../b2c/payment-route.ts';
import type { OperationContext } from '../operation.ts';
import { payBusiness } from './payment.ts';
import { checkB2b } from './validation.ts';

export const B2B_TARGET = 'b2b';
export const B2B_PATH = '/mpesa/b2b/v1/paymentrequest';

export function b2bRoutes(
  app: FastifyInstance,
  gate: DarajaGate,
  context: OperationContext,
  owed: OwedResults,
) {
  const { config, ledger, outcomes } = context;
  paymentRoute(app, gate, context, owed, {
    path: B2B_PATH,
    target: B2B_TARGET,
    nameField: 'Initiator',
    check: (body) => checkB2b(body, config.strictLengths),
    decide: (payment, credential, conversation, now) =>
      payBusiness(payment, credential, conversation, { ledger, outcomes, now }),
  });
}
