import type { EventKind, TransactionStatus } from '@mpesa/shared';

/**
 * People's words for what happened to a payment: ONE table, per Daraja ResultCode
 * (docs/daraja-protocol.md §4.2, the codes a payer can meet), per final status (when there is no
 * code, or one not listed) and per timeline event kind (packages/shared/src/event-kinds.ts), each
 * with the payer's sentence and the merchant's. Keyed by ResultCode, never by ResultDesc, whose
 * wording drifts. Daraja's own text stays beside these: the Response row of docs/product.md §2 for
 * the payer, "M-PESA's own messages" for the merchant. No "STK query", "callback" or
 * "reconciliation" here: those are our words, not the reader's.
 */

/** A sentence for each reader. */
export interface Said {
  payer: string;
  merchant: string;
}

/** What a timeline event's sentence is told. */
export interface EventContext {
  /** What M-PESA reported, or the status the event brought, in the table's `results` words. */
  result: string;
  /** The status the event brought, in the status badge's words. */
  status: string;
  /** M-PESA's receipt, when the event brought one. */
  receipt: string | null;
  /** Our own question to M-PESA (an STK query), not M-PESA's own message (a callback). */
  asked: boolean;
  /** Who reviewed the payment, when the API names them. */
  who: string | null;
}

/** A timeline event's sentence for each reader. */
export interface EventSaid {
  payer: (context: EventContext) => string;
  merchant: (context: EventContext) => string;
}

const PAID = 'You paid. M-PESA sends you a confirmation message.';
const NOT_SET_UP: Said = {
  payer:
    'The business’s M-PESA account is not set up for this kind of payment, so no money moved. Please tell the business.',
  merchant:
    'The shop’s M-PESA account is not set up for this kind of payment (its till or paybill settings). Check them with Safaricom.',
};

/** "M-PESA told us" (its own message) or "We asked M-PESA about this payment" (our question). */
const told = (c: EventContext) =>
  c.asked ? 'We asked M-PESA about this payment' : 'M-PESA told us';
const withReceipt = (c: EventContext) => (c.receipt ? `, receipt ${c.receipt}` : '');
const both = (say: (c: EventContext) => string): EventSaid => ({ payer: say, merchant: say });

