/**
 * A payment saved before its STK push (transactions.service.ts): the payment as pending, its
 * phone's lock, its `saved` event, the address's count against the per-address limit and the
 * Idempotency-Key told the payment's id, all in the caller's transaction. A count over the limit or
 * a busy phone is refused, which rolls all of it back.
 */
import type { Kysely } from 'kysely';
import type { InitiatePayment } from '@mpesa/shared/contract';
import { rateLimited } from '../../errors.ts';
import type { Database, NewTransactionRow } from '../../db/schema.ts';
import { busyPhoneError } from './initiation-errors.ts';
import type { PaymentWrites } from './payment-writes.ts';
import * as locks from './phone-locks.repository.ts';
import { eventRow } from './transaction-outcome.ts';

export const later = (from: Date, ms: number) => new Date(from.getTime() + ms).toISOString();

/** What is saved, and who is counted. */
export interface PendingPayment {
  input: InitiatePayment;
  id: string;
  now: Date;
  limit?: RequestLimit | undefined;
  /** The request's Idempotency-Key, already taken (idempotency.ts). */
  idempotencyKey?: string | undefined;
  /** The payment link it is made through (features/links/), if any. */
  link?: LinkOfPayment | undefined;
}

/** The payment link a payment is made through (features/links/). */
export interface LinkOfPayment {
  id: string;
}

/** The per-address limit on payment requests, counted with the payment it lets through. */
export interface RequestLimit {
  /** Who is counted: the route and the client's address (limitKeyFor). */
  key: string;
  /** Requests allowed per window (0: no limit). */
  max: number;
  windowS: number;
}

/** transactions.service.ts `PaymentDeps`' writes and timings (described there). */
interface SaveDeps {
  writes: PaymentWrites;
  reconcileAfterS: number;
  phoneCooldownS: number;
  pushDeadlineMs: number;
}

/** Saves the payment as pending and takes its phone's lock, or refuses it (see the file's head). */
export async function savePending(
  deps: SaveDeps,
  trx: Kysely<Database>,
  pending: PendingPayment,
): Promise<void> {
  const { input, id, now, limit, idempotencyKey } = pending;
  const createdAt = now.toISOString();
  const payment = pendingRow(deps, pending);
  // Held while the push may be on its way; cut back to the cooldown once it has ended.
  const lockedUntil = later(now, Math.max(deps.phoneCooldownS * 1000, deps.pushDeadlineMs));
  const event = eventRow(id, {
    source: 'initiation',
    kind: 'saved',
    from: null,
    to: 'pending',
    note: 'saved before the STK push',
    at: createdAt,
  });
  // The address's count goes up with the payment it lets through, in the same commit: a request
  // refused for any reason (the limit itself, a busy phone) leaves it as it was.
  const hit =
    limit && limit.max > 0
      ? {
          key: limit.key,
          windowIndex: Math.floor(now.getTime() / (limit.windowS * 1000)),
          max: limit.max,
        }
      : undefined;
  const { hits, locked } = await deps.writes.savePending(trx, {
    hit,
    payment,
    lock: { phoneNumber: input.phoneNumber, now: createdAt, lockedUntil },
    event,
    idempotencyKey,
  });
  if (hits !== null) refuseOverLimit(hits, limit!, now);
  if (!locked) await refuseBusyPhone(trx, input.phoneNumber, now);
}

/** Refuses a request over the per-address limit, until the address's window ends. */
function refuseOverLimit(hits: number, limit: RequestLimit, now: Date): void {
  if (hits <= limit.max) return;
  const windowMs = limit.windowS * 1000;
  throw rateLimited(Math.ceil((windowMs - (now.getTime() % windowMs)) / 1000));
}

/** Refuses a phone whose lock another payment holds, saying which and until when. */
async function refuseBusyPhone(trx: Kysely<Database>, phone: string, now: Date): Promise<never> {
  const holder = await locks.findPhoneLockHolder(trx, phone);
  throw busyPhoneError(holder, now);
}

function pendingRow(deps: SaveDeps, { input, id, now, link }: PendingPayment): NewTransactionRow {
  const createdAt = now.toISOString();
  return {
    id,
    reference: input.reference,
    description: input.description,
    phone_number: input.phoneNumber,
    amount: input.amount,
    status: 'pending',
    merchant_request_id: null,
    checkout_request_id: null,
    result_code: null,
    response_description: null,
    customer_message: null,
    mpesa_receipt_number: null,
    transaction_date: null,
    created_at: createdAt,
    updated_at: createdAt,
    next_check_at: later(now, deps.reconcileAfterS * 1000),
    lease_owner: null,
    lease_until: null,
    flagged_reason: null,
    link_id: link?.id ?? null,
  };
}
