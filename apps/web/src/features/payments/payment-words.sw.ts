import { MIN_AMOUNT, PROMPT_REFERENCE_LENGTH, REDIRECT_DELAY_MS } from '@mpesa/shared';
import type { PaymentWords } from './payment-words.en';

const SAME_DETAILS_AGAIN = 'Kutuma maelezo yaleyale tena hakuwezi kuanzisha malipo ya pili.';

export const sw: PaymentWords = {
  title: 'Malipo ya M-PESA',
  payingBefore: 'Unamlipa ',
  payingAfter: '.',
  intro:
    'M-PESA itatuma ombi kwa nambari ya simu iliyo hapa chini: weka PIN yako ya M-PESA hapo ndani ya takriban dakika moja, kabla ombi halijaisha muda.',
  payingBeforeStaff: 'Mteja anamlipa ',
  introForStaff:
    'M-PESA itatuma ombi kwa nambari ya simu ya mteja iliyo hapa chini: mteja anaweka PIN yake ya M-PESA hapo ndani ya takriban dakika moja, kabla ombi halijaisha muda.',
  phoneLabel: 'Nambari ya Simu',
  phonePlaceholder: 'mf. 0712345678 au +254712345678',
  phoneHint: 'Muundo: 07XXXXXXXX au +2547XXXXXXXX',
  phoneHintMore: 'Nambari za 01… pia; nafasi zinakubalika.',
  amountLabel: 'Kiasi (KES)',
  amountPlaceholder: 'Kiasi kwa KES',
  referenceLabel: 'Kumbukumbu',
  referencePlaceholder: 'Kumbukumbu ya malipo',
  referenceHint: `Si lazima. Ombi la M-PESA linaonyesha herufi ${PROMPT_REFERENCE_LENGTH} za kwanza.`,
  descriptionLabel: 'Maelezo',
  descriptionPlaceholder: 'Maelezo ya malipo',
  optional: 'Si lazima.',
  submit: 'Lipa kwa M-PESA',
  processing: 'Inashughulikiwa...',
  success: 'Ombi la malipo limetumwa! Angalia simu yako ili kukamilisha muamala.',
  redirect: `Maelezo ya malipo haya yatafunguka baada ya sekunde ${REDIRECT_DELAY_MS / 1000}.`,
  invalidPhone: 'Tafadhali weka nambari sahihi ya simu ya Kenya',
  amountTooSmall: `Kiasi lazima kiwe angalau ${MIN_AMOUNT} KES`,
  failureFallback: 'Malipo hayakuweza kuanzishwa. Tafadhali jaribu tena.',
  timedOut: (seconds) =>
    `Seva haikujibu ndani ya sekunde ${seconds}, kwa hiyo huenda malipo yameanza: simu yako ikionyesha ombi la M-PESA, lijibu. ${SAME_DETAILS_AGAIN}`,
  unreachable: `Seva haikuweza kufikiwa. Angalia mtandao wako, kisha ujaribu tena. ${SAME_DETAILS_AGAIN}`,
  offline:
    'Huna mtandao, kwa hiyo hakuna ombi la malipo lililotumwa. Unganisha kwenye intaneti, kisha ujaribu tena.',
};
