/** One reconciliation pass, as an instance's loop would run it, against the given Daraja and clock. */
import type { FastifyBaseLogger } from 'fastify';
import { createDarajaClient } from '../daraja/daraja-client.ts';
import { reconcileDue } from '../features/reconciliation/reconciler.ts';
import { paymentWritesFor } from '../features/payments/index.ts';
import { testConfig } from './test-app.ts';
import type { TestDatabase } from './test-db.ts';

const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

export function reconcileOnce(
  database: TestDatabase,
  {
    darajaUrl,
    now,
    env = {},
  }: { darajaUrl: string; now: () => Date; env?: Record<string, string> },
): Promise<number> {
  const config = testConfig({ MPESA_BASE_URL: darajaUrl, ...env });
  return reconcileDue({
    db: database.db,
    dialect: database.dialect,
    writes: paymentWritesFor(database.dialect),
    daraja: createDarajaClient({ ...config.mpesa, initiator: config.refunds.initiator }),
    callbackUrl: 'unused',
    log: silent,
    now,
    phoneCooldownS: config.limits.phoneCooldownS,
    reconcileAfterS: config.reconcile.firstCheckS,
    pushDeadlineMs: config.reconcile.leaseMs,
    instanceId: 'test-instance',
    settings: config.reconcile,
  });
}
