import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp } from '../../../test/render-app';
import { SUCCESS_MESSAGE } from './payment-form';
import { tryAgainState } from '../../transactions/components/transaction-details';
import { transaction } from '../../../test/render-app';
import { rememberTypedPhone, typedPhone } from '../typed-phones';
import { setSignedIn } from '../../auth/history-reach';

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
    expect(phone).toHaveAccessibleDescription(
      'Format: 07XXXXXXXX or +2547XXXXXXXX 01… numbers too; spaces are fine.',
    );
    const amount = screen.getByLabelText('Amount (KES)');
    expect(amount).toHaveAttribute('type', 'number');
    expect(amount).toHaveAttribute('min', '1');
    expect(amount).toBeRequired();
    expect(screen.getByLabelText('Reference')).not.toBeRequired();
    expect(screen.getByLabelText('Description').tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText('Description')).toHaveAttribute('rows', '3');
    expect(screen.getByRole('button', { name: 'Pay with M-PESA' })).toBeEnabled();
  });

  it('checks the phone number, then the amount, shows every problem at once, and sends nothing until both pass', async () => {
    const api = mockApi(() => undefined);
    renderApp('/');
    fill({ 'Phone Number': '12345', 'Amount (KES)': '0' });
    submit();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      'Please enter a valid Kenyan phone number',
      'Amount must be at least 1 KES',
    ]);
    expect(screen.getByLabelText('Phone Number')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Amount (KES)')).toHaveAttribute('aria-invalid', 'true');

    fill({ 'Phone Number': '0712345678' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Amount must be at least 1 KES');

    fill({ 'Amount (KES)': '' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Amount must be at least 1 KES');
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it.each(['+254 712 345 678', '0712 345 678', '(0712) 345-678'])(
    'takes %j as people write it, and sends it for the server to normalise',
    async (phone) => {
      const api = mockApi((call) =>
        call.method === 'POST'
          ? {
              status: 200,
              body: {
                success: true,
                message: 'ok',
                transactionId: 'tx-9',
                checkoutRequestId: 'ws_CO_1',
              },
            }
          : undefined,
      );
      renderApp('/');
      fill({ 'Phone Number': phone, 'Amount (KES)': '150' });
      submit();
      await vi.waitFor(() => expect(api.calls.some((call) => call.method === 'POST')).toBe(true));
      const post = api.calls.find((call) => call.method === 'POST');
      expect((post?.body as { phoneNumber: string }).phoneNumber).toBe(phone);
      expect(screen.queryByText('Please enter a valid Kenyan phone number')).toBeNull();
      // Kept in this tab for "Try again", as typed.
      await vi.waitFor(() => expect(typedPhone('tx-9')).toBe(phone));
    },
  );

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
    expect(screen.getByText(SUCCESS_MESSAGE)).toBeInTheDocument();
    // Heard with the coming move; and nothing can be sent again meanwhile: a second tap would be a second payment.
    expect(screen.getByRole('status')).toHaveTextContent(
      `${SUCCESS_MESSAGE}Opening this payment’s details in 3 seconds.`,
    );
    expect(screen.getByRole('button', { name: 'Pay with M-PESA' })).toBeDisabled();
    expect(screen.getByLabelText('Phone Number')).toBeDisabled();
    expect(screen.getByLabelText('Amount (KES)')).toBeDisabled();

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

const PAID = {
  status: 200,
  body: {
    success: true,
    message: 'ok',
    transactionId: 'tx-9',
    checkoutRequestId: 'ws_CO_9',
    customerMessage: 'ok',
  },
} as const;

const posts = (api: ReturnType<typeof mockApi>) =>
  api.calls.filter((call) => call.method === 'POST');

describe('the Make Payment screen on a real phone and network', () => {
  it('says whom the payer pays and that the prompt expires in about a minute', async () => {
    mockApi((call) =>
      call.path === '/api/config'
        ? {
            status: 200,
            body: { mpesaEnv: 'sandbox', simulatorUrl: null, businessName: 'Duka la Mama' },
          }
        : undefined,
    );
    renderApp('/');
    const intro = await screen.findByText(/You are paying/);
    expect(intro).toHaveTextContent(
      'You are paying Duka la Mama. M-PESA will send a prompt to the phone number below: enter your M-PESA PIN there within about a minute, before the prompt expires.',
    );
  });

  it('speaks of the customer to the shop’s people signed in, who ask a customer to pay, in both languages', async () => {
    localStorage.setItem('mpesa.signedIn', '1');
    mockApi((call) =>
      call.path === '/api/config'
        ? {
            status: 200,
            body: { mpesaEnv: 'sandbox', simulatorUrl: null, businessName: 'Duka la Mama' },
          }
        : call.path === '/api/auth/me'
          ? { status: 200, body: { success: true, data: { name: 'Amina', role: 'cashier' } } }
          : undefined,
    );
    try {
      renderApp('/');
      const intro = await screen.findByText(/The customer pays/);
      expect(intro).toHaveTextContent(
        'The customer pays Duka la Mama. M-PESA will send a prompt to the customer’s phone number below: the customer enters their M-PESA PIN there within about a minute, before the prompt expires.',
      );
      await userEvent.click(screen.getByRole('button', { name: 'Kiswahili' }));
      expect(await screen.findByText(/Mteja anamlipa/)).toHaveTextContent(
        'Mteja anamlipa Duka la Mama. M-PESA itatuma ombi kwa nambari ya simu ya mteja iliyo hapa chini: mteja anaweka PIN yake ya M-PESA hapo ndani ya takriban dakika moja, kabla ombi halijaisha muda.',
      );
      expect(screen.queryByText(/weka PIN yako/)).toBeNull();
    } finally {
      setSignedIn(false);
      localStorage.removeItem('mpesa.signedIn');
    }
  });

  it('says that the prompt expires even when the business is not known', () => {
    mockApi(() => undefined);
    renderApp('/');
    expect(
      screen.getByText(/within about a minute, before the prompt expires/),
    ).not.toHaveTextContent('You are paying');
  });

  it('ties each validation message to its field and moves focus to it', async () => {
    mockApi(() => undefined);
    renderApp('/');
    const phone = screen.getByLabelText('Phone Number');
    const amount = screen.getByLabelText('Amount (KES)');
    fill({ 'Phone Number': '12345', 'Amount (KES)': '0' });
    submit();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.id)).toEqual(['phoneNumber-error', 'amount-error']);
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveAccessibleDescription(
      'Please enter a valid Kenyan phone number Format: 07XXXXXXXX or +2547XXXXXXXX 01… numbers too; spaces are fine.',
    );
    // The first field to correct has the focus; the other says what is wrong with it too.
    expect(phone).toHaveFocus();
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription('Amount must be at least 1 KES');

    fill({ 'Phone Number': '0712345678' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Amount must be at least 1 KES');
    expect(phone).toHaveAttribute('aria-invalid', 'false');
    expect(phone).toHaveAccessibleDescription(
      'Format: 07XXXXXXXX or +2547XXXXXXXX 01… numbers too; spaces are fine.',
    );
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(amount).toHaveAccessibleDescription('Amount must be at least 1 KES');
    expect(amount).toHaveFocus();
  });

  it('sends one payment however often it is tapped, before and after the answer', async () => {
    vi.useFakeTimers();
    const api = mockApi((call) => (call.method === 'POST' ? PAID : undefined));
    const { router } = renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '150' });
    const form = screen.getByRole('button', { name: 'Pay with M-PESA' }).closest('form')!;
    submit();
    fireEvent.submit(form);
    await act(async () => {});
    expect(screen.getByText(SUCCESS_MESSAGE)).toBeInTheDocument();
    // The button is disabled, and the Enter key (a submit event) does nothing either.
    fireEvent.submit(form);
    submit();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    fireEvent.submit(form);
    await act(async () => {});
    expect(posts(api)).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(router.state.location.pathname).toBe('/transactions/tx-9');
  });

  it('gives up on a request with no answer after 20 s, says what that means, and sends the same details under the same key', async () => {
    vi.useFakeTimers();
    const api = mockApi((call) =>
      call.method === 'POST' ? () => new Promise<never>(() => {}) : undefined,
    );
    renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '150' });
    submit();
    await act(() => vi.advanceTimersByTimeAsync(19_900));
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeDisabled();
    await act(() => vi.advanceTimersByTimeAsync(100));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Failed to initiate payment. Please try again.');
    expect(alert).toHaveTextContent(
      'The server did not answer within 20 seconds, so the payment may have started: if your phone shows an M-PESA prompt, answer it. Sending the same details again cannot start a second payment.',
    );
    expect(alert).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Pay with M-PESA' })).toBeEnabled();

    submit();
    await act(async () => {});
    fill({ 'Amount (KES)': '151' });
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    submit();
    await act(async () => {});
    const keys = posts(api).map((call) => call.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('takes a new key once the server has answered', async () => {
    const api = mockApi((call) =>
      call.method === 'POST'
        ? { status: 429, body: { success: false, code: 'PHONE_BUSY', message: 'Busy phone.' } }
        : undefined,
    );
    renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '10' });
    submit();
    await screen.findByText('Busy phone.');
    submit();
    await vi.waitFor(() => expect(posts(api)).toHaveLength(2));
    const [first, second] = posts(api).map((call) => call.headers.get('Idempotency-Key'));
    expect(second).not.toBe(first);
  });

  it('keeps the key when a proxy answers instead of the API (its 502 has no code)', async () => {
    const api = mockApi((call) => (call.method === 'POST' ? { status: 502 } : undefined));
    renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '10' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to initiate payment. Please try again.',
    );
    submit();
    await vi.waitFor(() => expect(posts(api)).toHaveLength(2));
    const [first, second] = posts(api).map((call) => call.headers.get('Idempotency-Key'));
    expect(second).toBe(first);
  });

  it('says plainly when the payer is offline, and never sends the payment later by itself', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const api = mockApi((call) => (call.method === 'POST' ? 'network-error' : undefined));
    renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '10' });
    submit();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to initiate payment. Please try again.');
    expect(alert).toHaveTextContent(
      'You are offline, so no payment request was sent. Connect to the internet, then try again.',
    );
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(posts(api)).toHaveLength(1);
  });

  it('opens filled in with a payment’s details when the payer tries again', () => {
    mockApi(() => undefined);
    renderApp({
      pathname: '/',
      state: tryAgainState(
        transaction({
          phoneNumber: '254700002001',
          amount: 15,
          reference: 'INV-7',
          description: 'School fees',
        }),
      ),
    });
    expect(screen.getByLabelText('Phone Number')).toHaveValue('0700002001');
    expect(screen.getByLabelText('Amount (KES)')).toHaveValue(15);
    expect(screen.getByLabelText('Reference')).toHaveValue('INV-7');
    expect(screen.getByLabelText('Description')).toHaveValue('School fees');
  });

  it('leaves the phone for the payer to type when their page showed it only in part and this tab did not ask for it', () => {
    mockApi(() => undefined);
    rememberTypedPhone('another-payment', '0700000001');
    renderApp({
      pathname: '/',
      state: tryAgainState(
        transaction({ phoneNumber: '0700 ••• 001', amount: 15, reference: 'INV-7' }),
      ),
    });
    expect(screen.getByLabelText('Phone Number')).toHaveValue('');
    expect(screen.getByLabelText('Amount (KES)')).toHaveValue(15);
    expect(screen.getByLabelText('Reference')).toHaveValue('INV-7');
  });

  it('fills in the number this tab typed for the payment, where its page showed it only in part', () => {
    mockApi(() => undefined);
    rememberTypedPhone('tx-7', '0700 000 001');
    renderApp({
      pathname: '/',
      state: tryAgainState(
        transaction({ _id: 'tx-7', phoneNumber: '0700 ••• 001', amount: 15, reference: 'INV-7' }),
      ),
    });
    expect(screen.getByLabelText('Phone Number')).toHaveValue('0700 000 001');
  });

  it('leaves Reference and Description empty where the payment had their defaults', () => {
    mockApi(() => undefined);
    renderApp({
      pathname: '/',
      state: tryAgainState(
        transaction({ amount: 15, reference: 'Payment', description: 'Payment for services' }),
      ),
    });
    expect(screen.getByLabelText('Reference')).toHaveValue('');
    expect(screen.getByLabelText('Description')).toHaveValue('');
    expect(screen.getByLabelText('Amount (KES)')).toHaveValue(15);
  });

  it('opens empty when the navigation carries anything else', () => {
    mockApi(() => undefined);
    renderApp({ pathname: '/', state: { repeat: { phoneNumber: 7 } } });
    expect(screen.getByLabelText('Phone Number')).toHaveValue('');
  });
});

