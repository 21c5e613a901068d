import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { receiptCheckRequestSchema } from '@mpesa/shared/contract';
import { mockApi, renderApp } from '../../../test/render-app';
import { en } from '../history-words.en';

const CHECKS = '/api/mpesa/receipt-checks';
const LIST = '/api/mpesa/transactions';

afterEach(() => vi.useRealTimers());

const answer = (data: unknown) => ({ status: 200, body: { success: true, data } });

function check(status: string, overrides: Record<string, unknown> = {}) {
  return {
    id: 'rc-1',
    receipt: 'UAB1C2D3E4',
    status,
    transactionId: null,
    resultCode: null,
    requestedAt: '2026-11-22T11:00:00.000Z',
    ...overrides,
  };
}

/** The history with no rows, on a server whose C2B till is `shortcode`; checks answered by `onCheck`. */
function mockHistory(
  shortcode: string | null,
  onCheck: (call: { method: string; path: string; body: unknown }) => unknown = () => undefined,
) {
  return mockApi((call) => {
    if (call.path === '/api/config') {
      return {
        status: 200,
        body: { mpesaEnv: 'sandbox', simulatorUrl: null, c2bShortcode: shortcode },
      };
    }
    if (call.path === LIST)
      return { status: 200, body: { success: true, data: [], nextCursor: null } };
    if (call.path === '/api/auth/csrf') return answer({ token: 'csrf-1' });
    if (call.path.startsWith(CHECKS)) return onCheck(call) as ReturnType<typeof answer>;
    return undefined;
  });
}

const field = () => screen.getByLabelText('Enter the M-PESA receipt from the SMS');

describe('the receipt check on the Transaction History screen', () => {
  it('is offered only where the server takes till or paybill payments', async () => {
    mockHistory(null);
    const first = renderApp('/transactions');
    await screen.findByText('No transactions found.');
    expect(screen.queryByText('Missing a till or paybill payment?')).not.toBeInTheDocument();
    first.unmount();

    mockHistory('600100');
    renderApp('/transactions');
    expect(await screen.findByText('Missing a till or paybill payment?')).toBeInTheDocument();
  });

  it("refuses a receipt that is not 10 letters and digits, in the contract's own words", async () => {
    const api = mockHistory('600100');
    const user = userEvent.setup();
    renderApp('/transactions');
    await user.type(await screen.findByLabelText('Enter the M-PESA receipt from the SMS'), 'UAB1');
    await user.click(screen.getByRole('button', { name: 'Check with M-PESA' }));
    const contract = receiptCheckRequestSchema.safeParse({ receipt: 'UAB1' });
    expect(contract.error?.issues[0]?.message).toBe(en.receiptInvalid);
    expect(screen.getByText(en.receiptInvalid)).toHaveAttribute('role', 'alert');
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field()).toHaveFocus();
    expect(api.count(CHECKS)).toBe(0);
  });

  it('asks M-PESA, asks again every 3 s until it has answered, then links to the payment', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status = 'asked';
    const posted: unknown[] = [];
    const api = mockHistory('600100', (call) => {
      if (call.method === 'POST') {
        posted.push(call.body);
        return answer(check('asked'));
      }
      return answer(check(status, status === 'found' ? { transactionId: 'tx-9' } : {}));
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp('/transactions');
    await user.type(await screen.findByLabelText(/Enter the M-PESA receipt/), ' uab1c2d3e4 ');
    await user.click(screen.getByRole('button', { name: 'Check with M-PESA' }));
    expect(await screen.findByText('Asking M-PESA about this receipt…')).toBeInTheDocument();
    expect(posted).toEqual([{ receipt: 'UAB1C2D3E4' }]);
    const sent = api.calls.find((call) => call.path === CHECKS && call.method === 'POST');
    expect(sent?.headers.get('X-CSRF-Token')).toBe('csrf-1');

    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(api.count(`${CHECKS}/rc-1`)).toBe(1);
    const listed = api.count(LIST);
    status = 'found';
    await act(() => vi.advanceTimersByTimeAsync(3000));
    const region = screen.getByText(/M-PESA knows this payment/).closest('[role="status"]')!;
    expect(
      within(region as HTMLElement).getByRole('link', { name: 'Open the payment' }),
    ).toHaveAttribute('href', '/transactions/tx-9');
    // The history is read again: the payment is in it now.
    expect(api.count(LIST)).toBeGreaterThan(listed);
    await act(() => vi.advanceTimersByTimeAsync(12_000));
    expect(api.count(`${CHECKS}/rc-1`)).toBe(2);
  });

  it.each([
    ['not_found', null, 'M-PESA has no payment with that receipt to this shop.'],
    ['failed', '2001', /M-PESA could not be asked about this receipt \(code 2001\)/],
  ])('says when M-PESA answers %s', async (status, code, expected) => {
    mockHistory('600100', (call) =>
      call.method === 'POST' ? answer(check(status, { resultCode: code })) : undefined,
    );
    const user = userEvent.setup();
    renderApp('/transactions');
    await user.type(await screen.findByLabelText(/Enter the M-PESA receipt/), 'UAB1C2D3E4');
    await user.click(screen.getByRole('button', { name: 'Check with M-PESA' }));
    expect(await screen.findByText(expected)).toBeInTheDocument();
  });

  it("says the API's refusal (C2B not set up)", async () => {
    mockHistory('600100', () => ({
      status: 409,
      body: {
        success: false,
        code: 'C2B_NOT_SET_UP',
        message: 'Till and paybill payments are not set up on this server.',
      },
    }));
    const user = userEvent.setup();
    renderApp('/transactions');
    await user.type(await screen.findByLabelText(/Enter the M-PESA receipt/), 'UAB1C2D3E4');
    await user.click(screen.getByRole('button', { name: 'Check with M-PESA' }));
    expect(
      await screen.findByText('Till and paybill payments are not set up on this server.'),
    ).toBeInTheDocument();
  });
});
