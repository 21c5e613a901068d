import { book } from '../../i18n/words';
import { en } from './audit-words.en';

export type { AuditWords } from './audit-words.en';
export const auditWords = book(en, () => import('./audit-words.sw').then((m) => m.sw));
