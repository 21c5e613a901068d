import { ApiError } from '../../lib/api-client';
import { isUnauthenticated } from '../auth/unauthenticated';

export const ROLE_REFUSED =
  'Your role cannot do this: only an owner manages operators, API keys and the audit trail.';
export const UNREACHABLE =
  'The server could not be reached. Check your connection, then try again.';
const FALLBACK = 'That did not work. Please try again.';

/**
 * What went wrong, for an owner's screen: `sign-in` when there is no session (the app's "Sign in to
 * see this." notice), the role's refusal (403), or the API's own message.
 */
export type Problem = { kind: 'sign-in' } | { kind: 'message'; message: string };

export function problemOf(error: unknown): Problem {
  if (isUnauthenticated(error)) return { kind: 'sign-in' };
  if (!(error instanceof ApiError)) return { kind: 'message', message: FALLBACK };
  if (error.status === 0) return { kind: 'message', message: UNREACHABLE };
  // Other 403s (a stale CSRF token, a cross-site request) are the API's to word.
  if ((error.body as { code?: unknown } | undefined)?.code === 'ROLE_NOT_ALLOWED') {
    return { kind: 'message', message: ROLE_REFUSED };
  }
  return { kind: 'message', message: error.message || FALLBACK };
}
