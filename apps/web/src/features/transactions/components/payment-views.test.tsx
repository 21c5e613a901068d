import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, transaction } from '../../../test/render-app';
import { TRY_AGAIN_WITHIN_MS } from '../own-payments';

const DETAIL = '/api/mpesa/transactions/tx-1';
const EVENTS = '/api/mpesa/transactions/tx-1/events';

afterEach(() => localStorage.clear());

/** A payer's page (HISTORY_ACCESS=operators): a timed-out payment, created `ageMs` ago. */
function payersPage(ageMs: number) {
  return transaction({
    view: 'payer',
    status: 'timeout',
    resultCode: '1037',
    phoneNumber: '0712 ••• 678',
    createdAt: new Date(Date.now() - ageMs).toISOString(),
  });
}

function merchantsPage(
  overrides: Record<string, unknown> = {},
  merchant: Record<string, unknown> = {},
) {
  return transaction({
    view: 'merchant',
    status: 'failed',
    resultCode: '1',
    responseDescription: 'The balance is insufficient for the transaction.',
    merchant: {
      flaggedReason: null,
      mayReview: false,
      customerMessage: 'Success. Request accepted for processing',
      callbacks: [
        {
          receivedAt: '2026-11-22T10:15:30.000Z',
          outcome: 'applied',
          rawBody: '{"Body":{"stkCallback":{"ResultCode":1}}}',
        },
      ],
      ...merchant,
    },
    ...overrides,
  });
}

const answer = (data: unknown) => ({ status: 200, body: { success: true, data } });

