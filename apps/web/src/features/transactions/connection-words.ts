import { book } from '../../i18n/words';
import { en } from './connection-words.en';

export type { ConnectionWords } from './connection-words.en';
export const connectionWords = book(en, () => import('./connection-words.sw').then((m) => m.sw));
