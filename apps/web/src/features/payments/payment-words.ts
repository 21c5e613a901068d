import { book } from '../../i18n/words';
import { en } from './payment-words.en';

export type { PaymentWords } from './payment-words.en';
export const paymentWords = book(en, () => import('./payment-words.sw').then((m) => m.sw));
