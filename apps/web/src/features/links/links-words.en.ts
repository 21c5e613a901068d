/**
 * Payment links in a shop's words (issue 38): the Links screen, where the shop makes a link and
 * sees what each collected, and the payer's page at `/pay/<code>`.
 */
import type { LinkStatus } from '@mpesa/shared/contract-links';

const kes = (amount: number) => `KES ${amount.toLocaleString('en-KE')}`;

export const en = {
  kes,
  title: 'Payment links',
  intro:
    'Make a link once and send it: the customer opens it on their phone, types only their number and pays by the usual M-PESA prompt.',
  loading: 'Loading links...',
  empty: 'No links yet.',
  form: {
    title: 'Make a link',
    fixed: 'A fixed amount',
    chosen: 'The customer chooses the amount',
    amount: 'Amount (KES)',
    minAmount: 'Smallest amount (KES)',
    purpose: 'What it is for',
    reference: 'Reference',
    oneOnly: 'One payment only',
    expiresInDays: 'Expires after (days)',
    submit: 'Make the link',
    made: 'The link is ready: copy it and send it.',
  },
  statuses: {
    active: 'Taking payments',
    paid: 'Paid',
    expired: 'Expired',
    off: 'Switched off',
  } satisfies Record<LinkStatus, string>,
  card: (amount: string, purpose: string) => `${amount} for ${purpose}`,
  anyAmount: (minimum: number) => `At least ${kes(minimum)}`,
  paidCount: (count: number) => (count === 1 ? '1 payment' : `${count} payments`),
  collected: (amount: number) => `${kes(amount)} collected`,
  copy: 'Copy the message',
  copied: 'Copied',
  share: (amount: string, shop: string, url: string) => `Lipa ${amount} kwa ${shop}: ${url}`,
  switchOff: 'Switch off',
  payments: 'Payments through this link',
  // A link's QR codes: its own (any phone's camera), printed on A6, and M-PESA's.
  qr: {
    show: 'Show QR code',
    hide: 'Hide QR code',
    print: 'Print',
    download: 'Download PNG',
    anyAmountFrom: (minimum: number) => `Any amount from ${kes(minimum)}`,
    alt: (address: string) => `QR code of ${address}`,
    scan: 'Scan with your phone’s camera to pay',
    mpesa: 'M-PESA’s QR code',
    mpesaAsk: 'Get M-PESA’s QR code',
    mpesaAsking: 'Asking M-PESA...',
    mpesaAlt: (amount: string) => `M-PESA’s QR code for ${amount}`,
    mpesaScan: (kind: 'BG' | 'PB', shortcode: string, reference: string) =>
      `Payers scan this one with the M-PESA app: it pays ${kind === 'BG' ? 'till' : 'paybill'} ${shortcode}, reference ${reference}.`,
  },
  expires: 'Expires',
  // The payer's page.
  pay: {
    title: 'Pay',
    loading: 'Loading...',
    to: 'Pay to',
    amount: 'Amount',
    purpose: 'For',
    chooseAmount: (minimum: number) => `Amount (KES, at least ${minimum.toLocaleString('en-KE')})`,
    phone: 'Your M-PESA phone number',
    hint: 'Format: 07XXXXXXXX or +2547XXXXXXXX',
    submit: 'Pay with M-PESA',
    processing: 'Processing...',
    sent: 'Check your phone and enter your M-PESA PIN to pay.',
    notFound: 'This payment link does not exist. Check the address you were sent.',
    closed: {
      paid: 'This link has already been paid. There is nothing more to pay.',
      expired: 'This link has expired. Ask the shop to send you a new one.',
      off: 'The shop has switched this link off. Ask the shop to send you a new one.',
    } satisfies Record<Exclude<LinkStatus, 'active'>, string>,
    failed: 'The payment could not be started. Please try again.',
  },
};
export type LinkWords = typeof en;
