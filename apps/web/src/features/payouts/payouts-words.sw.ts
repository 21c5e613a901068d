import { PAYOUT_FAILURES_SW, type PayoutFailureWords } from '@mpesa/shared/payout-failures';
import type { PayoutWords } from './payouts-words.en';

const kes = (amount: number) =>
  `KES ${amount.toLocaleString('en-KE', { minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 })}`;

export const sw: PayoutWords = {
  title: 'Malipo kwa wapokeaji',
  intro:
    'Walipe wafanyakazi, wasafirishaji na wasambazaji kwa M-PESA. Mmiliki au karani anapendekeza; mmiliki mwingine anaidhinisha, na hapo tu ndipo pesa zinatumwa.',
  kes,
  loading: 'Inapakia malipo...',
  empty: 'Bado hakuna malipo.',
  kinds: {
    BusinessPayment: 'Malipo ya biashara kwa simu',
    SalaryPayment: 'Mshahara kwa simu',
    PromotionPayment: 'Zawadi ya promosheni kwa simu',
    BusinessPayBill: 'Paybill (na nambari ya akaunti)',
    BusinessBuyGoods: 'Till (nunua bidhaa)',
  },
  statuses: {
    proposed: 'Yanasubiri idhini',
    declined: 'Yamekataliwa',
    sending: 'Yametumwa, yanasubiri M-PESA',
    succeeded: 'Yamelipwa',
    failed: 'Hayakulipwa',
    unknown: 'Angalia taarifa ya M-PESA',
  },
  failures: PAYOUT_FAILURES_SW as PayoutFailureWords,
  unknownWords:
    'Jibu la M-PESA lilipotea: tafuta malipo haya kwenye taarifa ya M-PESA kabla ya kulipa tena.',

  form: {
    title: 'Pendekeza malipo',
    correcting: (to: string) =>
      `Unasahihisha malipo kwa ${to}: ni malipo mapya, yale yaliyoshindwa yanabaki yalivyo.`,
    kind: 'Aina',
    to: 'Nambari ya simu, till au paybill',
    toHint: 'Simu kama 0712 345 678, au till au paybill ya tarakimu 5 hadi 7.',
    account: 'Nambari ya akaunti',
    amount: 'Kiasi (KES)',
    reason: 'Sababu',
    reasonHint: 'Herufi 2 hadi 100; ujumbe wa M-PESA wa mpokeaji hauionyeshi.',
    submit: 'Pendekeza',
    cancelCorrection: 'Acha kusahihisha',
    proposed: 'Yamependekezwa: yanasubiri idhini ya mmiliki mwingine.',
    sent: 'Yametumwa kwa M-PESA.',
  },
  fields: {
    kind: 'Chagua aina ya malipo.',
    to: 'Weka nambari ya simu ya Kenya, au till au paybill ya tarakimu 5 hadi 7.',
    account: 'Malipo ya paybill yanahitaji nambari ya akaunti (hadi herufi au tarakimu 13).',
    amount: 'Weka shilingi nzima: KES 10 hadi 250,000 kwa simu.',
    reason: 'Andika sababu: herufi 2 hadi 100.',
  },

  batch: {
    title: 'Pendekeza kundi kutoka faili la CSV',
    hint: 'Safu ya kwanza: to,amount,reason (na kind, account ukitaka); kisha malipo moja kila safu. Faili linapokelewa lote, au linakataliwa lote pamoja na kosa la kila safu.',
    file: 'Faili la CSV',
    submit: 'Pendekeza faili',
    noFile: 'Chagua faili la CSV kwanza.',
    refused: 'Faili halikupokelewa. Rekebisha safu hizi kisha ulipendekeze tena:',
    row: (row: number) => (row === 0 ? 'Faili' : `Safu ${row}`),
    proposed: (count: number) =>
      `Malipo ${count} yamependekezwa: yanasubiri idhini ya mmiliki mwingine.`,
    group: (count: number, by: string) => `Kundi la malipo ${count} lililopendekezwa na ${by}`,
    approveAll: 'Idhinisha kundi',
    declineAll: 'Kataa kundi',
  },

  list: {
    title: 'Malipo yote',
    to: 'Kwa',
    proposedBy: (name: string) => `Yamependekezwa na ${name}`,
    decidedBy: (status, name: string) =>
      status === 'declined' ? `Yamekataliwa na ${name}` : `Yameidhinishwa na ${name}`,
    receipt: 'Risiti',
    receiver: 'Amepokea',
    charge: 'Ada',
    approve: 'Idhinisha',
    decline: 'Kataa',
    correct: 'Sahihisha na utume tena',
    ownProposal: 'Mmiliki mwingine lazima ayaidhinishe haya.',
    payout: (to: string, amount: string) => `Malipo ya ${amount} kwa ${to}`,
  },

  balance: {
    title: 'Salio kwenye M-PESA',
    none: 'Salio bado halijasomwa.',
    readNow: 'Soma salio sasa',
    asked: 'Tumeuliza M-PESA: salio litafika baada ya sekunde chache.',
    readAt: (when: string) => `Lilisomwa ${when}`,
    failed: (words: string) => `M-PESA haikutoa salio: ${words}`,
    total: 'Akaunti zote',
    account: 'Akaunti',
    available: 'Kinachopatikana',
    today: 'Leo',
    moneyIn: 'Pesa zilizoingia',
    moneyOut: 'Pesa zilizotoka',
    fees: 'Ada',
    change: 'Mabadiliko ya salio',
    agrees: 'Pesa za leo na mabadiliko ya salio zinalingana.',
    disagrees: (difference: string) =>
      `Pesa za leo na mabadiliko ya salio zinatofautiana kwa ${difference}: angalia taarifa ya M-PESA.`,
    needsTwo: 'Yanahitajika masomo mawili ya salio leo ili kulinganisha pesa na salio.',
  },

  moneyOut: {
    switchLabel: 'Pesa zilizoingia au zilizotoka',
    moneyIn: 'Pesa zilizoingia',
    moneyOut: 'Pesa zilizotoka',
    glance: 'Pesa zilizotoka',
    todayLine: (amount: string) => `Pesa zilizotoka leo: ${amount}`,
    everyPayout: 'Tazama malipo yote',
    paidOut: (amount: string, _count: number, countText: string, charges: string, week: string) =>
      `Zilizolipwa leo: ${amount} kwa malipo ${countText}, ada ${charges}. Siku 7 zilizopita: ${week}.`,
    balanceLine: (total: string, when: string) =>
      `Salio kwenye M-PESA: ${total}, lilisomwa ${when}`,
    balanceUnread: 'Salio kwenye M-PESA: bado halijasomwa',
    waiting: (_count: number, countText: string) =>
      `Malipo ${countText} yanasubiri idhini ya mmiliki.`,
    toPayouts: 'Fungua Malipo kwa wapokeaji',
    figuresFailed: 'Takwimu za pesa zilizotoka hazikupatikana.',
    filters: 'Malipo gani',
    listed: 'Orodha ya malipo',
    status: 'Hali',
    anyStatus: 'Hali yoyote',
    from: 'Yaliyopendekezwa kuanzia',
    to: 'Yaliyopendekezwa hadi',
    apply: 'Chuja',
    exportCsv: 'Pakua malipo (CSV)',
    loading: 'Inapakia malipo...',
    failed: 'Imeshindwa kupata malipo',
    empty: 'Hakuna malipo yaliyopatikana.',
    found: (_count: number, countText: string) => `Malipo ${countText} yanaonyeshwa`,
    loadMore: 'Pakia zaidi',
    loadingMore: 'Inapakia zaidi...',
    columns: {
      date: 'Yalipendekezwa',
      to: 'Analipwa',
      amount: 'Kiasi',
      charge: 'Ada',
      status: 'Hali',
      reason: 'Sababu',
    },
  },
};
