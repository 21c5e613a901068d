import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, type ApiCall } from '../../../test/render-app';

const ok = (data: unknown, status = 200) => ({ status, body: { success: true, data } });

function payout(extra: Record<string, unknown> = {}) {
  return {
    id: 'p1',
    batchId: 'b1',
    kind: 'SalaryPayment',
    to: '254708374149',
    account: null,
    amount: 1500,
    reason: 'Wages',
    status: 'proposed',
    proposedBy: 'Baraka',
    proposedAt: '2026-11-29T08:00:00.000Z',
    decidedBy: null,
    decidedAt: null,
    resultCode: null,
    resultDescription: null,
    receipt: null,
    receiverName: null,
    charge: null,
    corrects: null,
    updatedAt: '2026-11-29T08:00:00.000Z',
    ...extra,
  };
}

const BALANCE = {
  latest: {
    id: 'r1',
    shortcode: '174379',
    status: 'read',
    askedBy: null,
    askedAt: '2026-11-29T08:00:00.000Z',
    readAt: '2026-11-29T08:00:02.000Z',
    accounts: [
      {
        name: 'Utility Account',
        currency: 'KES',
        available: 997700,
        uncleared: 0,
        reserved: 0,
        other: 0,
      },
      {
        name: 'Charges Paid Account',
        currency: 'KES',
        available: -22.4,
        uncleared: 0,
        reserved: 0,
        other: 0,
      },
    ],
    total: 997677.6,
    resultCode: '0',
    resultDescription: 'ok',
  },
  newer: null,
  day: {
    day: '2026-11-29',
    moneyIn: 50,
    moneyOut: 1500,
    fees: 22.4,
    change: -1472.4,
    expectedChange: -1472.4,
    agrees: true,
    from: '2026-11-29T06:00:00.000Z',
    to: '2026-11-29T08:00:00.000Z',
  },
};

beforeEach(() => localStorage.setItem('mpesa.signedIn', '1'));

function payoutsApi(
  me: { name: string; role: string },
  payouts: unknown[],
  extra: (call: ApiCall) => unknown = () => undefined,
) {
  return mockApi((call) => {
    const answer = extra(call);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/auth/me') return ok(me);
    if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
    if (call.path === '/api/payouts' && call.method === 'GET') return ok({ payouts });
    if (call.path === '/api/balance') return ok(BALANCE);
    return undefined;
  });
}

