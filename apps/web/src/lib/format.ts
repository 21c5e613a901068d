/** Display helpers shared by the screens. */

/** "pending" → "Pending" (docs/product.md §2: status badges show the first letter capitalised). */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A date in the viewer's locale, or "N/A" when it is missing or not a date. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'N/A' : date.toLocaleString();
}

/** Kenyan grouping, as M-PESA's own messages write amounts ("150,000"). */
const NUMBER = new Intl.NumberFormat('en-KE', { maximumFractionDigits: 2 });
/** Short figures for a chart's axis ("12K", "1.5M"). */
const COMPACT = new Intl.NumberFormat('en-KE', { notation: 'compact', maximumFractionDigits: 1 });

/** 292163 → "292,163". */
export function formatNumber(amount: number): string {
  return NUMBER.format(amount);
}

/** 292163 → "292K". */
export function formatCompact(amount: number): string {
  return COMPACT.format(amount);
}

/**
 * Amounts are shown as the value followed by " KES" (docs/product.md §2), the value grouped by
 * thousands ("292,163 KES"). Where it is shown, CSS keeps it on one line.
 */
export function formatAmount(amount: number): string {
  return `${formatNumber(amount)} KES`;
}
