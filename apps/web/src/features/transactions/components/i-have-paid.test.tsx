import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, renderApp, transaction } from '../../../test/render-app';
import { I_HAVE_PAID, STILL_WAITING } from './i-have-paid';

const DETAIL = '/api/mpesa/transactions/tx-1';
const EVENTS = '/api/mpesa/transactions/tx-1/events';
const CHECK = '/api/mpesa/transactions/tx-1/check';

/** A payment started `agoMs` ago, still pending, with Daraja's acknowledgement as its response. */
const pending = (agoMs: number) =>
  transaction({
    createdAt: new Date(Date.now() - agoMs).toISOString(),
    responseDescription: 'Success. Request accepted for processing',
  });

function scripted(
  check: () => { status: number; body: unknown; headers?: Record<string, string> },
  agoMs = 20_000,
) {
  return mockApi((call) => {
    if (call.path === DETAIL) return { status: 200, body: { success: true, data: pending(agoMs) } };
    if (call.path === EVENTS) return { status: 200, body: { success: true, data: [] } };
    if (call.path === CHECK && call.method === 'POST') return check();
    return undefined;
  });
}

const labels = () => Array.from(document.querySelectorAll('dt'), (dt) => dt.textContent);

afterEach(() => localStorage.clear());

describe('"I have paid" on a pending payment', () => {
  it('shows nothing that reads like a result while pending, and offers the button after a short wait', async () => {
    scripted(() => ({ status: 500, body: {} }), 14_000);
    renderApp('/transactions/tx-1');
    expect(
      await screen.findByText('Please complete the payment on your phone.'),
    ).toBeInTheDocument();
    expect(labels()).not.toContain('Response');
    expect(screen.queryByText('Success. Request accepted for processing')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: I_HAVE_PAID })).not.toBeInTheDocument();
    // "Make Another Payment" is not the prominent button while the payer may have paid.
    expect(screen.getByRole('link', { name: 'Make Another Payment' })).toHaveClass(
      'button-secondary',
    );
    expect(await screen.findByRole('button', { name: I_HAVE_PAID }, { timeout: 3000 })).toHaveClass(
      'button-primary',
    );
  });

  it('asks M-PESA and shows the payment paid when it was', async () => {
    const api = scripted(() => ({
      status: 200,
      body: {
        success: true,
        found: 'result',
        data: transaction({
          status: 'success',
          resultCode: '0',
          mpesaReceiptNumber: 'UF1E26WQJZ',
          responseDescription: 'The service request is processed successfully.',
        }),
      },
    }));
    renderApp('/transactions/tx-1');
    await userEvent.click(await screen.findByRole('button', { name: I_HAVE_PAID }));
    expect(await screen.findByText('UF1E26WQJZ')).toBeInTheDocument();
    expect(screen.getByText('Success', { selector: '.status-badge' })).toBeInTheDocument();
    expect(
      screen.queryByText('Please complete the payment on your phone.'),
    ).not.toBeInTheDocument();
    expect(api.count(CHECK)).toBe(1);
    expect(screen.getByRole('link', { name: 'Make Another Payment' })).toHaveClass(
      'button-primary',
    );
  });

  it('says so, announced, when M-PESA is still waiting for the payer', async () => {
    scripted(() => ({
      status: 200,
      body: { success: true, found: 'processing', data: pending(20_000) },
    }));
    renderApp('/transactions/tx-1');
    await userEvent.click(await screen.findByRole('button', { name: I_HAVE_PAID }));
    const said = await screen.findByText(STILL_WAITING);
    expect(said).toHaveAttribute('role', 'status');
    expect(screen.getByText('Pending', { selector: '.status-badge' })).toBeInTheDocument();
  });

  it("says the API's words when it refuses", async () => {
    const message =
      'M-PESA was asked about this payment a moment ago. Please wait 7 seconds and ask again.';
    scripted(() => ({
      status: 429,
      body: { success: false, code: 'TOO_MANY_REQUESTS', message },
    }));
    renderApp('/transactions/tx-1');
    await userEvent.click(await screen.findByRole('button', { name: I_HAVE_PAID }));
    expect(await screen.findByText(message)).toHaveAttribute('role', 'status');
    // Asking again stays possible: the refusal says when.
    expect(screen.getByRole('button', { name: I_HAVE_PAID })).toBeEnabled();
  });

  it('says in Kiswahili which limit it met, by how long the API asks to wait', async () => {
    const tooOften = (retryAfter: string) => () => ({
      status: 429,
      headers: { 'retry-after': retryAfter },
      body: { success: false, code: 'TOO_MANY_REQUESTS', message: 'English words.' },
    });
    let answer = tooOften('7');
    scripted(() => answer());
    renderApp('/transactions/tx-1');
    await userEvent.click(
      within(screen.getByRole('group', { name: 'Language' })).getByRole('button', {
        name: 'Kiswahili',
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Nimelipa' }));
    expect(
      await screen.findByText(
        'M-PESA iliulizwa kuhusu malipo haya sasa hivi. Tafadhali subiri sekunde 7 kisha uulize tena.',
      ),
    ).toHaveAttribute('role', 'status');

    answer = tooOften('1800');
    await userEvent.click(screen.getByRole('button', { name: 'Nimelipa' }));
    expect(
      await screen.findByText(
        'M-PESA imeshaulizwa kuhusu malipo haya mara kadhaa. Ukurasa huu utajisasisha mara M-PESA itakapojibu.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('English words.')).not.toBeInTheDocument();
  });
});
