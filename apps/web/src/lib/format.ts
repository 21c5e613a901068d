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

/** Amounts are shown as the value followed by " KES" (docs/product.md §2). */
export function formatAmount(amount: number): string {
  return `${amount} KES`;
}
