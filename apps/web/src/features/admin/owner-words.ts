import { book } from '../../i18n/words';
import { en } from './owner-words.en';

export type { Named, OwnerWords } from './owner-words.en';
export const ownerWords = book(en, () => import('./owner-words.sw').then((m) => m.sw));
