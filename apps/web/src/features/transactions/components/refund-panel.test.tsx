import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, transaction } from '../../../test/render-app';

const DETAIL = '/api/mpesa/transactions/tx-1';
const REFUND = `${DETAIL}/refund`;

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
});

const answer = (data: unknown) => ({ status: 200, body: { success: true, data } });

/** A refund as the API tells it: asked for by Amina, awaited unless overridden. */
function refund(overrides: Record<string, unknown> = {}) {
  return {
    id: 'rf-1',
    status: 'requested',
    amount: 450,
    reason: 'Paid twice',
    requestedBy: 'Amina',
    requestedAt: '2026-11-22T11:00:00.000Z',
    updatedAt: '2026-11-22T11:00:00.000Z',
    resultCode: null,
    resultDescription: null,
    reversalReceipt: null,
    ...overrides,
  };
}

/** The merchant's view of a paid payment of 450 KES from a till, by Jane. */
function paid(merchant: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  return transaction({
    view: 'merchant',
    status: 'success',
    amount: 450,
    resultCode: '0',
    mpesaReceiptNumber: 'UAB1C2D3E4',
    phoneNumber: '254712****78',
    payerName: 'Jane W',
    channel: 'till',
    reference: '',
    merchant: {
      flaggedReason: null,
      customerMessage: null,
      mayReview: false,
      refund: null,
      mayRefund: true,
      refundBlockedBy: null,
      callbacks: [],
      ...merchant,
    },
    ...overrides,
  });
}

/**
 * The scripted API for someone signed in as `role`, reading `view()` (read on every request);
 * `onRefund` answers the refund's POST.
 */
function mockRefundApi(
  view: () => unknown,
  role: string,
  onRefund?: (body: unknown) => ReturnType<typeof answer> | { status: number; body: unknown },
) {
  localStorage.setItem('mpesa.signedIn', '1');
  return mockApi((call) => {
    if (call.path === DETAIL) return answer(view());
    if (call.path === `${DETAIL}/events`) return answer([]);
    if (call.path === '/api/auth/me') return answer({ name: 'Amina', role });
    if (call.path === '/api/auth/csrf') return answer({ token: 'csrf-1' });
    if (call.path === REFUND && call.method === 'POST' && onRefund) return onRefund(call.body);
    return undefined;
  });
}

