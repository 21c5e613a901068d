/**
 * Money out in the history, apart from the money in: the signed-in shop's figures of money out and
 * the balance under the money in's, and the payouts under Money out, filtered by the address, a
 * page at a time, as CSV for an owner. Nothing of it where no one is signed in.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, type ApiCall } from '../../../test/render-app';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });
const AT = '2026-11-29T08:00:00.000Z';

function payout(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    batchId: null,
    kind: 'SalaryPayment',
    to: '254708374149',
    account: null,
    amount: 1500,
    reason: 'Wages',
    status: 'succeeded',
    proposedBy: 'Baraka',
    proposedAt: AT,
    decidedBy: 'Amina',
    decidedAt: AT,
    resultCode: '0',
    resultDescription: null,
    receipt: 'UAB1C2D3E4',
    receiverName: null,
    charge: 22.4,
    corrects: null,
    updatedAt: AT,
    ...extra,
  };
}

const SUMMARY = {
  today: { count: 2, amount: 1750, charges: 35.4 },
  last7Days: { count: 3, amount: 2450, charges: 57.8 },
  waiting: 1,
};
const BALANCE = {
  latest: null,
  newer: null,
  day: {
    day: '2026-11-29',
    moneyIn: 0,
    moneyOut: 0,
    fees: 0,
    change: null,
    expectedChange: null,
    agrees: null,
    from: null,
    to: null,
  },
};

afterEach(() => localStorage.removeItem('mpesa.signedIn'));

/** The API for someone signed in with `role`; `pages` answers the payouts by cursor. */
function signedIn(role: string, answer: (call: ApiCall) => unknown = () => undefined) {
  localStorage.setItem('mpesa.signedIn', '1');
  return mockApi((call) => {
    const given = answer(call);
    if (given) return given as { status: number; body?: unknown };
    if (call.path === '/api/auth/me') return ok({ name: 'Amina', role });
    if (call.path === '/api/mpesa/transactions') {
      return { status: 200, body: { success: true, data: [], nextCursor: null } };
    }
    if (call.path === '/api/payouts/summary') return ok(SUMMARY);
    if (call.path === '/api/balance') return ok(BALANCE);
    return undefined;
  });
}

describe('money out in the history', () => {
  it('shows money out and the balance under the money in, for the signed-in shop', async () => {
    signedIn('viewer');
    renderApp('/transactions');
    const glance = await screen.findByRole('region', { name: 'Money out' });
    // Open on a wide screen (folded on a phone: the browser tests look at both).
    expect(await within(glance).findByText('Money out today: 1,750 KES')).toBeVisible();
    expect(
      within(glance).getByText(
        'Paid out today: 1,750 KES in 2 payouts, charges 35.4 KES. Last 7 days: 2,450 KES.',
      ),
    ).toBeVisible();
    expect(glance).toHaveTextContent('1 payout waits for an owner’s approval.');
    expect(within(glance).getByRole('link', { name: 'Open Payouts' })).toHaveAttribute(
      'href',
      '/payouts',
    );
    expect(within(glance).getByRole('link', { name: 'See every payout' })).toHaveAttribute(
      'href',
      '/transactions?money=out',
    );
    // The balance, with when it was read, and the day's money beside it.
    expect(within(glance).getByText('Balance at M-PESA: not read yet')).toBeVisible();
    expect(within(glance).getByRole('heading', { name: 'Balance at M-PESA' })).toBeVisible();
    expect(
      within(glance).getByText(
        'Two readings today are needed to compare the money with the balance.',
      ),
    ).toBeVisible();
    // A viewer may not ask M-PESA for the balance.
    expect(within(glance).queryByRole('button', { name: 'Read the balance now' })).toBeNull();
  });

  it('lists the payouts under Money out, by the address’s filters, a page at a time, with the CSV for an owner', async () => {
    const api = signedIn('owner', (call) => {
      if (call.path === '/api/payouts') {
        return ok({ payouts: [payout('p-2'), payout('p-1')], nextCursor: 'c2' });
      }
      if (call.path === '/api/payouts?cursor=c2') {
        return ok({
          payouts: [
            payout('p-0', {
              kind: 'BusinessPayBill',
              to: '888880',
              account: 'ACC-7',
              status: 'failed',
              charge: null,
              reason: 'Stock',
            }),
          ],
          nextCursor: null,
        });
      }
      if (call.path === '/api/payouts?status=failed&from=2026-11-01') {
        return ok({ payouts: [], nextCursor: null });
      }
      return undefined;
    });
    const user = userEvent.setup();
    const { router } = renderApp('/transactions');
    const glance = await screen.findByRole('region', { name: 'Money out' });
    await user.click(await within(glance).findByRole('link', { name: 'See every payout' }));
    expect(router.state.location.search).toBe('?money=out');
    const choice = screen.getByRole('navigation', { name: 'Money in or out' });
    expect(within(choice).getByRole('link', { name: 'Money out' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const table = await screen.findByRole('table', { name: 'Money out' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Proposed', 'Paid to', 'Amount', 'Charge', 'Status', 'Reason']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('2 payouts shown')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Export payouts (CSV)' })).toHaveAttribute(
      'href',
      '/api/payouts/export?lang=en',
    );
    // The payments' own table is not shown: money out is never listed as money in.
    expect(screen.queryByRole('table', { name: 'Transaction History' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    const paybill = (await within(table).findByText('888880 (ACC-7)')).closest('tr')!;
    expect(paybill).toHaveTextContent('Not paid');
    expect(paybill).toHaveTextContent('Stock');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Not paid');
    await user.type(screen.getByLabelText('Proposed from'), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(router.state.location.search).toBe('?money=out&status=failed&from=2026-11-01');
    expect(await screen.findByText('No payouts found.')).toBeVisible();
    expect(api.count('/api/payouts?status=failed&from=2026-11-01')).toBe(1);
    expect(screen.getByRole('link', { name: 'Export payouts (CSV)' })).toHaveAttribute(
      'href',
      '/api/payouts/export?status=failed&from=2026-11-01&lang=en',
    );
  });

  it('offers a cashier no CSV, and speaks Kiswahili', async () => {
    signedIn('cashier', (call) =>
      call.path === '/api/payouts' ? ok({ payouts: [payout('p-1')], nextCursor: null }) : undefined,
    );
    renderApp('/transactions?money=out');
    await screen.findByRole('table', { name: 'Money out' });
    expect(screen.queryByRole('link', { name: 'Export payouts (CSV)' })).toBeNull();
    const group = within(screen.getByRole('group', { name: 'Language' }));
    await userEvent.click(group.getByRole('button', { name: 'Kiswahili' }));
    const choice = await screen.findByRole('navigation', {
      name: 'Pesa zilizoingia au zilizotoka',
    });
    expect(within(choice).getByRole('link', { name: 'Pesa zilizotoka' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(await screen.findByText('Malipo 1 yanaonyeshwa')).toBeVisible();
    expect(screen.getByRole('cell', { name: 'Yamelipwa' })).toBeVisible();
  });

  it('shows nothing of it where the history is open and no one is signed in', async () => {
    const api = mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? { status: 200, body: { success: true, data: [], nextCursor: null } }
        : undefined,
    );
    renderApp('/transactions');
    await screen.findByText('No transactions found.');
    expect(screen.queryByRole('region', { name: 'Money out' })).toBeNull();
    expect(api.calls.filter((call) => call.path.startsWith('/api/payouts'))).toEqual([]);
  });
});
