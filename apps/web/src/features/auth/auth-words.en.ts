import type { OperatorRole } from '@mpesa/shared/contract-auth';

const CHECK_CONNECTION = 'Check your connection, then try again.';

/** Signing in, and the header's operator bar (who is signed in, an owner's links, the way out). */
export const en = {
  signIn: 'Sign in',
  nameLabel: 'Name',
  passwordLabel: 'Password',
  signingIn: 'Signing in...',
  missing: { name: 'Enter your name.', password: 'Enter your password.' } satisfies Record<
    'name' | 'password',
    string
  >,
  unreachable: `The server could not be reached. ${CHECK_CONNECTION}`,
  signInFailed: 'Signing in failed. Please try again.',
  /** The header: the role as the API names it, in English. */
  signedInAs: (name: string, role: OperatorRole) => `Signed in as ${name} (${role})`,
  moneyNavigation: 'The shop’s money',
  payouts: 'Payouts',
  links: 'Payment links',
  ownerNavigation: 'Owner',
  operators: 'Operators',
  apiKeys: 'API keys',
  webhooks: 'Webhooks',
  auditTrail: 'Audit trail',
  /** After signing in: the wrong passwords typed for the name since the last sign-in. */
  failedAttempts: (count: number) =>
    count === 1
      ? '1 failed attempt since you last signed in'
      : `${count} failed attempts since you last signed in`,
  dismiss: 'Dismiss',
  signOut: 'Sign out',
  signOutFailed: `Signing out failed. ${CHECK_CONNECTION}`,
};

export type AuthWords = typeof en;
