/** A webhook test's world: a database, a clock the test moves, and one deliverer's pass. */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';
import { storedPayment } from './stored-payment.ts';
import type { WebhookSettings } from '../config/webhook-settings.ts';
import { deliverDue } from '../features/webhooks/deliverer.ts';
import { enqueuePaymentEvent } from '../features/payments/payment-events.ts';
import type { Resolve } from '../features/webhooks/url-guard.ts';
import { silentLog } from './silent-log.ts';

export { silentLog };

export const TEST_SETTINGS: WebhookSettings = {
  allowPrivateUrls: true,
  httpsOnly: false,
  intervalMs: 50,
  timeoutMs: 3000,
  leaseMs: 11_000,
};

export function webhookClock(start = '2026-11-27T09:00:00.000Z') {
  const clock = { now: new Date(start) };
  return {
    now: () => clock.now,
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
    },
  };
}

/** One pass of a deliverer named `owner`. */
export function deliverOnce(
  db: Kysely<Database>,
  now: () => Date,
  options: {
    owner?: string;
    settings?: Partial<WebhookSettings>;
    resolve?: Resolve;
    log?: FastifyBaseLogger;
  } = {},
): Promise<number> {
  return deliverDue(
    {
      db,
      now,
      log: options.log ?? silentLog,
      settings: { ...TEST_SETTINGS, ...options.settings },
      ...(options.resolve ? { resolve: options.resolve } : {}),
    },
    options.owner ?? 'test-deliverer',
  );
}

/** A payment saved, and its `payment.succeeded` event enqueued in the same transaction. */
export async function paymentSucceeded(db: Kysely<Database>, id: string, at: Date) {
  return transact(db, async (trx) => {
    const row = storedPayment(id, at.toISOString(), { status: 'success' });
    await trx.insertInto('transactions').values(row).execute();
    const saved = await trx
      .selectFrom('transactions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return enqueuePaymentEvent(trx, 'payment.succeeded', saved, at);
  });
}
