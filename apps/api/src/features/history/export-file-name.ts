/**
 * The export's file name says what the file holds (docs/product.md §2, 'Export CSV' downloads
 * everything the filters select), so that a merchant's downloads folder can be read without
 * opening each one: payments-<statuses, or all>[-<channels>][-search]-<days>.csv, e.g.
 * payments-success-2026-11-01-to-2026-11-25.csv, payments-failed-cancelled-search-2026-11-25.csv,
 * payments-all-till-paybill-2026-11-25.csv, payments-all-2026-11-25.csv.
 */
import { PAYMENT_CHANNELS, TRANSACTION_STATUSES } from '@mpesa/shared';
import type { TransactionFilters } from '@mpesa/shared/contract';

/** The words a file name is made of (English, like the rest of the file). */
const NAME = {
  prefix: 'payments',
  anyStatus: 'all',
  // The search text itself is often a payer's number: the name says only that there was one.
  search: 'search',
  from: 'from',
  to: 'to',
} as const;

/**
 * The days the file covers: from–to; from a day to today; up to a day; or, with neither, the day
 * of the export (a file of everything, as it was that day).
 */
function daysPart(filters: Partial<TransactionFilters>, today: string): string {
  const { from, to } = filters;
  if (from && to) return `${from}-${NAME.to}-${to}`;
  if (from) return from <= today ? `${from}-${NAME.to}-${today}` : `${NAME.from}-${from}`;
  if (to) return `${NAME.to}-${to}`;
  return today;
}

/** The export's file name for these filters, exported on business day `today` (YYYY-MM-DD). */
export function exportFileName(filters: Partial<TransactionFilters>, today: string): string {
  const statuses = TRANSACTION_STATUSES.filter((status) => filters.status?.includes(status));
  const channels = PAYMENT_CHANNELS.filter((channel) => filters.channel?.includes(channel));
  const parts = [
    NAME.prefix,
    ...(statuses.length > 0 ? statuses : [NAME.anyStatus]),
    ...channels,
    ...(filters.q ? [NAME.search] : []),
    daysPart(filters, today),
  ];
  // Only characters safe in a file name and a header on every system; all of these are already
  // (statuses and channels are fixed lists, days are validated YYYY-MM-DD): this keeps it so if that changes.
  return `${parts.join('-').replace(/[^A-Za-z0-9-]/g, '_')}.csv`;
}
