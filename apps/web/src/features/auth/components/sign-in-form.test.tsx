import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, transaction } from '../../../test/render-app';

const AMINA = { success: true, data: { name: 'Amina', role: 'owner' } };

beforeEach(() => localStorage.clear());

async function signInAs(name: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Name'), name);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the Sign in screen', () => {
  it('has labelled fields the browser can fill in, and a button', () => {
    mockApi(() => undefined);
    renderApp('/sign-in');
    expect(screen.getByRole('heading', { level: 2, name: 'Sign in' })).toBeInTheDocument();
    expect(document.title).toBe('Sign in · M-PESA Payment Integration');
    expect(screen.getByLabelText('Name')).toHaveAttribute('autocomplete', 'username');
    expect(screen.getByLabelText('Password')).toHaveAttribute('autocomplete', 'current-password');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('signs in with the name and password typed, then opens the page it was sent from', async () => {
    const api = mockApi((call) => {
      if (call.path === '/api/auth/sign-in') return { status: 200, body: AMINA };
      if (call.path === '/api/mpesa/transactions/tx-1') {
        return { status: 200, body: { success: true, data: transaction({ status: 'success' }) } };
      }
      if (call.path.endsWith('/events')) return { status: 200, body: { success: true, data: [] } };
      return undefined;
    });
    const { router } = renderApp(`/sign-in?next=${encodeURIComponent('/transactions/tx-1?x=1')}`);
    await signInAs('Amina', 'correct horse battery');
    await screen.findByText('INV-42');
    expect(router.state.location.pathname + router.state.location.search).toBe(
      '/transactions/tx-1?x=1',
    );
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ name: 'Amina', password: 'correct horse battery' });
    // The header knows at once, without asking the API again.
    expect(screen.getByRole('banner')).toHaveTextContent('Signed in as Amina (owner)');
    expect(api.count('/api/auth/me')).toBe(0);
  });

  it('tells the operator once of the failed attempts since they last signed in, in either language', async () => {
    mockApi((call) => {
      if (call.path === '/api/auth/sign-in') {
        return { status: 200, body: { ...AMINA, data: { ...AMINA.data, failedAttempts: 3 } } };
      }
      return undefined;
    });
    renderApp('/sign-in');
    await signInAs('Amina', 'correct horse battery');
    const header = screen.getByRole('banner');
    const notice = await within(header).findByRole('status');
    expect(notice).toHaveTextContent('3 failed attempts since you last signed in');
    await userEvent.click(
      within(within(header).getByRole('group', { name: 'Language' })).getByRole('button', {
        name: 'Kiswahili',
      }),
    );
    expect(
      await within(header).findByText(/Majaribio 3 yaliyoshindwa tangu uingie mara ya mwisho/),
    ).toBeInTheDocument();
    // Dismissed, it is gone.
    await userEvent.click(within(header).getByRole('button', { name: 'Funga' }));
    expect(within(header).queryByRole('status')).toBeNull();
  });

  it('says "1 failed attempt" for one', async () => {
    mockApi((call) => {
      if (call.path === '/api/auth/sign-in') {
        return { status: 200, body: { ...AMINA, data: { ...AMINA.data, failedAttempts: 1 } } };
      }
      return undefined;
    });
    renderApp('/sign-in');
    await signInAs('Amina', 'correct horse battery');
    expect(await within(screen.getByRole('banner')).findByRole('status')).toHaveTextContent(
      /^1 failed attempt since you last signed in/,
    );
  });

  it('shows no such line when there were none', async () => {
    mockApi((call) => {
      if (call.path === '/api/auth/sign-in') {
        return { status: 200, body: { ...AMINA, data: { ...AMINA.data, failedAttempts: 0 } } };
      }
      return undefined;
    });
    renderApp('/sign-in');
    await signInAs('Amina', 'correct horse battery');
    const header = screen.getByRole('banner');
    expect(await within(header).findByText('Signed in as Amina (owner)')).toBeInTheDocument();
    expect(within(header).queryByRole('status')).toBeNull();
  });

  it('says what the API says when the name or password is wrong, and moves focus there', async () => {
    mockApi((call) =>
      call.path === '/api/auth/sign-in'
        ? {
            status: 401,
            body: {
              success: false,
              code: 'SIGN_IN_FAILED',
              message: 'The name or password is not right.',
            },
          }
        : undefined,
    );
    const { router } = renderApp('/sign-in');
    await signInAs('Amina', 'wrong password!');
    const box = await screen.findByRole('alert');
    expect(box).toHaveTextContent('The name or password is not right.');
    expect(box).toHaveFocus();
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('says how long to wait after too many attempts, in the API’s words', async () => {
    const message = 'Too many failed sign-ins. Please wait 10 minutes and try again.';
    mockApi((call) =>
      call.path === '/api/auth/sign-in'
        ? { status: 429, body: { success: false, code: 'TOO_MANY_SIGN_INS', message } }
        : undefined,
    );
    renderApp('/sign-in');
    await signInAs('Amina', 'correct horse battery');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('shows a validation error under the field it names, and sends nothing with a field empty', async () => {
    const api = mockApi((call) =>
      call.path === '/api/auth/sign-in'
        ? {
            status: 400,
            body: {
              success: false,
              code: 'VALIDATION_ERROR',
              message: 'The password is too long.',
              field: 'password',
            },
          }
        : undefined,
    );
    renderApp('/sign-in');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Enter your name.');
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(api.count('/api/auth/sign-in')).toBe(0);

    await signInAs('Amina', 'x');
    const password = screen.getByLabelText('Password');
    expect(await screen.findByText('The password is too long.')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAccessibleDescription('The password is too long.');
    expect(password).toHaveFocus();
  });

  it.each([
    '//evil.example',
    'https://evil.example/',
    '/\\evil.example',
    'transactions',
    '/\t/evil.example',
  ])('goes to the history, not to a next of %s', async (next) => {
    mockApi((call) => {
      if (call.path === '/api/auth/sign-in') return { status: 200, body: AMINA };
      if (call.path === '/api/mpesa/transactions') return { status: 200, body: { data: [] } };
      return undefined;
    });
    const { router } = renderApp(`/sign-in?next=${encodeURIComponent(next)}`);
    await signInAs('Amina', 'correct horse battery');
    await screen.findByRole('heading', { name: 'Transaction History' });
    expect(router.state.location.pathname).toBe('/transactions');
  });
});