describe("the payer's page of a payment (HISTORY_ACCESS=operators)", () => {
  it('offers no "Try again" and no timeline to someone who opened its link', async () => {
    const api = mockApi((call) => (call.path === DETAIL ? answer(payersPage(60_000)) : undefined));
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('0712 ••• 678')).toBeInTheDocument();
    expect(screen.getAllByText(/Your phone could not be reached/)).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Timeline' })).not.toBeInTheDocument();
    expect(api.count(EVENTS)).toBe(0);
    expect(screen.getByRole('link', { name: 'Back to Transactions' })).toBeInTheDocument();
  });

  it('offers "Try again" on this browser\'s own payment while it is recent, and not after', async () => {
    localStorage.setItem('mpesa.ownPayments', JSON.stringify(['tx-1']));
    mockApi((call) => (call.path === DETAIL ? answer(payersPage(60_000)) : undefined));
    const first = renderApp('/transactions/tx-1');
    expect(await screen.findByRole('link', { name: 'Try again' })).toBeInTheDocument();
    first.unmount();

    mockApi((call) =>
      call.path === DETAIL ? answer(payersPage(TRY_AGAIN_WITHIN_MS + 60_000)) : undefined,
    );
    renderApp('/transactions/tx-1');
    expect(await screen.findByText('0712 ••• 678')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it("remembers a payment reached from inside the app as this browser's own", async () => {
    mockApi((call) => (call.path === DETAIL ? answer(payersPage(60_000)) : undefined));
    const { router } = renderApp('/');
    await router.navigate('/transactions/tx-1');
    expect(await screen.findByRole('link', { name: 'Try again' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('mpesa.ownPayments') ?? '[]')).toEqual(['tx-1']);
  });
});

describe("the merchant's view of a payment (HISTORY_ACCESS=operators)", () => {
  function mockMerchantApi(data: unknown, role: string | null, onReview?: (body: unknown) => void) {
    if (role) localStorage.setItem('mpesa.signedIn', '1');
    let current = data as { merchant?: object; status?: string };
    return mockApi((call) => {
      if (call.path === DETAIL) return answer(current);
      if (call.path === EVENTS) return answer([]);
      if (call.path === '/api/auth/me' && role) return answer({ name: 'Amina', role });
      if (call.path === '/api/auth/csrf') return answer({ token: 'csrf-1' });
      if (call.path === `${DETAIL}/review` && call.method === 'POST') {
        onReview?.(call.body);
        // Read again, the payment needs no review any more.
        current = {
          ...current,
          status: 'success',
          merchant: { ...current.merchant, mayReview: false },
        };
        return answer(transaction({ status: 'success' }));
      }
      return undefined;
    });
  }

  it("speaks to the shop, keeps M-PESA's own messages one click away, and never offers Try again", async () => {
    mockMerchantApi(merchantsPage(), 'viewer');
    renderApp('/transactions/tx-1');
    expect(
      await screen.findAllByText('M-PESA did not complete this payment. No money moved.'),
    ).not.toHaveLength(0);
    expect(screen.queryByText(/You can try again|Top up/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Timeline' })).toBeInTheDocument();

    const raw = screen.getByText('M-PESA’s own messages').closest('details')!;
    expect(raw).not.toHaveAttribute('open');
    await userEvent.click(screen.getByText('M-PESA’s own messages'));
    expect(raw).toHaveAttribute('open');
    expect(within(raw).getByText('The balance is insufficient for the transaction.')).toBeVisible();
    expect(within(raw).getByText('Success. Request accepted for processing')).toBeVisible();
    expect(within(raw).getByLabelText('Callback 1 as received').textContent).toContain(
      '"ResultCode": 1',
    );
    // No review is asked for a payment that needs none.
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('shows the flag, and no review form to one the API does not let review', async () => {
    mockMerchantApi(
      merchantsPage({ status: 'success' }, { flaggedReason: 'Paid 100 KES, asked 150 KES' }),
      'viewer',
    );
    renderApp('/transactions/tx-1');
    expect(await screen.findByRole('note')).toHaveTextContent('Paid 100 KES, asked 150 KES');
    await screen.findByText(/Amina/);
    expect(screen.queryByRole('button', { name: 'Save review' })).not.toBeInTheDocument();
  });

  it('lets an owner settle an unknown payment from the M-PESA statement, with a note', async () => {
    const reviews: unknown[] = [];
    const api = mockMerchantApi(
      merchantsPage({ status: 'unknown', resultCode: null }, { mayReview: true }),
      'owner',
      (body) => reviews.push(body),
    );
    renderApp('/transactions/tx-1');
    await userEvent.selectOptions(
      await screen.findByLabelText('What the M-PESA statement shows'),
      'success',
    );
    await userEvent.type(
      screen.getByLabelText('Why (kept on the payment’s timeline)'),
      'On the statement: QK1',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save review' }));
    expect(
      await screen.findByText('Review saved. The note is on the payment’s timeline.'),
    ).toHaveFocus();
    expect(reviews).toEqual([{ note: 'On the statement: QK1', status: 'success' }]);
    const posted = api.calls.find((call) => call.path === `${DETAIL}/review`);
    expect(posted?.headers.get('X-CSRF-Token')).toBe('csrf-1');
  });

  it("says the API's refusal of a review", async () => {
    mockApi((call) => {
      if (call.path === DETAIL)
        return answer(merchantsPage({ status: 'unknown' }, { mayReview: true }));
      if (call.path === EVENTS) return answer([]);
      if (call.path === '/api/auth/me') return answer({ name: 'Amina', role: 'owner' });
      if (call.path === '/api/auth/csrf') return answer({ token: 'csrf-1' });
      if (call.path === `${DETAIL}/review`) {
        return {
          status: 409,
          body: {
            success: false,
            code: 'REVIEW_REFUSED',
            message: 'Transaction tx-1 changed meanwhile; look again.',
          },
        };
      }
      return undefined;
    });
    localStorage.setItem('mpesa.signedIn', '1');
    renderApp('/transactions/tx-1');
    await userEvent.selectOptions(
      await screen.findByLabelText('What the M-PESA statement shows'),
      'failed',
    );
    await userEvent.type(
      screen.getByLabelText('Why (kept on the payment’s timeline)'),
      'Not there',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('changed meanwhile; look again.');
  });
});
