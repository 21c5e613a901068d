import { book } from '../../i18n/words';
import { en } from './outcome-words.en';

export type { OutcomeWords, EventContext, Said } from './outcome-words.en';
export const outcomeWords = book(en, () => import('./outcome-words.sw').then((m) => m.sw));
