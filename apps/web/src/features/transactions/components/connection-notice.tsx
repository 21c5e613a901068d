import { useState } from 'react';
import { POLL_INTERVAL_MS } from '@mpesa/shared';
import { ApiError, isRefusal } from '../../../lib/api-client';
import { LOCALES } from '../../../i18n/language';
import { useLanguage, useWords } from '../../../i18n/words';
import { connectionWords, type ConnectionWords } from '../connection-words';

/** What a screen needs of its query's result (useQuery's and useInfiniteQuery's alike). */
export interface WatchedQuery {
  error: unknown;
  failureReason: unknown;
  failureCount: number;
  dataUpdatedAt: number;
  errorUpdatedAt: number;
  refetch: () => unknown;
}

export interface QueryHealth {
  /** The last failure, kept while the query asks again (TanStack Query forgets it meanwhile). */
  error: unknown;
  /** The last attempt ended in failure, and no answer has come since. */
  failed: boolean;
  /** The screen may be out of date: an attempt failed (or is failing) for want of an answer. */
  outOfTouch: boolean;
}

/**
 * How a screen's query stands with the server. A refusal (a 404, a 400) is an answer, not a
 * connection problem: it is never "out of touch".
 */
export function useQueryHealth(query: WatchedQuery): QueryHealth {
  const current = query.error ?? query.failureReason;
  const [last, setLast] = useState<unknown>(null);
  if (current && current !== last) setLast(current);
  const error = current ?? last;
  const failed = query.errorUpdatedAt > query.dataUpdatedAt;
  const trying = query.failureCount > 0;
  return { error, failed, outOfTouch: !isRefusal(error) && (failed || trying) };
}

const SECONDS = POLL_INTERVAL_MS / 1000;

/** Why the last attempt failed, in the payer's words. */
function whatWentWrong(error: unknown, words: ConnectionWords): string {
  if (!navigator.onLine) return words.offline;
  if (error instanceof ApiError && error.status === 0) return words.unreachable;
  return words.serverProblem;
}

/**
 * Says that what the screen shows may be out of date, since when, that it keeps trying, and offers
 * Retry. Always in the page, empty while all is well, so that screen readers hear it when it fills.
 */
export function ConnectionNotice({ query, health }: { query: WatchedQuery; health: QueryHealth }) {
  const words = useWords(connectionWords);
  const language = useLanguage();
  const why = whatWentWrong(health.error, words);
  // In English the viewer's own time format, as before there was a choice of language.
  const time = (at: number) =>
    new Date(at).toLocaleTimeString(language === 'en' ? undefined : LOCALES[language]);
  const said = query.dataUpdatedAt
    ? words.outOfDate(why, time(query.dataUpdatedAt), SECONDS)
    : words.notLoaded(why, SECONDS);
  return (
    <div role="status" className="connection-status">
      {health.outOfTouch && (
        <div className="connection-notice">
          <p>{said}</p>
          {/* Asks at once, cutting short any wait between attempts. */}
          <button type="button" className="button button-secondary" onClick={() => query.refetch()}>
            {words.retry}
          </button>
        </div>
      )}
    </div>
  );
}
