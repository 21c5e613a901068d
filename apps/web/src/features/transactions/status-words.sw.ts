import type { StatusWords } from './status-words.en';

export const sw: StatusWords = {
  pending: 'Inasubiri',
  success: 'Imefanikiwa',
  failed: 'Imeshindwa',
  cancelled: 'Imeghairiwa',
  timeout: 'Muda umekwisha',
  unknown: 'Haijulikani',
  refunded: 'Imerudishwa',
};
