import { book } from '../i18n/words';
import { en } from './not-found-words.en';

export type { NotFoundWords } from './not-found-words.en';
export const notFoundWords = book(en, () => import('./not-found-words.sw').then((m) => m.sw));
