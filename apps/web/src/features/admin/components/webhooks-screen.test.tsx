import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderApp, type ApiCall } from '../../../test/render-app';

const ok = (data: unknown, status = 200) => ({ status, body: { success: true, data } });
const OWNER = { name: 'Amina', role: 'owner' };
const URL_ = 'https://shop.example/mpesa-events';
const ENDPOINTS = '/api/webhooks/endpoints';

function endpoint(extra: Record<string, unknown> = {}) {
  return {
    id: 'ep1',
    url: URL_,
    events: ['payment.succeeded', 'payment.refunded'],
    secretPrefix: 'whsec_Q3zR',
    enabled: true,
    disabledReason: null,
    disabledAt: null,
    failingSince: null,
    createdBy: 'Amina',
    createdAt: '2026-11-27T09:00:00.000Z',
    updatedAt: '2026-11-27T09:00:00.000Z',
    ...extra,
  };
}

function delivery(extra: Record<string, unknown> = {}) {
  return {
    id: 'd1',
    eventId: 'evt_1',
    eventType: 'payment.succeeded',
    transactionId: 't1',
    createdAt: '2026-11-27T10:15:00.000Z',
    state: 'delivered',
    attempts: 1,
    lastAttemptAt: '2026-11-27T10:15:01.000Z',
    lastStatus: 200,
    lastDurationMs: 84,
    lastResponse: '{"received":true}',
    lastError: null,
    nextAttemptAt: null,
    deliveredAt: '2026-11-27T10:15:01.000Z',
    gaveUpAt: null,
    ...extra,
  };
}

beforeEach(() => localStorage.setItem('mpesa.signedIn', '1'));
afterEach(() => vi.useRealTimers());

/**
 * An owner signed in, with a CSRF token, one endpoint (or `endpoints`) and its deliveries;
 * `extra` answers the screen's other requests first.
 */
function webhooksApi(
  extra: (call: ApiCall) => unknown = () => undefined,
  { endpoints = [endpoint()], deliveries = [delivery()], config = undefined as unknown } = {},
) {
  return mockApi((call) => {
    const answer = extra(call);
    if (answer) return answer as { status: number; body?: unknown };
    if (call.path === '/api/auth/me') return ok(OWNER);
    if (call.path === '/api/auth/csrf') return ok({ token: 'csrf-1' });
    if (call.path === '/api/config' && config) return { status: 200, body: config };
    if (call.path === ENDPOINTS && call.method === 'GET') return ok({ endpoints });
    if (call.path.startsWith(`${ENDPOINTS}/ep1/deliveries`)) {
      return ok({ deliveries, nextCursor: null });
    }
    return undefined;
  });
}

const card = async () => screen.findByRole('article', { name: `Endpoint ${URL_}` });

