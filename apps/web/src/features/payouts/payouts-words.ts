import { book } from '../../i18n/words';
import { en } from './payouts-words.en';

export type { PayoutWords } from './payouts-words.en';
export const payoutWords = book(en, () => import('./payouts-words.sw').then((m) => m.sw));
