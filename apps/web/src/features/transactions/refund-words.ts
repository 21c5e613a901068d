import { book } from '../../i18n/words';
import { en } from './refund-words.en';

export type { RefundWords } from './refund-words.en';
export const refundWords = book(en, () => import('./refund-words.sw').then((m) => m.sw));
