import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../../../test/render-app';

afterEach(() => {
  vi.useRealTimers();
});

function fill(
  fields: Partial<Record<'Phone Number' | 'Amount (KES)' | 'Reference' | 'Description', string>>,
) {
  for (const [label, value] of Object.entries(fields)) {
    fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Pay with M-PESA' }));

describe('the Make Payment screen', () => {
  it('shows the specification’s title, fields, hint and button', () => {
    mockApi(() => undefined);
    renderApp('/');
    expect(screen.getByRole('heading', { level: 2, name: 'M-PESA Payment' })).toBeInTheDocument();
    expect(document.title).toBe('Make Payment · M-PESA Payment Integration');
    const phone = screen.getByLabelText('Phone Number');
    expect(phone).toHaveAttribute('type', 'text');
    expect(phone).toHaveAttribute('placeholder', 'e.g., 0712345678 or +254712345678');
    expect(phone).toBeRequired();
    expect(phone).toHaveAccessibleDescription('Format: 07XXXXXXXX or +2547XXXXXXXX');
    const amount = screen.getByLabelText('Amount (KES)');
    expect(amount).toHaveAttribute('type', 'number');
    expect(amount).toHaveAttribute('min', '1');
    expect(amount).toBeRequired();
    expect(screen.getByLabelText('Reference')).not.toBeRequired();
    expect(screen.getByLabelText('Description').tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText('Description')).toHaveAttribute('rows', '3');
    expect(screen.getByRole('button', { name: 'Pay with M-PESA' })).toBeEnabled();
  });

  it('checks the phone number first, then the amount, and sends nothing until both pass', async () => {
    const api = mockApi(() => undefined);
    renderApp('/');
    fill({ 'Phone Number': '12345', 'Amount (KES)': '0' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please enter a valid Kenyan phone number',
    );
    expect(screen.getByLabelText('Phone Number')).toHaveAttribute('aria-invalid', 'true');

    fill({ 'Phone Number': '0712345678' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Amount must be at least 1 KES');

    fill({ 'Amount (KES)': '' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Amount must be at least 1 KES');
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('sends the payment with the defaults, shows the busy button, then the success message, and opens the transaction after 3 s', async () => {
    vi.useFakeTimers();
    let answer: (response: Response) => void = () => {};
    const api = mockApi((call) =>
      call.method === 'POST'
        ? () => new Promise<never>((resolve) => (answer = resolve as never))
        : undefined,
    );
    const { router } = renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '150' });
    submit();

    const busy = screen.getByRole('button', { name: 'Processing...' });
    expect(busy).toBeDisabled();
    await act(async () => {});
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.path).toBe('/api/mpesa/stkpush');
    expect(post?.headers.get('Content-Type')).toBe('application/json');
    expect(post?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(post?.body).toEqual({
      phoneNumber: '0712345678',
      amount: '150',
      reference: 'Payment',
      description: 'Payment for services',
    });

    await act(async () => {
      answer(
        new Response(
          JSON.stringify({
            success: true,
            message: 'ok',
            transactionId: 'tx-9',
            checkoutRequestId: 'ws_CO_9',
            customerMessage: 'ok',
          }),
          { status: 200 },
        ),
      );
    });
    expect(screen.getByRole('status')).toHaveTextContent(
      'Payment initiated! Check your phone to complete the transaction.',
    );
    expect(screen.getByRole('button', { name: 'Pay with M-PESA' })).toBeEnabled();

    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(router.state.location.pathname).toBe('/');
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(router.state.location.pathname).toBe('/transactions/tx-9');
  });

  it('shows the server’s message when the payment is refused', async () => {
    mockApi((call) =>
      call.method === 'POST'
        ? {
            status: 429,
            body: {
              success: false,
              code: 'PHONE_BUSY',
              message: 'A payment request is already waiting on this phone.',
            },
          }
        : undefined,
    );
    renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '10' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A payment request is already waiting on this phone.',
    );
    expect(screen.getByRole('button', { name: 'Pay with M-PESA' })).toBeEnabled();
  });

  it('falls back to the generic message when the request gets no answer', async () => {
    mockApi((call) => (call.method === 'POST' ? 'network-error' : undefined));
    renderApp('/');
    fill({ 'Phone Number': '+254712345678', 'Amount (KES)': '10' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to initiate payment. Please try again.',
    );
  });

  it('can be filled and sent with the keyboard alone', async () => {
    const user = userEvent.setup();
    const api = mockApi((call) =>
      call.method === 'POST'
        ? {
            status: 200,
            body: {
              success: true,
              message: 'ok',
              transactionId: 't',
              checkoutRequestId: 'c',
              customerMessage: 'ok',
            },
          }
        : undefined,
    );
    renderApp('/');
    await user.click(screen.getByLabelText('Phone Number'));
    await user.keyboard('0712345678');
    await user.tab();
    await user.keyboard('25');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Payment initiated!');
    expect(api.calls.find((call) => call.method === 'POST')?.body).toMatchObject({ amount: '25' });
  });
});

describe('the shell', () => {
  it('shows the title, the repository link, the navigation and the footer', () => {
    mockApi(() => undefined);
    renderApp('/');
    expect(
      screen.getByRole('heading', { level: 1, name: 'M-PESA Payment Integration' }),
    ).toBeInTheDocument();
    const repo = screen.getByRole('link', { name: 'View GitHub Repository' });
    expect(repo).toHaveAttribute('href', expect.stringMatching(/^https:\/\/github\.com\//));
    expect(repo).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Make Payment' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Transactions' })).toHaveAttribute(
      'href',
      '/transactions',
    );
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      `© ${new Date().getFullYear()} M-PESA Integration Demo`,
    );
  });

  it('says payments are simulated, with a link to the simulator, in simulator mode', async () => {
    mockApi((call) =>
      call.path === '/api/config'
        ? { status: 200, body: { mpesaEnv: 'simulator', simulatorUrl: 'http://127.0.0.1:3001' } }
        : undefined,
    );
    renderApp('/');
    const link = await screen.findByRole('link', { name: 'Open the Daraja simulator' });
    expect(link).toHaveAttribute('href', 'http://127.0.0.1:3001');
    expect(screen.getByRole('complementary', { name: 'Simulator mode' })).toHaveTextContent(
      'simulated',
    );
  });

  it('shows a page-not-found screen on unknown paths', () => {
    mockApi(() => undefined);
    renderApp('/nowhere');
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
