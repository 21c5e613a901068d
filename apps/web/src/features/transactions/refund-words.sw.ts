import type { RefundWords } from './refund-words.en';
import { REFUND_REASON_MAX_LENGTH } from '@mpesa/shared';

export const sw: RefundWords = {
  title: 'Kurudisha pesa',
  refund: 'Rudisha pesa',
  refundAgain: 'Jaribu kurudisha pesa tena',
  confirmTitle: 'Rudisha pesa za malipo haya',
  amount: 'Kiasi',
  payer: 'Kwa',
  payerName: 'Jina la mlipaji',
  wholePayment: 'Malipo yote yanarudi kwenye M-PESA ya mlipaji. Hili haliwezi kutenduliwa.',
  reasonLabel: 'Sababu (inahifadhiwa kwenye historia ya malipo na kumbukumbu za ukaguzi)',
  reasonCount: (count) => `Herufi ${count} kati ya ${REFUND_REASON_MAX_LENGTH}`,
  reasonTooShort: 'Tafadhali andika sababu ya kurudisha pesa (angalau herufi 2)',
  confirm: (amount) => `Rudisha ${amount}`,
  sending: 'Inatuma kwa M-PESA…',
  cancel: 'Ghairi',
  sendFailed:
    'Ombi la kurudisha pesa halikutumwa. Tafadhali angalia mtandao wako kisha ujaribu tena.',
  requested: 'Limetumwa kwa M-PESA, linasubiri jibu lake.',
  reversed: (date, receipt) =>
    `Pesa zilirudishwa tarehe ${date}${receipt ? `, risiti ya M-PESA ${receipt}` : ''}. Pesa zimerudi kwa mteja.`,
  failed: 'Kurudisha pesa hakukufanikiwa: pesa zimebaki kwa duka.',
  failedBecause: {
    R000001: 'M-PESA inasema malipo haya yalikwisha rudishwa.',
    R000002: 'M-PESA haiitambui risiti ya malipo haya.',
    '1': 'Akaunti ya M-PESA ya duka haina pesa za kutosha kurudisha kiasi hiki.',
    '2001':
      'Nenosiri la mwanzilishi (initiator) si sahihi: mmiliki aangalie MPESA_INITIATOR_PASSWORD kwenye mipangilio ya seva.',
    '8006':
      'Mwanzilishi (initiator) amefungiwa na M-PESA baada ya nenosiri kukosewa: Safaricom inaweza kumfungua.',
  },
  mpesaSaid: 'M-PESA ilisema:',
  noReason: 'M-PESA haikutoa sababu.',
  askedBy: (who, date) => `Iliombwa na ${who} tarehe ${date}.`,
  reason: 'Sababu:',
  blocked: {
    not_paid: 'Malipo yaliyolipwa tu ndiyo yanaweza kurudishwa: M-PESA haina pesa za malipo haya.',
    flagged:
      'Malipo haya yamewekwa kando ili mtu ayakague: yakague kwanza kabla ya kurudisha pesa.',
    too_old:
      'Malipo haya ni ya zamani kuliko seva inavyoruhusu kurudisha (REFUND_MAX_AGE_DAYS): rudisha pesa kwa njia nyingine.',
    not_set_up:
      'Kurudisha pesa hakujawekwa kwenye seva hii: mmiliki aweke MPESA_INITIATOR_NAME na MPESA_INITIATOR_PASSWORD kwenye mipangilio yake.',
    exists: 'Ombi la kurudisha pesa za malipo haya limekwisha tolewa.',
  },
};
