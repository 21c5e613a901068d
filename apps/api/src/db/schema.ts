/** Table types. Rows are read through `Selectable<…>`; nothing re-declares these shapes. */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { EventKind, PaymentChannel, RefundStatus, TransactionStatus } from '@mpesa/shared';
import type { OperatorRole } from '@mpesa/shared/contract-auth';
import type { PayoutKind, PayoutStatus } from '@mpesa/shared/contract-payouts';
import type {
  ApiKeyRevokedReason,
  ApiKeyScope,
  AuditAction,
  AuditActorKind,
} from '@mpesa/shared/contract-admin';
import type {
  WebhookDeliveryTable,
  WebhookEndpointTable,
  WebhookEventTable,
} from './webhook-tables.ts';

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
  /** When reconciliation should next ask Daraja about a pending transaction. */
  next_check_at: string | null;
  check_attempts: Generated<number>;
  /** Reconciliation lease: the instance that is querying this transaction, and until when. */
  lease_until: string | null;
  lease_owner: string | null;
  /** Why M-PESA's report was not applied as is (e.g. an amount that does not match). */
  flagged_reason: string | null;
  /**
   * When PHONE_RETENTION_DAYS masked the phone number in place (and the payer's digits in the
   * CheckoutRequestID, the callbacks and the events); null while the number is kept.
   */
  phone_masked_at: Generated<string | null>;
  /** How it came: a prompt the shop sent, or the payer's own menu (C2B: till, paybill). */
  channel: Generated<PaymentChannel>;
  /** A till or paybill payer's name, as M-PESA gave it; null for a prompt. */
  payer_name: Generated<string | null>;
  /**
   * A till or paybill payer's number exactly as M-PESA gave it: masked (C2B v2) or a SHA-256 in
   * hex (v1); `phone_number` holds what the history shows of it. Null for a prompt.
   */
  payer_msisdn: Generated<string | null>;
  /** The shortcode that received it; null: the STK push's MPESA_PARTY_B. */
  shortcode: Generated<string | null>;
  /** The payment link it was paid through (features/links/), if any. */
  link_id: Generated<string | null>;
}

/**
 * A payment's refund (one per payment: `transaction_id` is unique), by Daraja's Reversal API, and
 * the bookkeeping of asking transaction status when its Result does not come.
 */
export interface RefundTable {
  id: string;
  transaction_id: string;
  status: RefundStatus;
  amount: number;
  reason: string;
  /** The owner who asked for it, by name as it was then, and by id. */
  requested_by: string;
  requested_by_id: string | null;
  /** The reversal request's OriginatorConversationID and Daraja's ConversationID. */
  originator_conversation_id: string | null;
  conversation_id: string | null;
  /** The OriginatorConversationID of the latest transaction status query asked about it. */
  status_query_id: string | null;
  result_code: string | null;
  result_description: string | null;
  /** The reversal's own receipt (the Result's TransactionID). */
  reversal_receipt: string | null;
  created_at: string;
  updated_at: string;
  next_check_at: string | null;
  check_attempts: Generated<number>;
  lease_until: string | null;
  lease_owner: string | null;
}

/**
 * A payout (features/payouts/): proposed, approved or declined by a second owner, sent once by B2C
 * or B2B, with its outcome and the bookkeeping of asking transaction status when it is lost.
 */
/** A payment link (features/links/): made by an operator, paid by the usual prompt. */
export interface PaymentLinkTable {
  id: string;
  /** The end of its address, `/pay/<code>`: unguessable. */
  code: string;
  /** A fixed amount in KES, or null when the payer chooses one of at least `min_amount`. */
  amount: number | null;
  min_amount: number | null;
  purpose: string;
  reference: string;
  /** 1: one payment only; 0: many. */
  one_only: number;
  expires_at: string | null;
  switched_off_at: string | null;
  switched_off_by: string | null;
  created_by: string;
  created_by_id: string;
  created_at: string;
}
export type PaymentLinkRow = Selectable<PaymentLinkTable>;

