/** Table types. Rows are read through `Selectable<…>`; nothing re-declares these shapes. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { TransactionStatus } from '@mpesa/shared';

export interface TransactionTable {
  id: string;
  reference: string;
  description: string;
  phone_number: string;
  amount: number;
  status: TransactionStatus;
  merchant_request_id: string | null;
  checkout_request_id: string | null;
  result_code: string | null;
  response_description: string | null;
  customer_message: string | null;
  mpesa_receipt_number: string | null;
  /** When M-PESA says the payment happened (callback TransactionDate), ISO 8601 UTC. */
  transaction_date: string | null;
  created_at: string;
  updated_at: string;
}

/** Every callback body exactly as it arrived, whatever became of it. */
export interface CallbackTable {
  id: string;
  received_at: string;
  checkout_request_id: string | null;
  transaction_id: string | null;
  source_ip: string | null;
  raw_body: string;
  outcome: CallbackOutcome;
}

export type CallbackOutcome =
  'applied' | 'duplicate' | 'ignored' | 'orphan' | 'mismatch' | 'invalid';

/** The transaction's history: one row per change of status, and per notable non-change. */
export interface TransactionEventTable {
  id: string;
  transaction_id: string;
  at: string;
  source: EventSource;
  from_status: TransactionStatus | null;
  to_status: TransactionStatus;
  note: string | null;
  payload: string | null;
}

export type EventSource = 'initiation' | 'callback' | 'query' | 'reconciliation';

export interface Database {
  transactions: TransactionTable;
  callbacks: CallbackTable;
  transaction_events: TransactionEventTable;
}

export type TransactionRow = Selectable<TransactionTable>;
export type NewTransactionRow = Insertable<TransactionTable>;
export type TransactionPatch = Updateable<TransactionTable>;
export type NewCallbackRow = Insertable<CallbackTable>;
export type NewTransactionEventRow = Insertable<TransactionEventTable>;
