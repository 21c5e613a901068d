/**
 * The seeded payments that came without a prompt, and the refunds: what a shop that
 * also takes till and paybill payments, and sometimes gives money back, has in its history. Each as
 * the app leaves it: a till or paybill payment recorded from M-PESA's C2B confirmation (v2: the
 * payer's number masked, their name; docs/daraja-protocol.md §M3), a refund reversed by M-PESA
 * with its two events and its row in `refunds` (§M7).
 */
import type { PaymentChannel } from '@mpesa/shared';
import { c2bEventPayload } from '../features/c2b/index.ts';
import type { Random } from './seed-random.ts';
import { eventId, isoTime as iso, receiptFor } from './seed-timeline.ts';
import type { SeedEvent, SeedRefund, SeedTransaction, SeededPayment } from './seed-rows.ts';

/** Per 100 payments: paid from the phone's menu to the shop's till, or to its paybill. */
const TILL_PER_100 = 12;
const PAYBILL_PER_100 = 4;
/** Per 1,000 paid payments: refunded since. */
const REFUNDED_PER_1000 = 6;

/** The shop's till (the simulator's, SIMULATOR_C2B_SHORTCODE) and paybill. */
export const SEED_SHORTCODES: Record<Exclude<PaymentChannel, 'prompt'>, string> = {
  till: '600100',
  paybill: '600200',
};
/** What M-PESA's C2B v2 confirmation calls each (TransactionType), kept as the description. */
const TRANSACTION_TYPES = { till: 'Buy Goods', paybill: 'Pay Bill' } as const;

/** Names as M-PESA gives them: upper case, sometimes the first name alone. */
const PAYER_NAMES = [
  'JOHN KAMAU',
  'MARY WANJIKU',
  'PETER OTIENO',
  'GRACE AKINYI',
  'JAMES MWANGI',
  'FAITH CHEBET',
  'DAVID KIPROTICH',
  'ESTHER NJERI',
  'BRIAN OUMA',
  'MERCY WAIRIMU',
  'KEVIN MUTUA',
  'ANN NYAMBURA',
  'SAMUEL',
  'LUCY',
];

/** Why owners give money back, in their own words. */
const REFUND_REASONS = [
  'Paid twice',
  'Customer returned the goods',
  'Order cancelled',
  'Wrong amount paid',
  'Item out of stock',
];
const REFUND_OWNERS = ['Amina Hassan', 'Joseph Njoroge'];
const REVERSED = 'The service request is processed successfully.';
/** Keeps a reversal's receipt apart from every payment's: payments are numbered far below it. */
const REVERSAL_NUMBERS = 2 ** 45;

/** One of `items`, each as likely. */
const anyOf = <T>(random: Random, items: readonly T[]): T =>
  items[random.int(0, items.length - 1)]!;

/** How this payment comes: by the shop's prompt, or from the payer's own menu. */
export function channelOf(random: Random): PaymentChannel {
  const draw = random.float() * 100;
  return draw < TILL_PER_100
    ? 'till'
    : draw < TILL_PER_100 + PAYBILL_PER_100
      ? 'paybill'
      : 'prompt';
}

/** The number as C2B v2 gives it: the first four digits, five stars, the last three, spaced. */
const masked = (phone: string) => `${phone.slice(0, 4)} ***** ${phone.slice(-3)}`;

/** What the menu payment is made of, drawn by seed-data.ts as for a prompt. */
export interface MenuDraw {
  channel: Exclude<PaymentChannel, 'prompt'>;
  index: number;
  created: number;
  phone: string;
  amount: number;
  /** The account number typed for a paybill (the invoice); a till takes none. */
  account: string;
}

