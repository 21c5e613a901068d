import { book } from '../../i18n/words';
import { en } from './links-words.en';

export type { LinkWords } from './links-words.en';
export const linkWords = book(en, () => import('./links-words.sw').then((m) => m.sw));
