/**
 * What Daraja answered to a payment's STK push, recorded: an acknowledgement, a refusal, or no
 * answer at all (the outcome unknown).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { maskCheckoutId } from '@mpesa/shared';
import type { DarajaError } from '../../daraja/daraja-error.ts';
import type { StkPushAck } from '../../daraja/daraja-client.ts';
import type { Database } from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import type { PaymentWrites } from './payment-writes.ts';
import {
  eventRow,
  flag,
  recordEvent,
  transition,
  type EventToRecord,
} from './transaction-outcome.ts';
import * as repo from './transactions.repository.ts';
import * as locks from './phone-locks.repository.ts';

export interface PushDeps {
  db: Kysely<Database>;
  writes: PaymentWrites;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** The payment saved as `id`, its phone, and when the phone's cooldown ends. */
export interface SavedPush {
  id: string;
  phoneNumber: string;
  cooldownEnds: string;
}

/** Records Daraja's acknowledgement of the push, and holds the phone for the cooldown. */
export async function recordAcknowledgement(
  deps: PushDeps,
  saved: SavedPush,
  ack: StkPushAck,
): Promise<void> {
  const at = deps.now().toISOString();
  const texts = {
    responseDescription: ack.responseDescription,
    customerMessage: ack.customerMessage,
    at,
  };
  const accepted: EventToRecord = {
    source: 'initiation',
    kind: 'accepted',
    from: 'pending',
    to: 'pending',
    note: 'accepted by M-PESA',
    at,
  };
  const hold = { phoneNumber: saved.phoneNumber, until: saved.cooldownEnds };
  // The usual case, in one go (payment-writes.ts); it changes nothing when another push's ids are
  // on the payment, which is sorted out here.
  if (
    await deps.writes.acknowledge(deps.db, {
      id: saved.id,
      ids: { merchantRequestId: ack.merchantRequestId, checkoutRequestId: ack.checkoutRequestId },
      texts,
      event: eventRow(saved.id, accepted),
      hold,
    })
  ) {
    return;
  }
  await transact(deps.db, async (trx) => {
    const attached = await repo.attachDarajaIds(trx, saved.id, ack, texts);
    if (attached) await recordEvent(trx, saved.id, accepted);
    else await flagForeignCallback(deps.writes, trx, saved.id, ack, at);
    await locks.holdPhoneUntil(trx, hold.phoneNumber, saved.id, hold.until);
  });
}

/** Records a push that failed: its outcome unknown, or no prompt sent. */
export async function recordPushFailure(
  deps: PushDeps,
  saved: SavedPush,
  error: DarajaError,
): Promise<void> {
  const { id } = saved;
  const at = deps.now().toISOString();
  if (error.kind === 'unknown') {
    // The request may have reached Safaricom and the payer may be looking at a prompt right
    // now: the transaction stays pending for reconciliation instead of being guessed.
    await transact(deps.db, async (trx) => {
      await recordEvent(trx, id, {
        source: 'initiation',
        kind: 'push_unknown',
        from: 'pending',
        to: 'pending',
        note: `outcome unknown: ${error.message}`,
        at,
      });
      await locks.holdPhoneUntil(trx, saved.phoneNumber, id, saved.cooldownEnds);
    });
    deps.log.warn({ transactionId: id, err: error }, 'stk push outcome unknown');
    return;
  }
  const reason =
    error.kind === 'rejected'
      ? (error.errorMessage ?? error.message)
      : 'M-PESA could not be reached; no payment request was sent';
  await transact(deps.db, async (trx) => {
    await transition(
      deps.writes,
      trx,
      { id, status: 'pending' },
      'failed',
      { response_description: reason },
      {
        source: 'initiation',
        kind: 'push_failed',
        note: null,
        payload: JSON.stringify({
          errorCode: error.errorCode,
          errorMessage: error.errorMessage,
          httpStatus: error.httpStatus,
        }),
        at,
      },
    );
    // No prompt was sent, so the phone is free for the next attempt.
    await locks.holdPhoneUntil(trx, saved.phoneNumber, id, at);
  });
  deps.log.warn(
    { transactionId: id, errorCode: error.errorCode, kind: error.kind },
    'stk push refused',
  );
}

/**
 * Daraja acknowledged this push with one CheckoutRequestID after a success callback with another was
 * matched to it by phone and amount: that callback was for another push. A person must sort it out.
 */
async function flagForeignCallback(
  writes: PaymentWrites,
  db: Kysely<Database>,
  id: string,
  ack: StkPushAck,
  at: string,
): Promise<void> {
  const row = await repo.findTransactionById(db, id);
  if (!row) return;
  await flag(
    writes,
    db,
    row,
    `M-PESA acknowledged this request as ${maskCheckoutId(ack.checkoutRequestId)}, but a callback for ` +
      `${maskCheckoutId(row.checkout_request_id ?? '')} had already been matched to it by phone and amount`,
    // The acknowledgement in full: its CheckoutRequestID is the one to ask M-PESA about.
    { source: 'initiation', payload: JSON.stringify(ack), at },
  );
}
