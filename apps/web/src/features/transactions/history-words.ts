import { book } from '../../i18n/words';
import { en } from './history-words.en';

export type { HistoryWords } from './history-words.en';
export const historyWords = book(en, () => import('./history-words.sw').then((m) => m.sw));
