import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, REQUEST_TIMEOUT_MS, apiRequest, isRefusal } from './api-client';

afterEach(() => {
  vi.useRealTimers();
});

describe('apiRequest', () => {
  it('gives up on a request that gets no answer, and cancels it', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn((_: unknown, init: RequestInit) => {
        signal = init.signal ?? undefined;
        // As a browser's fetch does: it fails as soon as its signal is aborted.
        return new Promise<never>((__, reject) =>
          signal?.addEventListener('abort', () => reject(new DOMException('', 'AbortError'))),
        );
      }),
    );
    const answer = apiRequest('/mpesa/transactions');
    const failure = answer.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await failure;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, message: '', timedOut: true });
    expect(signal?.aborted).toBe(true);
  });

  it('fails at once, not timed out, when the request cannot be sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('/config')).rejects.toMatchObject({ status: 0, timedOut: false });
  });

  it('tells refusals (4xx) from failures that asking again may cure', () => {
    expect(isRefusal(new ApiError(404, 'Transaction not found', {}))).toBe(true);
    expect(isRefusal(new ApiError(503, 'down', {}))).toBe(false);
    expect(isRefusal(new ApiError(0, '', undefined))).toBe(false);
    expect(isRefusal(new Error('x'))).toBe(false);
  });
});