describe('the Payouts screen', () => {
  it('is reached from the header; a second owner approves a cashier’s batch with the CSRF token', async () => {
    let approved = false;
    const api = payoutsApi({ name: 'Wanjiru', role: 'owner' }, [], (call) => {
      if (call.path === '/api/payouts/batches/b1/approve') {
        approved = true;
        return ok({ payouts: [] });
      }
      if (call.path === '/api/payouts' && call.method === 'GET') {
        return ok({
          payouts: approved
            ? [
                payout({
                  status: 'succeeded',
                  decidedBy: 'Wanjiru',
                  receipt: 'UAB1C2D3E4',
                  receiverName: '254708374149 - John Doe',
                  charge: 22.4,
                }),
              ]
            : [payout(), payout({ id: 'p2', to: '254705912645', amount: 800 })],
        });
      }
      return undefined;
    });
    renderApp('/');
    const money = await screen.findByRole('navigation', { name: 'The shop’s money' });
    await userEvent.click(within(money).getByRole('link', { name: 'Payouts' }));
    const batch = await screen.findByRole('group', { name: 'A batch of 2 proposed by Baraka' });
    expect(await screen.findAllByText('Waiting for approval')).toHaveLength(2);
    // The balance, with the day's money beside it.
    expect(
      screen.getByText('The day’s money and the change in balance agree.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Utility Account/ })).toHaveTextContent('997,700 KES');
    await userEvent.click(within(batch).getByRole('button', { name: 'Approve the batch' }));
    const card = await screen.findByRole('article', {
      name: 'Payout of 1,500 KES to 254708374149',
    });
    await within(card).findByText('Paid');
    expect(card).toHaveTextContent('UAB1C2D3E4');
    expect(card).toHaveTextContent('254708374149 - John Doe');
    expect(card).toHaveTextContent('22.40 KES');
    const post = api.calls.find((call) => call.path === '/api/payouts/batches/b1/approve');
    expect(post?.headers.get('x-csrf-token')).toBe('csrf-1');
  });

  it('does not offer the proposer their own approval; a viewer sees, and proposes nothing', async () => {
    payoutsApi({ name: 'Baraka', role: 'owner' }, [payout({ batchId: null })]);
    renderApp('/payouts');
    const card = await screen.findByRole('article', {
      name: 'Payout of 1,500 KES to 254708374149',
    });
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(card).toHaveTextContent('Another owner must approve this one.');
  });

  it('a viewer sees the payouts and the balance, with no form and no buttons', async () => {
    payoutsApi({ name: 'Otieno', role: 'viewer' }, [payout({ batchId: null })]);
    renderApp('/payouts');
    await screen.findByRole('article', { name: 'Payout of 1,500 KES to 254708374149' });
    expect(screen.queryByRole('form', { name: 'Propose a payout' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Approve|Decline|Read the balance/ })).toBeNull();
  });

  it('a cashier proposes one; a refused field is said under it', async () => {
    const api = payoutsApi({ name: 'Baraka', role: 'cashier' }, [], (call) => {
      if (call.path === '/api/payouts' && call.method === 'POST') {
        const body = call.body as { amount: string };
        return body.amount === '5'
          ? {
              status: 400,
              body: { success: false, code: 'VALIDATION_ERROR', message: 'x', field: 'amount' },
            }
          : ok(payout({ batchId: null }), 201);
      }
      return undefined;
    });
    renderApp('/payouts');
    const form = await screen.findByRole('form', { name: 'Propose a payout' });
    const user = userEvent.setup();
    await user.selectOptions(within(form).getByLabelText('Kind'), 'SalaryPayment');
    await user.type(within(form).getByLabelText('Phone, till or paybill number'), '0708374149');
    await user.type(within(form).getByLabelText('Amount (KES)'), '5');
    await user.type(within(form).getByLabelText('Reason'), 'Wages');
    await user.click(within(form).getByRole('button', { name: 'Propose' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Enter whole shillings: 10 to 250,000 KES to a phone.',
    );
    expect(within(form).getByLabelText('Amount (KES)')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(within(form).getByLabelText('Amount (KES)'));
    await user.type(within(form).getByLabelText('Amount (KES)'), '1500');
    await user.click(within(form).getByRole('button', { name: 'Propose' }));
    expect(
      await screen.findByText('Proposed: it waits for a second owner’s approval.'),
    ).toBeInTheDocument();
    const sent = api.calls.filter((call) => call.path === '/api/payouts' && call.method === 'POST');
    expect(sent.at(-1)?.body).toEqual({
      kind: 'SalaryPayment',
      to: '0708374149',
      amount: '1500',
      reason: 'Wages',
    });
  });

  it('lists each row’s problem when a file is refused whole', async () => {
    payoutsApi({ name: 'Baraka', role: 'cashier' }, [], (call) =>
      call.path === '/api/payouts/batches'
        ? {
            status: 400,
            body: {
              success: false,
              code: 'PAYOUT_BATCH_REFUSED',
              message: 'The file was not taken: 1 row has a problem. Nothing was proposed.',
              problems: [
                { row: 2, field: 'to', message: 'Please enter a valid Kenyan phone number' },
              ],
            },
          }
        : undefined,
    );
    renderApp('/payouts');
    const form = await screen.findByRole('form', { name: 'Propose a batch from a CSV file' });
    const file = new File(['to,amount,reason\n0708374149,100,Wages\nnope,100,Wages\n'], 'pay.csv', {
      type: 'text/csv',
    });
    await userEvent.upload(within(form).getByLabelText('CSV file'), file);
    await userEvent.click(within(form).getByRole('button', { name: 'Propose the file' }));
    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('The file was not taken.');
    expect(alert).toHaveTextContent(
      'Row 2: Enter a Kenyan phone number, or a till or paybill of 5 to 7 digits.',
    );
  });

  it('says why M-PESA did not pay, in Kiswahili too, and offers a correction', async () => {
    payoutsApi({ name: 'Baraka', role: 'cashier' }, [
      payout({ batchId: null, status: 'failed', resultCode: '1', decidedBy: 'Amina' }),
    ]);
    renderApp('/payouts');
    const card = await screen.findByRole('article', {
      name: 'Payout of 1,500 KES to 254708374149',
    });
    expect(card).toHaveTextContent('does not hold enough money');
    await userEvent.click(within(card).getByRole('button', { name: 'Correct and send again' }));
    expect(await screen.findByText(/Correcting the payout to 254708374149/)).toBeInTheDocument();
    const group = within(screen.getByRole('group', { name: 'Language' }));
    await userEvent.click(group.getByRole('button', { name: 'Kiswahili' }));
    const kiswahili = await screen.findByRole('article', {
      name: 'Malipo ya KES 1,500 kwa 254708374149',
    });
    expect(kiswahili).toHaveTextContent('Akaunti ya M-PESA ya duka haina pesa za kutosha');
    expect(kiswahili).toHaveTextContent('Hayakulipwa');
  });
});
