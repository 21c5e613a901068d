import type { ErrorCode } from '@mpesa/shared';
import { ApiError } from '../lib/api-client';
import { book, useWords } from './words';
import { en } from './refusal-words.en';

export type { Refusal, RefusalWords } from './refusal-words.en';

/**
 * The API's refusals in the screens' language. The API answers in English, with a stable `code`
 * (packages/shared/src/error-codes.ts); in English its own message is shown as it is (the
 * specification's messages among them), and in Kiswahili the code's sentence here, or the API's
 * English when a code has none.
 */
export const refusalWords = book(en, () => import('./refusal-words.sw').then((m) => m.sw));

/** The code of the API's answer, when the API answered. */
export function codeOf(error: unknown): ErrorCode | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body as { code?: ErrorCode } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

/** The refusal's sentence in the current language, or '' when the API gave none. */
export function useRefusalMessage(): (error: unknown) => string {
  const words = useWords(refusalWords);
  return (error) => {
    const code = codeOf(error);
    const said =
      code && error instanceof ApiError
        ? words.byCode[code]?.({
            retryAfterS: error.retryAfterS,
            field: (error.body as { field?: string } | undefined)?.field,
          })
        : undefined;
    return said ?? (error instanceof Error ? error.message : '');
  };
}
