import type { ErrorCode } from '@mpesa/shared';

/** By the API's `code`: the sentence, given the answer's Retry-After (seconds) when it had one. */
export interface RefusalWords {
  byCode: Partial<Record<ErrorCode, (retryAfterS: number | undefined) => string>>;
}

export const en: RefusalWords = { byCode: {} };
