import { QueryClient } from '@tanstack/react-query';
import { isRefusal } from './api-client';

/** Answers from the server (404, 400…) are final; only lost requests and 5xx are tried again. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  return !isRefusal(error) && failureCount < 2;
}

/**
 * `networkMode: 'always'`: a request is sent when it is asked for, whatever the browser thinks of
 * the network, and fails if it cannot be answered. The default ('online') holds requests while the
 * browser says it is offline and sends them when it comes back: a screen would then wait without
 * a word, and a payment would be sent long after the payer gave up. The screens say
 * when they could not be updated and ask again themselves.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, networkMode: 'always' },
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
