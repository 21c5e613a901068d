import { book } from '../../i18n/words';
import { en } from './auth-words.en';

export type { AuthWords } from './auth-words.en';
export const authWords = book(en, () => import('./auth-words.sw').then((m) => m.sw));
