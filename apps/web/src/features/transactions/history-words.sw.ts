import type { HistoryWords } from './history-words.en';

/** "Miamala 3" / "Muamala 1": the word agrees with the count. */
const miamala = (count: number, shown: string) =>
  count === 1 ? `Muamala ${shown}` : `Miamala ${shown}`;

export const sw: HistoryWords = {
  screenTitle: 'Miamala',
  title: 'Historia ya Miamala',
  loading: 'Inapakia miamala...',
  failed: 'Imeshindwa kupakia miamala',
  empty: 'Hakuna miamala iliyopatikana.',
  columns: {
    reference: 'Kumbukumbu',
    phoneNumber: 'Nambari ya Simu',
    amount: 'Kiasi',
    status: 'Hali',
    date: 'Tarehe',
    action: 'Kitendo',
  },
  viewDetails: 'Angalia Maelezo',
  viewDetailsOf: (reference, amount, status) =>
    `Angalia maelezo ya ${reference}, ${amount}, ${status}`,
  found: (count, shown, more) =>
    more
      ? `${miamala(count, shown)} ${count === 1 ? 'unaonyeshwa' : 'inaonyeshwa'}, zaidi kwa Pakia zaidi.`
      : `${miamala(count, shown)} ${count === 1 ? 'umepatikana' : 'imepatikana'}.`,
  loadMore: 'Pakia zaidi',
  loadingMore: 'Inapakia zaidi...',
  moreFailed: 'Miamala zaidi haikuweza kupakiwa.',
  exportCsv: 'Pakua CSV',
  findTransactions: 'Tafuta miamala',
  search: 'Tafuta',
  searchPlaceholder: 'Simu, risiti au kumbukumbu',
  status: 'Hali',
  from: 'Kuanzia',
  to: 'Hadi',
  apply: 'Chuja',
  clear: 'Ondoa vichujio',
  atAGlance: 'Kwa muhtasari',
  today: 'Leo',
  last7Days: 'Siku 7 zilizopita',
  periodDetail: (count, shown, rate) =>
    `${miamala(count, shown)}, ${rate} ${count === 1 ? 'umefanikiwa' : 'imefanikiwa'}`,
  periodPlaceholder: 'Miamala 00, 00% imefanikiwa',
  figuresFailed: 'Takwimu hazikuweza kupakiwa.',
};
