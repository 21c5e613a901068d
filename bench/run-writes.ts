/**
 * bench/run.ts's scenarios that write: callbacks settling distinct payments, one callback delivered
 * again, and payments through the simulator; on PostgreSQL the same with two API instances on one
 * database, the load split between them.
 */
import { successCallback } from '../apps/api/src/test/callbacks.ts';
import type { Dialect, ServerProcess } from './lib.ts';
import { CALLBACK_TARGETS, SECRET, post, type Scenario } from './scenario.ts';

export const callbackFor = (n: number) =>
  successCallback(`ws_CO_BENCH${n}`, {
    amount: 10,
    phoneNumber: `2547${String(n).padStart(8, '0')}`,
    receipt: `UB${String(n).padStart(8, '0')}`,
  });

/** The writes' targets on each database. */
const WRITE_TARGETS: Record<
  Dialect,
  Record<'callbacks' | 'again' | 'payments', Scenario['target']>
> = {
  sqlite: {
    callbacks: { ratio: 0.3, aboveExpress: true },
    again: { ratio: 0.3, aboveExpress: true },
    payments: { perSecond: 1000 },
  },
  postgres: {
    callbacks: { perSecond: 2500 },
    again: { perSecond: 4000 },
    payments: { perSecond: 1000 },
  },
};

/**
 * Callbacks and payments on the writing shop; on PostgreSQL the same again with a second instance
 * on the same database (`writesApi2`), the load split between the two.
 */
export function writeScenarios(
  dialect: Dialect,
  writesApi: ServerProcess,
  writesApi2?: ServerProcess,
): Scenario[] {
  let callbacks = 0;
  // Phones of their own per database: the simulator, shared by both, refuses the same amount to
  // the same phone within two minutes.
  let payments = dialect === 'sqlite' ? 10_000_000 : 50_000_000;
  const targets = WRITE_TARGETS[dialect];
  const distinct = () =>
    post(`/api/mpesa/callback/${SECRET}`, () =>
      callbackFor(1 + (callbacks++ % (CALLBACK_TARGETS - 1))),
    )();
  const payment = () =>
    post('/api/mpesa/stkpush', () => ({
      phoneNumber: `07${String(payments++).padStart(8, '0')}`,
      amount: 10,
    }))();
  const single: Scenario[] = [
    {
      name: 'callbacks, distinct payments',
      dialect,
      server: writesApi,
      target: targets.callbacks,
      request: distinct,
    },
    {
      name: 'callbacks, one delivered again',
      dialect,
      server: writesApi,
      target: targets.again,
      request: post(`/api/mpesa/callback/${SECRET}`, () => callbackFor(0)),
    },
    {
      name: 'payment initiation via the simulator',
      dialect,
      server: writesApi,
      target: targets.payments,
      request: payment,
    },
  ];
  if (!writesApi2) return single;
  const both = { dialect, server: writesApi, alsoServers: [writesApi2] };
  return [
    ...single,
    { name: 'callbacks, distinct payments, 2 instances', ...both, request: distinct },
    { name: 'payment initiation, 2 instances', ...both, request: payment },
  ];
}