describe('refunding a payment from its merchant view', () => {
  it('offers a cashier or a viewer no refund, and says nothing of one', async () => {
    mockRefundApi(() => paid({ mayRefund: false, refundBlockedBy: null }), 'cashier');
    renderApp('/transactions/tx-1');
    await screen.findByText('UAB1C2D3E4');
    expect(screen.queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Refund' })).not.toBeInTheDocument();
  });

  it('asks an owner for the reason, shows the amount and the payer, and sends one request however often confirmed', async () => {
    let current = paid();
    const bodies: unknown[] = [];
    const api = mockRefundApi(
      () => current,
      'owner',
      (body) => {
        bodies.push(body);
        current = paid({ refund: refund(), mayRefund: false, refundBlockedBy: 'exists' });
        return answer(refund());
      },
    );
    const user = userEvent.setup();
    renderApp('/transactions/tx-1');
    await user.click(await screen.findByRole('button', { name: 'Refund' }));

    const form = screen.getByRole('form', { name: 'Refund this payment' });
    const reason = within(form).getByLabelText(/^Why/);
    expect(reason).toHaveFocus();
    expect(within(form).getByText('450 KES')).toBeInTheDocument();
    expect(within(form).getByText('254712****78')).toBeInTheDocument();
    expect(within(form).getByText('Jane W')).toBeInTheDocument();

    // No reason: nothing is sent, and the field says why.
    const confirm = within(form).getByRole('button', { name: 'Refund 450 KES' });
    await user.click(confirm);
    expect(
      within(form).getByText('Please give the reason for the refund (at least 2 characters)'),
    ).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(api.count(REFUND)).toBe(0);

    await user.type(reason, ' Paid twice ');
    expect(within(form).getByText('10 of 200 characters')).toBeInTheDocument();
    await user.dblClick(confirm);
    expect(await screen.findByText('Sent to M-PESA, waiting for its answer.')).toBeInTheDocument();
    expect(api.count(REFUND)).toBe(1);
    expect(bodies).toEqual([{ reason: 'Paid twice', amount: 450 }]);
    const posted = api.calls.find((call) => call.path === REFUND);
    expect(posted?.headers.get('X-CSRF-Token')).toBe('csrf-1');
    // The refund's state takes the focus; no second refund is offered, and "exists" is not said twice.
    expect(
      screen.getByText('Sent to M-PESA, waiting for its answer.').closest('[tabindex]'),
    ).toHaveFocus();
    expect(screen.queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/already been asked for/)).not.toBeInTheDocument();
    expect(screen.getByText(/Asked for by Amina/)).toHaveTextContent('Paid twice');
  });

  it('closes the confirmation with Cancel, sending nothing, and gives the focus back to its button', async () => {
    const api = mockRefundApi(() => paid(), 'owner');
    const user = userEvent.setup();
    renderApp('/transactions/tx-1');
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: 'Refund this payment' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refund' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Refund' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Refund' })).toHaveFocus();
    expect(api.count(REFUND)).toBe(0);
  });

  it('asks again every 5 s while the refund is awaited, then shows it reversed with its receipt', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let current = paid({ refund: refund(), mayRefund: false, refundBlockedBy: 'exists' });
    const api = mockRefundApi(() => current, 'owner');
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('Sent to M-PESA, waiting for its answer.')).toBeInTheDocument();
    const asked = api.count(DETAIL);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(api.count(DETAIL)).toBe(asked + 1);

    current = paid(
      {
        refund: refund({
          status: 'reversed',
          updatedAt: '2026-11-22T11:00:40.000Z',
          reversalReceipt: 'UAB9REV001',
        }),
        mayRefund: false,
        refundBlockedBy: 'exists',
      },
      { status: 'refunded' },
    );
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(
      await screen.findByText(/Refunded on .*, M-PESA receipt UAB9REV001\./),
    ).toBeInTheDocument();
    expect(screen.getAllByText('Refunded')[0]).toHaveClass('status-badge-refunded');
    const settled = api.count(DETAIL);
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(api.count(DETAIL)).toBe(settled);
  });

  it.each([
    ['R000001', null, 'M-PESA says this payment was already reversed.'],
    ['R000002', null, 'M-PESA does not know this payment’s receipt.'],
    ['1', null, 'The shop’s M-PESA account holds too little money to give this back.'],
    ['2001', null, /The initiator’s password is wrong/],
    ['8006', null, /The initiator is locked/],
    ['R000009', 'Some new refusal.', 'Some new refusal.'],
  ])('says why a refund failed (%s), and offers to try it again', async (code, said, expected) => {
    mockRefundApi(
      () =>
        paid({
          refund: refund({ status: 'failed', resultCode: code, resultDescription: said }),
          mayRefund: true,
        }),
      'owner',
    );
    renderApp('/transactions/tx-1');
    const failed = await screen.findByText(/The refund did not go through: the money stayed/);
    expect(failed).toHaveTextContent(expected);
    expect(screen.getByRole('button', { name: 'Try the refund again' })).toBeInTheDocument();
  });

  it.each([
    ['not_paid', /Only a paid payment can be refunded/],
    ['flagged', /set aside for a person’s review/],
    ['too_old', /older than the server refunds/],
    ['not_set_up', /owner sets MPESA_INITIATOR_NAME/],
    ['exists', /already been asked for/],
  ])('says why an owner cannot refund (%s)', async (block, expected) => {
    mockRefundApi(() => paid({ mayRefund: false, refundBlockedBy: block }), 'owner');
    renderApp('/transactions/tx-1');
    expect(await screen.findByText(expected)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Refund/ })).not.toBeInTheDocument();
  });

  it('says when the refund could not be sent, and lets it be confirmed again', async () => {
    let answered = false;
    let current = paid();
    const api = mockRefundApi(
      () => current,
      'owner',
      () => {
        if (answered) {
          current = paid({ refund: refund(), mayRefund: false });
          return answer(refund());
        }
        answered = true;
        return 'network-error' as never;
      },
    );
    const user = userEvent.setup();
    renderApp('/transactions/tx-1');
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    await user.type(screen.getByLabelText(/^Why/), 'Paid twice');
    await user.click(screen.getByRole('button', { name: 'Refund 450 KES' }));
    expect(
      await screen.findByText(
        'The refund could not be sent. Please check your connection and try again.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Refund 450 KES' }));
    expect(await screen.findByText('Sent to M-PESA, waiting for its answer.')).toBeInTheDocument();
    expect(api.count(REFUND)).toBe(2);
  });

  it("says the API's refusal, and reads the payment again", async () => {
    let current = paid();
    const api = mockRefundApi(
      () => current,
      'owner',
      () => {
        current = paid({ refund: refund({ requestedBy: 'Baraka' }), mayRefund: false });
        return {
          status: 409,
          body: {
            success: false,
            code: 'REFUND_EXISTS',
            message: 'A refund of this payment was already asked for.',
          },
        };
      },
    );
    const user = userEvent.setup();
    renderApp('/transactions/tx-1');
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    await user.type(screen.getByLabelText(/^Why/), 'Returned the goods');
    await user.click(screen.getByRole('button', { name: 'Refund 450 KES' }));
    expect(
      await screen.findByText('A refund of this payment was already asked for.'),
    ).toBeInTheDocument();
    expect(await screen.findByText(/Asked for by Baraka/)).toBeInTheDocument();
    expect(api.count(REFUND)).toBe(1);
  });
});
