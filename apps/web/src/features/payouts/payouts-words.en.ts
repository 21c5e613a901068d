/**
 * The Payouts screen in a shop's words: money out to phones, paybills and tills, approved by a
 * second owner, and the balance M-PESA holds (docs/product.md §13).
 */
import type { PayoutKind, PayoutStatus } from '@mpesa/shared/contract-payouts';
import { PAYOUT_FAILURES_EN, type PayoutFailureWords } from '@mpesa/shared/payout-failures';

const kes = (amount: number) =>
  `${amount.toLocaleString('en-KE', { minimumFractionDigits: Number.isInteger(amount) ? 0 : 2, maximumFractionDigits: 2 })} KES`;

export const en = {
  title: 'Payouts',
  intro:
    'Pay workers, riders and suppliers by M-PESA. Anyone signed in as an owner or a cashier proposes; a second owner approves, and only then is the money sent.',
  kes,
  loading: 'Loading payouts...',
  empty: 'No payouts yet.',
  kinds: {
    BusinessPayment: 'Business payment to a phone',
    SalaryPayment: 'Salary to a phone',
    PromotionPayment: 'Promotion to a phone',
    BusinessPayBill: 'Paybill (with account number)',
    BusinessBuyGoods: 'Till (buy goods)',
  } satisfies Record<PayoutKind, string>,
  statuses: {
    proposed: 'Waiting for approval',
    declined: 'Declined',
    sending: 'Sent, waiting for M-PESA',
    succeeded: 'Paid',
    failed: 'Not paid',
    unknown: 'Check the M-PESA statement',
  } satisfies Record<PayoutStatus, string>,
  failures: PAYOUT_FAILURES_EN as PayoutFailureWords,
  unknownWords:
    'M-PESA’s answer was lost: look for this payment on the M-PESA statement before paying it again.',

  form: {
    title: 'Propose a payout',
    correcting: (to: string) =>
      `Correcting the payout to ${to}: a new payout, the failed one stays as it is.`,
    kind: 'Kind',
    to: 'Phone, till or paybill number',
    toHint: 'A phone such as 0712 345 678, or a till or paybill of 5 to 7 digits.',
    account: 'Account number',
    amount: 'Amount (KES)',
    reason: 'Reason',
    reasonHint: '2 to 100 characters; the receiver’s M-PESA message does not show it.',
    submit: 'Propose',
    cancelCorrection: 'Cancel the correction',
    proposed: 'Proposed: it waits for a second owner’s approval.',
    sent: 'Sent to M-PESA.',
  },
  fields: {
    kind: 'Choose the kind of payout.',
    to: 'Enter a Kenyan phone number, or a till or paybill of 5 to 7 digits.',
    account: 'A paybill payment needs its account number (up to 13 letters or digits).',
    amount: 'Enter whole shillings: 10 to 250,000 KES to a phone.',
    reason: 'Give the reason: 2 to 100 characters.',
  } as Record<string, string>,

  batch: {
    title: 'Propose a batch from a CSV file',
    hint: 'First row: to,amount,reason (and kind, account if wanted); then one payout a row. The file is taken whole, or refused whole with each row’s problem.',
    file: 'CSV file',
    submit: 'Propose the file',
    noFile: 'Choose a CSV file first.',
    refused: 'The file was not taken. Fix these rows and propose it again:',
    row: (row: number) => (row === 0 ? 'The file' : `Row ${row}`),
    proposed: (count: number) =>
      `${count} payouts proposed: they wait for a second owner’s approval.`,
    group: (count: number, by: string) => `A batch of ${count} proposed by ${by}`,
    approveAll: 'Approve the batch',
    declineAll: 'Decline the batch',
  },

  list: {
    title: 'All payouts',
    to: 'To',
    proposedBy: (name: string) => `Proposed by ${name}`,
    decidedBy: (status: PayoutStatus, name: string) =>
      status === 'declined' ? `Declined by ${name}` : `Approved by ${name}`,
    receipt: 'Receipt',
    receiver: 'Received by',
    charge: 'Charge',
    approve: 'Approve',
    decline: 'Decline',
    correct: 'Correct and send again',
    ownProposal: 'Another owner must approve this one.',
    payout: (to: string, amount: string) => `Payout of ${amount} to ${to}`,
  },

  balance: {
    title: 'Balance at M-PESA',
    none: 'The balance has not been read yet.',
    readNow: 'Read the balance now',
    asked: 'Asked M-PESA: the balance comes in a few seconds.',
    readAt: (when: string) => `Read ${when}`,
    failed: (words: string) => `M-PESA did not give the balance: ${words}`,
    total: 'All accounts',
    account: 'Account',
    available: 'Available',
    today: 'Today',
    moneyIn: 'Money in',
    moneyOut: 'Money out',
    fees: 'Charges',
    change: 'Change in balance',
    agrees: 'The day’s money and the change in balance agree.',
    disagrees: (difference: string) =>
      `The day’s money and the change in balance differ by ${difference}: check the M-PESA statement.`,
    needsTwo: 'Two readings today are needed to compare the money with the balance.',
  },

  /** Money out in the history, apart from the money in. */
  moneyOut: {
    switchLabel: 'Money in or out',
    moneyIn: 'Money in',
    moneyOut: 'Money out',
    glance: 'Money out',
    todayLine: (amount: string) => `Money out today: ${amount}`,
    everyPayout: 'See every payout',
    paidOut: (amount: string, count: number, countText: string, charges: string, week: string) =>
      `Paid out today: ${amount} in ${countText} ${count === 1 ? 'payout' : 'payouts'}, charges ${charges}. Last 7 days: ${week}.`,
    balanceLine: (total: string, when: string) => `Balance at M-PESA: ${total}, read ${when}`,
    balanceUnread: 'Balance at M-PESA: not read yet',
    waiting: (count: number, countText: string) =>
      `${countText} ${count === 1 ? 'payout waits' : 'payouts wait'} for an owner’s approval.`,
    toPayouts: 'Open Payouts',
    figuresFailed: 'The money out figures could not be loaded.',
    filters: 'Which payouts',
    listed: 'The payouts listed',
    status: 'Status',
    anyStatus: 'Any status',
    from: 'Proposed from',
    to: 'Proposed to',
    apply: 'Apply',
    exportCsv: 'Export payouts (CSV)',
    loading: 'Loading payouts...',
    failed: 'Failed to fetch payouts',
    empty: 'No payouts found.',
    found: (count: number, countText: string) =>
      `${countText} ${count === 1 ? 'payout' : 'payouts'} shown`,
    loadMore: 'Load more',
    loadingMore: 'Loading more...',
    columns: {
      date: 'Proposed',
      to: 'Paid to',
      amount: 'Amount',
      charge: 'Charge',
      status: 'Status',
      reason: 'Reason',
    },
  },
};

export type PayoutWords = typeof en;
