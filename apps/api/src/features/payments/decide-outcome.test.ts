/**
 * The decision, as a table: one row per rule, the payment as stored and the report, and what is to
 * be done.
 */
import { describe, expect, it } from 'vitest';
import type { StkCallbackMetadata } from '../../daraja/callback-parser.ts';
import { UNCHECKABLE_SUCCESS, decide } from './decide-outcome.ts';
import type { Decision, Report, StoredPayment } from './decision.ts';

const payment = (overrides: Partial<StoredPayment> = {}): StoredPayment => ({
  id: 'tx-1',
  status: 'pending',
  amount: 100,
  phone_number: '254712345678',
  result_code: null,
  mpesa_receipt_number: null,
  flagged_reason: null,
  statusSource: null,
  ...overrides,
});

const metadata = (overrides: Partial<StkCallbackMetadata> = {}): StkCallbackMetadata => ({
  amount: 100,
  mpesaReceiptNumber: 'UK2LATE001',
  balance: null,
  transactionDate: '2026-11-22T10:15:00.000Z',
  phoneNumber: '254712345678',
  ...overrides,
});

const paid = (meta: StkCallbackMetadata | null = metadata(), redelivered = false): Report => ({
  kind: 'callback',
  resultCode: '0',
  resultDesc: 'The service request is processed successfully.',
  metadata: meta,
  redelivered,
});
const cancelled: Report = {
  kind: 'callback',
  resultCode: '1032',
  resultDesc: 'Request Cancelled by user.',
  metadata: null,
  redelivered: false,
};
const query = (resultCode: string): Report => ({ kind: 'query', resultCode, resultDesc: 'said' });

const APPLIED = { moved: 'applied', raced: 'ignored' };
const FLAG = 'M-PESA reported 1 KES, not 100 KES';
const successPatch = {
  result_code: '0',
  response_description: 'The service request is processed successfully.',
  mpesa_receipt_number: 'UK2LATE001',
  transaction_date: '2026-11-22T10:15:00.000Z',
};
const flaggedAs = (reason: string, result: string, patched = true): Decision =>
  ({
    kind: 'keep',
    patch: patched ? { flagged_reason: reason } : null,
    event: { kind: 'flagged', note: `flagged: ${reason}`, reason },
    result,
  }) as Decision;

