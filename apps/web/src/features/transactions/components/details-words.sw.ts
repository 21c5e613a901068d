import type { DetailsWords } from './details-words.en';

/** The shortest wait between two asks of one payment (the API's, features/reconciliation/payer-check.ts). */
const CHECK_GAP_S = 10;

export const sw: DetailsWords = {
  title: 'Maelezo ya Muamala',
  loading: 'Inapakia maelezo ya muamala...',
  notFound: 'Muamala haukupatikana',
  fetchFailed: 'Maelezo ya muamala hayakuweza kupatikana',
  completeOnPhone: 'Tafadhali kamilisha malipo kwenye simu yako.',
  reference: 'Kumbukumbu',
  phoneNumber: 'Nambari ya Simu',
  amount: 'Kiasi',
  description: 'Maelezo',
  defaults: { reference: 'Malipo', description: 'Malipo ya huduma' },
  notGiven: 'Hakuna',
  createdAt: 'Tarehe ya kuundwa',
  receipt: 'Risiti ya M-PESA',
  transactionDate: 'Tarehe ya Muamala',
  response: 'Jibu la M-PESA',
  responseInEnglish: 'Kwa Kiingereza, kama M-PESA ilivyoandika',
  meaning: 'Maana yake',
  why: 'Sababu',
  paidThrough: 'Imelipwa kupitia',
  channels: {
    till: 'Till (Lipa na M-PESA, kutoka menyu ya simu)',
    paybill: 'Paybill (Lipa na M-PESA, kutoka menyu ya simu)',
  },
  payerName: 'Jina la mlipaji',
  link: 'Kiungo cha malipo',
  throughLink: 'Imelipwa kupitia kiungo cha malipo cha duka',
  tryAgain: 'Jaribu tena',
  backToTransactions: 'Rudi kwenye Miamala',
  anotherPayment: 'Fanya Malipo Mengine',
  iHavePaid: 'Nimelipa',
  asking: 'Tunauliza M-PESA…',
  stillWaiting:
    'M-PESA bado haijapokea malipo yako. Ikiwa umeweka PIN yako, subiri sekunde chache kisha uulize tena.',
  notSent:
    'M-PESA bado haijathibitisha ombi la malipo. Tafadhali subiri sekunde chache kisha uulize tena.',
  unreachable: 'M-PESA haikupatikana sasa hivi. Tafadhali uliza tena baada ya sekunde chache.',
  answered: 'M-PESA imejibu: hali iliyo hapo juu ni ya sasa.',
  checkFailed: 'Ombi lako halikuweza kutumwa. Tafadhali angalia mtandao wako kisha ujaribu tena.',
  // The API's three limits (a gap of seconds between asks, a few an hour per payment, a few a
  // minute per network) are told apart by how long it asks to wait.
  checkTooOften: (retryAfterS) =>
    retryAfterS !== undefined && retryAfterS <= CHECK_GAP_S
      ? `M-PESA iliulizwa kuhusu malipo haya sasa hivi. Tafadhali subiri sekunde ${retryAfterS} kisha uulize tena.`
      : 'M-PESA imeshaulizwa kuhusu malipo haya mara kadhaa. Ukurasa huu utajisasisha mara M-PESA itakapojibu.',
  copyReceipt: 'Nakili risiti',
  copied: 'Imenakiliwa',
  copyFailed: 'Haikuweza kunakili: chagua nambari ya risiti kisha uinakili.',
  timeline: 'Matukio',
  timelineLoading: 'Inapakia matukio...',
  timelineFailed: 'Matukio hayakuweza kupakiwa.',
  timelineEmpty: 'Hakuna kilichorekodiwa bado.',
  darajaWords: 'Maneno ya M-PESA yenyewe',
  needsReview: 'Inahitaji kukaguliwa na mtu.',
  mpesaMessages: 'Jumbe za M-PESA zenyewe',
  noCallback: 'Hakuna ujumbe wa M-PESA uliofika kuhusu malipo haya.',
  callbackReceived: 'Ujumbe wa M-PESA ulifika',
  callbackAsReceived: (n) => `Ujumbe ${n} kama ulivyofika`,
  reviewTitle: 'Kagua malipo haya',
  statementShows: 'Taarifa ya M-PESA inaonyesha nini',
  chooseOne: 'Chagua moja',
  settleAs: {
    success: 'Yamelipwa: taarifa ya M-PESA inaonyesha pesa',
    failed: 'Hayakulipwa: taarifa haionyeshi pesa',
    cancelled: 'Mteja aliyaghairi',
    timeout: 'Ombi halikujibiwa',
  },
  reviewNote: 'Sababu (inahifadhiwa kwenye matukio ya malipo)',
  saving: 'Inahifadhi...',
  saveReview: 'Hifadhi ukaguzi',
  reviewFailed: 'Ukaguzi haukuweza kuhifadhiwa. Tafadhali jaribu tena.',
  reviewSaved: 'Ukaguzi umehifadhiwa. Dokezo liko kwenye matukio ya malipo.',
};
