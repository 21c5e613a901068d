/**
 * Made-up payments for `npm run db:seed`, shaped like a Kenyan shop's M-PESA Express history: each
 * one as the app itself would have left it (the push saved, acknowledged by Daraja, then settled by
 * a callback, an STK query or reconciliation giving up), with the events the app records for
 * that: saved, accepted by M-PESA, and the outcome with the message it came in. The same
 * plan gives the same payments; nothing is remembered from one payment to the next but the last.
 */
import { DEFAULT_DESCRIPTION, DEFAULT_REFERENCE, MAX_AMOUNT, MIN_AMOUNT } from '@mpesa/shared';
import { formatDuration } from '../lib/duration.ts';
import type { NewTransactionEventRow, NewTransactionRow } from './schema.ts';
import { Random, mix32, permute46 } from './seed-random.ts';
import { Timeline, eatDigits, isoTime as iso } from './seed-timeline.ts';
import { OUTCOMES, SAFARICOM_PREFIXES, type Outcome } from './seed-outcomes.ts';

export interface SeedPlan {
  count: number;
  days: number;
  seed: number;
  /** The window of `days` days ends here. */
  now: Date;
  /** Payments already in the database: invoice numbers continue after them, ids differ from theirs. */
  existing: number;
  /** The app's reconciliation settings, which decide when pending payments are checked or given up. */
  reconcile: { afterS: number; maxBackoffS: number; giveUpS: number };
}

/** Every column the app fills when it saves a payment (leases and flags stay empty). */
export type SeedTransaction = Required<
  Omit<NewTransactionRow, 'lease_until' | 'lease_owner' | 'flagged_reason'>
>;
export type SeedEvent = Required<NewTransactionEventRow>;
export interface SeededPayment {
  transaction: SeedTransaction;
  events: SeedEvent[];
}

const ACCEPTED = 'Success. Request accepted for processing';
const QUERY_ACCEPTED = 'The service request has been accepted successsfully';
const DESCRIPTIONS = [
  { text: DEFAULT_DESCRIPTION, weight: 50 },
  { text: 'Groceries', weight: 14 },
  { text: 'Cooking gas refill', weight: 6 },
  { text: 'Hardware supplies', weight: 6 },
  { text: 'Phone accessories', weight: 5 },
  { text: 'School uniform', weight: 4 },
  { text: 'Delivery fee', weight: 8 },
  { text: 'Deposit for order', weight: 7 },
] as const;

/** Amounts skewed toward small ones (log-normal around KES 350), in the round figures shops charge. */
function amountOf(random: Random): number {
  let amount = Math.round(Math.exp(Math.log(350) + 1.25 * random.normal()));
  if (amount >= 1000 && random.chance(0.5)) amount = Math.round(amount / 50) * 50;
  else if (amount >= 100 && random.chance(0.75)) amount = Math.round(amount / 10) * 10;
  return Math.min(MAX_AMOUNT, Math.max(MIN_AMOUNT, amount));
}

