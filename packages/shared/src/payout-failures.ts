/**
 * Why M-PESA did not pay a payout, in plain words, by its ResultCode (docs/daraja-protocol.md
 * §M4.4, §M8.1): English, which the API records beside M-PESA's own words, and Kiswahili, which the
 * web app shows. A code not listed reads as `other`, with M-PESA's words after it.
 */
export type PayoutFailureWords = Record<string, string> & { other: string };

export const PAYOUT_FAILURES_EN: PayoutFailureWords = {
  '1': 'The shop’s M-PESA account does not hold enough money for this payout (its utility or working balance is too low).',
  '2': 'M-PESA declined the amount: it is below the least it pays out (10 KES to a phone).',
  '3': 'M-PESA declined the amount: it is above the most one payout may be.',
  '4': 'The receiver has reached M-PESA’s daily limit of money received.',
  '8': 'The receiver’s M-PESA account would be over its largest balance.',
  '11': 'The shop’s M-PESA account is not in a state to pay: ask Safaricom.',
  '21': 'The initiator is not allowed to make payouts: ask Safaricom to give it the role.',
  '2001':
    'M-PESA refused the initiator’s name or credential: check MPESA_INITIATOR_NAME and its password.',
  '2006': 'The shop’s M-PESA account does not allow this payout: ask Safaricom.',
  '2028': 'This shortcode may not make this kind of payout: ask Safaricom for the product.',
  '2040':
    'The receiver is not a registered M-PESA customer: pay them as a salary, or ask them to register.',
  '8006': 'The initiator is locked after wrong credentials: ask Safaricom to unlock it.',
  SFC_IC0003: 'M-PESA has no such receiver: check the number.',
  lost: 'M-PESA has no record of this payout: it was not paid.',
  unreachable:
    'M-PESA could not be reached: nothing was sent, and the money is still with the shop.',
  refused: 'M-PESA refused the request: nothing was sent.',
  other: 'M-PESA did not pay this payout.',
};

export const PAYOUT_FAILURES_SW: PayoutFailureWords = {
  '1': 'Akaunti ya M-PESA ya duka haina pesa za kutosha kwa malipo haya.',
  '2': 'M-PESA imekataa kiasi: ni chini ya kiwango cha chini (KES 10 kwa simu).',
  '3': 'M-PESA imekataa kiasi: ni juu ya kiwango cha juu cha malipo moja.',
  '4': 'Mpokeaji amefikia kikomo cha M-PESA cha pesa anazopokea kwa siku.',
  '8': 'Akaunti ya M-PESA ya mpokeaji ingezidi salio lake la juu.',
  '11': 'Akaunti ya M-PESA ya duka haiwezi kulipa kwa sasa: wasiliana na Safaricom.',
  '21': 'Mwanzilishi (initiator) haruhusiwi kufanya malipo: omba Safaricom impe ruhusa.',
  '2001': 'M-PESA imekataa jina au nenosiri la mwanzilishi (initiator): yakague.',
  '2006': 'Akaunti ya M-PESA ya duka hairuhusu malipo haya: wasiliana na Safaricom.',
  '2028': 'Nambari hii ya biashara hairuhusiwi aina hii ya malipo: omba Safaricom.',
  '2040': 'Mpokeaji si mteja aliyesajiliwa wa M-PESA: mlipe kama mshahara, au ajisajili.',
  '8006':
    'Mwanzilishi (initiator) amefungiwa baada ya nenosiri kukosewa: omba Safaricom amfungulie.',
  SFC_IC0003: 'M-PESA haina mpokeaji huyu: kagua nambari.',
  lost: 'M-PESA haina rekodi ya malipo haya: hayakulipwa.',
  unreachable: 'M-PESA haikupatikana: hakuna kilichotumwa, pesa bado ziko kwa duka.',
  refused: 'M-PESA imekataa ombi: hakuna kilichotumwa.',
  other: 'M-PESA haikulipa malipo haya.',
};

/** The plain words for `code` in `words`. */
export function payoutFailure(words: PayoutFailureWords, code: string | null): string {
  return (code !== null && Object.hasOwn(words, code) ? words[code] : undefined) ?? words.other;
}
