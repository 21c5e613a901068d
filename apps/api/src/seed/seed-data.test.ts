/**
 * The made-up payments of `npm run db:seed` look like a Kenyan shop's: the status mix, small
 * amounts, repeat customers, busy hours in Nairobi time, pending payments only in the last minutes.
 */
import { describe, expect, it } from 'vitest';
import { normaliseKenyanPhone } from '@mpesa/shared';
import { seedPayments, type SeedPlan, type SeededPayment } from './seed-data.ts';
import { isoTime } from './seed-timeline.ts';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const plan = (overrides: Partial<SeedPlan> = {}): SeedPlan => ({
  count: 20_000,
  days: 180,
  seed: 11,
  now: NOW,
  existing: 0,
  reconcile: { afterS: 90, maxBackoffS: 120, giveUpS: 600 },
  ...overrides,
});
const all = (seeded: Iterable<SeededPayment>) => [...seeded].map((payment) => payment.transaction);
const share = <T>(items: T[], test: (item: T) => boolean) =>
  items.filter(test).length / items.length;

describe('seeded payments', () => {
  const rows = all(seedPayments(plan()));
  const prompts = rows.filter((row) => row.channel === 'prompt');

  it('mostly succeed, then are cancelled, time out or fail; a very few are of unknown outcome', () => {
    const of = (status: string) => share(rows, (row) => row.status === status);
    // Till and paybill payments are all paid: they are recorded once M-PESA confirms them.
    expect(of('success')).toBeGreaterThan(0.65);
    expect(of('success')).toBeLessThan(0.85);
    expect(of('cancelled')).toBeGreaterThan(0.08);
    expect(of('cancelled')).toBeLessThan(of('success'));
    expect(of('timeout')).toBeGreaterThan(0.04);
    expect(of('failed')).toBeGreaterThan(0.04);
    expect(of('unknown')).toBeGreaterThan(0);
    expect(of('unknown')).toBeLessThan(0.01);
    expect(of('pending')).toBeLessThan(0.001);
  });

  it('come by prompt mostly, some from the till or paybill menu; a few paid ones were refunded', () => {
    const by = (channel: string) => share(rows, (row) => row.channel === channel);
    expect(by('till')).toBeGreaterThan(0.1);
    expect(by('till')).toBeLessThan(0.14);
    expect(by('paybill')).toBeGreaterThan(0.03);
    expect(by('paybill')).toBeLessThan(0.05);
    const menu = rows.filter((row) => row.channel !== 'prompt');
    for (const row of menu) {
      expect(['success', 'refunded']).toContain(row.status);
      expect(row.phone_number).toMatch(/^254[17] \*{5} \d{3}$/);
      expect(row.payer_name).not.toBeNull();
    }
    const paid = rows.filter((row) => row.status === 'success' || row.status === 'refunded');
    const refunded = share(paid, (row) => row.status === 'refunded');
    expect(refunded).toBeGreaterThan(0.003);
    expect(refunded).toBeLessThan(0.01);
    expect(share(menu, (row) => row.status === 'refunded')).toBeGreaterThan(0);
  });

  it('are whole shillings from 1 to 250,000, mostly small', () => {
    const amounts = rows.map((row) => row.amount).sort((a, b) => a - b);
    for (const amount of amounts) {
      expect(Number.isInteger(amount) && amount >= 1 && amount <= 250_000).toBe(true);
    }
    const median = amounts[Math.floor(amounts.length / 2)]!;
    expect(median).toBeGreaterThanOrEqual(100);
    expect(median).toBeLessThanOrEqual(1000);
    expect(share(amounts, (amount) => amount > 10_000)).toBeLessThan(0.05);
    expect(amounts.at(-1)).toBeGreaterThan(10_000);
  });

  it('come from repeat customers with Safaricom numbers', () => {
    for (const row of prompts) {
      expect(normaliseKenyanPhone(row.phone_number)).toBe(row.phone_number);
    }
    const phones = new Set(prompts.map((row) => row.phone_number));
    expect(phones.size).toBeLessThan(prompts.length * 0.4);
    expect([...phones].some((phone) => phone.startsWith('2541'))).toBe(true);
    expect([...phones].some((phone) => phone.startsWith('2547'))).toBe(true);
  });

  it('come in business hours, Nairobi time, over the whole window', () => {
    const hour = (row: (typeof rows)[number]) =>
      new Date(Date.parse(row.created_at) + 3 * 3_600_000).getUTCHours();
    expect(share(rows, (row) => hour(row) >= 8 && hour(row) < 21)).toBeGreaterThan(0.8);
    expect(share(rows, (row) => hour(row) >= 1 && hour(row) < 5)).toBeLessThan(0.02);
    const start = NOW.getTime() - 180 * 86_400_000;
    const days = new Set(
      rows.map((row) => Math.floor((Date.parse(row.created_at) - start) / 86_400_000)),
    );
    expect(days.size).toBe(180);
  });

  it('carry invoice references, and a retry keeps its invoice', () => {
    // A till payment has no account number; a paybill payment's is the invoice paid.
    const invoiced = rows.filter((row) => row.channel !== 'till');
    expect(share(invoiced, (row) => /^INV-\d{4,}$/.test(row.reference))).toBeGreaterThan(0.85);
    const byReference = new Map<string, number>();
    for (const row of rows)
      byReference.set(row.reference, (byReference.get(row.reference) ?? 0) + 1);
    const retried = [...byReference].filter(([reference, n]) => reference !== 'Payment' && n > 1);
    expect(retried.length).toBeGreaterThan(100);
  });

  it('are pending only in the last minutes, while reconciliation has them in hand', () => {
    const recent = all(seedPayments(plan({ count: 30_000, days: 1 })));
    const pending = recent.filter((row) => row.status === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    for (const row of pending) {
      expect(NOW.getTime() - Date.parse(row.created_at)).toBeLessThanOrEqual(600_000);
      expect(row.next_check_at).not.toBeNull();
      expect(row.result_code).toBeNull();
    }
  });

  it('are the same for the same seed, and others for another', () => {
    const first = [...seedPayments(plan({ count: 500 }))];
    expect([...seedPayments(plan({ count: 500 }))]).toEqual(first);
    const other = all(seedPayments(plan({ count: 500, seed: 12 })));
    expect(other.map((row) => row.id)).not.toEqual(first.map((payment) => payment.transaction.id));
  });

  it('formats times exactly as Date does', () => {
    for (const at of [0, -1, 86_399_999, 86_400_000, 1_795_000_000_123, NOW.getTime()]) {
      expect(isoTime(at)).toBe(new Date(at).toISOString());
    }
  });
});
