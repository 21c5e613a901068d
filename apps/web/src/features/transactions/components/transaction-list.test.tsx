import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, transaction } from '../../../test/render-app';

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

    const table = await screen.findByRole('table');
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
      '2500 KES',
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
    expect(within(first!).getByRole('link', { name: 'View Details' })).toHaveAttribute(
      'href',
      '/transactions/a',
    );
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
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
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
});
