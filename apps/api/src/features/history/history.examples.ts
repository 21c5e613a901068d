/**
 * The history's examples for the API description, from the sample payment (payments.examples.ts)
 * through the same functions that make the real answers: the CSV line, the figures and the
 * timeline's recorded events.
 */
import type { Summary } from '@mpesa/shared/contract';
import {
  SAMPLE_CALLBACK,
  SAMPLE_CREATED_AT,
  SAMPLE_PAID_AT,
  SAMPLE_ROW,
} from '../payments/index.ts';
import { csvHeader, csvRecord } from './history-csv.ts';
import type { TimelineRow } from './events.repository.ts';

/** The export's first lines (its byte-order mark too), for the sample payment, in Nairobi's time. */
export const SAMPLE_CSV =
  csvHeader('Africa/Nairobi', new Date(SAMPLE_CREATED_AT)) +
  csvRecord(SAMPLE_ROW, 'Africa/Nairobi');

/** The figures on the sample payment's day: it alone, paid, in the last 14 business days. */
export const SAMPLE_SUMMARY: Summary = {
  timeZone: 'Africa/Nairobi',
  today: {
    collected: 450,
    refundedCount: 0,
    refunded: 0,
    count: 1,
    pendingCount: 0,
    successCount: 1,
    successRate: 1,
  },
  last7Days: {
    collected: 450,
    refundedCount: 0,
    refunded: 0,
    count: 1,
    pendingCount: 0,
    successCount: 1,
    successRate: 1,
  },
  daily: Array.from({ length: 14 }, (_, index) => ({
    day: `2026-03-${String(index + 1).padStart(2, '0')}`,
    byStatus: index === 13 ? [{ status: 'success' as const, count: 1, amount: 450 }] : [],
  })),
};

/** The sample payment's recorded events, for events.routes.ts to tell. */
export const SAMPLE_TIMELINE: TimelineRow[] = [
  {
    at: SAMPLE_CREATED_AT,
    source: 'initiation',
    from_status: null,
    to_status: 'pending',
    kind: 'saved',
    reason: null,
    note: 'saved before the STK push',
    payload: null,
  },
  {
    at: '2026-03-14T09:26:54.000Z',
    source: 'initiation',
    from_status: 'pending',
    to_status: 'pending',
    kind: 'accepted',
    reason: null,
    note: 'accepted by M-PESA',
    payload: null,
  },
  {
    at: SAMPLE_PAID_AT,
    source: 'callback',
    from_status: 'pending',
    to_status: 'success',
    kind: 'applied',
    reason: null,
    note: null,
    payload: JSON.stringify(SAMPLE_CALLBACK),
  },
];
