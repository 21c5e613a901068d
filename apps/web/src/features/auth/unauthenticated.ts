import { paths } from '../../lib/paths';
import { ApiError } from '../../lib/api-client';

/**
 * A refusal that means "sign in first": with HISTORY_ACCESS=operators, the merchant's routes
 * answer it to a request with no valid session; with `open` they never do. (Apart from the
 * signing-in chunk, so that the history's chunks do not share a third one with it.)
 */
export function isUnauthenticated(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  return (error.body as { code?: unknown } | undefined)?.code === 'UNAUTHENTICATED';
}

/** The sign-in page, coming back to `current` (a path and its query string) once signed in. */
export function signInPathFor(current: string): string {
  return `${paths.signIn}?next=${encodeURIComponent(current)}`;
}