export interface PayoutTable {
  id: string;
  batch_id: string | null;
  kind: PayoutKind;
  /** The phone (2547…) or the shortcode; masked in place past PHONE_RETENTION_DAYS. */
  payee: string;
  account: string | null;
  amount: number;
  reason: string;
  status: PayoutStatus;
  proposed_by: string;
  proposed_by_id: string;
  decided_by: string | null;
  decided_by_id: string | null;
  decided_at: string | null;
  corrects_id: string | null;
  originator_conversation_id: string | null;
  conversation_id: string | null;
  status_query_id: string | null;
  result_code: string | null;
  result_description: string | null;
  receipt: string | null;
  receiver_name: string | null;
  charge_cents: number | null;
  created_at: string;
  updated_at: string;
  next_check_at: string | null;
  check_attempts: Generated<number>;
  lease_until: string | null;
  lease_owner: string | null;
  payee_masked_at: string | null;
}

/** An Account Balance asked for (features/balance/), and what M-PESA said. */
export interface BalanceReadingTable {
  id: string;
  shortcode: string;
  /** asked: its Result awaited; read: the accounts came; failed: M-PESA said why not. */
  status: 'asked' | 'read' | 'failed';
  /** Who asked (an operator's name); null: the schedule. */
  asked_by: string | null;
  asked_at: string;
  originator_conversation_id: string | null;
  conversation_id: string | null;
  result_code: string | null;
  result_description: string | null;
  /** The accounts as JSON: `[{name, currency, available, uncleared, reserved, other}]`, in cents. */
  accounts: string | null;
  /** M-PESA's BOCompletedTime, as an ISO time. */
  completed_at: string | null;
  read_at: string | null;
}

/** A receipt the merchant typed, and the transaction status query asked about it. */
export interface ReceiptCheckTable {
  id: string;
  receipt: string;
  status: 'asked' | 'found' | 'not_found' | 'failed';
  requested_by: string;
  originator_conversation_id: string | null;
  /** The payment found (recorded, or already in the history). */
  transaction_id: string | null;
  result_code: string | null;
  created_at: string;
  updated_at: string;
}

/** Every callback body exactly as it arrived, whatever became of it. */
export interface CallbackTable {
  id: string;
  /**
   * Which Daraja API's result it is (which callback route it came to): a kind a feature names
   * (features/index.ts), at most 16 characters.
   */
  kind: string;
  received_at: string;
  checkout_request_id: string | null;
  transaction_id: string | null;
  source_ip: string | null;
  raw_body: string;
  outcome: CallbackOutcome;
  /** When PHONE_RETENTION_DAYS masked the numbers in a callback no payment claimed. */
  phone_masked_at: Generated<string | null>;
}

/**
 * `contradiction`: the callback disagrees with an earlier one for the same request (flagged).
 * `received`: kept before it was applied, and applying it failed (it stays so only then).
 */
export type CallbackOutcome =
  | 'received'
  | 'applied'
  | 'duplicate'
  | 'ignored'
  | 'orphan'
  | 'mismatch'
  | 'contradiction'
  | 'invalid'
  // A C2B validation request's verdict (features/c2b/c2b-validation.callback.ts).
  | 'accepted'
  | 'refused';

/** The transaction's history: one row per change of status, and per notable non-change. */
export interface TransactionEventTable {
  id: string;
  transaction_id: string;
  at: string;
  source: EventSource;
  from_status: TransactionStatus | null;
  to_status: TransactionStatus;
  /** What the event records; code decides by it, never by the note. */
  kind: EventKind;
  /**
   * For `flagged` and `lifted_flagged`: the flag's reason; for `ignored`: why the report changed
   * nothing. The note says the same in a sentence.
   */
  reason: string | null;
  /** The text a person reads. */
  note: string | null;
  payload: string | null;
}

/** `review`: a person cleared a flag (npm run review). */
export type EventSource =
  'initiation' | 'callback' | 'query' | 'reconciliation' | 'review' | 'refund' | 'c2b';

/** One open prompt per phone: held while its transaction is pending and at least PHONE_COOLDOWN_S. */
export interface PhoneLockTable {
  phone_number: string;
  transaction_id: string;
  locked_until: string;
}

