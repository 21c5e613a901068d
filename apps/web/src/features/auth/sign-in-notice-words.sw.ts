import type { SignInNoticeWords } from './sign-in-notice-words.en';

export const sw: SignInNoticeWords = {
  notice: 'Ingia ili uone hiki.',
  link: 'Ingia',
};
