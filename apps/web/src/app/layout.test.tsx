import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSignedIn } from '../features/auth/history-reach';
import { mockApi, renderApp, transaction, type ApiCall } from '../test/render-app';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });
/** /api/config with the history for the shop's people only (HISTORY_ACCESS=operators). */
const CLOSED = {
  status: 200,
  body: { mpesaEnv: 'production', simulatorUrl: null, historyOpen: false },
};

afterEach(() => {
  forgetSignedIn();
  localStorage.clear();
});

/** A payer's failed payment, tx-1, on a server whose history is closed. */
function closedApi(more: (call: ApiCall) => unknown = () => undefined) {
  return mockApi((call) => {
    const answer = more(call);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/config') return CLOSED;
    if (call.path === '/api/mpesa/transactions/tx-1') return ok(transaction({ status: 'failed' }));
    if (call.path === '/api/mpesa/transactions/tx-1/events') return ok([]);
    return undefined;
  });
}

describe('where the history is for the shop’s people only', () => {
  it('leads a payer nowhere they cannot go: no Transactions in the header or on their payment’s page, and a way in for the shop’s staff', async () => {
    closedApi();
    renderApp('/transactions/tx-1');
    await screen.findByText('INV-42');
    await screen.findByRole('link', { name: 'Shop staff: sign in' });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Make Payment' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Transactions' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Back to Transactions' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Make Another Payment' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Shop staff: sign in' })).toHaveAttribute(
      'href',
      '/sign-in',
    );
  });

  it('offers no Transactions on a page that is not there either', async () => {
    closedApi();
    renderApp('/nowhere');
    await screen.findByRole('link', { name: 'Shop staff: sign in' });
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Make Payment' })).toBeInTheDocument();
    expect(within(main).queryByRole('link', { name: 'Transactions' })).toBeNull();
  });

  it('offers the history to whoever is signed in, and no sign-in link', async () => {
    localStorage.setItem('mpesa.signedIn', '1');
    closedApi((call) =>
      call.path === '/api/auth/me' ? ok({ name: 'Amina', role: 'cashier' }) : undefined,
    );
    renderApp('/transactions/tx-1');
    await screen.findByText('INV-42');
    await screen.findByText(/Amina/);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Transactions' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Transactions' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Shop staff: sign in' })).toBeNull();
  });
});
