/**
 * Made-up payments for `npm run db:seed`, shaped like a Kenyan shop's M-PESA history: each
 * one as the app itself would have left it (the push saved, acknowledged by Daraja, then settled by
 * a callback, an STK query or reconciliation giving up), with the events the app records for
 * that: saved, accepted by M-PESA, and the outcome with the message it came in. Some were paid from
 * the phone's menu to the till or paybill, and a few refunded since (seed-money.ts). The same
 * plan gives the same payments; nothing is remembered from one payment to the next but the last.
 */
import { DEFAULT_REFERENCE, MAX_AMOUNT, MIN_AMOUNT } from '@mpesa/shared';
import { formatDuration } from '../lib/duration.ts';
import { Random, mix32 } from './seed-random.ts';
import { Timeline, eatDigits, eventId, isoTime as iso, receiptFor } from './seed-timeline.ts';
import { DESCRIPTIONS, OUTCOMES, SAFARICOM_PREFIXES, type Outcome } from './seed-outcomes.ts';
import { channelOf, menuPayment, refundedMaybe } from './seed-money.ts';
import type { SeedEvent, SeedTransaction, SeededPayment } from './seed-rows.ts';

export type { SeededPayment } from './seed-rows.ts';

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

const ACCEPTED = 'Success. Request accepted for processing';
const QUERY_ACCEPTED = 'The service request has been accepted successsfully';

/** Amounts skewed toward small ones (log-normal around KES 350), in the round figures shops charge. */
function amountOf(random: Random): number {
  let amount = Math.round(Math.exp(Math.log(350) + 1.25 * random.normal()));
  if (amount >= 1000 && random.chance(0.5)) amount = Math.round(amount / 50) * 50;
  else if (amount >= 100 && random.chance(0.75)) amount = Math.round(amount / 10) * 10;
  return Math.min(MAX_AMOUNT, Math.max(MIN_AMOUNT, amount));
}

/** What one run carries from payment to payment: its streams, its customers, the last payment. */
interface SeedRun {
  plan: SeedPlan;
  random: Random;
  /** Ids and receipts come from their own stream (see seedPayments). */
  ids: Random;
  receiptKeys: number[];
  customers: number;
  customerKey: number;
  timeline: Timeline;
  invoice: number;
  previous: { transaction: SeedTransaction; settled: number } | undefined;
}

/** When a payment happens, how it ends, and when. */
interface Draw {
  index: number;
  created: number;
  outcome: Outcome;
  /** Settled by reconciliation's STK query rather than a callback. */
  byQuery: boolean;
  settled: number;
  acknowledged: number;
}

export function* seedPayments(plan: SeedPlan): Generator<SeededPayment> {
  const random = new Random(plan.seed);
  // Ids and receipts come from their own stream, salted with what is already there, so that a
  // second run with the same seed (--append) adds new payments rather than colliding with its first.
  const ids = new Random(plan.seed, mix32(plan.existing) ^ 0x5eed);
  const run: SeedRun = {
    plan,
    random,
    ids,
    receiptKeys: [ids.uint32(), ids.uint32(), ids.uint32(), ids.uint32()],
    customers: Math.max(10, Math.round(plan.count / 6)),
    customerKey: ids.uint32(),
    timeline: new Timeline(plan.now.getTime(), plan.days, plan.count, random),
    invoice: 1000 + plan.existing,
    previous: undefined,
  };
  const refunding = (index: number) => ({ ...run, now: plan.now.getTime(), index });
  for (let index = 0; index < plan.count; index++) {
    const channel = channelOf(random);
    if (channel !== 'prompt') {
      const created = run.timeline.next();
      const account = channel === 'paybill' ? `INV-${++run.invoice}` : DEFAULT_REFERENCE;
      const phone = phoneOf(run, Math.floor(run.customers * random.float() ** 1.5));
      const paid = { channel, index, created, phone, amount: amountOf(random), account };
      yield refundedMaybe(menuPayment(paid, run), created, refunding(index));
      continue;
    }
    const draw = drawPayment(run, index);
    const saved = savedPayment(run, draw);
    run.previous = { transaction: saved.transaction, settled: draw.settled };
    if (draw.settled > plan.now.getTime()) {
      // Not settled yet: only the last minutes hold these, as reconciliation has them in hand.
      const due = checks(plan, draw.created, plan.now.getTime());
      saved.transaction.next_check_at = iso(due.next);
      saved.transaction.check_attempts = due.attempts;
      yield saved;
      continue;
    }
    yield refundedMaybe(settledPayment(run, draw, saved), draw.settled, refunding(index));
  }
}

/** Reconciliation's checks of a payment created at `created`, up to `until`. */
function checks(plan: SeedPlan, created: number, until: number) {
  const { afterS, maxBackoffS, giveUpS } = plan.reconcile;
  const backoffS = (attempts: number) =>
    Math.min(afterS * 2 ** Math.max(0, attempts - 1), maxBackoffS);
  const giveUpAt = created + giveUpS * 1000;
  let attempts = 0;
  let next = created + afterS * 1000;
  while (next <= until && next < giveUpAt) {
    attempts++;
    next = Math.min(next + backoffS(attempts) * 1000, giveUpAt);
  }
  return { attempts, next };
}

function drawPayment(run: SeedRun, index: number): Draw {
  const { random, plan } = run;
  const { afterS, giveUpS } = plan.reconcile;
  const created = run.timeline.next();
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
  const acknowledged = Math.min(created + random.int(300, 1500), plan.now.getTime());
  return { index, created, outcome, byQuery, settled, acknowledged };
}

