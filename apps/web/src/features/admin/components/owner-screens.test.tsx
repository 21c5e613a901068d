import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, unauthenticated, type ApiCall } from '../../../test/render-app';
import { ROLE_REFUSED } from '../problem';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });
const OWNER = { name: 'Amina', role: 'owner' };
const operator = (name: string, role: string, extra: Record<string, unknown> = {}) => ({
  name,
  role,
  createdAt: '2026-11-20T08:00:00.000Z',
  passwordSet: true,
  you: false,
  ...extra,
});
const LINK = {
  name: 'Baraka',
  path: '/set-password#tok-123',
  expiresAt: '2026-11-26T08:00:00.000Z',
};

beforeEach(() => localStorage.setItem('mpesa.signedIn', '1'));

/** An owner signed in, with a CSRF token; `extra` answers the screen's own requests. */
function ownerApi(extra: (call: ApiCall) => unknown, me: unknown = OWNER) {
  return mockApi((call) => {
    const answer = extra(call);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/auth/me') return ok(me);
    if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
    return undefined;
  });
}

describe('the Operators screen', () => {
  it('is reached from the header by an owner, and lists who signs in', async () => {
    ownerApi((call) =>
      call.path === '/api/operators'
        ? ok({
            operators: [
              operator('Amina', 'owner', { you: true }),
              operator('Baraka', 'cashier', { passwordSet: false }),
            ],
          })
        : undefined,
    );
    renderApp('/');
    const owner = await screen.findByRole('navigation', { name: 'Owner' });
    await userEvent.click(within(owner).getByRole('link', { name: 'Operators' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Operators' })).toBeInTheDocument();
    const rows = await screen.findAllByRole('row');
    expect(rows[1]).toHaveTextContent('Amina (you)');
    expect(rows[1]).toHaveTextContent('Owner');
    expect(rows[2]).toHaveTextContent('Baraka');
    expect(rows[2]).toHaveTextContent('Cashier');
    expect(rows[2]).toHaveTextContent('Not set yet');
    expect(screen.getByLabelText('New role for Baraka')).toBeInTheDocument();
  });

  it('shows no owner links to a cashier', async () => {
    ownerApi(() => undefined, { name: 'Baraka', role: 'cashier' });
    renderApp('/');
    await screen.findByText('Signed in as Baraka (cashier)');
    expect(screen.queryByRole('navigation', { name: 'Owner' })).not.toBeInTheDocument();
  });

  it('adds an operator with the CSRF token and shows their one-time link once', async () => {
    const api = ownerApi((call) => {
      if (call.path === '/api/operators' && call.method === 'POST') {
        return ok({ operator: operator('Baraka', 'cashier', { passwordSet: false }), link: LINK });
      }
      if (call.path === '/api/operators') return ok({ operators: [operator('Amina', 'owner')] });
      return undefined;
    });
    renderApp('/operators');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name'), 'Baraka');
    await user.click(screen.getByRole('radio', { name: /Can also ask for payments/ }));
    await user.click(screen.getByRole('button', { name: 'Add operator' }));

    const shown = await screen.findByRole('heading', { name: 'Password link for Baraka' });
    expect(shown).toHaveFocus();
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ name: 'Baraka', role: 'cashier' });
    expect(post?.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(screen.getByText('http://localhost:3000/set-password#tok-123')).toBeInTheDocument();
    expect(screen.getByText(/It works once, for 24 hours/)).toBeInTheDocument();
    expect(screen.getByText(/It will not be shown again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(/tok-123/)).not.toBeInTheDocument();
  });

  it('removes an operator only once confirmed, by keyboard too', async () => {
    const api = ownerApi((call) => {
      if (call.method === 'DELETE') return ok({ removed: true });
      if (call.path === '/api/operators') return ok({ operators: [operator('Baraka', 'viewer')] });
      return undefined;
    });
    renderApp('/operators');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove Baraka' }));
    expect(screen.getByRole('button', { name: 'Keep' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Remove Baraka' }));
    await user.click(screen.getByRole('button', { name: 'Remove Baraka' }));
    await screen.findByRole('button', { name: 'Remove Baraka' });
    const removal = api.calls.find((call) => call.method === 'DELETE');
    expect(removal?.path).toBe('/api/operators/Baraka');
    expect(removal?.headers.get('X-CSRF-Token')).toBe('csrf-1');
  });

  it('changes a role, and shows the API’s refusal in an alert that takes focus', async () => {
    const message = 'The shop needs at least one owner.';
    const api = ownerApi((call) => {
      if (call.method === 'PATCH') {
        return { status: 409, body: { success: false, code: 'LAST_OWNER', message } };
      }
      if (call.path === '/api/operators') return ok({ operators: [operator('Amina', 'owner')] });
      return undefined;
    });
    renderApp('/operators');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('New role for Amina'), 'viewer');
    await user.click(screen.getByRole('button', { name: 'Change role of Amina' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(alert).toHaveFocus();
    expect(api.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ role: 'viewer' });
  });

  it('says the role cannot do this on a 403, and asks to sign in on a 401', async () => {
    const refusal = {
      status: 403,
      body: { success: false, code: 'ROLE_NOT_ALLOWED', message: 'Your role does not allow this.' },
    };
    ownerApi((call) => (call.path === '/api/operators' ? refusal : undefined));
    const first = renderApp('/operators');
    expect(await screen.findByRole('alert')).toHaveTextContent(ROLE_REFUSED);
    first.unmount();

    ownerApi((call) => (call.path === '/api/operators' ? unauthenticated() : undefined));
    renderApp('/operators');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sign in to see this.');
    expect(within(alert).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/sign-in?next=%2Foperators',
    );
  });
});
