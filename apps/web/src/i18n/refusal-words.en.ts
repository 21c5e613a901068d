import type { ErrorCode } from '@mpesa/shared';

/** What the API's refusal said besides its code: when to ask again, and which field is wrong. */
export interface Refusal {
  /** The answer's Retry-After, in seconds. */
  retryAfterS?: number | undefined;
  /** The field a VALIDATION_ERROR is about, when it names one. */
  field?: string | undefined;
}

/**
 * By the API's `code`: the sentence for the refusal, or undefined where the words have none for
 * it (the API's own English is shown then).
 */
export interface RefusalWords {
  byCode: Partial<Record<ErrorCode, (refusal: Refusal) => string | undefined>>;
}

export const en: RefusalWords = { byCode: {} };
