/**
 * The ledger's shapes: what it holds, what SIM_STATE keeps of it and what its lookups return. All
 * amounts are cents (amounts.ts); the control API shows them as Daraja writes them
 * (operations/money/shown.ts).
 */
import { z } from 'zod';
import { AccountNameSchema, ShortcodeKindSchema } from './accounts.ts';

const cents = z.number().int();
const time = z.iso.datetime();

/** One side of a movement: a shortcode's named account, or a customer's wallet. */
export const SideSchema = z.union([
  z.object({ shortcode: z.string(), account: AccountNameSchema }).strict(),
  z.object({ msisdn: z.string() }).strict(),
]);
export type Side = z.infer<typeof SideSchema>;

/** What each transaction is, by the API that made it. */
export const TransactionKindSchema = z.enum(['stk', 'c2b', 'b2c', 'b2b', 'reversal']);
export type TransactionKind = z.infer<typeof TransactionKindSchema>;

/**
 * A transaction's final states, as transaction status names them (docs/daraja-protocol.md §M5):
 * only a Completed one moved money.
 */
export const TransactionStatusSchema = z.enum(['Completed', 'Declined', 'Cancelled', 'Expired']);
export type TransactionStatus = z.infer<typeof TransactionStatusSchema>;

export const TransactionSchema = z.object({
  /** Its M-PESA receipt (ids.ts `mpesaReceiptNumber`): Daraja's TransactionID. */
  receipt: z.string().min(1),
  kind: TransactionKindSchema,
  status: TransactionStatusSchema,
  amount: cents.positive(),
  /** What the debit side paid on top: from a wallet, or into a shortcode's Charges Paid Account. */
  charges: cents.min(0),
  debit: SideSchema,
  credit: SideSchema,
  conversationId: z.string().nullable(),
  originatorConversationId: z.string().nullable(),
  /** The account reference or bill reference the payer gave, if any. */
  reference: z.string().nullable(),
  at: time,
  /** A reversal: the receipt it reversed. */
  reverses: z.string().nullable(),
  /** A reversed transaction: its reversal's receipt. */
  reversedBy: z.string().nullable(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

/** A business shortcode: its kind, its name in results, and its accounts in Daraja's order. */
export const ShortcodeBookSchema = z.object({
  shortcode: z.string(),
  kind: ShortcodeKindSchema,
  name: z.string(),
  accounts: z.partialRecord(AccountNameSchema, cents),
});
export type ShortcodeBook = z.infer<typeof ShortcodeBookSchema>;

/** A customer's wallet, and what it moved on its last day of use (Nairobi's date), each way. */
export const WalletSchema = z.object({
  msisdn: z.string(),
  name: z.string(),
  registered: z.boolean(),
  balance: cents,
  day: z.string(),
  inToday: cents.min(0),
  outToday: cents.min(0),
});
export type Wallet = z.infer<typeof WalletSchema>;

/** What SIM_STATE keeps of the ledger: every account, wallet and recent transaction. */
export const LedgerStateSchema = z.object({
  shortcodes: z.array(ShortcodeBookSchema),
  wallets: z.array(WalletSchema),
  transactions: z.array(TransactionSchema),
});
export type LedgerState = z.infer<typeof LedgerStateSchema>;

/** Why a movement was refused; `resultCode` is the code Daraja's results give for it (§M4.4). */
export const REFUSAL_CODES = {
  'insufficient-funds': '1',
  'daily-limit': '4',
  'max-balance': '8',
  'no-such-account': '2028',
  'invalid-party': 'SFC_IC0003',
  'unknown-transaction': 'R000002',
  'not-reversible': 'R000002',
  'already-reversed': 'R000001',
} as const;
export type RefusalReason = keyof typeof REFUSAL_CODES;

export interface Refusal {
  reason: RefusalReason;
  /** A sentence for logs and the control API: which account, how much it holds, how much was asked. */
  message: string;
  resultCode: (typeof REFUSAL_CODES)[RefusalReason];
}

/** A movement either made whole, or refused with why. */
export type MoveResult = { ok: true; transaction: Transaction } | ({ ok: false } & Refusal);

/** What a caller asks to move (the ledger adds status, time and the reversal links). */
export interface MoveRequest {
  kind: TransactionKind;
  /** Whole cents, above 0 (`toCents` in amounts.ts reads Daraja's shillings). */
  amount: number;
  /** Whole cents the debit side pays on top; none unless given. */
  charges?: number;
  from: Side;
  to: Side;
  /** The receipt to record it under; a new one when not given. */
  receipt?: string;
  conversationId?: string;
  originatorConversationId?: string;
  reference?: string;
}

export function refusal(reason: RefusalReason, message: string): Refusal {
  return { reason, message, resultCode: REFUSAL_CODES[reason] };
}