export const en = {
  codes: {
    '0': { payer: PAID, merchant: 'The customer paid. M-PESA sent them a confirmation message.' },
    '1': {
      payer:
        'Your M-PESA balance was too low for this payment, so no money moved. Top up, then try again.',
      merchant: 'The customer’s M-PESA balance was too low for this payment.',
    },
    '2': {
      payer:
        'M-PESA declined the amount: it is below the smallest payment M-PESA allows. No money moved.',
      merchant: 'The amount is below the smallest payment M-PESA allows.',
    },
    '3': {
      payer:
        'M-PESA declined the amount: it is more than one M-PESA payment can be. No money moved.',
      merchant: 'The amount is more than one M-PESA payment can be.',
    },
    '4': {
      payer: 'This payment would take you over your M-PESA daily limit, so no money moved.',
      merchant: 'The payment would take the customer over their M-PESA daily limit.',
    },
    '8': {
      payer: 'The business’s M-PESA account cannot take more money right now, so no money moved.',
      merchant:
        'The shop’s M-PESA account cannot take more money right now. Check its limits with Safaricom.',
    },
    '17': {
      payer:
        'M-PESA refused this because the same amount was sent from this phone less than 2 minutes ago. No money moved. Wait 2 minutes, then try again.',
      merchant:
        'The same amount was sent from this phone less than 2 minutes before, so M-PESA refused it as a possible repeat.',
    },
    '1001': {
      payer:
        'Another M-PESA request was already open on your phone, so no money moved. Finish or cancel it, then try again.',
      merchant: 'Another M-PESA request was already open on the customer’s phone.',
    },
    '1019': {
      payer:
        'The prompt on your phone expired before it was answered, so no money moved. Try again and answer it within about a minute.',
      merchant: 'The prompt expired on the customer’s phone before it was answered.',
    },
    '1025': {
      payer:
        'M-PESA could not show the prompt on your phone, so no money moved. Try again with a shorter reference.',
      merchant:
        'M-PESA could not show the prompt on the customer’s phone; a shorter reference may help.',
    },
    '1032': {
      payer: 'You cancelled the prompt on your phone, so no money moved.',
      merchant: 'The customer cancelled the prompt on their phone.',
    },
    '1037': {
      payer:
        'Your phone could not be reached, or the prompt was not answered in time, so no money moved. Check that the phone is on and has signal, then try again.',
      merchant:
        'The customer’s phone could not be reached, or the prompt was not answered in time.',
    },
    '2001': {
      payer: 'The M-PESA PIN was wrong, so no money moved. Try again with your M-PESA PIN.',
      merchant: 'The customer entered a wrong M-PESA PIN.',
    },
    '2028': NOT_SET_UP,
    '8006': {
      payer:
        'Your M-PESA PIN is locked, so no money moved. Contact Safaricom to unlock it, then try again.',
      merchant: 'The customer’s M-PESA PIN is locked; Safaricom can unlock it.',
    },
    SFC_IC0003: NOT_SET_UP,
  },
  /**
   * Paid, with no receipt number here: M-PESA confirmed it when asked ("I have paid", the
   * reconciler), and that answer carries none. The payer's SMS does.
   */
  paidNoReceipt:
    'You paid. The receipt number is in the confirmation message M-PESA sent to your phone.',
  statuses: {
    success: {
      payer: PAID,
      merchant: 'The customer paid. M-PESA sent them a confirmation message.',
    },
    failed: {
      payer: 'M-PESA did not complete this payment, so no money moved. You can try again.',
      merchant: 'M-PESA did not complete this payment. No money moved.',
    },
    cancelled: {
      payer: 'The payment was cancelled, so no money moved.',
      merchant: 'The customer cancelled the prompt. No money moved.',
    },
    timeout: {
      payer:
        'The prompt on your phone was not answered in time, so no money moved. You can try again.',
      merchant: 'The customer did not answer the prompt in time. No money moved.',
    },
    unknown: {
      payer:
        'M-PESA never told us whether this payment went through. Check your M-PESA messages before paying again.',
      merchant:
        'M-PESA never said whether this payment went through. Check the M-PESA statement for this amount from this phone before asking for the money again.',
    },
    refunded: {
      payer: 'This payment was refunded: the money has gone back to your M-PESA.',
      merchant: 'This payment was refunded: M-PESA gave the money back to the customer.',
    },
  } satisfies Record<Exclude<TransactionStatus, 'pending'>, Said> as Record<
    Exclude<TransactionStatus, 'pending'>,
    Said
  >,
  /** The merchant's sentence while pending (the payer reads the specification's own then). */
  merchantPending: 'Waiting for the customer to answer the M-PESA prompt on their phone.',
  /** What M-PESA reported, inside an event's sentence: "M-PESA told us: paid". */
  results: {
    pending: 'still waiting',
    success: 'paid',
    failed: 'not paid',
    cancelled: 'cancelled by the customer',
    timeout: 'the prompt was not answered in time',
    unknown: 'the outcome is unknown',
    refunded: 'refunded',
  } satisfies Record<TransactionStatus, string> as Record<TransactionStatus, string>,
  events: {
    saved: {
      payer: () => 'Your payment request was saved.',
      merchant: () => 'The payment request was saved, before it was sent to M-PESA.',
    },
    accepted: {
      payer: () => 'M-PESA received the payment request and sent a prompt to your phone.',
      merchant: () =>
        'M-PESA accepted the payment request and sent the prompt to the customer’s phone.',
    },
    push_unknown: {
      payer: () => 'M-PESA did not confirm the request; a prompt may still reach your phone.',
      merchant: () =>
        'M-PESA did not confirm the payment request. A prompt may still have reached the customer’s phone; this payment updates on its own.',
    },
    push_failed: {
      payer: () => 'M-PESA did not send a prompt to your phone, so no money moved.',
      merchant: () =>
        'M-PESA did not take the payment request, so no prompt was sent and no money moved.',
    },
    flagged: {
      payer: () => 'The business is checking this payment.',
      merchant: () =>
        'Set aside for a person to check: what M-PESA said does not agree with the payment.',
    },
    applied: both((c) => `${told(c)}: ${c.result}${withReceipt(c)}.`),
    settled_unknown: both(
      (c) => `${told(c)}: ${c.result}${withReceipt(c)}. This settles the unknown outcome.`,
    ),
    lifted: both(
      (c) => `${told(c)}: ${c.result}${withReceipt(c)}. This replaces the earlier result.`,
    ),
    lifted_flagged: {
      payer: (c) => `${told(c)}: ${c.result}. The business is checking this payment.`,
      merchant: (c) =>
        `${told(c)}: ${c.result}${withReceipt(c)}, against an earlier message. Set aside for a person to check.`,
    },
    lifted_under_review: {
      payer: (c) => `${told(c)}: ${c.result}. The business is checking this payment.`,
      merchant: (c) =>
        `${told(c)}: ${c.result}${withReceipt(c)}. The payment stays set aside for a person to check.`,
    },
    receipt_added: both((c) => `${told(c)}: the receipt${c.receipt ? ` is ${c.receipt}` : ''}.`),
    not_applied_under_review: {
      payer: (c) => `${told(c)}: ${c.result}. The business is checking this payment.`,
      merchant: (c) => `${told(c)}: ${c.result}. Not applied while a person checks this payment.`,
    },
    duplicate: both((c) =>
      c.asked
        ? 'We asked M-PESA again: the same answer, nothing changed.'
        : 'M-PESA told us the same again: nothing changed.',
    ),
    // The payer is not told a late message's result: "not paid" after a success would alarm.
    ignored: {
      payer: () => 'M-PESA sent another message about this payment. It changed nothing.',
      merchant: (c) =>
        `${told(c)}: ${c.result}. Nothing changed: this payment’s result was already final.`,
    },
    gave_up: both(() => 'We stopped asking M-PESA: the outcome is unknown.'),
    flag_cleared: {
      payer: (c) => `The business checked this payment: ${c.status}.`,
      merchant: (c) => `${c.who ?? 'A person'} checked this payment: ${c.status}.`,
    },
    unknown_settled: {
      payer: (c) => `The business settled this payment from its M-PESA statement: ${c.result}.`,
      merchant: (c) =>
        `${c.who ?? 'A person'} settled the unknown outcome from the M-PESA statement: ${c.result}.`,
    },
    // A till or paybill payment: the customer paid from the phone's own menu (Lipa na M-PESA).
    c2b_confirmed: {
      payer: (c) => `You paid from your phone’s M-PESA menu${withReceipt(c)}.`,
      merchant: (c) =>
        `The customer paid from their phone’s M-PESA menu (till or paybill)${withReceipt(c)}.`,
    },
    c2b_found: {
      payer: (c) => `M-PESA confirmed your payment${withReceipt(c)}.`,
      merchant: (c) =>
        `We asked M-PESA about the receipt from the SMS: it knows this payment${withReceipt(c)}, now in the history.`,
    },
    // A refund (a reversal): its reason and M-PESA's own words are in the event's detail.
    refund_requested: {
      payer: () => 'The business asked M-PESA to refund this payment.',
      merchant: (c) =>
        `${c.who ?? 'An owner'} asked for a refund: sent to M-PESA, waiting for its answer.`,
    },
    refunded: {
      payer: (c) => `The money has gone back to your M-PESA${withReceipt(c)}.`,
      merchant: (c) =>
        `M-PESA refunded the payment: the money went back to the customer${withReceipt(c)}.`,
    },
    refund_failed: {
      payer: () => 'The refund did not go through, so the money has not come back yet.',
      merchant: () =>
        'The refund did not go through: the money stayed with the shop. It can be asked for again.',
    },
    other: both((c) => `Recorded: ${c.result}.`),
  } satisfies Record<EventKind, EventSaid> as Record<EventKind, EventSaid>,
};

export type OutcomeWords = typeof en;
