import { useRefusalMessage } from '../../i18n/refusal-words';
import { useWords } from '../../i18n/words';
import { ApiError } from '../../lib/api-client';
import { isUnauthenticated } from '../auth/unauthenticated';
import { en } from './owner-words.en';
import { ownerWords } from './owner-words';

export const ROLE_REFUSED = en.roleRefused;
export const UNREACHABLE = en.unreachable;

/**
 * What went wrong, for an owner's screen: `sign-in` when there is no session (the app's "Sign in to
 * see this." notice), or a sentence in the screens' language: the role's refusal (403), that the
 * server could not be reached, or the API's own refusal (i18n/refusal-words.ts).
 */
export type Problem = { kind: 'sign-in' } | { kind: 'message'; message: string };

export function useOwnerProblem(): (error: unknown) => Problem {
  const words = useWords(ownerWords);
  const refusal = useRefusalMessage();
  return (error) => {
    if (isUnauthenticated(error)) return { kind: 'sign-in' };
    if (!(error instanceof ApiError)) return { kind: 'message', message: words.fallback };
    if (error.status === 0) return { kind: 'message', message: words.unreachable };
    // Other 403s (a stale CSRF token, a cross-site request) are the API's to word.
    if ((error.body as { code?: unknown } | undefined)?.code === 'ROLE_NOT_ALLOWED') {
      return { kind: 'message', message: words.roleRefused };
    }
    return { kind: 'message', message: refusal(error) || words.fallback };
  };
}
