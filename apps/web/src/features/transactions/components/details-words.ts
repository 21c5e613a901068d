import { book } from '../../../i18n/words';
import { en } from './details-words.en';

export type { DetailsWords } from './details-words.en';
export const detailsWords = book(en, () => import('./details-words.sw').then((m) => m.sw));
