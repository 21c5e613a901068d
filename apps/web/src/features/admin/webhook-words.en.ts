/**
 * The Webhooks screen in a shop owner's words (docs/webhooks.md says what each thing does). Kept
 * apart from owner-words.en.ts, which holds the other owner's screens, so that each stays short.
 */
import type { WebhookDeliveryState, WebhookSentType } from '@mpesa/shared/contract-webhooks';

/** An event type: its name on a checkbox and in the deliveries. */
type EventNames = Record<WebhookSentType, string>;

export const en = {
  title: 'Webhooks',
  intro:
    'Webhooks tell the shop’s own systems (orders, accounts, messages to customers) of each payment as it happens. Each event is sent to every endpoint that wants it, signed with the endpoint’s secret, and tried again for three days until the endpoint answers.',
  loading: 'Loading endpoints...',
  empty: 'No endpoints yet.',
  events: {
    'payment.succeeded': 'A payment succeeded',
    'payment.failed': 'A payment failed',
    'payment.cancelled': 'The payer cancelled a payment',
    'payment.timed_out': 'The payer did not answer in time',
    'payment.unknown': 'M-PESA gave no outcome (check the statement)',
    'payment.flagged': 'A payment needs a review',
    'payment.refunded': 'A payment was refunded',
    'payment.received': 'A till or paybill payment arrived',
    'payout.succeeded': 'A payout was paid',
    'payout.failed': 'A payout failed',
    'link.paid': 'A payment link was paid',
    'webhook.test': 'Test event',
  } satisfies EventNames as EventNames,

  // The form that adds or changes an endpoint.
  form: {
    addTitle: 'Add an endpoint',
    editTitle: 'Change this endpoint',
    urlLabel: 'URL',
    urlHint: 'Where the events are sent, e.g. https://shop.example/mpesa-events.',
    missingUrl: 'Enter the URL the events are sent to.',
    eventsLegend: 'The events it is sent',
    missingEvents: 'Choose at least one event.',
    addSubmit: 'Add endpoint',
    save: 'Save changes',
    cancel: 'Cancel',
    useSimulator: 'Use the simulator’s receiver',
    simulatorHint:
      'Simulator mode: the simulator keeps what it receives and shows it on its page, under “Webhooks received”.',
  },

  // The secret, shown once.
  secret: {
    madeTitle: 'The endpoint’s signing secret',
    rotatedTitle: 'The endpoint’s new signing secret',
    text: 'Give it to the system that receives the events: it checks each event’s signature with it. Copy it now: it will not be shown again.',
    copy: 'Copy secret',
  },

  // One endpoint.
  endpoint: {
    label: (url: string) => `Endpoint ${url}`,
    eventsLabel: 'Events',
    secretLabel: 'Secret starts with',
    on: 'On: events are sent to it.',
    offByOwner: (when: string) => `Turned off on ${when}: nothing is sent to it.`,
    offFailing: (when: string, since: string) =>
      `Turned off on ${when} because every delivery failed for three days (since ${since}). Fix the receiving system, turn the endpoint on, then resend the failed deliveries.`,
    failing: (since: string) =>
      `Failing since ${since}: deliveries are tried again. After three days of failures the endpoint is turned off.`,
    edit: 'Edit',
    turnOff: 'Turn off',
    turnOn: 'Turn on',
    rotate: 'New secret',
    rotateQuestion:
      'Make a new secret? The old one signs nothing more: the receiving system needs the new one.',
    rotateYes: 'Make a new secret',
    remove: 'Remove',
    removeQuestion: (url: string) =>
      `Remove the endpoint ${url}? Nothing more is sent to it, and its deliveries are forgotten.`,
    removeYes: 'Remove endpoint',
    sendTest: 'Send a test event',
    testSent: 'A test event is on its way: it appears in the deliveries below.',
    resendFailed: 'Resend every failed one',
    resentFailed: (count: number) =>
      count === 0
        ? 'No delivery had been given up: nothing to resend.'
        : count === 1
          ? 'One delivery is being sent again.'
          : `${count} deliveries are being sent again.`,
    /** For a screen reader, which hears each endpoint's buttons out of their card. */
    of: (action: string, url: string) => `${action}: ${url}`,
  },

  // An endpoint's deliveries.
  deliveries: {
    title: 'Deliveries',
    columns: {
      when: 'When',
      event: 'Event',
      status: 'HTTP status',
      took: 'Time taken',
      answer: 'Answer',
      attempts: 'Attempts',
      state: 'State',
      action: 'Resend',
    },
    loading: 'Loading deliveries...',
    empty: 'Nothing sent yet. Send a test event to see one.',
    showOlder: 'Show older',
    noAnswer: 'No answer',
    notYet: 'Not tried yet',
    ms: (ms: number) => `${ms} ms`,
    states: {
      pending: 'Waiting to be sent',
      retrying: 'Failed: will be tried again',
      delivered: 'Delivered',
      failed: 'Given up',
    } satisfies Record<WebhookDeliveryState, string> as Record<WebhookDeliveryState, string>,
    nextAt: (when: string) => `Next try ${when}`,
    resend: 'Resend',
    resendOf: (event: string) => `Resend ${event}`,
    resent: 'Sent again: its new attempt appears here in a moment.',
  },
};

export type WebhookWords = typeof en;