describe('the Webhooks screen', () => {
  it('is reached from the header, and shows each endpoint with its deliveries', async () => {
    webhooksApi(undefined, {
      deliveries: [
        delivery(),
        delivery({
          id: 'd2',
          eventId: 'evt_2',
          eventType: 'payment.refunded',
          state: 'retrying',
          attempts: 2,
          lastStatus: null,
          lastDurationMs: 10_000,
          lastResponse: null,
          lastError: 'No answer within 10 seconds.',
          nextAttemptAt: '2026-11-27T11:00:00.000Z',
        }),
      ],
    });
    renderApp('/');
    const owner = await screen.findByRole('navigation', { name: 'Owner' });
    await userEvent.click(within(owner).getByRole('link', { name: 'Webhooks' }));
    const shown = await card();
    expect(within(shown).getByText('On: events are sent to it.')).toBeInTheDocument();
    expect(shown).toHaveTextContent('A payment succeeded, A payment was refunded');
    expect(shown).toHaveTextContent('whsec_Q3zR');
    const rows = await within(shown).findAllByRole('row');
    expect(rows[1]).toHaveTextContent('evt_1');
    expect(rows[1]).toHaveTextContent('200');
    expect(rows[1]).toHaveTextContent('84 ms');
    expect(rows[1]).toHaveTextContent('{"received":true}');
    expect(rows[1]).toHaveTextContent('Delivered');
    expect(rows[2]).toHaveTextContent('A payment was refunded');
    expect(rows[2]).toHaveTextContent('No answer');
    expect(rows[2]).toHaveTextContent('No answer within 10 seconds.');
    expect(rows[2]).toHaveTextContent('Failed: will be tried again');
    expect(rows[2]).toHaveTextContent('Next try');
  });

  it('adds an endpoint with the CSRF token, every event ticked at first, asks for what is missing, and shows its secret once', async () => {
    const api = webhooksApi(
      (call) =>
        call.path === ENDPOINTS && call.method === 'POST'
          ? ok({ endpoint: endpoint(), secret: 'whsec_secret123' }, 201)
          : undefined,
      { endpoints: [] },
    );
    renderApp('/webhooks');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    // The list has come (it is beside the form, not in it).
    await screen.findByText('No endpoints yet.');
    // Every payment event is ticked at first; with none, the form says so.
    const events = within(form).getAllByRole('checkbox');
    expect(events).toHaveLength(11);
    for (const event of events) expect(event).toBeChecked();
    for (const event of events) await user.click(event);
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));
    expect(within(form).getByText('Enter the URL the events are sent to.')).toBeInTheDocument();
    expect(within(form).getByText('Choose at least one event.')).toBeInTheDocument();
    expect(within(form).getByLabelText('URL')).toHaveFocus();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);

    await user.type(within(form).getByLabelText('URL'), URL_);
    await user.click(within(form).getByRole('checkbox', { name: /A payment was refunded/ }));
    await user.click(within(form).getByRole('button', { name: 'Add endpoint' }));

    const heading = await screen.findByRole('heading', { name: 'The endpoint’s signing secret' });
    expect(heading).toHaveFocus();
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({ url: URL_, events: ['payment.refunded'] });
    expect(post?.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(screen.getByText('whsec_secret123')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('whsec_secret123')).not.toBeInTheDocument();
  });

  it('offers the simulator’s receiver in simulator mode only', async () => {
    webhooksApi(undefined, {
      endpoints: [],
      config: { mpesaEnv: 'simulator', simulatorUrl: 'http://127.0.0.1:3001/' },
    });
    const first = renderApp('/webhooks');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Use the simulator’s receiver' }));
    expect(screen.getByLabelText('URL')).toHaveValue('http://127.0.0.1:3001/_sim/webhooks/inbox');
    first.unmount();

    webhooksApi(undefined, { endpoints: [] });
    renderApp('/webhooks');
    await screen.findByRole('form', { name: 'Add an endpoint' });
    expect(
      screen.queryByRole('button', { name: 'Use the simulator’s receiver' }),
    ).not.toBeInTheDocument();
  });

  it('says why an endpoint was turned off for failing, and turns it back on', async () => {
    const api = webhooksApi(
      (call) => (call.method === 'PATCH' ? ok({ endpoint: endpoint() }) : undefined),
      {
        endpoints: [
          endpoint({
            enabled: false,
            disabledReason: 'failing',
            disabledAt: '2026-11-27T09:00:00.000Z',
            failingSince: '2026-11-24T08:00:00.000Z',
          }),
        ],
      },
    );
    renderApp('/webhooks');
    const shown = await card();
    expect(shown).toHaveTextContent(/because every delivery failed for three days/);
    await userEvent.click(within(shown).getByRole('button', { name: `Turn on: ${URL_}` }));
    await screen.findByRole('article', { name: `Endpoint ${URL_}` });
    expect(api.calls.find((call) => call.method === 'PATCH')).toMatchObject({
      path: `${ENDPOINTS}/ep1`,
      body: { enabled: true },
    });
  });

  it('removes an endpoint only once confirmed, and shows a new secret once made', async () => {
    const api = webhooksApi((call) => {
      if (call.method === 'DELETE') return ok({ removed: true });
      if (call.method === 'PATCH') return ok({ endpoint: endpoint(), secret: 'whsec_new456' });
      return undefined;
    });
    renderApp('/webhooks');
    const user = userEvent.setup();
    const shown = await card();
    await user.click(within(shown).getByRole('button', { name: `Remove: ${URL_}` }));
    expect(within(shown).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(within(shown).getByRole('button', { name: `New secret: ${URL_}` }));
    await user.click(within(shown).getByRole('button', { name: 'Make a new secret' }));
    expect(await screen.findByText('whsec_new456')).toBeInTheDocument();
    expect(api.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ rotateSecret: true });

    await user.click(within(shown).getByRole('button', { name: `Remove: ${URL_}` }));
    await user.click(within(shown).getByRole('button', { name: 'Remove endpoint' }));
    await screen.findByRole('button', { name: `Remove: ${URL_}` });
    expect(api.calls.find((call) => call.method === 'DELETE')?.path).toBe(`${ENDPOINTS}/ep1`);
  });

  it('sends a test event, resends one delivery and every failed one', async () => {
    const api = webhooksApi((call) => {
      if (call.path.endsWith('/test')) return ok({ delivery: delivery({ state: 'pending' }) }, 201);
      if (call.path.endsWith('/resend-failed')) return ok({ resent: 3 });
      if (call.path.endsWith('/resend')) return ok({ delivery: delivery() });
      return undefined;
    });
    renderApp('/webhooks');
    const user = userEvent.setup();
    const shown = await card();
    await user.click(within(shown).getByRole('button', { name: `Send a test event: ${URL_}` }));
    await within(shown).findByText(/A test event is on its way/);
    await user.click(
      within(shown).getByRole('button', { name: `Resend every failed one: ${URL_}` }),
    );
    await within(shown).findByText('3 deliveries are being sent again.');
    await user.click(
      await within(shown).findByRole('button', { name: 'Resend A payment succeeded evt_1' }),
    );
    await within(shown).findByText(/Sent again/);
    const posts = api.calls.filter((call) => call.method === 'POST').map((call) => call.path);
    expect(posts).toEqual([
      `${ENDPOINTS}/ep1/test`,
      `${ENDPOINTS}/ep1/resend-failed`,
      '/api/webhooks/deliveries/d1/resend',
    ]);
  });

  it('asks again while a delivery is due, and stops once it is delivered', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let asked = 0;
    const due = delivery({
      state: 'retrying',
      attempts: 1,
      deliveredAt: null,
      nextAttemptAt: new Date().toISOString(),
    });
    const api = webhooksApi((call) => {
      if (!call.path.startsWith(`${ENDPOINTS}/ep1/deliveries`)) return undefined;
      asked += 1;
      return ok({ deliveries: [asked === 1 ? due : delivery({ attempts: 2 })], nextCursor: null });
    });
    renderApp('/webhooks');
    const shown = await card();
    await within(shown).findByText('Failed: will be tried again');
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await within(shown).findByText('Delivered')).toBeVisible();
    const attempts = within(shown)
      .getAllByRole('cell')
      .find((each) => each.dataset.label === 'Attempts');
    expect(attempts).toHaveTextContent('2');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(api.count(`${ENDPOINTS}/ep1/deliveries?limit=20`)).toBe(2);
  });

  it('shows a refused URL in plain words, in Kiswahili too', async () => {
    const refusal = {
      status: 400,
      body: {
        success: false,
        code: 'WEBHOOK_URL_REFUSED',
        message: 'The URL must begin with https:// in production: events carry payments.',
        field: 'url',
      },
    };
    webhooksApi((call) => (call.method === 'POST' ? refusal : undefined), { endpoints: [] });
    renderApp('/webhooks');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('URL'), 'http://shop.example/events');
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('must begin with https:// in production');
    expect(alert).toHaveFocus();

    await user.click(
      within(screen.getByRole('group', { name: 'Language' })).getByRole('button', {
        name: 'Kiswahili',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Ongeza anwani' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Webhooks haziwezi kutumwa kwa URL hii');
  });
});
