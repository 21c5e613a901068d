import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, transaction } from '../../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
});

const DETAIL = '/api/mpesa/transactions/tx-1';

function labels() {
  return Array.from(document.querySelectorAll('dt'), (dt) => dt.textContent);
}

describe('the Transaction Details screen', () => {
  it('says it is loading, then shows a pending transaction with the spinner and the two links', async () => {
    mockApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: transaction() } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(screen.getByRole('heading', { name: 'Transaction Details' })).toBeInTheDocument();
    expect(screen.getByText('Loading transaction details...')).toBeInTheDocument();

    expect(
      await screen.findByText('Please complete the payment on your phone.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Pending')).toHaveClass('status-badge');
    expect(document.querySelector('.spinner')).toBeInTheDocument();
    expect(labels()).toEqual(['Reference', 'Phone Number', 'Amount', 'Description', 'Created At']);
    expect(screen.getByText('150 KES')).toBeInTheDocument();
    expect(
      screen.getByText(new Date('2026-11-22T10:15:00.000Z').toLocaleString()),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Transactions' })).toHaveAttribute(
      'href',
      '/transactions',
    );
    expect(screen.getByRole('link', { name: 'Make Another Payment' })).toHaveAttribute('href', '/');
  });

  it('shows the receipt, transaction date and response only when present, and N/A for a missing date', async () => {
    mockApi((call) =>
      call.path === DETAIL
        ? {
            status: 200,
            body: {
              success: true,
              data: transaction({
                status: 'success',
                createdAt: null,
                mpesaReceiptNumber: 'UF1E26WQJZ',
                transactionDate: '2026-06-14T16:36:04.000Z',
                responseDescription: 'The service request is processed successfully.',
              }),
            },
          }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('UF1E26WQJZ')).toBeInTheDocument();
    expect(labels()).toEqual([
      'Reference',
      'Phone Number',
      'Amount',
      'Description',
      'Created At',
      'M-PESA Receipt',
      'Transaction Date',
      'Response',
    ]);
    expect(screen.getByText('N/A')).toBeInTheDocument();
    expect(screen.getByText('Success')).toBeInTheDocument();
    expect(
      screen.queryByText('Please complete the payment on your phone.'),
    ).not.toBeInTheDocument();
  });

  it('shows an unknown outcome like any other status, with what the merchant should check', async () => {
    const text =
      'M-PESA never confirmed the payment request within 10 minutes. Whether the payer paid is ' +
      'not known: check the M-PESA statement for a payment of 150 KES from this phone number ' +
      'before asking for the money again.';
    mockApi((call) =>
      call.path === DETAIL
        ? {
            status: 200,
            body: {
              success: true,
              data: transaction({ status: 'unknown', responseDescription: text }),
            },
          }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('Unknown')).toHaveClass('status-badge', 'status-badge-unknown');
    expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByText('Please complete the payment on your phone.')).toBeNull();
  });

  it('asks again every 5 s while pending and stops once the status is final', async () => {
    vi.useFakeTimers();
    let status = 'pending';
    const api = mockApi((call) =>
      call.path === DETAIL
        ? { status: 200, body: { success: true, data: transaction({ status }) } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.count(DETAIL)).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(api.count(DETAIL)).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(api.count(DETAIL)).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(api.count(DETAIL)).toBe(3);

    status = 'cancelled';
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(api.count(DETAIL)).toBe(4);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(screen.getByText('Cancelled')).toBeInTheDocument();
    expect(
      screen.queryByText('Please complete the payment on your phone.'),
    ).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(api.count(DETAIL)).toBe(4);
  });

  it('keeps showing the transaction when a poll fails, and only logs it', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    let fail = false;
    mockApi((call) =>
      call.path === DETAIL
        ? fail
          ? { status: 503, body: { success: false, message: 'down' } }
          : { status: 200, body: { success: true, data: transaction() } }
        : undefined,
    );
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(0));
    fail = true;
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(screen.getByText('Please complete the payment on your phone.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
  });

  it('says "Transaction not found" for an unknown id', async () => {
    mockApi((call) =>
      call.path === '/api/mpesa/transactions/nope'
        ? {
            status: 404,
            body: {
              success: false,
              code: 'TRANSACTION_NOT_FOUND',
              message: 'Transaction not found',
            },
          }
        : undefined,
    );
    renderApp('/transactions/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Transaction not found');
    expect(screen.queryByText('Failed to fetch transaction details')).not.toBeInTheDocument();
  });

  it('says the details could not be fetched only when loading really failed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi((call) => (call.path === DETAIL ? 'network-error' : undefined));
    renderApp('/transactions/tx-1');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch transaction details',
    );
  });
});
