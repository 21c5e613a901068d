import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, renderApp, transaction, unauthenticated } from '../../../test/render-app';

describe('a merchant’s screen refused for want of a session (HISTORY_ACCESS=operators)', () => {
  it('shows the history’s sign-in notice in place of the figures, export and rows, coming back to the same address', async () => {
    mockApi((call) =>
      call.path.startsWith('/api/mpesa/transactions') || call.path === '/api/mpesa/summary'
        ? unauthenticated()
        : undefined,
    );
    const { router } = renderApp('/transactions?status=success');
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('Sign in to see this.');
    expect(screen.queryByText('Failed to fetch transactions')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export CSV' })).not.toBeInTheDocument();
    expect(screen.queryByText('The figures could not be loaded.')).not.toBeInTheDocument();
    const link = within(notice).getByRole('link', { name: 'Sign in' });
    expect(link).toHaveAttribute('href', '/sign-in?next=%2Ftransactions%3Fstatus%3Dsuccess');

    await userEvent.click(link);
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.search).toBe('?next=%2Ftransactions%3Fstatus%3Dsuccess');
  });

  it('shows the figures’ notice when only they are refused', async () => {
    mockApi((call) => {
      if (call.path === '/api/mpesa/summary') return unauthenticated();
      if (call.path === '/api/mpesa/transactions') return { status: 200, body: { data: [] } };
      return undefined;
    });
    renderApp('/transactions');
    await screen.findByText('No transactions found.');
    expect(await screen.findByText('Sign in to see this.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/sign-in?next=%2Ftransactions',
    );
  });

  it('keeps the payer’s payment open on its page; only the timeline asks to sign in', async () => {
    mockApi((call) => {
      if (call.path === '/api/mpesa/transactions/tx-1') {
        return { status: 200, body: { success: true, data: transaction({ status: 'success' }) } };
      }
      if (call.path === '/api/mpesa/transactions/tx-1/events') return unauthenticated();
      return undefined;
    });
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('INV-42')).toBeInTheDocument();
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(await within(timeline).findByText('Sign in to see this.')).toBeInTheDocument();
    expect(within(timeline).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/sign-in?next=%2Ftransactions%2Ftx-1',
    );
    expect(screen.queryByText('The timeline could not be loaded.')).not.toBeInTheDocument();
  });
});