export function* seedPayments(plan: SeedPlan): Generator<SeededPayment> {
  const random = new Random(plan.seed);
  // Ids and receipts come from their own stream, salted with what is already there, so that a
  // second run with the same seed (--append) adds new payments rather than colliding with its first.
  const ids = new Random(plan.seed, mix32(plan.existing) ^ 0x5eed);
  const receiptKeys = [ids.uint32(), ids.uint32(), ids.uint32(), ids.uint32()];
  const customers = Math.max(10, Math.round(plan.count / 6));
  const customerKey = ids.uint32();
  const now = plan.now.getTime();
  const { afterS, maxBackoffS, giveUpS } = plan.reconcile;
  const timeline = new Timeline(now, plan.days, plan.count, random);
  let invoice = 1000 + plan.existing;
  let previous: { transaction: SeedTransaction; settled: number } | undefined;

  const phoneOf = (customer: number): string => {
    const hash = mix32(customer ^ customerKey);
    const prefix = SAFARICOM_PREFIXES[hash % SAFARICOM_PREFIXES.length]!;
    return `254${prefix}${String(mix32(hash) % 1_000_000).padStart(6, '0')}`;
  };
  const backoffS = (attempts: number) =>
    Math.min(afterS * 2 ** Math.max(0, attempts - 1), maxBackoffS);
  /** Reconciliation's checks of a payment created at `created`, up to `until`. */
  const checks = (created: number, until: number) => {
    const giveUpAt = created + giveUpS * 1000;
    let attempts = 0;
    let next = created + afterS * 1000;
    while (next <= until && next < giveUpAt) {
      attempts++;
      next = Math.min(next + backoffS(attempts) * 1000, giveUpAt);
    }
    return { attempts, next };
  };

  for (let index = 0; index < plan.count; index++) {
    const created = timeline.next();
    const outcome: Outcome = random.pick(OUTCOMES);
    const byQuery =
      outcome.status !== 'success' && outcome.source === 'callback' && random.chance(0.04);
    const settled =
      outcome.source === 'reconciliation'
        ? created + giveUpS * 1000 + random.int(0, 5000)
        : byQuery
          ? created + afterS * 1000 + random.int(500, 4000)
          : created + random.int(outcome.delayS[0] * 1000, outcome.delayS[1] * 1000);
    // Daraja acknowledges the push within a second or two, before any callback can come.
    const acknowledged = Math.min(created + random.int(300, 1500), now);

    // A payer who cancelled, or whose phone timed out, often tries again within minutes: then this
    // payment is the retry of the one before, with the same phone, amount and invoice.
    const retried =
      previous !== undefined &&
      previous.transaction.status !== 'success' &&
      created > previous.settled &&
      created - previous.settled < 600_000 &&
      random.chance(0.5)
        ? previous.transaction
        : undefined;
    const phone = retried?.phone_number ?? phoneOf(Math.floor(customers * random.float() ** 1.5));
    const amount = retried?.amount ?? amountOf(random);
    const reference =
      retried?.reference ?? (random.chance(0.9) ? `INV-${++invoice}` : DEFAULT_REFERENCE);
    const description = retried?.description ?? random.pick(DESCRIPTIONS).text;

    const stamp = eatDigits(created);
    const merchantRequestId = `${ids.hex(4)}-${ids.hex(4)}-${ids.hex(4)}-${ids.hex(12)}${ids.digits(ids.int(4, 7))}`;
    const checkoutRequestId = `ws_CO_${stamp.date.slice(6, 8)}${stamp.date.slice(4, 6)}${stamp.date.slice(0, 4)}${stamp.date.slice(8)}${stamp.millis}${phone.slice(-9)}`;
    const id = ids.uuid();
    const initiation: SeedEvent = {
      id: eventId(created, ids),
      transaction_id: id,
      at: iso(created),
      source: 'initiation',
      from_status: null,
      to_status: 'pending',
      note: 'saved before the STK push',
      payload: null,
    };
    const accepted: SeedEvent = {
      id: eventId(acknowledged, ids),
      transaction_id: id,
      at: iso(acknowledged),
      source: 'initiation',
      from_status: 'pending',
      to_status: 'pending',
      note: 'accepted by M-PESA',
      payload: null,
    };
    const transaction: SeedTransaction = {
      id,
      reference,
      description,
      phone_number: phone,
      amount,
      status: 'pending',
      merchant_request_id: merchantRequestId,
      checkout_request_id: checkoutRequestId,
      result_code: null,
      response_description: ACCEPTED,
      customer_message: ACCEPTED,
      mpesa_receipt_number: null,
      transaction_date: null,
      created_at: iso(created),
      updated_at: iso(acknowledged),
      next_check_at: null,
      check_attempts: 0,
    };
    previous = { transaction, settled };

    if (settled > now) {
      // Not settled yet: only the last minutes hold these, as reconciliation has them in hand.
      const due = checks(created, now);
      transaction.next_check_at = iso(due.next);
      transaction.check_attempts = due.attempts;
      yield { transaction, events: [initiation, accepted] };
      continue;
    }

    transaction.status = outcome.status;
    transaction.updated_at = iso(settled);
    let payload: string | null = null;
    let note: string | null = null;
    if (outcome.source === 'reconciliation') {
      note = `M-PESA gave no result for this payment within ${formatDuration(giveUpS)}.`;
      transaction.response_description =
        `${note} Whether the payer paid is not known: check the M-PESA statement for a payment of ` +
        `${amount} KES from this phone number before asking for the money again.`;
      transaction.check_attempts = checks(created, settled).attempts;
    } else {
      transaction.result_code = outcome.resultCode;
      transaction.response_description = outcome.resultDesc;
      if (byQuery) {
        transaction.check_attempts = 1;
        payload = JSON.stringify({
          ResponseCode: '0',
          ResponseDescription: QUERY_ACCEPTED,
          MerchantRequestID: merchantRequestId,
          CheckoutRequestID: checkoutRequestId,
          ResultCode: outcome.resultCode,
          ResultDesc: outcome.resultDesc,
        });
      } else {
        const callback: Record<string, unknown> = {
          MerchantRequestID: merchantRequestId,
          CheckoutRequestID: checkoutRequestId,
          ResultCode: Number(outcome.resultCode),
          ResultDesc: outcome.resultDesc,
        };
        if (outcome.status === 'success') {
          // M-PESA's TransactionDate is in whole EAT seconds, a moment before the callback leaves.
          const paid = Math.max(
            Math.floor((settled - random.int(0, 3000)) / 1000) * 1000,
            Math.ceil(created / 1000) * 1000,
          );
          const receipt = receiptFor(paid, index, receiptKeys);
          transaction.mpesa_receipt_number = receipt;
          transaction.transaction_date = iso(paid);
          callback.CallbackMetadata = {
            Item: [
              { Name: 'Amount', Value: amount },
              { Name: 'MpesaReceiptNumber', Value: receipt },
              { Name: 'Balance' },
              { Name: 'TransactionDate', Value: Number(eatDigits(paid).date) },
              { Name: 'PhoneNumber', Value: Number(phone) },
            ],
          };
        }
        payload = JSON.stringify({ Body: { stkCallback: callback } });
      }
    }
    const final: SeedEvent = {
      id: eventId(settled, ids),
      transaction_id: id,
      at: iso(settled),
      source: byQuery ? 'query' : outcome.source,
      from_status: 'pending',
      to_status: outcome.status,
      note,
      payload,
    };
    yield { transaction, events: [initiation, accepted, final] };
  }
}

/** Shaped like the app's sortable event ids: the time, a counter, then randomness. */
function eventId(at: number, ids: Random): string {
  return `${at.toString(16).padStart(12, '0')}000000${ids.hex(16)}`;
}

/**
 * 10 uppercase letters and digits; the first advances with the year (U = 2026), the other nine
 * are the payment's number shuffled, so no two payments of one run share a receipt.
 */
function receiptFor(at: number, index: number, keys: readonly number[]): string {
  const year = new Date(at + 3 * 3_600_000).getUTCFullYear();
  const letter = String.fromCharCode(65 + ((((year - 2006) % 26) + 26) % 26));
  return letter + permute46(index, keys).toString(36).toUpperCase().padStart(9, '0');
}
