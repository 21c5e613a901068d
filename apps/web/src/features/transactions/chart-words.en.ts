/** The 14-day chart's words (docs/product.md §2, "Route /transactions": the caption is its own). */
export const en = {
  caption: 'Amounts by day and status, last 14 days',
  tableCaption: 'Amounts in KES by day and status, last 14 days',
  paid: 'Paid',
  notPaid: 'Not paid',
  /** Paid, then given back (a refund): not counted as paid. */
  refunded: 'Refunded',
  /** Waiting for M-PESA's answer: neither paid nor not paid yet. */
  pending: 'Pending',
  day: 'Day',
  /** The screen readers' table's last column: every status without a column of its own. */
  other: 'Other',
};

export type ChartWords = typeof en;
