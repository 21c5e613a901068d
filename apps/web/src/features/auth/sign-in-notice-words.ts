import { book } from '../../i18n/words';
import { en } from './sign-in-notice-words.en';

export type { SignInNoticeWords } from './sign-in-notice-words.en';
export const signInNoticeWords = book(en, () =>
  import('./sign-in-notice-words.sw').then((m) => m.sw),
);
