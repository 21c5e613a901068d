/** The export's file name says its filter, never a searched text, in characters safe anywhere. */
import { describe, expect, it } from 'vitest';
import type { TransactionFilters } from '@mpesa/shared/contract';
import { exportFileName } from './export-file-name.ts';

const TODAY = '2026-11-25';

describe("the export's file name", () => {
  it.each<[string, Partial<TransactionFilters>, string]>([
    ['no filter', {}, 'payments-all-2026-11-25.csv'],
    ['one status', { status: ['success'] }, 'payments-success-2026-11-25.csv'],
    [
      'several statuses, in the statuses’ own order',
      { status: ['timeout', 'failed', 'cancelled'] },
      'payments-failed-cancelled-timeout-2026-11-25.csv',
    ],
    [
      'a status and both days',
      { status: ['success'], from: '2026-11-01', to: '2026-11-25' },
      'payments-success-2026-11-01-to-2026-11-25.csv',
    ],
    ['a first day only', { from: '2026-11-01' }, 'payments-all-2026-11-01-to-2026-11-25.csv'],
    ['a first day after today', { from: '2026-12-01' }, 'payments-all-from-2026-12-01.csv'],
    ['a last day only', { to: '2026-11-20' }, 'payments-all-to-2026-11-20.csv'],
    ['a search', { q: '0712345678' }, 'payments-all-search-2026-11-25.csv'],
    [
      'channels, in their own order, after the statuses',
      { status: ['refunded'], channel: ['paybill', 'till'] },
      'payments-refunded-till-paybill-2026-11-25.csv',
    ],
    ['a channel only', { channel: ['till'] }, 'payments-all-till-2026-11-25.csv'],
    [
      'everything at once',
      { status: ['pending'], q: 'INV 7', from: '2026-11-24', to: '2026-11-24' },
      'payments-pending-search-2026-11-24-to-2026-11-24.csv',
    ],
  ])('%s', (_, filters, expected) => {
    expect(exportFileName(filters, TODAY)).toBe(expected);
  });

  it('never carries the searched text, whatever it holds', () => {
    const name = exportFileName({ q: '"; rm -rf / ../..\\evil\r\n.csv 0712345678' }, TODAY);
    expect(name).toBe('payments-all-search-2026-11-25.csv');
    expect(name).toMatch(/^[A-Za-z0-9-]+\.csv$/);
  });
});
