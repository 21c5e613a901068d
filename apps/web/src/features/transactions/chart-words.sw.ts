import type { ChartWords } from './chart-words.en';

export const sw: ChartWords = {
  caption: 'Kiasi kwa siku na hali, siku 14 zilizopita',
  tableCaption: 'Kiasi kwa KES kwa siku na hali, siku 14 zilizopita',
  paid: 'Imelipwa',
  notPaid: 'Haijalipwa',
  refunded: 'Imerudishwa',
  pending: 'Inasubiri',
  day: 'Siku',
  other: 'Nyingine',
};
