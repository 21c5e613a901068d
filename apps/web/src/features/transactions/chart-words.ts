import { book } from '../../i18n/words';
import { en } from './chart-words.en';

export type { ChartWords } from './chart-words.en';
export const chartWords = book(en, () => import('./chart-words.sw').then((m) => m.sw));
