/**
 * Reads Account Balance's `AccountBalance` value (docs/daraja-protocol.md §M6): accounts joined by
 * `&`, each `<name>|<currency>|<n1>|<n2>|<n3>|<n4>`, amounts with two decimals, negatives allowed
 * (the Charges Paid Account). Pure, tested as a table. A part that does not read is left out, and
 * said so, rather than the whole reading refused.
 */
import type { BalanceAccount } from '@mpesa/shared/contract-balance';

/** One account, its amounts in cents, so that sums stay exact. */
export interface AccountInCents {
  name: string;
  currency: string;
  available: number;
  uncleared: number;
  reserved: number;
  other: number;
}

const AMOUNT = /^-?[0-9]{1,15}(?:\.[0-9]{1,2})?$/;
const cents = (text: string) => Math.round(Number(text) * 100);

export function readBalance(value: string): { accounts: AccountInCents[]; unread: string[] } {
  const accounts: AccountInCents[] = [];
  const unread: string[] = [];
  for (const part of value.split('&')) {
    if (part.trim() === '') continue;
    const [name, currency, ...amounts] = part.split('|').map((field) => field.trim());
    if (!name || !currency || amounts.length < 1 || !amounts.every((each) => AMOUNT.test(each))) {
      unread.push(part.slice(0, 100));
      continue;
    }
    const [available = 0, uncleared = 0, reserved = 0, other = 0] = amounts.map(cents);
    accounts.push({
      name: name.slice(0, 100),
      currency: currency.slice(0, 8),
      available,
      uncleared,
      reserved,
      other,
    });
  }
  return { accounts, unread };
}

/** YYYYMMDDHHmmss in Nairobi (M-PESA's BOCompletedTime) as an ISO time; null if it is not one. */
export function eatTime(text: string | null): string | null {
  const parts = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text ?? '');
  if (!parts) return null;
  const [, y, mo, d, h, mi, s] = parts.map(Number) as number[];
  const ms = Date.UTC(y!, mo! - 1, d!, h! - 3, mi!, s!);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export const inShillings = (account: AccountInCents): BalanceAccount => ({
  name: account.name,
  currency: account.currency,
  available: account.available / 100,
  uncleared: account.uncleared / 100,
  reserved: account.reserved / 100,
  other: account.other / 100,
});
