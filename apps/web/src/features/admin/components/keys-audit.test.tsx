import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, type ApiCall } from '../../../test/render-app';

const ok = (data: unknown) => ({ status: 200, body: { success: true, data } });
const KEY = {
  id: 'k-1',
  name: 'Till 2',
  scope: 'payments:read',
  prefix: 'mpk_ab12',
  createdAt: '2026-11-20T08:00:00.000Z',
  createdBy: 'Amina',
  lastUsedAt: null,
  revokedAt: null,
  revokedReason: null,
  revokedBy: null,
};
const entry = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  at: '2026-11-22T10:00:00.000Z',
  actorKind: 'operator',
  actor: 'Amina',
  action: 'operator_added',
  target: 'Baraka',
  subject: { kind: 'operator', id: 'Baraka', name: 'Baraka' },
  detail: 'role: cashier',
  facts: { kind: 'role', role: 'cashier' },
  address: '192.0.2.7',
  ...overrides,
});

beforeEach(() => localStorage.setItem('mpesa.signedIn', '1'));

function ownerApi(extra: (call: ApiCall) => unknown) {
  return mockApi((call) => {
    const answer = extra(call);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/auth/me') return ok({ name: 'Amina', role: 'owner' });
    if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
    return undefined;
  });
}

describe('the API keys screen', () => {
  it('lists the keys in plain words, and shows a new key once', async () => {
    const api = ownerApi((call) => {
      if (call.path === '/api/keys' && call.method === 'POST') {
        return ok({ key: { ...KEY, id: 'k-2', name: 'Accounts' }, secret: 'mpk_secret_xyz' });
      }
      if (call.path === '/api/keys') return ok({ keys: [KEY] });
      return undefined;
    });
    renderApp('/keys');
    const row = (await screen.findAllByRole('row'))[1]!;
    expect(row).toHaveTextContent('Till 2');
    expect(row).toHaveTextContent('Read payments');
    expect(row).toHaveTextContent('mpk_ab12');
    expect(row).toHaveTextContent('by Amina');
    expect(row).toHaveTextContent('Never');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Accounts');
    // Every scope is offered, the webhooks' too.
    expect(screen.getByRole('radio', { name: /Manage webhooks/ })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Request payments/ }));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByRole('heading', { name: 'The key “Accounts”' })).toHaveFocus();
    expect(screen.getByText('mpk_secret_xyz')).toBeInTheDocument();
    expect(screen.getByText(/it will not be shown again/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeInTheDocument();
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ name: 'Accounts', scope: 'payments:request' });
    expect(post?.headers.get('X-CSRF-Token')).toBe('csrf-1');

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('mpk_secret_xyz')).not.toBeInTheDocument();
  });

  it('revokes a key once confirmed, and shows it revoked', async () => {
    let revoked = false;
    const api = ownerApi((call) => {
      if (call.method === 'DELETE') {
        revoked = true;
        return ok({
          key: {
            ...KEY,
            revokedAt: '2026-11-23T09:00:00.000Z',
            revokedReason: 'owner',
            revokedBy: 'Amina',
          },
        });
      }
      if (call.path === '/api/keys') {
        return ok({ keys: [revoked ? { ...KEY, revokedAt: '2026-11-23T09:00:00.000Z' } : KEY] });
      }
      return undefined;
    });
    renderApp('/keys');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke Till 2' }));
    const confirm = screen.getByRole('group', { name: /Revoke the key “Till 2”/ });
    expect(within(confirm).getByRole('button', { name: 'Keep' })).toHaveFocus();
    await user.click(within(confirm).getByRole('button', { name: 'Revoke Till 2' }));
    expect(await screen.findByText(/^Revoked /)).toBeInTheDocument();
    const removal = api.calls.find((call) => call.method === 'DELETE');
    expect(removal?.path).toBe('/api/keys/k-1');
    expect(removal?.headers.get('X-CSRF-Token')).toBe('csrf-1');
  });
});

describe('the API keys screen, on who made a key and why it ended', () => {
  const revoked = (id: string, reason: string, by: string | null) => ({
    ...KEY,
    id,
    name: `Key ${id}`,
    createdBy: 'Zuri',
    revokedAt: '2026-11-23T09:00:00.000Z',
    revokedReason: reason,
    revokedBy: by,
  });

  it('says who made each key, why a revoked one was revoked, and what a webhooks key hears', async () => {
    ownerApi((call) =>
      call.path === '/api/keys'
        ? ok({
            keys: [
              { ...KEY, scope: 'webhooks:manage', name: 'Hooks' },
              revoked('k-2', 'owner', 'Amina'),
              revoked('k-3', 'maker_removed', 'Amina'),
              revoked('k-4', 'maker_not_owner', null),
            ],
          })
        : undefined,
    );
    renderApp('/keys');
    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows[0]).toHaveTextContent('Manage webhooks');
    expect(rows[0]).toHaveTextContent(
      'Its endpoints receive payers’ full phone numbers, as “Read payments” does.',
    );
    expect(rows[1]).toHaveTextContent('by Zuri');
    expect(rows[1]).toHaveTextContent(/Revoked .* by Amina/);
    expect(rows[2]).toHaveTextContent(/Revoked .*: its maker was removed/);
    expect(rows[3]).toHaveTextContent(/Revoked .*: its maker is no longer an owner/);
    expect(
      screen.getByText(/A key stops working when the owner who made it is removed/),
    ).toBeVisible();
    // Where the scope is chosen, too.
    expect(
      screen.getByRole('radio', {
        name: /Manage webhooks.*every payment with the payer’s full phone number, as “Read payments” does/,
      }),
    ).toBeInTheDocument();
  });
});

describe('the Audit trail screen', () => {
  it('shows who did what, to what, when and from where, and pages to older entries', async () => {
    const api = ownerApi((call) => {
      if (call.path === '/api/audit') {
        return ok({
          entries: [
            entry('a-2'),
            entry('a-1', { action: 'sign_in', target: null, subject: null, facts: null }),
          ],
          nextCursor: 'c-1',
        });
      }
      if (call.path === '/api/audit?cursor=c-1') {
        return ok({
          entries: [
            entry('a-0', {
              actorKind: 'anonymous',
              actor: null,
              action: 'sign_in_failed',
              target: null,
              subject: null,
              detail: null,
              facts: null,
            }),
          ],
          nextCursor: null,
        });
      }
      return undefined;
    });
    renderApp('/audit');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Audit trail' }),
    ).toBeInTheDocument();
    const rows = await screen.findAllByRole('row');
    expect(rows[1]).toHaveTextContent('Amina');
    expect(rows[1]).toHaveTextContent('Added an operator');
    expect(rows[1]).toHaveTextContent('as Cashier');
    expect(within(rows[1]!).getByRole('link', { name: 'Baraka' })).toHaveAttribute(
      'href',
      '/operators',
    );
    expect(rows[1]).toHaveTextContent('192.0.2.7');
    expect(rows[2]).toHaveTextContent('Signed in');

    await userEvent.click(screen.getByRole('button', { name: 'Show older' }));
    const older = await screen.findByText('Failed to sign in');
    expect(older.closest('tr')).toHaveTextContent('Someone not signed in');
    expect(older.closest('tr')).toHaveFocus();
    expect(api.count('/api/audit?cursor=c-1')).toBe(1);
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument();
  });
});
