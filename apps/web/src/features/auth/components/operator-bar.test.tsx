import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  mockApi,
  renderApp,
  summary,
  transaction,
  unauthenticated,
} from '../../../test/render-app';
import { transactionKeys } from '../../transactions/api/transactions-api';
import { SIGN_OUT_FAILED } from './operator-bar';

const LIST = '/api/mpesa/transactions';

/** What a browser that signed in keeps (no secret: the session is in an HttpOnly cookie). */
const signedInEarlier = () => localStorage.setItem('mpesa.signedIn', '1');

beforeEach(() => localStorage.clear());

function signedInApi(extra: (path: string, method: string) => unknown = () => undefined) {
  let signedIn = true;
  const api = mockApi((call) => {
    const answer = extra(call.path, call.method);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/auth/me' && signedIn) {
      return { status: 200, body: { success: true, data: { name: 'Amina', role: 'cashier' } } };
    }
    if (call.path === '/api/auth/csrf') {
      return { status: 200, body: { success: true, data: { token: 'csrf-token-1' } } };
    }
    if (call.path === '/api/auth/sign-out') {
      signedIn = false;
      return { status: 200, body: { success: true, data: { signedOut: true } } };
    }
    // The merchant's routes, as the API answers them: to a session only.
    if ((call.path === LIST || call.path === '/api/mpesa/summary') && !signedIn) {
      return unauthenticated();
    }
    if (call.path === LIST) {
      return { status: 200, body: { success: true, data: [transaction({ status: 'success' })] } };
    }
    if (call.path === '/api/mpesa/summary') {
      return { status: 200, body: { success: true, data: summary() } };
    }
    return undefined;
  });
  return api;
}

describe('the header, for a signed-in operator', () => {
  it('says who is signed in, and signs out with the CSRF token, forgetting what was shown', async () => {
    signedInEarlier();
    const api = signedInApi();
    const { router, queryClient } = renderApp('/transactions');
    const header = screen.getByRole('banner');
    expect(await within(header).findByText('Signed in as Amina (cashier)')).toBeInTheDocument();
    await screen.findByText('INV-42');
    expect(queryClient.getQueryData(transactionKeys.summary())).toBeDefined();

    await userEvent.click(within(header).getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/sign-in');
    const signOut = api.calls.find((call) => call.path === '/api/auth/sign-out');
    expect(signOut?.method).toBe('POST');
    expect(signOut?.headers.get('X-CSRF-Token')).toBe('csrf-token-1');
    expect(within(header).queryByText(/Signed in as/)).not.toBeInTheDocument();
    expect(within(header).queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    // Nothing the operator saw is kept: a screen still on its way out may ask again, and is refused.
    const kept = queryClient
      .getQueryCache()
      .findAll({ queryKey: transactionKeys.all })
      .filter((query) => query.state.data !== undefined);
    expect(kept).toEqual([]);
  });

  it('stays signed in, and says so, when signing out fails', async () => {
    signedInEarlier();
    signedInApi((path) => (path === '/api/auth/sign-out' ? 'network-error' : undefined));
    const { router } = renderApp('/');
    const header = screen.getByRole('banner');
    await userEvent.click(await within(header).findByRole('button', { name: 'Sign out' }));
    expect(await within(header).findByRole('alert')).toHaveTextContent(SIGN_OUT_FAILED);
    expect(within(header).getByText('Signed in as Amina (cashier)')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('the header, when no one is signed in (HISTORY_ACCESS=open)', () => {
  it('asks no one about a session in a browser that never signed in', async () => {
    const api = mockApi(() => undefined);
    renderApp('/');
    await screen.findByRole('heading', { name: 'M-PESA Payment' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(api.count('/api/auth/me')).toBe(0);
    expect(
      within(screen.getByRole('banner')).queryByRole('button', { name: 'Sign out' }),
    ).not.toBeInTheDocument();
  });

  it.each([
    ['401', { status: 401, body: { success: false, code: 'UNAUTHENTICATED', message: 'x' } }],
    ['404 (an API without signing in)', { status: 404, body: { success: false } }],
    ['no answer', 'network-error'],
    ['a 200 that is not an operator', { status: 200, body: { mpesaEnv: 'sandbox' } }],
  ] as const)('shows nothing new on a %s from /api/auth/me', async (_, answer) => {
    signedInEarlier();
    const api = mockApi((call) => (call.path === '/api/auth/me' ? answer : undefined));
    renderApp('/');
    const header = screen.getByRole('banner');
    const before = header.innerHTML;
    await screen.findByRole('heading', { name: 'M-PESA Payment' });
    await vi.waitFor(() => expect(api.count('/api/auth/me')).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(header.innerHTML).toBe(before);
    expect(within(header).queryByRole('button', { name: 'Sign out' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Signed in as/)).not.toBeInTheDocument();
  });
});
