/**
 * The HTTP contract of payouts (money out of the shop by M-PESA's B2C and B2B, issue 37): a payout
 * as the shop's people see it, one proposed, a batch proposed from a CSV file, and what each line of
 * either must be. The checks of a line are here, once, so that the API and the web app word a
 * problem alike, and a batch's row is refused with the very sentence a single payout would get.
 */
import { z } from 'zod';
import { EXPORT_LANGUAGES, queryParts } from './contract.ts';
import { normaliseKenyanPhone } from './phone.ts';
import { stripControlCharacters } from './text.ts';

/**
 * What a payout is, as Daraja's CommandID: to a phone (B2C) as a business payment, a salary or a
 * promotion; to another business (B2B) as a paybill with its account, or a till.
 */
export const PAYOUT_KINDS = [
  'BusinessPayment',
  'SalaryPayment',
  'PromotionPayment',
  'BusinessPayBill',
  'BusinessBuyGoods',
] as const;
export type PayoutKind = (typeof PAYOUT_KINDS)[number];

/** The kinds paid to a phone (B2C); the others are paid to a shortcode (B2B). */
export const PHONE_PAYOUT_KINDS: readonly PayoutKind[] = [
  'BusinessPayment',
  'SalaryPayment',
  'PromotionPayment',
];
export const isPhonePayout = (kind: PayoutKind) => PHONE_PAYOUT_KINDS.includes(kind);

/**
 * proposed: waiting for a second owner; declined: an owner said no (nothing sent); sending:
 * approved, sent or being sent, its outcome awaited; succeeded, failed: M-PESA's word; unknown: a
 * payment to a business whose answer was lost, for a person to look up on the M-PESA statement
 * (never sent again).
 */
