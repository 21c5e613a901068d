import { describe, expect, it } from 'vitest';
import { EventKind, TRANSACTION_STATUSES } from '@mpesa/shared';
import type { TransactionEvent } from '@mpesa/shared/contract-events';
import { en } from './outcome-words.en';
import { sw } from './outcome-words.sw';
import { en as statusEn } from './status-words.en';
import { sw as statusSw } from './status-words.sw';
import { eventSentence, merchantReason, payerSentence } from './outcomes';

/** Daraja's own words, which must never reach a payer's or a merchant's sentence. */
const DARAJA_WORDS = /initiator|Rule limited|DS timeout|STK|callback|reconciliation/i;
/** The ResultCodes a payer can meet (docs/daraja-protocol.md §4.2). */
const CODES = Object.keys(en.codes);

describe('payerSentence (English)', () => {
  it.each([
    ['failed', '2001', /PIN was wrong/],
    ['cancelled', '1032', /You cancelled the prompt/],
    ['failed', '1', /balance was too low/],
    ['timeout', '1037', /phone could not be reached/],
    ['timeout', '1019', /prompt on your phone expired/],
    ['failed', '17', /same amount was sent from this phone less than 2 minutes ago/],
  ] as const)('explains %s with code %s in plain words', (status, code, sentence) => {
    expect(payerSentence(en, status, code)).toMatch(sentence);
  });

  it('says nothing while the payment is pending: the specification’s text does', () => {
    expect(payerSentence(en, 'pending', null)).toBeNull();
  });

  it('falls back on the status when M-PESA gave no code, or one it does not know', () => {
    expect(payerSentence(en, 'failed', null)).toBe(
      'M-PESA did not complete this payment, so no money moved. You can try again.',
    );
    expect(payerSentence(en, 'failed', '4242')).toBe(payerSentence(en, 'failed', null));
    expect(payerSentence(en, 'timeout', null)).toMatch(/not answered in time/);
  });

  it('never explains a success with a failure’s code, nor a failure with success’s', () => {
    expect(payerSentence(en, 'success', '2001')).toBe(en.codes['0'].payer);
    expect(payerSentence(en, 'failed', '0')).toBe(payerSentence(en, 'failed', null));
    expect(merchantReason(en, 'success', '2001')).toBeNull();
  });

  it('tells a payer the money of a refunded payment has gone back, whatever the code', () => {
    const said = 'This payment was refunded: the money has gone back to your M-PESA.';
    expect(payerSentence(en, 'refunded', '0')).toBe(said);
    expect(payerSentence(en, 'refunded', '1')).toBe(said);
    expect(merchantReason(en, 'refunded', '2001')).toBeNull();
  });

  it('tells a payer of an unknown outcome to check before paying again', () => {
    expect(payerSentence(en, 'unknown', null)).toMatch(
      /Check your M-PESA messages before paying again/,
    );
  });
});

describe('the outcome table', () => {
  it.each([
    ['en', en],
    ['sw', sw],
  ] as const)('has, in %s, both readers’ full sentences for every code and status', (_, words) => {
    expect(Object.keys(words.codes)).toEqual(CODES);
    const sentences = [
      ...Object.values(words.codes),
      ...TRANSACTION_STATUSES.filter((status) => status !== 'pending').map(
        (status) => words.statuses[status as Exclude<typeof status, 'pending'>],
      ),
    ].flatMap((said) => [said.payer, said.merchant]);
    sentences.push(words.merchantPending);
    for (const sentence of sentences) {
      expect(sentence).toMatch(/^[A-Z].*\.$/);
      expect(sentence).not.toMatch(DARAJA_WORDS);
    }
  });

  it('has the codes of docs/daraja-protocol.md §4.2 a payer can meet', () => {
    expect(CODES).toEqual(
      expect.arrayContaining(['0', '1', '1032', '1037', '2001', '1019', '17', 'SFC_IC0003']),
    );
  });

  const context = { result: 'r', status: 's', receipt: 'UF1E26WQJZ', asked: false, who: null };
  it.each([
    ['en', en],
    ['sw', sw],
  ] as const)('has, in %s, both readers’ sentences for every event kind', (_, words) => {
    expect(Object.keys(words.events).sort()).toEqual([...EventKind.options].sort());
    for (const kind of EventKind.options) {
      for (const reader of ['payer', 'merchant'] as const) {
        for (const asked of [false, true]) {
          const sentence = words.events[kind][reader]({ ...context, asked });
          expect(sentence, `${kind} ${reader}`).toMatch(/^[A-Z].*\.$/);
          expect(sentence, `${kind} ${reader}`).not.toMatch(DARAJA_WORDS);
        }
      }
    }
  });

  it('gives the Kiswahili the same sentences where only names stay', () => {
    expect(sw.codes['2001'].payer).not.toBe(en.codes['2001'].payer);
    expect(sw.statuses.unknown.merchant).not.toBe(en.statuses.unknown.merchant);
  });
});

describe('a timeline event in people’s words', () => {
  const event = (overrides: Partial<TransactionEvent>): TransactionEvent => ({
    at: '2026-11-22T10:15:00.000Z',
    source: 'callback',
    kind: 'applied',
    fromStatus: 'pending',
    toStatus: 'success',
    title: 'Callback: paid (receipt UF1E26WQJZ)',
    detail: 'The service request is processed successfully.',
    reported: { status: 'success', receipt: 'UF1E26WQJZ' },
    reviewer: null,
    ...overrides,
  });

  it.each([
    [event({}), 'M-PESA told us: paid, receipt UF1E26WQJZ.'],
    [
      event({
        source: 'query',
        toStatus: 'failed',
        title: 'Asked M-PESA (STK query): failed',
        reported: { status: 'failed', receipt: null },
      }),
      'We asked M-PESA about this payment: not paid.',
    ],
    [
      event({
        source: 'reconciliation',
        toStatus: 'unknown',
        kind: 'gave_up',
        title: 'Reconciliation gave up: outcome unknown',
        reported: null,
      }),
      'We stopped asking M-PESA: the outcome is unknown.',
    ],
    [
      event({
        kind: 'duplicate',
        fromStatus: 'success',
        title: 'Callback: duplicate, changed nothing',
      }),
      'M-PESA told us the same again: nothing changed.',
    ],
    [
      event({
        kind: 'ignored',
        fromStatus: 'success',
        title: 'Callback: cancelled by the payer, changed nothing',
        reported: { status: 'cancelled', receipt: null },
      }),
      'M-PESA told us: cancelled by the customer. Nothing changed: this payment’s result was already final.',
    ],
    [
      event({
        source: 'initiation',
        fromStatus: null,
        kind: 'saved',
        toStatus: 'pending',
        title: 'Saved before the payment request was sent',
        reported: null,
      }),
      'The payment request was saved, before it was sent to M-PESA.',
    ],
    [
      event({
        source: 'review',
        fromStatus: 'unknown',
        kind: 'unknown_settled',
        title: 'Reviewed by Amina: marked paid',
        detail: 'Unknown outcome settled: on the statement',
        reported: null,
        reviewer: 'Amina',
      }),
      'Amina settled the unknown outcome from the M-PESA statement: paid.',
    ],
  ] as const)('reads %#: %s', (told, sentence) => {
    expect(eventSentence(en, statusEn, told, 'merchant')).toBe(sentence);
  });

  it('tells it in Kiswahili', () => {
    expect(eventSentence(sw, statusSw, event({}), 'merchant')).toBe(
      'M-PESA ilituambia: yamelipwa, risiti UF1E26WQJZ.',
    );
  });
});