const ROWS: Array<[string, StoredPayment, Report, Decision]> = [
  [
    'a redelivered callback changes nothing',
    payment({ status: 'success', result_code: '0', statusSource: 'callback' }),
    paid(metadata(), true),
    {
      kind: 'keep',
      patch: null,
      event: { kind: 'duplicate', note: 'duplicate callback' },
      result: 'duplicate',
    },
  ],
  [
    'a success callback with nothing to check is flagged, the status kept',
    payment(),
    paid(null),
    flaggedAs(UNCHECKABLE_SUCCESS, 'mismatch'),
  ],
  [
    'a payment already flagged keeps its first reason',
    payment({ flagged_reason: FLAG }),
    paid(metadata({ amount: null, phoneNumber: null, mpesaReceiptNumber: null })),
    flaggedAs(UNCHECKABLE_SUCCESS, 'mismatch', false),
  ],
  [
    'a late callback brings the receipt of a success learnt by query',
    payment({ status: 'success', result_code: '0', statusSource: 'query' }),
    paid(),
    {
      kind: 'keep',
      patch: { mpesa_receipt_number: 'UK2LATE001', transaction_date: '2026-11-22T10:15:00.000Z' },
      event: { kind: 'receipt_added', note: 'receipt added by a late callback' },
      result: 'applied',
    },
  ],
  [
    'a second receipt for a paid payment is a contradiction',
    payment({ status: 'success', result_code: '0', mpesa_receipt_number: 'UK2FIRST01' }),
    paid(),
    flaggedAs(
      'M-PESA sent two receipts for this request: UK2FIRST01, then UK2LATE001',
      'contradiction',
    ),
  ],
  [
    'a flagged payment never reported paid is lifted by a matching success callback',
    payment({ status: 'failed', result_code: '1', flagged_reason: FLAG, statusSource: 'query' }),
    paid(),
    {
      kind: 'move',
      to: 'success',
      patch: successPatch,
      event: {
        kind: 'lifted_under_review',
        note: 'late callback success lifted failed; still flagged for review',
      },
      result: APPLIED,
    } as Decision,
  ],
  [
    'a flagged payment records another callback and changes nothing (a contradiction)',
    payment({ status: 'failed', result_code: '1', flagged_reason: FLAG }),
    cancelled,
    {
      kind: 'keep',
      patch: null,
      event: {
        kind: 'not_applied_under_review',
        note: `not applied: flagged for review (${FLAG})`,
      },
      result: 'contradiction',
    },
  ],
  [
    'a flagged payment records a query answer and changes nothing',
    payment({ status: 'failed', result_code: '1', flagged_reason: FLAG }),
    query('1032'),
    {
      kind: 'keep',
      patch: null,
      event: {
        kind: 'not_applied_under_review',
        note: `not applied: flagged for review (${FLAG})`,
      },
      result: 'ignored',
    },
  ],
  [
    'a flagged payment records a mismatched success and changes nothing',
    payment({ status: 'failed', result_code: '1', flagged_reason: FLAG }),
    paid(metadata({ amount: 5 })),
    {
      kind: 'keep',
      patch: null,
      event: {
        kind: 'not_applied_under_review',
        note: `not applied: flagged for review (${FLAG})`,
      },
      result: 'mismatch',
    },
  ],
  [
    'an open payment with a mismatched success is held as failed and flagged',
    payment(),
    paid(metadata({ phoneNumber: '254700000001' })),
    {
      kind: 'move',
      to: 'failed',
      patch: {
        result_code: '0',
        response_description:
          'Held for review: M-PESA reported the payer 2547****0001, not 2547****5678.',
        flagged_reason: 'M-PESA reported the payer 2547****0001, not 2547****5678',
      },
      event: {
        kind: 'flagged',
        note: 'flagged: M-PESA reported the payer 2547****0001, not 2547****5678',
        reason: 'M-PESA reported the payer 2547****0001, not 2547****5678',
      },
      result: { moved: 'mismatch', raced: 'mismatch' },
    },
  ],
  [
    'a final payment with a mismatched success is flagged, the status kept',
    payment({ status: 'cancelled', result_code: '1032', statusSource: 'callback' }),
    paid(metadata({ amount: 1 })),
    flaggedAs(FLAG, 'mismatch'),
  ],
  [
    'a pending payment takes a success with its receipt',
    payment(),
    paid(),
    {
      kind: 'move',
      to: 'success',
      patch: successPatch,
      event: { kind: 'applied', note: null },
      result: APPLIED,
    } as Decision,
  ],
  [
    'a receipt too long to store is flagged with the success',
    payment(),
    paid(metadata({ mpesaReceiptNumber: null, receiptTooLong: true })),
    {
      kind: 'move',
      to: 'success',
      patch: {
        ...successPatch,
        mpesa_receipt_number: null,
        flagged_reason:
          'M-PESA sent a receipt longer than 32 characters; it is in the callback as received',
      },
      event: { kind: 'applied', note: null },
      result: APPLIED,
    } as Decision,
  ],
  [
    'an unknown outcome is settled by a query answer',
    payment({ status: 'unknown', statusSource: null }),
    query('1032'),
    {
      kind: 'move',
      to: 'cancelled',
      patch: { result_code: '1032', response_description: 'said' },
      event: { kind: 'settled_unknown', note: 'late query settled the unknown outcome' },
      result: APPLIED,
    } as Decision,
  ],
  [
    'a success callback lifts a failure from a query',
    payment({ status: 'failed', result_code: '1', statusSource: 'query' }),
    paid(),
    {
      kind: 'move',
      to: 'success',
      patch: successPatch,
      event: { kind: 'lifted', note: 'late callback success lifted failed' },
      result: APPLIED,
    } as Decision,
  ],
  [
    'a success callback lifts a failure from a callback, flagged as a contradiction',
    payment({ status: 'failed', result_code: '1', statusSource: 'callback' }),
    paid(),
    {
      kind: 'move',
      to: 'success',
      patch: {
        ...successPatch,
        flagged_reason:
          'M-PESA sent contradicting results for this request: 1 (failed), then 0 (success)',
      },
      event: {
        kind: 'lifted_flagged',
        note: 'late callback success lifted failed; flagged: M-PESA sent contradicting results for this request: 1 (failed), then 0 (success)',
        reason: 'M-PESA sent contradicting results for this request: 1 (failed), then 0 (success)',
      },
      result: APPLIED,
    } as Decision,
  ],
  [
    'the same result again is a duplicate',
    payment({ status: 'cancelled', result_code: '1032', statusSource: 'callback' }),
    cancelled,
    {
      kind: 'keep',
      patch: null,
      event: { kind: 'duplicate', note: 'duplicate callback' },
      result: 'duplicate',
    },
  ],
  [
    'a success asked again is a duplicate',
    payment({ status: 'success', result_code: '0', statusSource: 'callback' }),
    query('0'),
    {
      kind: 'keep',
      patch: null,
      event: { kind: 'duplicate', note: 'duplicate query' },
      result: 'duplicate',
    },
  ],
  [
    'success is final against a query',
    payment({ status: 'success', result_code: '0', statusSource: 'callback' }),
    query('1032'),
    {
      kind: 'keep',
      patch: null,
      event: { kind: 'ignored', note: 'ignored: success is final', reason: 'success is final' },
      result: 'ignored',
    },
  ],
  [
    'another unpaid result from a callback after a callback is a contradiction',
    payment({ status: 'failed', result_code: '1', statusSource: 'callback' }),
    cancelled,
    flaggedAs(
      'M-PESA sent contradicting results for this request: 1 (failed), then 1032 (cancelled)',
      'contradiction',
    ),
  ],
  [
    'an unpaid final status is final against a query',
    payment({ status: 'failed', result_code: '1', statusSource: 'callback' }),
    query('1032'),
    {
      kind: 'keep',
      patch: null,
      event: {
        kind: 'ignored',
        note: 'ignored: failed is final; only a success callback may change it',
        reason: 'failed is final; only a success callback may change it',
      },
      result: 'ignored',
    },
  ],
  [
    'reconciliation giving up makes the outcome unknown',
    payment(),
    { kind: 'gave_up', why: 'M-PESA gave no result for this payment within 10 minutes.' },
    {
      kind: 'move',
      to: 'unknown',
      patch: {
        response_description:
          'M-PESA gave no result for this payment within 10 minutes. Whether the payer paid is not known: check the M-PESA statement for a payment of 100 KES from this phone number before asking for the money again.',
      },
      event: { kind: 'gave_up', note: 'M-PESA gave no result for this payment within 10 minutes.' },
      result: APPLIED,
    } as Decision,
  ],
  [
    'a review of a payment neither flagged nor unknown is refused',
    payment({ status: 'failed' }),
    { kind: 'review', note: 'ok' },
    { kind: 'refuse', message: 'Transaction tx-1 is neither flagged nor of unknown outcome.' },
  ],
  [
    'a review of a pending payment is refused',
    payment({ flagged_reason: FLAG }),
    { kind: 'review', note: 'ok' },
    {
      kind: 'refuse',
      message: 'Transaction tx-1 is still waiting for M-PESA; review it once it has an outcome.',
    },
  ],
  [
    'a review of an unknown outcome needs a status',
    payment({ status: 'unknown' }),
    { kind: 'review', note: 'ok' },
    { kind: 'refuse', message: 'Say what the M-PESA statement shows (--status).' },
  ],
  [
    'a review clears a flag, keeping the status',
    payment({ status: 'failed', flagged_reason: FLAG }),
    { kind: 'review', note: 'payer paid the rest in cash' },
    {
      kind: 'clear_flag',
      to: 'failed',
      event: { kind: 'flag_cleared', note: `flag cleared (${FLAG}): payer paid the rest in cash` },
    },
  ],
  [
    'a refunded payment takes its success reported again as a duplicate, and stays refunded',
    payment({
      status: 'refunded',
      result_code: '0',
      mpesa_receipt_number: 'UK2LATE001',
      statusSource: 'callback',
    }),
    paid(),
    {
      kind: 'keep',
      patch: null,
      event: { kind: 'duplicate', note: 'duplicate callback' },
      result: 'duplicate',
    },
  ],
  [
    'a refunded payment is never made unpaid by a late failure',
    payment({ status: 'refunded', result_code: '0', statusSource: 'callback' }),
    cancelled,
    {
      kind: 'keep',
      patch: null,
      event: {
        kind: 'ignored',
        note: 'ignored: refunded is final: the money went back',
        reason: 'refunded is final: the money went back',
      },
      result: 'ignored',
    },
  ],
  [
    'a refunded payment is not flagged by a late success that disagrees with the record',
    payment({
      status: 'refunded',
      result_code: '0',
      mpesa_receipt_number: 'UK2PAID001',
      statusSource: 'callback',
    }),
    paid(metadata({ amount: 1, mpesaReceiptNumber: 'UK2OTHER01' })),
    {
      kind: 'keep',
      patch: null,
      event: { kind: 'duplicate', note: 'duplicate callback' },
      result: 'duplicate',
    },
  ],
  [
    'a refunded payment is not flagged by a success with nothing to check',
    payment({ status: 'refunded', result_code: '0', statusSource: 'callback' }),
    paid(null),
    {
      kind: 'keep',
      patch: null,
      event: { kind: 'duplicate', note: 'duplicate callback' },
      result: 'duplicate',
    },
  ],
  [
    'a refunded payment asked about by query stays refunded',
    payment({ status: 'refunded', result_code: '0', statusSource: 'callback' }),
    query('1032'),
    {
      kind: 'keep',
      patch: null,
      event: {
        kind: 'ignored',
        note: 'ignored: refunded is final: the money went back',
        reason: 'refunded is final: the money went back',
      },
      result: 'ignored',
    },
  ],
  [
    'a review never settles a flagged refunded payment as paid',
    payment({ status: 'refunded', result_code: '0', flagged_reason: FLAG }),
    { kind: 'review', note: 'looked at it', status: 'success' },
    {
      kind: 'refuse',
      message:
        'Transaction tx-1 was refunded: its money went back, so it stays refunded. Clear the flag without a status.',
    },
  ],
  [
    'a review never settles a flagged refunded payment as failed',
    payment({ status: 'refunded', result_code: '0', flagged_reason: FLAG }),
    { kind: 'review', note: 'looked at it', status: 'failed' },
    {
      kind: 'refuse',
      message:
        'Transaction tx-1 was refunded: its money went back, so it stays refunded. Clear the flag without a status.',
    },
  ],
  [
    'a review clears the flag of a refunded payment, which stays refunded',
    payment({ status: 'refunded', result_code: '0', flagged_reason: FLAG }),
    { kind: 'review', note: 'flag was before the refund' },
    {
      kind: 'clear_flag',
      to: 'refunded',
      event: { kind: 'flag_cleared', note: `flag cleared (${FLAG}): flag was before the refund` },
    },
  ],
  [
    'a review settles an unknown outcome from the statement',
    payment({ status: 'unknown' }),
    { kind: 'review', note: 'on the statement', status: 'success' },
    {
      kind: 'clear_flag',
      to: 'success',
      event: { kind: 'unknown_settled', note: 'unknown outcome settled: on the statement' },
    },
  ],
];

describe('the decision on a report about a payment', () => {
  it.each(ROWS)('%s', (_rule, stored, report, expected) => {
    expect(decide(stored, report)).toEqual(expected);
  });
});