export const PAYOUT_STATUSES = [
  'proposed',
  'declined',
  'sending',
  'succeeded',
  'failed',
  'unknown',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** B2C's own limits on one payout (docs/daraja-protocol.md §M4.1), in whole shillings. */
export const PHONE_PAYOUT_MIN = 10;
export const PHONE_PAYOUT_MAX = 250_000;
/** A business payment's: at least 1 shilling; the most is the shop's own limit. */
export const BUSINESS_PAYOUT_MIN = 1;
export const BUSINESS_PAYOUT_MAX = 10_000_000;
/** Daraja's Remarks: 2 to 100 characters. */
export const PAYOUT_REASON_MIN_LENGTH = 2;
export const PAYOUT_REASON_MAX_LENGTH = 100;
/** B2B's AccountReference: "Up to 13 characters" (§M8.1). */
export const PAYOUT_ACCOUNT_MAX_LENGTH = 13;
/** The most rows one batch file may have. */
export const PAYOUT_BATCH_MAX_ROWS = 500;
/** The largest batch file, in characters. */
export const PAYOUT_BATCH_MAX_CHARS = 200_000;

const SHORTCODE = /^[0-9]{5,7}$/;
const ACCOUNT = /^[A-Za-z0-9 ._/-]+$/;

/** One payout as typed or as one row of a file: the text of each field, before it is checked. */
export interface PayoutLineInput {
  kind?: string | undefined;
  to: string;
  account?: string | undefined;
  amount: string | number;
  reason: string;
}

/** A line that passed: the payee in Daraja's form (2547… or the shortcode). */
export interface PayoutLine {
  kind: PayoutKind;
  to: string;
  account: string | null;
  amount: number;
  reason: string;
}

export type PayoutField = 'kind' | 'to' | 'account' | 'amount' | 'reason';
export interface PayoutProblem {
  field: PayoutField;
  message: string;
}

const clean = (text: string) => stripControlCharacters(text.normalize('NFC')).trim();

function kindOf(
  input: PayoutLineInput,
  to: string,
  phone: string | null,
): PayoutKind | PayoutProblem {
  const given = clean(input.kind ?? '');
  if (given === '') {
    // A shortcode's 5 to 7 digits are a business; anything else is meant for a phone.
    if (phone || !SHORTCODE.test(to)) return 'BusinessPayment';
    return clean(input.account ?? '') === '' ? 'BusinessBuyGoods' : 'BusinessPayBill';
  }
  const kind = PAYOUT_KINDS.find((each) => each.toLowerCase() === given.toLowerCase());
  return (
    kind ?? {
      field: 'kind',
      message: `The kind must be one of ${PAYOUT_KINDS.join(', ')}.`,
    }
  );
}

function amountOf(raw: string | number, kind: PayoutKind): number | PayoutProblem {
  const text = typeof raw === 'number' ? String(raw) : clean(raw).replace(/,/g, '');
  const [min, max] = isPhonePayout(kind)
    ? [PHONE_PAYOUT_MIN, PHONE_PAYOUT_MAX]
    : [BUSINESS_PAYOUT_MIN, BUSINESS_PAYOUT_MAX];
  const amount = /^[0-9]{1,9}$/.test(text) ? Number(text) : NaN;
  if (Number.isInteger(amount) && amount >= min && amount <= max) return amount;
  return {
    field: 'amount',
    message: `The amount must be whole shillings, from ${min.toLocaleString('en-KE')} to ${max.toLocaleString('en-KE')} KES.`,
  };
}

/** Checks one payout: the line, or every problem it has, each with its field. */
export function checkPayoutLine(
  input: PayoutLineInput,
): { ok: true; line: PayoutLine } | { ok: false; problems: PayoutProblem[] } {
  const problems: PayoutProblem[] = [];
  const to = clean(input.to).replace(/[\s-]/g, '');
  const phone = normaliseKenyanPhone(to);
  const kind = kindOf(input, to, phone);
  if (typeof kind !== 'string') return { ok: false, problems: [kind] };
  const toPhone = isPhonePayout(kind);
  if (toPhone && !phone) {
    problems.push({ field: 'to', message: 'Please enter a valid Kenyan phone number' });
  } else if (!toPhone && !SHORTCODE.test(to)) {
    problems.push({ field: 'to', message: 'Enter the till or paybill number: 5 to 7 digits.' });
  }
  const account = clean(input.account ?? '');
  if (kind === 'BusinessPayBill' && account === '') {
    problems.push({ field: 'account', message: 'A paybill payment needs its account number.' });
  } else if (
    account !== '' &&
    (kind !== 'BusinessPayBill' ||
      account.length > PAYOUT_ACCOUNT_MAX_LENGTH ||
      !ACCOUNT.test(account))
  ) {
    problems.push({
      field: 'account',
      message:
        kind === 'BusinessPayBill'
          ? `The account number must be at most ${PAYOUT_ACCOUNT_MAX_LENGTH} letters, digits, spaces or . _ / -`
          : 'Only a paybill payment has an account number.',
    });
  }
  const amount = amountOf(input.amount, kind);
  if (typeof amount !== 'number') problems.push(amount);
  const reason = clean(input.reason);
  const reasonLength = Array.from(reason).length;
  if (reasonLength < PAYOUT_REASON_MIN_LENGTH || reasonLength > PAYOUT_REASON_MAX_LENGTH) {
    problems.push({
      field: 'reason',
      message: `Give the reason for the payout: ${PAYOUT_REASON_MIN_LENGTH} to ${PAYOUT_REASON_MAX_LENGTH} characters.`,
    });
  }
  if (problems.length > 0 || typeof amount !== 'number') return { ok: false, problems };
  return {
    ok: true,
    line: {
      kind,
      to: toPhone ? phone! : to,
      account: kind === 'BusinessPayBill' ? account : null,
      amount,
      reason,
    },
  };
}

/** A payout, as the shop's signed-in people see it. */
export const payoutSchema = z.object({
  id: z.string(),
  /** The batch it was proposed in; null for one proposed alone. */
  batchId: z.string().nullable(),
  kind: z.enum(PAYOUT_KINDS),
  /** The phone (2547…), or the till or paybill number. */
  to: z.string(),
  /** A paybill payment's account number. */
  account: z.string().nullable(),
  amount: z.number(),
  reason: z.string(),
  status: z.enum(PAYOUT_STATUSES),
  proposedBy: z.string(),
  proposedAt: z.string(),
  /** The owner who approved or declined it (the proposer, when one owner's word was enough). */
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** M-PESA's code for a failure (1, 2001, SFC_IC0003, …), which the web app words. */
  resultCode: z.string().nullable(),
  /** What became of it, in plain English (M-PESA's own words are kept beside it). */
  resultDescription: z.string().nullable(),
  /** M-PESA's receipt, once paid. */
  receipt: z.string().nullable(),
  /** The receiver's name as M-PESA gives it (`254705912645 - NICHOLAS JOHN SONGOK`). */
  receiverName: z.string().nullable(),
  /** What M-PESA charged the shop for it, in KES (22.40), once known. */
  charge: z.number().nullable(),
  /** The failed payout this one corrects, if any. */
  corrects: z.string().nullable(),
  updatedAt: z.string(),
});
export type Payout = z.infer<typeof payoutSchema>;

const textField = (max: number) => z.string().max(max);

/** `POST /api/payouts`: one payout, proposed; `corrects` names a failed payout it replaces. */
export const proposePayoutBodySchema = z.object(
  {
    kind: z.enum(PAYOUT_KINDS).optional(),
    to: textField(64),
    account: textField(64).optional(),
    amount: z.union([z.number(), textField(32)]),
    reason: textField(400),
    corrects: textField(64).optional(),
  },
  { error: 'The request body must be a JSON object' },
);
export type ProposePayoutBody = z.infer<typeof proposePayoutBodySchema>;

/** `POST /api/payouts/batches`: the CSV file's text. */
export const proposeBatchBodySchema = z.object(
  { csv: z.string().max(PAYOUT_BATCH_MAX_CHARS) },
  { error: 'The request body must be a JSON object' },
);
export type ProposeBatchBody = z.infer<typeof proposeBatchBodySchema>;

/** `POST /api/payouts/:id/decline`: why, optionally. */
export const declinePayoutBodySchema = z.object({ note: textField(200).optional() }).nullish();

const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
export const payoutResponseSchema = ok(payoutSchema);
export const payoutListResponseSchema = ok(
  z.object({
    payouts: z.array(payoutSchema),
    /** Pass back as `cursor` for the next page; null on the last one. */
    nextCursor: z.string().nullable(),
  }),
);
export const payoutBatchResponseSchema = ok(
  z.object({ batchId: z.string(), payouts: z.array(payoutSchema) }),
);
export type PayoutListResponse = z.infer<typeof payoutListResponseSchema>;
/** A batch's decision: the payouts it decided. */
export const payoutDecisionsResponseSchema = ok(z.object({ payouts: z.array(payoutSchema) }));

/** The list's pages: newest first (by when proposed), this many by default and at most. */
export const PAYOUT_PAGE = { defaultSize: 50, maxSize: 200 } as const;

const { day, oneOrSeveral, once, inOrder, OUT_OF_ORDER } = queryParts;
/** Which payouts: one or several statuses, and the business days they were proposed on. */
const payoutFilterFields = {
  status: oneOrSeveral('status', PAYOUT_STATUSES),
  from: day('from'),
  to: day('to'),
};
export const payoutFiltersSchema = z.object(payoutFilterFields).refine(inOrder, OUT_OF_ORDER);
export type PayoutFilters = z.output<typeof payoutFiltersSchema>;

/** `GET /api/payouts`: the filters, a page size, and where the last page ended. */
export const payoutListQuerySchema = z
  .object({
    ...payoutFilterFields,
    limit: z.coerce
      .number({ error: 'limit must be a number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be at least 1')
      .max(PAYOUT_PAGE.maxSize, `limit must be at most ${PAYOUT_PAGE.maxSize}`)
      .default(PAYOUT_PAGE.defaultSize),
    cursor: z.string(once('cursor')).optional(),
  })
  .refine(inOrder, OUT_OF_ORDER);

/** `GET /api/payouts/export`: the filters, and the header row's language. */
export const payoutExportQuerySchema = z
  .object({
    ...payoutFilterFields,
    lang: z
      .enum(EXPORT_LANGUAGES, { message: 'lang must be en or sw' })
      .optional()
      .describe('The language of the header row: `en` (the default) or `sw` (Kiswahili)'),
  })
  .refine(inOrder, OUT_OF_ORDER);

/** Money out over a period: the payouts M-PESA paid, their total and M-PESA's charges for them. */
export const moneyOutSchema = z.object({
  count: z.number(),
  amount: z.number(),
  charges: z.number(),
});
export type MoneyOut = z.infer<typeof moneyOutSchema>;

/**
 * `GET /api/payouts/summary`: money out today and over the last 7 business days (by when each was
 * approved, which is when M-PESA moves the money), and how many wait for an owner's approval.
 */
export const payoutSummaryResponseSchema = ok(
  z.object({
    today: moneyOutSchema,
    last7Days: moneyOutSchema,
    waiting: z.number(),
  }),
);
export type PayoutSummary = z.infer<typeof payoutSummaryResponseSchema>['data'];

export { PAYOUT_FAILURES_EN, PAYOUT_FAILURES_SW, payoutFailure } from './payout-failures.ts';
