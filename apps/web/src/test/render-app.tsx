/** Renders the real routes in memory, with a scripted API behind `fetch`. */
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { replaceSharedQueryClient } from '../lib/queries';
import { forgetConfig } from '../features/system/api/system-api';
import { LANGUAGE_KEY } from '../i18n/language';
import { setLanguage } from '../i18n/words';
import { preloadAllScreens, routes } from '../app/router';
import { preloadOwnerScreens } from '../app/screens';

export interface ApiCall {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

// The screens in chunks of their own are loaded once, so that each test renders them at once as
// the app does after its first screen.
await preloadAllScreens();
await preloadOwnerScreens();

type Answer =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | 'network-error'
  | (() => Promise<never>);
type Handler = (call: ApiCall) => Answer | undefined;

/**
 * Replaces fetch with a scripted API. Unscripted requests fail the test loudly; /api/config answers
 * "sandbox", /api/mpesa/summary an empty fortnight and /api/auth/me "no one is signed in" (as with
 * HISTORY_ACCESS=open) unless scripted, so that the simulator notice, the figures and the
 * operator's header stay out of the way.
 */
export function mockApi(handler: Handler) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call: ApiCall = {
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      headers: new Headers(init?.headers),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    let answer = handler(call);
    if (answer === undefined && call.path === '/api/config') {
      answer = { status: 200, body: { mpesaEnv: 'sandbox', simulatorUrl: null } };
    }
    if (answer === undefined && call.path === '/api/mpesa/summary') {
      answer = { status: 200, body: { success: true, data: summary() } };
    }
    if (answer === undefined && call.path === '/api/auth/me') answer = unauthenticated();
    if (answer === undefined) throw new Error(`Unscripted request: ${call.method} ${call.path}`);
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    if (typeof answer === 'function') return answer();
    return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, count: (path: string) => calls.filter((c) => c.path === path).length };
}

/** The scripted API (mockApi) answering every history page, whatever its filters, with none. */
export function emptyHistory() {
  return mockApi((call) =>
    call.path.startsWith('/api/mpesa/transactions')
      ? { status: 200, body: { success: true, data: [], nextCursor: null } }
      : undefined,
  );
}

/** The API's answer to a merchant's route asked with no valid session (HISTORY_ACCESS=operators). */
export function unauthenticated() {
  return {
    status: 401,
    body: {
      success: false,
      code: 'UNAUTHENTICATED',
      message: 'Sign in to see this. Your session may have ended.',
    },
  };
}

/** Opens the app at a path, or at a path with a navigation's state (`{ pathname, state }`). */
export function renderApp(entry: string | { pathname: string; state: unknown }) {
  const router = createMemoryRouter(routes, { initialEntries: [entry] });
  // Each test starts afresh: nothing kept from the one before.
  const queryClient = replaceSharedQueryClient();
  forgetConfig();
  setLanguage('en');
  localStorage.removeItem(LANGUAGE_KEY);
  const view = render(<RouterProvider router={router} />);
  return { ...view, router, queryClient };
}

export function transaction(overrides: Record<string, unknown> = {}) {
  return {
    _id: 'tx-1',
    reference: 'INV-42',
    phoneNumber: '254712345678',
    amount: 150,
    description: 'School fees',
    status: 'pending',
    createdAt: '2026-11-22T10:15:00.000Z',
    updatedAt: '2026-11-22T10:15:00.000Z',
    merchantRequestId: 'm-1',
    checkoutRequestId: 'ws_CO_1',
    resultCode: null,
    mpesaReceiptNumber: null,
    transactionDate: null,
    responseDescription: null,
    channel: 'prompt',
    payerName: null,
    linkId: null,
    ...overrides,
  };
}

/** The figures at a glance: a quiet fortnight unless overridden. */
export function summary(overrides: Record<string, unknown> = {}) {
  const none = {
    collected: 0,
    refunded: 0,
    refundedCount: 0,
    count: 0,
    pendingCount: 0,
    successCount: 0,
    successRate: null,
  };
  return {
    timeZone: 'Africa/Nairobi',
    today: none,
    last7Days: none,
    daily: Array.from({ length: 14 }, (_, i) => ({
      day: `2026-11-${String(9 + i).padStart(2, '0')}`,
      byStatus: [],
    })),
    ...overrides,
  };
}
