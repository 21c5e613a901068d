import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../../../test/render-app';

const GOOD = 'correct horse battery staple';

async function choose(password: string, again = password) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('The same password again'), again);
  await user.click(screen.getByRole('button', { name: 'Set password' }));
}

describe('the Set your password screen (a one-time link)', () => {
  it('says the rule before typing, sets the password with the token, and leads to sign in', async () => {
    const api = mockApi((call) =>
      call.path === '/api/auth/set-password'
        ? { status: 200, body: { success: true, data: { name: 'Baraka' } } }
        : undefined,
    );
    const { router } = renderApp('/set-password#tok-123');
    expect(
      screen.getByRole('heading', { level: 2, name: 'Set your password' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      /Choose a password of 12 to 256 characters/,
    );
    // The token leaves the address bar once read.
    await vi.waitFor(() => expect(router.state.location.hash).toBe(''));

    await choose(GOOD);
    const done = await screen.findByText(/Your password is set, Baraka/);
    expect(done.parentElement).toHaveFocus();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      token: 'tok-123',
      password: GOOD,
    });
    await userEvent.click(screen.getByRole('link', { name: 'Go to Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends nothing for a short password or two that differ', async () => {
    const api = mockApi(() => undefined);
    renderApp('/set-password#tok-123');
    await choose('too short');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'Choose a password of 12 to 256 characters.',
    );
    expect(screen.getByLabelText('New password')).toHaveFocus();
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.clear(screen.getByLabelText('The same password again'));
    await choose(GOOD, `${GOOD}!`);
    expect(screen.getByLabelText('The same password again')).toHaveAccessibleDescription(
      'The two passwords are not the same.',
    );
    expect(api.count('/api/auth/set-password')).toBe(0);
  });

  it('says plainly that a used or old link does not work, and to ask the owner', async () => {
    mockApi((call) =>
      call.path === '/api/auth/set-password'
        ? {
            status: 400,
            body: {
              success: false,
              code: 'PASSWORD_LINK_INVALID',
              message: 'This link is invalid.',
            },
          }
        : undefined,
    );
    renderApp('/set-password#tok-used');
    await choose(GOOD);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link does not work');
    expect(alert).toHaveTextContent('Ask the shop’s owner for a new link.');
    expect(alert).toHaveFocus();
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('says so at once for a link without its token', () => {
    mockApi(() => undefined);
    renderApp('/set-password');
    expect(screen.getByRole('alert')).toHaveTextContent('Ask the shop’s owner for a new link.');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});
