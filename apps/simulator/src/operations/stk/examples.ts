/** Example prompts for the simulator's description: one paid, one still open. */
import { RESULT_CODES } from '../../catalogue.ts';
import { UNANSWERED, type Prompt } from './prompt.ts';

export const PROMPT: Prompt = {
  checkoutRequestId: 'ws_CO_14032026122653412712345678',
  merchantRequestId: '2654-4b64-97ff-b827b542881d3130',
  businessShortCode: '174379',
  transactionType: 'CustomerPayBillOnline',
  amount: 450,
  partyA: '254712345678',
  partyB: '174379',
  phoneNumber: '254712345678',
  callbackUrl: 'https://pay.example.com/api/mpesa/callback/3f1c…',
  accountReference: 'INV-1042',
  transactionDesc: 'Order 1042',
  createdAt: '2026-03-14T09:26:53.412Z',
  expiresAt: '2026-03-14T09:27:53.412Z',
  plan: 'manual',
  forcedResult: null,
  state: 'completed',
  resultCode: '0',
  resultDesc: RESULT_CODES['0'] ?? null,
  receiptNumber: 'UCE7RT61SV',
  completedAt: '2026-03-14T09:27:04.118Z',
  completedBy: 'pin',
  callback: 'delivered',
  fault: {},
};

export const OPEN_PROMPT: Prompt = { ...PROMPT, ...UNANSWERED };
