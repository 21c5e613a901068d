import { book } from '../../i18n/words';
import { en } from './status-words.en';

export type { StatusWords } from './status-words.en';
export const statusWords = book(en, () => import('./status-words.sw').then((m) => m.sw));
