/** Examples of the ledger for the simulator's description: a paybill after one STK payment of KES 450. */
import { DEFAULT_ACCOUNTS } from '../../money/accounts.ts';
import type { Transaction } from '../../money/ledger.schema.ts';
import { shownShortcode, shownTransaction, shownWallet } from './shown.ts';

export const PAYBILL = shownShortcode({
  shortcode: '174379',
  kind: 'paybill',
  name: 'Sandbox Test Merchant',
  accounts: { ...DEFAULT_ACCOUNTS.paybill, 'Utility Account': 1_000_450_00 },
});

export const WALLET = shownWallet({
  msisdn: '254708374149',
  name: 'John Doe',
  registered: true,
  balance: 249_550_00,
  day: '2026-03-14',
  inToday: 0,
  outToday: 450_00,
});

const PAYMENT: Transaction = {
  receipt: 'UCE7RT61SV',
  kind: 'stk',
  status: 'Completed',
  amount: 450_00,
  charges: 0,
  debit: { msisdn: '254708374149' },
  credit: { shortcode: '174379', account: 'Utility Account' },
  conversationId: null,
  originatorConversationId: null,
  reference: 'INV-1042',
  at: '2026-03-14T09:27:04.118Z',
  reverses: null,
  reversedBy: null,
};

export const STK_PAYMENT = shownTransaction(PAYMENT);
