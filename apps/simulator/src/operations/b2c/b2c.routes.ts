/**
 * B2C payment requests, v3 and v1 (docs/daraja-protocol.md §M4): checked, acknowledged at once,
 * the payout decided (payout.ts) and its Result owed to the ResultURL (payment-route.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Failure } from '../../catalogue.ts';
import type { DarajaGate } from '../../daraja/gate.ts';
import type { OwedResults } from '../../results/owed.ts';
import type { OperationContext } from '../operation.ts';
import { paymentRoute } from './payment-route.ts';
import { payOut } from './payout.ts';
import type { UsedIds } from './used-ids.ts';
import { checkB2c } from './validation.ts';

/** The name fault rules give its requests, both versions. */
export const B2C_TARGET = 'b2c';
export const B2C_PATHS = {
  v3: '/mpesa/b2c/v3/paymentrequest',
  v1: '/mpesa/b2c/v1/paymentrequest',
} as const;

/** A v3 OriginatorConversationID used before (§M4.1): the docs' sample, with its full stop. */
export const DUPLICATE_ORIGINATOR: Failure = [
  500,
  '500.002.1001',
  'Duplicate OriginatorConversationID.',
];

export function b2cRoutes(
  app: FastifyInstance,
  gate: DarajaGate,
  context: OperationContext,
  { owed, used }: { owed: OwedResults; used: UsedIds },
) {
  const { config, ledger, outcomes } = context;
  for (const version of ['v3', 'v1'] as const) {
    paymentRoute(app, gate, context, owed, {
      path: B2C_PATHS[version],
      target: B2C_TARGET,
      nameField: 'InitiatorName',
      check: (body) => checkB2c(body, version, config.strictLengths),
      originatorId: (payment) => payment.originatorConversationId,
      // Before the credential: a repeat is the gateway's to refuse, and counts no failure (§M4.5).
      refuse: ({ originatorConversationId: id }) =>
        id !== undefined && used.has(id) ? DUPLICATE_ORIGINATOR : undefined,
      decide(payment, credential, conversation, now) {
        if (payment.originatorConversationId !== undefined)
          used.use(payment.originatorConversationId);
        return payOut(payment, credential, conversation, { ledger, outcomes, now });
      },
    });
  }
}
