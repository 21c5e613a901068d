/**
 * The word that says which transaction a request asks for: STK push's `TransactionType`, the
 * Result APIs' `CommandID` (`BusinessPayment`, `BusinessPayBill`, `TransactionStatusQuery`, …).
 * Each API checks it against its own list with `commandWord`.
 */

/**
 * The word of `words` that `value` is, or null when it is none of them. Daraja takes the word with
 * spaces around it: npm `mpesa-api` 3.0.2 sends `'CustomerPayBillOnline '` by default and its users
 * pay through Daraja with it (docs/daraja-protocol.md §8). So by default the spaces are trimmed;
 * `strict` (SIM_STRICT_LENGTHS) asks for the exact word. The case is never changed.
 */
export function commandWord<Word extends string>(
  value: unknown,
  words: readonly Word[],
  strict: boolean,
): Word | null {
  if (typeof value !== 'string') return null;
  const word = strict ? value : value.trim();
  return words.find((known) => known === word) ?? null;
}
