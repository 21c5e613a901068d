import type { PaymentChannel } from '@mpesa/shared';

/**
 * The Transaction History screen's words: the list, its filters, the figures at a glance and the
 * chart. The specification's own are word for word (docs/product.md §2, "Route /transactions").
 */
export const en = {
  screenTitle: 'Transactions',
  title: 'Transaction History',
  loading: 'Loading transactions...',
  failed: 'Failed to fetch transactions',
  empty: 'No transactions found.',
  /** The table's column names, in the specification's order. */
  columns: {
    reference: 'Reference',
    phoneNumber: 'Phone Number',
    amount: 'Amount',
    status: 'Status',
    date: 'Date',
    action: 'Action',
  },
  viewDetails: 'View Details',
  /** The row's link names its payment (amount and status already in the screen's language). */
  viewDetailsOf: (reference: string, amount: string, status: string) =>
    `View details of ${reference}, ${amount}, ${status}`,
  /** What a search found (the count already formatted): "more" while Load more can bring others. */
  found: (count: number, shown: string, more: boolean) =>
    `${shown} ${count === 1 ? 'payment' : 'payments'} ${more ? 'shown, more with Load more.' : 'found.'}`,
  /** Under what a filter found: the whole selection (the counts and the amount already formatted). */
  selectionTotals: (
    count: number,
    shown: string,
    paidCount: number,
    paidShown: string,
    paid: string,
  ) =>
    `All that these filters select: ${shown} ${count === 1 ? 'payment' : 'payments'}, ${paidShown} paid, ${paid}.`,
  loadMore: 'Load more',
  loadingMore: 'Loading more...',
  moreFailed: 'More transactions could not be loaded.',
  exportCsv: 'Export CSV',
  // The filters.
  findTransactions: 'Find transactions',
  search: 'Search',
  searchPlaceholder: 'Phone or its last 4 digits, receipt or reference',
  status: 'Status',
  from: 'From',
  to: 'To',
  apply: 'Apply',
  /** What folds the filters beside the search on a phone, and how many are in use. */
  filters: 'Filters',
  filtersInUse: (count: number) => `Filters (${count} in use)`,
  /** The date ranges picked in one press, and the group's name for screen readers. */
  dateRanges: 'Date ranges',
  presets: { today: 'Today', last7Days: 'Last 7 days', thisMonth: 'This month' },
  /**
   * The days the filters hold, in words (each day already written out, "2 November 2026"): a date
   * field writes its day as the browser does (11/02/2026 on an American one), the table as the
   * page's language does, so the line says which days are meant.
   */
  range: (from: string | undefined, to: string | undefined) =>
    from && to
      ? from === to
        ? `Payments of ${from}.`
        : `Payments of ${from} to ${to}.`
      : from
        ? `Payments from ${from} on.`
        : `Payments up to ${to}.`,
  clear: 'Clear',
  /** How a payment came (the `channel` filter), and the tag in the Reference cell. */
  channel: 'How it was paid',
  channelAll: 'All',
  channels: {
    prompt: 'Prompt sent by the shop',
    till: 'Till (from the customer’s menu)',
    paybill: 'Paybill (from the customer’s menu)',
  } as Record<PaymentChannel, string>,
  channelTags: { till: 'Till', paybill: 'Paybill' },
  // The figures at a glance.
  atAGlance: 'At a glance',
  today: 'Today',
  last7Days: 'Last 7 days',
  /**
   * "3 payments, 67% successful" (the counts and the rate already formatted); with some still
   * pending, the rate is of the others: "2 payments (1 still pending), 100% of the others successful".
   */
  periodDetail: (
    count: number,
    shown: string,
    rate: string,
    pending: number,
    pendingShown: string,
  ) =>
    pending === 0
      ? `${shown} ${count === 1 ? 'payment' : 'payments'}, ${rate} successful`
      : pending === count
        ? `${shown} ${count === 1 ? 'payment, still pending' : 'payments, all still pending'}`
        : `${shown} ${count === 1 ? 'payment' : 'payments'} (${pendingShown} still pending), ${rate} of the others successful`,
  /** Hidden, of a usual length, in the figures' place while they load. */
  periodPlaceholder: '00 payments, 00% successful',
  figuresFailed: 'The figures could not be loaded.',
  /** Under the amount collected, which counts no refunded payment (the amount already formatted). */
  noRefunds: 'Collected, no refunds',
  afterRefunds: (count: number, shown: string, amount: string) =>
    `Collected, after ${amount} refunded (${shown} ${count === 1 ? 'payment' : 'payments'})`,
  // The receipt check: a till or paybill payment whose confirmation never came.
  receiptCheckTitle: 'Missing a till or paybill payment?',
  receiptLabel: 'Enter the M-PESA receipt from the SMS',
  receiptHint: '10 letters and digits, such as UAB1C2D3E4',
  /** The contract's own message (receiptCheckRequestSchema), word for word: a test pins it. */
  receiptInvalid:
    'Please enter the M-PESA receipt from the SMS, such as UAB1C2D3E4 (10 letters and digits)',
  checkReceipt: 'Check with M-PESA',
  checkingReceipt: 'Asking M-PESA about this receipt…',
  receiptFound: 'M-PESA knows this payment: it is in the history now.',
  openPayment: 'Open the payment',
  receiptNotFound: 'M-PESA has no payment with that receipt to this shop.',
  /** `NO_ANSWER`: M-PESA never answered (the API's receipt-checks.service.ts). */
  receiptFailed: (code: string | null) =>
    code === 'NO_ANSWER'
      ? 'M-PESA has not answered about this receipt. Please try again in a few minutes.'
      : `M-PESA could not be asked about this receipt${code ? ` (code ${code})` : ''}. Please try again in a few minutes.`,
  receiptSendFailed: 'The receipt could not be sent. Please check your connection and try again.',
};

export type HistoryWords = typeof en;
