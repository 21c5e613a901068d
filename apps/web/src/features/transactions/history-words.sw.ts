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
  selectionTotals: (count, shown, paidCount, paidShown, paid) =>
    `Yote yaliyochaguliwa na vichujio hivi: ${miamala(count, shown).toLowerCase()}, ${paidShown} ${paidCount === 1 ? 'umelipwa' : 'imelipwa'}, ${paid}.`,
  loadMore: 'Pakia zaidi',
  loadingMore: 'Inapakia zaidi...',
  moreFailed: 'Miamala zaidi haikuweza kupakiwa.',
  exportCsv: 'Pakua CSV',
  findTransactions: 'Tafuta miamala',
  search: 'Tafuta',
  searchPlaceholder: 'Simu au tarakimu 4 za mwisho, risiti au kumbukumbu',
  status: 'Hali',
  from: 'Kuanzia',
  to: 'Hadi',
  apply: 'Chuja',
  filters: 'Vichujio',
  filtersInUse: (count) => `Vichujio (${count} ${count === 1 ? 'kinatumika' : 'vinatumika'})`,
  dateRanges: 'Vipindi vya tarehe',
  presets: { today: 'Leo', last7Days: 'Siku 7 zilizopita', thisMonth: 'Mwezi huu' },
  range: (from, to) =>
    from && to
      ? from === to
        ? `Malipo ya ${from}.`
        : `Malipo ya ${from} hadi ${to}.`
      : from
        ? `Malipo kuanzia ${from}.`
        : `Malipo hadi ${to}.`,
  clear: 'Ondoa vichujio',
  channel: 'Njia ya malipo',
  channelAll: 'Zote',
  channels: {
    prompt: 'Ombi lililotumwa na duka',
    till: 'Till (kutoka menyu ya mteja)',
    paybill: 'Paybill (kutoka menyu ya mteja)',
  },
  channelTags: { till: 'Till', paybill: 'Paybill' },
  atAGlance: 'Kwa muhtasari',
  today: 'Leo',
  last7Days: 'Siku 7 zilizopita',
  periodDetail: (count, shown, rate, pending, pendingShown) =>
    pending === 0
      ? `${miamala(count, shown)}, ${rate} ${count === 1 ? 'umefanikiwa' : 'imefanikiwa'}`
      : pending === count
        ? `${miamala(count, shown)}, ${count === 1 ? 'bado unasubiri' : 'yote bado inasubiri'}`
        : `${miamala(count, shown)} (${pendingShown} bado ${pending === 1 ? 'unasubiri' : 'inasubiri'}), ${rate} ya mingine imefanikiwa`,
  periodPlaceholder: 'Miamala 00, 00% imefanikiwa',
  figuresFailed: 'Takwimu hazikuweza kupakiwa.',
  noRefunds: 'Zilizokusanywa, hakuna zilizorudishwa',
  afterRefunds: (count, shown, amount) =>
    `Zilizokusanywa, baada ya kurudisha ${amount} (${miamala(count, shown)})`,
  receiptCheckTitle: 'Malipo ya till au paybill hayaonekani?',
  receiptLabel: 'Weka risiti ya M-PESA kutoka kwenye SMS',
  receiptHint: 'Herufi na tarakimu 10, kama UAB1C2D3E4',
  receiptInvalid:
    'Tafadhali weka risiti ya M-PESA kutoka kwenye SMS, kama UAB1C2D3E4 (herufi na tarakimu 10)',
  checkReceipt: 'Uliza M-PESA',
  checkingReceipt: 'Tunauliza M-PESA kuhusu risiti hii…',
  receiptFound: 'M-PESA inayajua malipo haya: sasa yako kwenye historia.',
  openPayment: 'Fungua malipo',
  receiptNotFound: 'M-PESA haina malipo yenye risiti hiyo kwa duka hili.',
  receiptFailed: (code) =>
    code === 'NO_ANSWER'
      ? 'M-PESA haijajibu kuhusu risiti hii. Tafadhali jaribu tena baada ya dakika chache.'
      : `Hatukuweza kuuliza M-PESA kuhusu risiti hii${code ? ` (msimbo ${code})` : ''}. Tafadhali jaribu tena baada ya dakika chache.`,
  receiptSendFailed: 'Risiti haikuweza kutumwa. Tafadhali angalia mtandao wako kisha ujaribu tena.',
};
