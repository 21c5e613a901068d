import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { emptyHistory, mockApi, renderApp, summary, transaction } from '../../../test/render-app';

describe('the Transaction History screen', () => {
  it('says it is loading, then shows the table with the specification’s columns', async () => {
    const created = '2026-11-22T10:15:00.000Z';
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? {
            status: 200,
            body: {
              success: true,
              data: [
                transaction({
                  _id: 'a',
                  status: 'success',
                  reference: 'INV-2',
                  amount: 2500,
                  createdAt: created,
                }),
                transaction({ _id: 'b', status: 'cancelled', reference: 'INV-1' }),
              ],
            },
          }
        : undefined,
    );
    renderApp('/transactions');
    expect(screen.getByRole('heading', { name: 'Transaction History' })).toBeInTheDocument();
    expect(screen.getByText('Loading transactions...')).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: 'Transaction History' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Reference', 'Phone Number', 'Amount', 'Status', 'Date', 'Action']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual([
      'INV-2',
      '254712345678',
      '2,500 KES',
      'Success',
      new Date(created).toLocaleString(),
      'View Details',
    ]);
    expect(first).toHaveClass('row-status-success');
    expect(second).toHaveClass('row-status-cancelled');
    expect(within(second!).getByText('Cancelled')).toHaveClass(
      'status-badge',
      'status-badge-cancelled',
    );
    expect(
      within(first!).getByRole('link', { name: 'View details of INV-2, 2,500 KES, Success' }),
    ).toHaveAttribute('href', '/transactions/a');
    expect(screen.queryByText('Loading transactions...')).not.toBeInTheDocument();
  });

  it('says when there are no transactions', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? { status: 200, body: { success: true, data: [] } }
        : undefined,
    );
    renderApp('/transactions');
    expect(await screen.findByText('No transactions found.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Transaction History' })).not.toBeInTheDocument();
  });

  it('says the list could not be fetched only when loading really failed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? { status: 500, body: { success: false, message: 'boom' } }
        : undefined,
    );
    renderApp('/transactions');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch transactions');
    vi.useRealTimers();
  });

  it('keeps trying when the list cannot be loaded, says so under the specification’s text, and offers Retry', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let down = true;
    const api = mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? down
          ? 'network-error'
          : { status: 200, body: { success: true, data: [transaction()], nextCursor: null } }
        : undefined,
    );
    renderApp('/transactions');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch transactions');
    expect(
      screen.getByText(
        'The server could not be reached, so this page could not be loaded yet. Trying again every 5 seconds.',
      ),
    ).toBeInTheDocument();
    const asked = api.count('/api/mpesa/transactions');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(api.count('/api/mpesa/transactions')).toBeGreaterThan(asked);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch transactions');
    expect(screen.queryByText('Loading transactions...')).not.toBeInTheDocument();

    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Transaction History' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    vi.useRealTimers();
  });

  it('keeps the rows on screen when refreshing them fails, and says since when', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let down = false;
    mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? down
          ? { status: 503, body: { success: false, message: 'down' } }
          : { status: 200, body: { success: true, data: [transaction()], nextCursor: null } }
        : undefined,
    );
    renderApp('/transactions');
    await screen.findByText('Pending', { selector: '.status-badge' });
    down = true;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(
      await screen.findByText(/this page may be out of date\. Last updated at/),
    ).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Transaction History' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to fetch transactions')).not.toBeInTheDocument();
    vi.useRealTimers();
  });

  it('loads more rows by cursor, keeping the first page', async () => {
    const api = mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? {
            status: 200,
            body: {
              success: true,
              data: [transaction({ _id: 'a', reference: 'INV-2', status: 'success' })],
              nextCursor: 'c1',
            },
          }
        : call.path === '/api/mpesa/transactions?cursor=c1'
          ? {
              status: 200,
              body: {
                success: true,
                data: [transaction({ _id: 'b', reference: 'INV-1', status: 'success' })],
                nextCursor: null,
              },
            }
          : undefined,
    );
    const user = userEvent.setup();
    renderApp('/transactions');
    await screen.findByText('INV-2');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('INV-1')).toBeInTheDocument();
    expect(screen.getByText('INV-2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(api.count('/api/mpesa/transactions?cursor=c1')).toBe(1);
  });

  it('puts the filters in the address and asks the API for them', async () => {
    const api = emptyHistory();
    const user = userEvent.setup();
    const { router } = renderApp('/transactions');
    await screen.findByText('No transactions found.');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '0712 345 678');
    await user.click(screen.getByRole('checkbox', { name: 'Success' }));
    await user.click(screen.getByRole('checkbox', { name: 'Pending' }));
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    const expected = '?status=pending&status=success&q=0712+345+678';
    expect(router.state.location.search).toBe(expected);
    await screen.findByText('No transactions found.');
    expect(api.count(`/api/mpesa/transactions${expected}`)).toBe(1);
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `/api/mpesa/transactions/export${expected}`,
    );
    // The form shows what the address says.
    expect(screen.getByRole('checkbox', { name: 'Success' })).toBeChecked();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('0712 345 678');
  });

  it('applies a status, how it was paid and a date range as soon as they are picked, focus staying put', async () => {
    const api = emptyHistory();
    const user = userEvent.setup();
    const { router } = renderApp('/transactions');
    await screen.findByText('No transactions found.');
    const success = screen.getByRole('checkbox', { name: 'Success' });
    await user.click(success);
    expect(router.state.location.search).toBe('?status=success');
    await waitFor(() => expect(api.count('/api/mpesa/transactions?status=success')).toBe(1));
    expect(success).toHaveFocus();
    expect(success).toBeChecked();

    await user.selectOptions(screen.getByRole('combobox', { name: 'How it was paid' }), 'till');
    expect(router.state.location.search).toBe('?status=success&channel=till');

    // One press for a range; the business's today (the figures' time zone, Nairobi here).
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Nairobi' });
    const week = screen.getByRole('button', { name: 'Last 7 days' });
    await user.click(week);
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get('to')).toBe(today);
    expect(Date.parse(today) - Date.parse(search.get('from')!)).toBe(6 * 86_400_000);
    expect(screen.getByLabelText('To')).toHaveValue(today);
    expect(week).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Today' })).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByRole('button', { name: 'This month' }));
    expect(new URLSearchParams(router.state.location.search).get('from')).toBe(
      `${today.slice(0, 8)}01`,
    );
  });

  it.each([
    ['?from=2026-11-02&to=2026-11-29', 'Payments of 2 November 2026 to 29 November 2026.'],
    ['?from=2026-11-02&to=2026-11-02', 'Payments of 2 November 2026.'],
    ['?from=2026-11-02', 'Payments from 2 November 2026 on.'],
    ['?to=2026-01-09', 'Payments up to 9 January 2026.'],
  ])(
    'names the days the filters hold in words (%s), whatever format the date fields write',
    async (search, said) => {
      emptyHistory();
      renderApp(`/transactions${search}`);
      await screen.findByText('No transactions found.');
      expect(screen.getByText(said)).toBeVisible();
    },
  );

  it('names no days while no date is picked', async () => {
    emptyHistory();
    renderApp('/transactions?status=failed');
    await screen.findByText('No transactions found.');
    expect(screen.queryByText(/^Payments (of|from|up to)/)).toBeNull();
  });

  it.each([
    ['', false, 'Filters'],
    ['?status=failed&from=2026-11-01', true, 'Filters (2 in use)'],
  ])(
    'folds the filters beside the search on a phone unless some are in use (%s)',
    async (search, open, said) => {
      vi.stubGlobal('matchMedia', (query: string) => ({ matches: !query.includes('min-width') }));
      try {
        emptyHistory();
        renderApp(`/transactions${search}`);
        await screen.findByText('No transactions found.');
        const folded = document.querySelector<HTMLDetailsElement>('details.more-filters')!;
        expect(folded.open).toBe(open);
        expect(folded.querySelector('summary')).toHaveTextContent(said);
        expect(screen.getByRole('searchbox', { name: 'Search' })).toBeVisible();
      } finally {
        vi.unstubAllGlobals();
      }
    },
  );

  it('says what the whole filtered selection adds up to, in both languages, and asks nothing unfiltered', async () => {
    const api = mockApi((call) =>
      call.path === '/api/mpesa/transactions/totals?status=success'
        ? {
            status: 200,
            body: { success: true, data: { count: 1234, paidCount: 1234, paid: 2345000 } },
          }
        : call.path.startsWith('/api/mpesa/transactions')
          ? { status: 200, body: { success: true, data: [transaction()], nextCursor: 'c1' } }
          : undefined,
    );
    renderApp('/transactions');
    await screen.findByText('1 payment shown, more with Load more.');
    expect(api.count('/api/mpesa/transactions/totals')).toBe(0);
    // No empty room is kept for a line that will not come.
    expect(document.querySelector('.history-totals')).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Success' }));
    expect(
      await screen.findByText(
        'All that these filters select: 1,234 payments, 1,234 paid, 2,345,000 KES.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Kiswahili' }));
    expect(
      await screen.findByText(
        'Yote yaliyochaguliwa na vichujio hivi: miamala 1,234, 1,234 imelipwa, 2,345,000 KES.',
      ),
    ).toBeInTheDocument();
  });

  it('names a filter the API refused, under the specification’s text', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions?from=2026-13-01'
        ? {
            status: 400,
            body: {
              success: false,
              code: 'VALIDATION_ERROR',
              message: 'from must be a date written YYYY-MM-DD, such as 2026-11-01',
            },
          }
        : undefined,
    );
    renderApp('/transactions?from=2026-13-01');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch transactions');
    expect(alert).toHaveTextContent('from must be a date written YYYY-MM-DD');
  });

  it('asks again every 5 s while a row is pending, and stops once none is', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status = 'pending';
    const api = mockApi((call) =>
      call.path === '/api/mpesa/transactions'
        ? {
            status: 200,
            body: { success: true, data: [transaction({ status })], nextCursor: null },
          }
        : undefined,
    );
    renderApp('/transactions');
    await screen.findByText('Pending', { selector: '.status-badge' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(api.count('/api/mpesa/transactions')).toBe(2);
    status = 'success';
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await screen.findByText('Success', { selector: '.status-badge' })).toBeInTheDocument();
    const asked = api.count('/api/mpesa/transactions');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(api.count('/api/mpesa/transactions')).toBe(asked);
    vi.useRealTimers();
  });

  it('shows today and the last 7 days, and the fortnight in a table for screen readers', async () => {
    const daily = summary().daily.map((day, index) =>
      index === 13
        ? {
            ...day,
            byStatus: [
              { status: 'success', count: 2, amount: 750 },
              { status: 'cancelled', count: 1, amount: 90 },
            ],
          }
        : day,
    );
    mockApi((call) =>
      call.path === '/api/mpesa/summary'
        ? {
            status: 200,
            body: {
              success: true,
              data: summary({
                today: {
                  collected: 750,
                  count: 3,
                  pendingCount: 0,
                  successCount: 2,
                  successRate: 2 / 3,
                },
                last7Days: {
                  collected: 1750,
                  count: 1,
                  pendingCount: 0,
                  successCount: 1,
                  successRate: 1,
                },
                daily,
              }),
            },
          }
        : call.path === '/api/mpesa/transactions'
          ? { status: 200, body: { success: true, data: [], nextCursor: null } }
          : undefined,
    );
    renderApp('/transactions');
    const glance = await screen.findByRole('region', { name: 'At a glance' });
    expect(within(glance).getByText('750 KES')).toBeInTheDocument();
    expect(within(glance).getByText('3 payments, 67% successful')).toBeInTheDocument();
    expect(within(glance).getByText('1 payment, 100% successful')).toBeInTheDocument();
    const table = within(glance).getByRole('table', {
      name: 'Amounts in KES by day and status, last 14 days',
    });
    const lastDay = within(table).getByRole('row', { name: /2026-11-22/ });
    expect(
      within(lastDay)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
      // Success, Refunded, Pending, Failed, Cancelled, Timeout, Other.
    ).toEqual(['750', '0', '0', '0', '90', '0', '0']);
    expect(screen.getByText('No transactions found.')).toBeInTheDocument();
  });

  it.each([
    ['viewer', false],
    ['cashier', false],
    ['owner', true],
  ])('offers the export to a signed-in %s only if an owner', async (role, offered) => {
    localStorage.setItem('mpesa.signedIn', '1');
    try {
      mockApi((call) => {
        if (call.path === '/api/mpesa/transactions') {
          return { status: 200, body: { success: true, data: [transaction()] } };
        }
        if (call.path === '/api/auth/me') {
          return { status: 200, body: { success: true, data: { name: 'Amina', role } } };
        }
        return undefined;
      });
      renderApp('/transactions');
      await screen.findByText(/Signed in as Amina/);
      await screen.findByText('INV-42');
      expect(screen.queryAllByRole('link', { name: 'Export CSV' })).toHaveLength(offered ? 1 : 0);
    } finally {
      localStorage.clear();
    }
  });
});