export interface IdempotencyKeyTable {
  key: string;
  /** sha256 of the normalised request body: the same key with another body is refused. */
  request_hash: string;
  transaction_id: string | null;
  /** Null while the first request with this key is still being answered. */
  status_code: number | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

/** Fixed-window counters shared by every instance. */
export interface RateLimitTable {
  key: string;
  window_index: number;
  hits: number;
}

/** Who runs the shop, by role (packages/shared/src/contract-auth.ts). */
export interface OperatorTable {
  id: string;
  /** As typed (NFKC, trimmed); `name_key` is how it is compared. */
  name: string;
  name_key: string;
  role: OperatorRole;
  /** `scrypt$N$r$p$salt$hash` (lib/password.ts). */
  password_hash: string;
  created_at: string;
  updated_at: string;
  /** Wrong passwords for this name since the operator last signed in (shown to them then). */
  failed_sign_ins: Generated<number>;
}

/**
 * Where an operator has signed in (an IPv4 address, an IPv6 /64): past the bound on guesses for
 * their name from all addresses, these are still let in (docs/decisions/005-sign-in-limits.md).
 */
export interface OperatorAddressTable {
  operator_id: string;
  address_key: string;
  signed_in_at: string;
}

/** A signed-in session: its token is never stored, only its SHA-256. */
export interface OperatorSessionTable {
  token_hash: string;
  operator_id: string;
  created_at: string;
  /** Refreshed at most once a minute; the idle expiry counts from it. */
  last_seen_at: string;
  /** The absolute expiry, whatever the activity. */
  expires_at: string;
  revoked_at: string | null;
  /**
   * The SHA-256 of the password hash the session was opened with: once the operator's password
   * changes, it no longer matches and the session is refused. Null (a row from before): refused.
   */
  password_stamp: string | null;
}

/** One line of the audit trail (audit/audit.ts); `actor` and `target` are names, kept as they were. */
export interface AuditEventTable {
  id: string;
  at: string;
  actor_kind: AuditActorKind;
  actor: string | null;
  action: AuditAction;
  target: string | null;
  detail: string | null;
  address: string | null;
}

/** A key for the shop's own systems: only its SHA-256 is kept. */
export interface ApiKeyTable {
  id: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  key_hash: string;
  created_at: string;
  /** The owner who created it, by name as it was then, and by id (migration 014). */
  created_by: string;
  created_by_id: Generated<string | null>;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Why it was revoked: by an owner, or with its maker (removed, or no longer an owner). */
  revoked_reason: Generated<ApiKeyRevokedReason | null>;
  /** The owner who revoked it, or whose change of its maker did; null: the command line. */
  revoked_by: Generated<string | null>;
}

/** The one live one-time link that sets an operator's password: only its token's SHA-256. */
export interface PasswordLinkTable {
  operator_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

export interface Database {
  transactions: TransactionTable;
  callbacks: CallbackTable;
  transaction_events: TransactionEventTable;
  phone_locks: PhoneLockTable;
  idempotency_keys: IdempotencyKeyTable;
  rate_limits: RateLimitTable;
  operators: OperatorTable;
  operator_sessions: OperatorSessionTable;
  operator_addresses: OperatorAddressTable;
  audit_events: AuditEventTable;
  api_keys: ApiKeyTable;
  password_links: PasswordLinkTable;
  refunds: RefundTable;
  payouts: PayoutTable;
  payment_links: PaymentLinkTable;
  balance_readings: BalanceReadingTable;
  receipt_checks: ReceiptCheckTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
}

export type TransactionRow = Selectable<TransactionTable>;
export type NewTransactionRow = Insertable<TransactionTable>;
export type TransactionPatch = Updateable<TransactionTable>;
export type NewCallbackRow = Insertable<CallbackTable>;
export type NewTransactionEventRow = Insertable<TransactionEventTable>;
export type RefundRow = Selectable<RefundTable>;
export type PayoutRow = Selectable<PayoutTable>;
export type BalanceReadingRow = Selectable<BalanceReadingTable>;
export type ReceiptCheckRow = Selectable<ReceiptCheckTable>;
export type OperatorRow = Selectable<OperatorTable>;
export type OperatorSessionRow = Selectable<OperatorSessionTable>;
