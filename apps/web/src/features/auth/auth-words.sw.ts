import type { OperatorRole } from '@mpesa/shared/contract-auth';
import type { AuthWords } from './auth-words.en';

const CHECK_CONNECTION = 'Angalia mtandao wako, kisha ujaribu tena.';

/** The role inside a sentence (the owner's screens name them with a capital: Keshia…). */
const ROLE: Record<OperatorRole, string> = {
  viewer: 'mtazamaji',
  cashier: 'keshia',
  owner: 'mmiliki',
};

export const sw: AuthWords = {
  signIn: 'Ingia',
  nameLabel: 'Jina',
  passwordLabel: 'Nenosiri',
  signingIn: 'Unaingia...',
  missing: { name: 'Weka jina lako.', password: 'Weka nenosiri lako.' },
  unreachable: `Seva haikuweza kufikiwa. ${CHECK_CONNECTION}`,
  signInFailed: 'Kuingia kumeshindwa. Tafadhali jaribu tena.',
  signedInAs: (name, role) => `Umeingia kama ${name} (${ROLE[role] ?? role})`,
  moneyNavigation: 'Pesa za duka',
  payouts: 'Malipo kwa wapokeaji',
  links: 'Viungo vya malipo',
  ownerNavigation: 'Mmiliki',
  operators: 'Wahudumu',
  apiKeys: 'Funguo za API',
  webhooks: 'Webhooks',
  auditTrail: 'Rekodi ya shughuli',
  failedAttempts: (count) =>
    count === 1
      ? 'Jaribio 1 lililoshindwa tangu uingie mara ya mwisho'
      : `Majaribio ${count} yaliyoshindwa tangu uingie mara ya mwisho`,
  dismiss: 'Funga',
  signOut: 'Toka',
  signOutFailed: `Kutoka kumeshindwa. ${CHECK_CONNECTION}`,
};