describe('the server’s refusals of a field', () => {
  it.each([
    ['VALIDATION_ERROR', 'Amount must be a whole number of shillings', 'Amount (KES)', 'amount'],
    ['VALIDATION_ERROR', 'Please enter a valid Kenyan phone number', 'Phone Number', 'phoneNumber'],
    [
      'MPESA_INVALID_PHONE',
      'M-PESA cannot send a payment request to this phone number. Please check it and try again.',
      'Phone Number',
      undefined,
    ],
  ])('shows %s "%s" under its field, which gets focus', async (code, message, label, named) => {
    mockApi((call) =>
      call.method === 'POST'
        ? { status: 400, body: { success: false, code, message, field: named } }
        : undefined,
    );
    renderApp('/');
    fill({ 'Phone Number': '+112345678', 'Amount (KES)': '1.5' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    const field = screen.getByLabelText(label);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining(message));
    await vi.waitFor(() => expect(field).toHaveFocus());
  });
});

describe('a validation error that names its field', () => {
  it.each([
    ['amount', 'Amount (KES)'],
    ['phoneNumber', 'Phone Number'],
  ])('lands on the field it names (%s), whatever its words', async (field, label) => {
    const message = 'Words the form has never seen before.';
    mockApi((call) =>
      call.method === 'POST'
        ? { status: 400, body: { success: false, code: 'VALIDATION_ERROR', message, field } }
        : undefined,
    );
    renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '10' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    const input = screen.getByLabelText(label);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    await vi.waitFor(() => expect(input).toHaveFocus());
  });

  it('stays with the payment’s other errors when the field is not one of the form’s checked fields', async () => {
    const message = 'Reference must be at most 100 characters';
    mockApi((call) =>
      call.method === 'POST'
        ? {
            status: 400,
            body: { success: false, code: 'VALIDATION_ERROR', message, field: 'reference' },
          }
        : undefined,
    );
    renderApp('/');
    fill({ 'Phone Number': '0712345678', 'Amount (KES)': '10' });
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('Amount (KES)')).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByLabelText('Phone Number')).toHaveAttribute('aria-invalid', 'false');
  });
});
