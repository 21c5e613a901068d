/**
 * The owner's screens in a shop owner's words, not the API's codes. Kept here rather than read
 * from @mpesa/shared, whose values would bring zod into the first screen's download.
 */
import type { ApiKeyScope } from '@mpesa/shared/contract-admin';
import type { OperatorRole } from '@mpesa/shared/contract-auth';

/** A role or a scope: its name, and what it lets one do. */
export interface Named {
  name: string;
  can: string;
}

const CHECK_CONNECTION = 'Check your connection, then try again.';

export const en = {
  roles: {
    viewer: { name: 'Viewer', can: 'Can view the history' },
    cashier: { name: 'Cashier', can: 'Can also ask for payments' },
    owner: { name: 'Owner', can: 'Can also export, review and manage people' },
  } satisfies Record<OperatorRole, Named> as Record<OperatorRole, Named>,
  scopes: {
    'payments:read': {
      name: 'Read payments',
      can: 'The history, the figures and each payment’s details',
    },
    'payments:request': { name: 'Request payments', can: 'Send payment requests' },
    'webhooks:manage': {
      name: 'Manage webhooks',
      can:
        'Add, change and remove webhook endpoints, and resend deliveries. Its endpoints receive ' +
        'every payment with the payer’s full phone number, as “Read payments” does',
    },
  } satisfies Record<ApiKeyScope, Named> as Record<ApiKeyScope, Named>,

  // What went wrong (problem.ts), and the parts every screen shares (owner-parts.tsx).
  roleRefused:
    'Your role cannot do this: only an owner manages operators, API keys, webhooks and the audit trail.',
  unreachable: `The server could not be reached. ${CHECK_CONNECTION}`,
  fallback: 'That did not work. Please try again.',
  copied: 'Copied',
  copyFailed: 'Could not copy: select it and copy it.',
  done: 'Done',
  keep: 'Keep',
  nameLabel: 'Name',

  // The Operators screen.
  operators: {
    title: 'Operators',
    intro: 'The people who sign in to this shop’s payments, and what each of them can do.',
    columns: { name: 'Name', role: 'Role', password: 'Password', added: 'Added', change: 'Change' },
    loading: 'Loading operators...',
    you: ' (you)',
    passwordSet: 'Set',
    passwordNotSet: 'Not set yet',
    newRoleFor: (name: string) => `New role for ${name}`,
    changeRole: 'Change role',
    changeRoleOf: (name: string) => `Change role of ${name}`,
    newLink: 'New password link',
    newLinkFor: (name: string) => `New password link for ${name}`,
    remove: 'Remove',
    removeName: (name: string) => `Remove ${name}`,
    removeQuestion: (name: string) =>
      `Remove ${name}? They are signed out and can no longer sign in.`,
    linkTitle: (name: string) => `Password link for ${name}`,
    copyLink: 'Copy link',
    linkText: (name: string, until: string) =>
      `Send this link to ${name}: it lets them choose their password. It works once, for 24 hours (until ${until}). It will not be shown again; a new link can be made at any time, and voids this one.`,
    addTitle: 'Add an operator',
    addMissingName: 'Enter their name.',
    addLegend: 'What they can do',
    addSubmit: 'Add operator',
  },

  // The API keys screen.
  keys: {
    title: 'API keys',
    /** Around the header's name, shown as code. */
    introBefore:
      'Keys let the shop’s own systems read payments or ask for them, without anyone signing in. A system sends its key in an ',
    introAfter:
      ' header. A key stops working when the owner who made it is removed or is no longer an owner.',
    columns: {
      name: 'Name',
      scope: 'May',
      prefix: 'Starts with',
      created: 'Created',
      lastUsed: 'Last used',
      status: 'Status',
    },
    loading: 'Loading keys...',
    empty: 'No keys yet.',
    createdBy: (who: string, when: string) => `by ${who}, ${when}`,
    never: 'Never',
    revokedAt: (when: string) => `Revoked ${when}`,
    /** Why a revoked key was revoked (`revokedReason`), and by which owner. */
    revokedByOwner: (when: string, who: string | null) => `Revoked ${when} by ${who ?? 'an owner'}`,
    revokedMakerRemoved: (when: string) => `Revoked ${when}: its maker was removed`,
    revokedMakerNotOwner: (when: string) => `Revoked ${when}: its maker is no longer an owner`,
    /** Beside a `webhooks:manage` key in the list: what it amounts to. */
    webhooksHear: 'Its endpoints receive payers’ full phone numbers, as “Read payments” does.',
    active: 'Active',
    revoke: 'Revoke',
    revokeName: (name: string) => `Revoke ${name}`,
    revokeQuestion: (name: string) =>
      `Revoke the key “${name}”? Systems using it are refused from now on.`,
    madeTitle: (name: string) => `The key “${name}”`,
    copyKey: 'Copy key',
    madeText: 'Copy it now and keep it safe: it will not be shown again.',
    createTitle: 'Create a key',
    createMissingName: 'Enter a name for the key.',
    createHint: 'The system that will use it, e.g. “Till 2” or “Accounts”.',
    createLegend: 'What it may do',
    createSubmit: 'Create key',
  },

  // The one-time link's page (set-password-screen.tsx); the bounds are the API's (use-set-password).
  setPassword: {
    title: 'Set your password',
    rule: (min: number, max: number) =>
      `Choose a password of ${min} to ${max} characters: a few words you will remember are easier to type and harder to guess.`,
    passwordLabel: 'New password',
    againLabel: 'The same password again',
    submit: 'Set password',
    setting: 'Setting...',
    tooShortOrLong: (min: number, max: number) =>
      `Choose a password of ${min} to ${max} characters.`,
    notTheSame: 'The two passwords are not the same.',
    done: (name: string) =>
      `Your password is set, ${name}. Sign in with your name and the new password.`,
    goToSignIn: 'Go to Sign in',
    linkInvalid:
      'This link does not work: it was used already, it is more than 24 hours old, or a newer one ' +
      'was made. Ask the shop’s owner for a new link.',
    failed: 'Setting the password failed. Please try again.',
  },
};

export type OwnerWords = typeof en;