/** A till or paybill payment, recorded when its C2B confirmation came: paid, with its receipt. */
export function menuPayment(
  draw: MenuDraw,
  run: { random: Random; ids: Random; receiptKeys: readonly number[] },
): SeededPayment {
  const { channel, created, account } = draw;
  const shortcode = SEED_SHORTCODES[channel];
  const id = run.ids.uuid();
  // M-PESA's TransTime is in whole seconds; the confirmation comes a moment after.
  const paid = Math.floor(created / 1000) * 1000;
  const receipt = receiptFor(paid, draw.index, run.receiptKeys);
  const transaction: SeedTransaction = {
    id,
    reference: account,
    description: TRANSACTION_TYPES[channel],
    phone_number: masked(draw.phone),
    amount: draw.amount,
    status: 'success',
    merchant_request_id: null,
    checkout_request_id: null,
    result_code: null,
    response_description: null,
    customer_message: null,
    mpesa_receipt_number: receipt,
    transaction_date: iso(paid),
    created_at: iso(created),
    updated_at: iso(created),
    next_check_at: null,
    check_attempts: 0,
    channel,
    payer_name: anyOf(run.random, PAYER_NAMES),
    payer_msisdn: masked(draw.phone),
    shortcode,
  };
  const confirmed: SeedEvent = {
    id: eventId(created, run.ids),
    transaction_id: id,
    at: iso(created),
    source: 'c2b',
    from_status: null,
    to_status: 'success',
    kind: 'c2b_confirmed',
    reason: null,
    note: `recorded from M-PESA's C2B confirmation (${channel} ${shortcode})`,
    // As the C2B service writes it, for the timeline to read.
    payload: c2bEventPayload({ shortcode, channel, reference: account, receipt }),
  };
  return { transaction, events: [confirmed], refund: null };
}

/**
 * A paid payment that an owner refunded some hours or days later, if this one was and that time
 * has come: marked refunded, with the request and M-PESA's Result as events, and the refund's row.
 */
export function refundedMaybe(
  payment: SeededPayment,
  settled: number,
  run: { random: Random; ids: Random; receiptKeys: readonly number[]; now: number; index: number },
): SeededPayment {
  const { random, ids } = run;
  const { transaction } = payment;
  if (transaction.status !== 'success' || !random.chance(REFUNDED_PER_1000 / 1000)) return payment;
  const requested = settled + random.int(600_000, 4 * 86_400_000);
  const reversed = requested + random.int(3_000, 40_000);
  if (reversed > run.now) return payment;
  const by = anyOf(random, REFUND_OWNERS);
  const reason = anyOf(random, REFUND_REASONS);
  const receipt = receiptFor(reversed, REVERSAL_NUMBERS + run.index, run.receiptKeys);
  const event = (at: number, kind: 'refund_requested' | 'refunded', payload: object) => ({
    id: eventId(at, ids),
    transaction_id: transaction.id,
    at: iso(at),
    source: 'refund' as const,
    from_status: 'success' as const,
    to_status: kind === 'refunded' ? ('refunded' as const) : ('success' as const),
    kind,
    reason: null,
    note: kind === 'refunded' ? 'M-PESA reversed the payment' : `refund requested by ${by}`,
    payload: JSON.stringify(payload),
  });
  const refund: SeedRefund = {
    id: ids.uuid(),
    transaction_id: transaction.id,
    status: 'reversed',
    amount: transaction.amount,
    reason,
    requested_by: by,
    requested_by_id: null,
    originator_conversation_id: ids.uuid(),
    conversation_id: `AG_${iso(requested).slice(0, 10).replaceAll('-', '')}_${ids.hex(20)}`,
    status_query_id: null,
    result_code: '0',
    result_description: REVERSED,
    reversal_receipt: receipt,
    created_at: iso(requested),
    updated_at: iso(reversed),
    next_check_at: null,
    check_attempts: 0,
    lease_until: null,
    lease_owner: null,
  };
  return {
    transaction: { ...transaction, status: 'refunded', updated_at: iso(reversed) },
    events: [
      ...payment.events,
      event(requested, 'refund_requested', { by, reason }),
      event(reversed, 'refunded', { resultCode: '0', resultDescription: REVERSED, receipt }),
    ],
    refund,
  };
}
