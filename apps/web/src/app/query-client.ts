import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';

/** Answers from the server (404, 400…) are final; only lost requests and 5xx are tried again. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
