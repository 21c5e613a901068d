import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type {
  CsrfResponse,
  Operator,
  SignInBody,
  SignInResponse,
} from '@mpesa/shared/contract-auth';
import { ApiError, apiRequest } from '../../../lib/api-client';

export type { Operator };

export const authKeys = {
  me: ['auth', 'me'] as const,
  /** The failed sign-ins the last sign-in reported: the header shows them until dismissed. */
  failedAttempts: ['auth', 'failed-attempts'] as const,
};

/**
 * Whether this browser signed in and has not signed out since: a hint, not a secret (the session
 * is in an HttpOnly cookie this code cannot read). Without it no one is asked about: with
 * HISTORY_ACCESS=open no one ever signs in, and a payer's page sends no request it did not before
 * (a browser logs every 401 in its console).
 */
const SIGNED_IN_HINT = 'mpesa.signedIn';

function mayBeSignedIn(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_HINT) === '1';
  } catch {
    return false; // Storage refused (a private window, a policy): only a hint is lost.
  }
}

function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT, '1');
    else localStorage.removeItem(SIGNED_IN_HINT);
  } catch {
    // As above: without the hint, the header shows no one until the next sign-in.
  }
}

/** The operator in an answer, or null for anything else (a proxy's page, an older API's 200). */
function operatorIn(body: unknown): Operator | null {
  const data = (body as { data?: Partial<Record<keyof Operator, unknown>> } | undefined)?.data;
  if (typeof data?.name !== 'string' || typeof data.role !== 'string') return null;
  return { name: data.name, role: data.role as Operator['role'] };
}

/**
 * Who is signed in, or null when no one is (401: the session ended). Asked once a page load, only
 * in a browser that signed in, and kept for five minutes: every screen's header reads it. A 401
 * is an answer, not a failure, so it is never asked again at once; no answer at all leaves the
 * header as it is.
 */
export function meQueryOptions() {
  return queryOptions({
    queryKey: authKeys.me,
    queryFn: async () => {
      try {
        const operator = operatorIn(await apiRequest<unknown>('/auth/me'));
        rememberSignedIn(operator !== null);
        return operator;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 401) throw error;
        rememberSignedIn(false);
        return null;
      }
    },
    enabled: mayBeSignedIn(),
    staleTime: 5 * 60_000,
  });
}

/**
 * Signs in; the API sets the session cookie (HttpOnly, so this code never sees it). Also says how
 * many wrong passwords were typed for the name since the operator last signed in.
 */
export async function signIn(
  body: SignInBody,
): Promise<{ operator: Operator; failedAttempts: number }> {
  const { data } = await apiRequest<SignInResponse>('/auth/sign-in', { method: 'POST', body });
  const failedAttempts = typeof data.failedAttempts === 'number' ? data.failedAttempts : 0;
  return { operator: { name: data.name, role: data.role }, failedAttempts };
}

/**
 * The wrong passwords the last sign-in reported (0 when none, or none reported): kept only in
 * this page's memory, so that they are shown once, not again after a reload.
 */
export function failedAttemptsQueryOptions() {
  return queryOptions({
    queryKey: authKeys.failedAttempts,
    queryFn: () => 0,
    staleTime: Infinity,
  });
}

/**
 * The header every state-changing request of a signed-in operator sends: the API takes it only
 * with the CSRF token it gives (docs/decisions/003), asked afresh each time.
 */
export async function csrfHeaders(): Promise<Record<string, string>> {
  const { data } = await apiRequest<CsrfResponse>('/auth/csrf');
  return { 'X-CSRF-Token': data.token };
}

/** Signs out, with the CSRF token. */
export async function signOut(): Promise<void> {
  // An empty object, not no body: the API refuses a JSON request whose body is empty.
  await apiRequest('/auth/sign-out', { method: 'POST', body: {}, headers: await csrfHeaders() });
}

/**
 * After signing in or out: forgets every answer kept for the previous person (the history, the
 * figures, the timelines: another operator's, or a refusal), and records who is signed in now,
 * and the failed sign-ins to tell them of.
 */
export function switchOperator(
  queryClient: QueryClient,
  operator: Operator | null,
  failedAttempts = 0,
): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== authKeys.me[0] });
  rememberSignedIn(operator !== null);
  queryClient.setQueryData(authKeys.me, operator);
  queryClient.setQueryData(authKeys.failedAttempts, failedAttempts);
}
