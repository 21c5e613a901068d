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
  loadMore: 'Load more',
  loadingMore: 'Loading more...',
  moreFailed: 'More transactions could not be loaded.',
  exportCsv: 'Export CSV',
  // The filters.
  findTransactions: 'Find transactions',
  search: 'Search',
  searchPlaceholder: 'Phone, receipt or reference',
  status: 'Status',
  from: 'From',
  to: 'To',
  apply: 'Apply',
  clear: 'Clear',
  // The figures at a glance.
  atAGlance: 'At a glance',
  today: 'Today',
  last7Days: 'Last 7 days',
  /** "3 payments, 67% successful" (the count and the rate already formatted). */
  periodDetail: (count: number, shown: string, rate: string) =>
    `${shown} ${count === 1 ? 'payment' : 'payments'}, ${rate} successful`,
  /** Hidden, of a usual length, in the figures' place while they load. */
  periodPlaceholder: '00 payments, 00% successful',
  figuresFailed: 'The figures could not be loaded.',
};

export type HistoryWords = typeof en;
