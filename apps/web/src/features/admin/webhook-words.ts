import { book } from '../../i18n/words';
import { en } from './webhook-words.en';

export type { WebhookWords } from './webhook-words.en';
export const webhookWords = book(en, () => import('./webhook-words.sw').then((m) => m.sw));
