/**
 * The audit trail in a shop owner's words: who did what, to what, and the details, each from the
 * parts the API reads out of a line (`facts`), never its stored English or JSON.
 */
import type { PaymentChannel } from '@mpesa/shared';
import type { AuditAction, SignInLimitKind } from '@mpesa/shared/contract-admin';

export const en = {
  title: 'Audit trail',
  intro: 'Who did what, and when, newest first.',
  columns: { when: 'When', who: 'Who', what: 'What', target: 'To what', address: 'From where' },
  loading: 'Loading...',
  empty: 'Nothing has been recorded yet.',
  showOlder: 'Show older',
  actions: {
    sign_in: 'Signed in',
    sign_in_failed: 'Failed to sign in',
    sign_out: 'Signed out',
    export: 'Exported payments',
    review: 'Reviewed a payment',
    operator_added: 'Added an operator',
    operator_role_changed: 'Changed a role',
    operator_removed: 'Removed an operator',
    password_link_issued: 'Made a password link',
    password_set: 'Set their password',
    key_created: 'Created an API key',
    key_revoked: 'Revoked an API key',
    refund: 'Refunded a payment',
    webhook_endpoint_added: 'Added a webhook endpoint',
    webhook_endpoint_changed: 'Changed a webhook endpoint',
    webhook_endpoint_removed: 'Removed a webhook endpoint',
    webhook_endpoint_disabled: 'Turned off a webhook endpoint',
    webhook_secret_rotated: 'Made a new webhook secret',
    webhook_resent: 'Resent webhooks',
    webhook_test_sent: 'Sent a test webhook',
    payout_proposed: 'Proposed a payout',
    link_created: 'Made a payment link',
    link_switched_off: 'Switched a payment link off',
    payout_approved: 'Approved a payout',
    payout_declined: 'Declined a payout',
    payouts_export: 'Exported payouts',
  } satisfies Record<AuditAction, string> as Record<AuditAction, string>,

  /** Who did it, as an owner would say it (`null`: the line does not name them). */
  actor: {
    operator: (name: string | null) => name ?? 'An operator',
    key: (name: string | null) => (name ? `API key “${name}”` : 'An API key'),
    command: 'The server’s command line',
    /** The server on its own: a webhook endpoint turned off after three days of failures. */
    server: 'The server, on its own',
    /** A failed sign-in with an operator's name: not known to be them. */
    signingInAs: (name: string) => `Someone signing in as ${name}`,
    anonymous: 'Someone not signed in',
  },

  /** What a line is about, as the link to it says. */
  subject: {
    payment: (reference: string | null) => (reference ? `Payment ${reference}` : 'The payment'),
    endpoint: (url: string | null) => url ?? 'A webhook endpoint',
  },

  /** Each line's details; amounts, dates, roles, statuses and events come already in words. */
  facts: {
    /** An operator added with a role, or removed while they had it. */
    addedAs: (role: string) => `as ${role}`,
    removedWas: (role: string) => `who was ${role}`,
    change: (from: string, to: string) => `${from} → ${to}`,
    /** A payment reviewed whose status stayed as it was. */
    kept: (status: string) => `still ${status}`,
    note: (words: string) => `note: “${words}”`,
    reason: (words: string) => `reason: “${words}”`,
    scope: (scope: string) => `may ${scope}`,
    makerRemoved: (name: string) => `its maker, ${name}, was removed`,
    makerNotOwner: (name: string, role: string) =>
      `its maker, ${name}, is no longer an owner (now ${role})`,
    oneTimeLink: 'with a one-time link',
    signInRace: 'they were removed, or their password changed, while signing in',
    signInLimit: {
      name_from_address: 'too many failed attempts with this name from this address',
      address: 'too many failed attempts from this address',
      name: 'too many failed attempts with this name',
    } satisfies Record<SignInLimitKind, string> as Record<SignInLimitKind, string>,
    refusedUntil: (when: string) => `refused until ${when}`,
    /** An export's filters: each a phrase, joined with commas. */
    status: (statuses: string) => `status ${statuses}`,
    channel: (channels: string) => `paid by ${channels}`,
    channels: {
      prompt: 'a prompt from the shop',
      till: 'till',
      paybill: 'paybill',
    } satisfies Record<PaymentChannel, string> as Record<PaymentChannel, string>,
    fromDay: (day: string) => `from ${day}`,
    toDay: (day: string) => `up to ${day}`,
    days: (from: string, to: string) => `${from} – ${to}`,
    search: 'with a search',
    /** Filters of a newer version, which this one has no words for. */
    otherFilters: 'with other filters',
    everything: 'every payment',
    events: (events: string) => `events: ${events}`,
    allEvents: 'all',
    urlNow: (url: string) => `URL now ${url}`,
    eventsNow: (events: string) => `events now: ${events}`,
    turnedOn: 'turned on',
    turnedOff: 'turned off',
    nothingChanged: 'nothing changed',
    failingSince: (when: string) => `every delivery to it had failed since ${when}`,
    secret: (prefix: string) => `it starts with ${prefix}`,
    failedDeliveries: (count: number) =>
      count === 1 ? '1 failed delivery' : `${count} failed deliveries`,
  },
};

export type AuditWords = typeof en;
