/**
 * The Daraja APIs the simulator speaks, one folder each (operation.ts says what each gives). A new
 * API is a new folder and one line here. The order is the order of their routes, their keys in
 * the SIM_STATE file and their names in the fault rules.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Ledger } from '../money/ledger.ts';
import { b2b } from './b2b/b2b.operation.ts';
import { b2c } from './b2c/b2c.operation.ts';
import { balance } from './balance/balance.operation.ts';
import { c2b } from './c2b/c2b.operation.ts';
import { CredentialKey } from './initiators/credential.ts';
import { InitiatorBook } from './initiators/initiator-book.ts';
import { initiators } from './initiators/initiators.operation.ts';
import { money } from './money/money.operation.ts';
import { NextOutcomes } from './outcomes/next-outcomes.ts';
import { outcomes } from './outcomes/outcomes.operation.ts';
import type { DarajaOperation, OperationContext } from './operation.ts';
import { qr } from './qr/qr.operation.ts';
import { reversal } from './reversal/reversal.operation.ts';
import { status } from './status/status.operation.ts';
import { stk } from './stk/stk.operation.ts';
import { webhooks } from './webhooks/webhooks.operation.ts';

/** Money first: its ledger is restored before any operation carries on with what moves it. */
export const OPERATIONS = {
  money,
  stk,
  initiators,
  outcomes,
  qr,
  c2b,
  b2c,
  b2b,
  status,
  balance,
  reversal,
  webhooks,
} satisfies Record<string, DarajaOperation>;

/** Each operation, running: by name, as its own `start` made it. */
export type RunningOperations = {
  [Name in keyof typeof OPERATIONS]: ReturnType<(typeof OPERATIONS)[Name]['start']>;
};

/**
 * Starts every operation with what they share, made here once: the ledger of simulated money, the
 * initiators' book (whose log lines go to `logger`) and the numbers' next outcomes.
 */
export function startOperations(
  shared: Omit<OperationContext, 'initiators' | 'ledger' | 'outcomes'>,
  logger: Pick<FastifyBaseLogger, 'warn'>,
): RunningOperations {
  const book = new InitiatorBook(shared.config, new CredentialKey(), (message) =>
    logger.warn(message),
  );
  const context: OperationContext = {
    ...shared,
    initiators: book,
    ledger: new Ledger(shared.config, shared.clock),
    outcomes: new NextOutcomes(),
  };
  return Object.fromEntries(
    Object.entries(OPERATIONS).map(([name, operation]) => [name, operation.start(context)]),
  ) as RunningOperations;
}