/** The payment as saved and acknowledged by Daraja, with those two events. */
function savedPayment(run: SeedRun, draw: Draw): SeededPayment {
  const { random, ids, previous } = run;
  const { created, acknowledged } = draw;
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
  const phone =
    retried?.phone_number ?? phoneOf(run, Math.floor(run.customers * random.float() ** 1.5));
  const amount = retried?.amount ?? amountOf(random);
  const reference =
    retried?.reference ?? (random.chance(0.9) ? `INV-${++run.invoice}` : DEFAULT_REFERENCE);
  const description = retried?.description ?? random.pick(DESCRIPTIONS).text;

  const stamp = eatDigits(created);
  const merchantRequestId = `${ids.hex(4)}-${ids.hex(4)}-${ids.hex(4)}-${ids.hex(12)}${ids.digits(ids.int(4, 7))}`;
  const checkoutRequestId = `ws_CO_${stamp.date.slice(6, 8)}${stamp.date.slice(4, 6)}${stamp.date.slice(0, 4)}${stamp.date.slice(8)}${stamp.millis}${phone.slice(-9)}`;
  const id = ids.uuid();
  const event = (at: number, kind: 'saved' | 'accepted', note: string): SeedEvent => ({
    id: eventId(at, ids),
    transaction_id: id,
    at: iso(at),
    source: 'initiation',
    from_status: kind === 'saved' ? null : 'pending',
    to_status: 'pending',
    kind,
    reason: null,
    note,
    payload: null,
  });
  const initiation = event(created, 'saved', 'saved before the STK push');
  const accepted = event(acknowledged, 'accepted', 'accepted by M-PESA');
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
    channel: 'prompt',
    payer_name: null,
    payer_msisdn: null,
    shortcode: null,
  };
  return { transaction, events: [initiation, accepted], refund: null };
}

function phoneOf(run: SeedRun, customer: number): string {
  const hash = mix32(customer ^ run.customerKey);
  const prefix = SAFARICOM_PREFIXES[hash % SAFARICOM_PREFIXES.length]!;
  return `254${prefix}${String(mix32(hash) % 1_000_000).padStart(6, '0')}`;
}

/** The payment settled as drawn, with the event that settled it and the message it came in. */
function settledPayment(run: SeedRun, draw: Draw, saved: SeededPayment): SeededPayment {
  const { transaction } = saved;
  const { outcome, byQuery, settled } = draw;
  transaction.status = outcome.status;
  transaction.updated_at = iso(settled);
  let payload: string | null = null;
  let note: string | null = null;
  if (outcome.source === 'reconciliation') {
    note = `M-PESA gave no result for this payment within ${formatDuration(run.plan.reconcile.giveUpS)}.`;
    transaction.response_description =
      `${note} Whether the payer paid is not known: check the M-PESA statement for a payment of ` +
      `${transaction.amount} KES from this phone number before asking for the money again.`;
    transaction.check_attempts = checks(run.plan, draw.created, settled).attempts;
  } else {
    transaction.result_code = outcome.resultCode;
    transaction.response_description = outcome.resultDesc;
    if (byQuery) {
      transaction.check_attempts = 1;
      payload = JSON.stringify({
        ResponseCode: '0',
        ResponseDescription: QUERY_ACCEPTED,
        MerchantRequestID: transaction.merchant_request_id,
        CheckoutRequestID: transaction.checkout_request_id,
        ResultCode: outcome.resultCode,
        ResultDesc: outcome.resultDesc,
      });
    } else {
      payload = callbackBody(run, draw, transaction);
    }
  }
  const final: SeedEvent = {
    id: eventId(settled, run.ids),
    transaction_id: transaction.id,
    at: iso(settled),
    source: byQuery ? 'query' : outcome.source,
    from_status: 'pending',
    to_status: outcome.status,
    kind: outcome.source === 'reconciliation' ? 'gave_up' : 'applied',
    reason: null,
    note,
    payload,
  };
  return { transaction, events: [...saved.events, final], refund: null };
}

/** The result callback as Daraja sends it; a success's receipt and date go on the payment too. */
function callbackBody(run: SeedRun, draw: Draw, transaction: SeedTransaction): string {
  const { outcome, settled, created } = draw;
  const callback: Record<string, unknown> = {
    MerchantRequestID: transaction.merchant_request_id,
    CheckoutRequestID: transaction.checkout_request_id,
    ResultCode: Number(outcome.resultCode),
    ResultDesc: outcome.resultDesc,
  };
  if (outcome.status === 'success') {
    // M-PESA's TransactionDate is in whole EAT seconds, a moment before the callback leaves.
    const paid = Math.max(
      Math.floor((settled - run.random.int(0, 3000)) / 1000) * 1000,
      Math.ceil(created / 1000) * 1000,
    );
    const receipt = receiptFor(paid, draw.index, run.receiptKeys);
    transaction.mpesa_receipt_number = receipt;
    transaction.transaction_date = iso(paid);
    callback.CallbackMetadata = {
      Item: [
        { Name: 'Amount', Value: transaction.amount },
        { Name: 'MpesaReceiptNumber', Value: receipt },
        { Name: 'Balance' },
        { Name: 'TransactionDate', Value: Number(eatDigits(paid).date) },
        { Name: 'PhoneNumber', Value: Number(transaction.phone_number) },
      ],
    };
  }
  return JSON.stringify({ Body: { stkCallback: callback } });
}
