/**
 * One rule for the length of every stored identifier. PostgreSQL refuses a value longer than its
 * column (an error, so a 500 and nothing kept); SQLite stores it silently. So every value that comes
 * from outside (Daraja, a callback, a client's header or address) is checked against these lengths
 * before it reaches a query, and `db/stored-lengths.test.ts` holds the migrated columns to the same
 * numbers on both dialects. Changing a number here needs a migration that changes the column.
 */

import { PAYOUT_REASON_MAX_LENGTH } from '@mpesa/shared/contract-payouts';

/** The longest value accepted from outside, by kind. */
export const MAX_LENGTH = {
  /** Daraja's MerchantRequestID and CheckoutRequestID ("ws_CO_…" is about 40 characters). */
  darajaId: 100,
  /** A ResultCode as text: "0", "1032", "SFC_IC0003". */
  resultCode: 32,
  /** An M-PESA receipt ("UF1E26WQJZ", 10 characters). */
  receiptNumber: 32,
  /** A client's IP address as text (the longest IPv6 form is 45 characters). */
  ipAddress: 64,
  /** A client's Idempotency-Key header. */
  idempotencyKey: 255,
  /** A rate-limit counter's key: the route and the client's address. */
  rateLimitKey: 200,
  /** Our own ids (UUIDs, sortable event ids). */
  ownId: 64,
  /** An operator's name, as typed and as compared (features/operators/operator-name.ts). */
  operatorName: 64,
  /** A stored password hash: `scrypt$N$r$p$salt$hash` (lib/password.ts). */
  passwordHash: 200,
  /** A conversation id Daraja's Result APIs give or take (OriginatorConversationID, ConversationID). */
  conversationId: 100,
  /** Daraja's own words for a Result (ResultDesc), as kept. */
  resultDescription: 300,
  /** A till or paybill payer's name as M-PESA gives it (first, middle and last). */
  payerName: 200,
  /** A C2B payer's number as M-PESA gives it: v2's masked form, or v1's SHA-256 in hex. */
  payerMsisdn: 64,
  /** The few words an audit line carries beyond who, what and to what (audit/audit.ts). */
  auditDetail: 1200,
  /** A webhook endpoint's URL (contract-webhooks.ts WEBHOOK_URL_MAX_LENGTH). */
  webhookUrl: 2000,
  /** The start of an endpoint's answer that a delivery keeps. */
  webhookResponse: 500,
  /** Why a delivery got no answer, in a few words. */
  webhookError: 200,
} as const;

/** Every length-limited column, as the migrations declare it. */
export const COLUMN_LENGTHS: Record<string, number> = {
  'transactions.id': MAX_LENGTH.ownId,
  'transactions.phone_number': 16,
  'transactions.status': 16,
  'transactions.merchant_request_id': MAX_LENGTH.darajaId,
  'transactions.checkout_request_id': MAX_LENGTH.darajaId,
  'transactions.result_code': MAX_LENGTH.resultCode,
  'transactions.mpesa_receipt_number': MAX_LENGTH.receiptNumber,
  'transactions.transaction_date': 32,
  'transactions.created_at': 32,
  'transactions.updated_at': 32,
  'transactions.next_check_at': 32,
  'transactions.lease_until': 32,
  'transactions.lease_owner': MAX_LENGTH.ownId,
  'transactions.phone_masked_at': 32,
  'transactions.channel': 16,
  'transactions.payer_name': MAX_LENGTH.payerName,
  'transactions.payer_msisdn': MAX_LENGTH.payerMsisdn,
  'transactions.shortcode': 16,
  'callbacks.id': MAX_LENGTH.ownId,
  'callbacks.kind': 16,
  'callbacks.received_at': 32,
  'callbacks.checkout_request_id': MAX_LENGTH.darajaId,
  'callbacks.transaction_id': MAX_LENGTH.ownId,
  'callbacks.source_ip': MAX_LENGTH.ipAddress,
  'callbacks.outcome': 16,
  'callbacks.phone_masked_at': 32,
  'transaction_events.id': MAX_LENGTH.ownId,
  'transaction_events.transaction_id': MAX_LENGTH.ownId,
  'transaction_events.at': 32,
  'transaction_events.source': 16,
  'transaction_events.from_status': 16,
  'transaction_events.to_status': 16,
  'transaction_events.kind': 32,
  'phone_locks.phone_number': 16,
  'phone_locks.transaction_id': MAX_LENGTH.ownId,
  'phone_locks.locked_until': 32,
  'idempotency_keys.key': MAX_LENGTH.idempotencyKey,
  'idempotency_keys.request_hash': 64,
  'idempotency_keys.transaction_id': MAX_LENGTH.ownId,
  'idempotency_keys.created_at': 32,
  'idempotency_keys.expires_at': 32,
  'rate_limits.key': MAX_LENGTH.rateLimitKey,
  'operators.id': MAX_LENGTH.ownId,
  'operators.name': MAX_LENGTH.operatorName,
  'operators.name_key': MAX_LENGTH.operatorName,
  'operators.role': 16,
  'operators.password_hash': MAX_LENGTH.passwordHash,
  'operators.created_at': 32,
  'operators.updated_at': 32,
  'operator_addresses.operator_id': MAX_LENGTH.ownId,
  'operator_addresses.address_key': MAX_LENGTH.ipAddress,
  'operator_addresses.signed_in_at': 32,
  'operator_sessions.token_hash': 64,
  'operator_sessions.operator_id': MAX_LENGTH.ownId,
  'operator_sessions.created_at': 32,
  'operator_sessions.last_seen_at': 32,
  'operator_sessions.expires_at': 32,
  'operator_sessions.revoked_at': 32,
  'operator_sessions.password_stamp': 64,
  'audit_events.id': MAX_LENGTH.ownId,
  'audit_events.at': 32,
  'audit_events.actor_kind': 16,
  'audit_events.actor': MAX_LENGTH.operatorName,
  'audit_events.action': 32,
  'audit_events.target': MAX_LENGTH.ownId,
  'audit_events.detail': MAX_LENGTH.auditDetail,
  'audit_events.address': MAX_LENGTH.ipAddress,
  'api_keys.id': MAX_LENGTH.ownId,
  'api_keys.name': MAX_LENGTH.operatorName,
  'api_keys.scope': 32,
  'api_keys.prefix': 16,
  'api_keys.key_hash': 64,
  'api_keys.created_at': 32,
  'api_keys.created_by': MAX_LENGTH.operatorName,
  'api_keys.last_used_at': 32,
  'api_keys.revoked_at': 32,
  'api_keys.created_by_id': MAX_LENGTH.ownId,
  'api_keys.revoked_reason': 16,
  'api_keys.revoked_by': MAX_LENGTH.operatorName,
  'password_links.operator_id': MAX_LENGTH.ownId,
  'password_links.token_hash': 64,
  'password_links.created_at': 32,
  'password_links.expires_at': 32,
  'refunds.id': MAX_LENGTH.ownId,
  'refunds.transaction_id': MAX_LENGTH.ownId,
  'refunds.status': 16,
  'refunds.reason': 200,
  'refunds.requested_by': MAX_LENGTH.operatorName,
  'refunds.requested_by_id': MAX_LENGTH.ownId,
  'refunds.originator_conversation_id': MAX_LENGTH.conversationId,
  'refunds.conversation_id': MAX_LENGTH.conversationId,
  'refunds.status_query_id': MAX_LENGTH.conversationId,
  'refunds.result_code': MAX_LENGTH.resultCode,
  'refunds.result_description': MAX_LENGTH.resultDescription,
  'refunds.reversal_receipt': MAX_LENGTH.receiptNumber,
  'refunds.created_at': 32,
  'refunds.updated_at': 32,
  'refunds.next_check_at': 32,
  'refunds.lease_until': 32,
  'refunds.lease_owner': MAX_LENGTH.ownId,
  'payouts.id': MAX_LENGTH.ownId,
  'payouts.batch_id': MAX_LENGTH.ownId,
  'payouts.kind': 32,
  'payouts.payee': 16,
  'payouts.account': 16,
  'payouts.reason': PAYOUT_REASON_MAX_LENGTH,
  'payouts.status': 16,
  'payouts.proposed_by': MAX_LENGTH.operatorName,
  'payouts.proposed_by_id': MAX_LENGTH.ownId,
  'payouts.decided_by': MAX_LENGTH.operatorName,
  'payouts.decided_by_id': MAX_LENGTH.ownId,
  'payouts.decided_at': 32,
  'payouts.corrects_id': MAX_LENGTH.ownId,
  'payouts.originator_conversation_id': MAX_LENGTH.conversationId,
  'payouts.conversation_id': MAX_LENGTH.conversationId,
  'payouts.status_query_id': MAX_LENGTH.conversationId,
  'payouts.result_code': MAX_LENGTH.resultCode,
  'payouts.result_description': MAX_LENGTH.resultDescription,
  'payouts.receipt': MAX_LENGTH.receiptNumber,
  'payouts.receiver_name': MAX_LENGTH.payerName,
  'payouts.created_at': 32,
  'payouts.updated_at': 32,
  'payouts.next_check_at': 32,
  'payouts.lease_until': 32,
  'payouts.lease_owner': MAX_LENGTH.ownId,
  'payouts.payee_masked_at': 32,
  'balance_readings.id': MAX_LENGTH.ownId,
  'balance_readings.shortcode': 16,
  'balance_readings.status': 16,
  'balance_readings.asked_by': MAX_LENGTH.operatorName,
  'balance_readings.asked_at': 32,
  'balance_readings.originator_conversation_id': MAX_LENGTH.conversationId,
  'balance_readings.conversation_id': MAX_LENGTH.conversationId,
  'balance_readings.result_code': MAX_LENGTH.resultCode,
  'balance_readings.result_description': MAX_LENGTH.resultDescription,
  'balance_readings.completed_at': 32,
  'balance_readings.read_at': 32,
  'receipt_checks.id': MAX_LENGTH.ownId,
  'receipt_checks.receipt': MAX_LENGTH.receiptNumber,
  'receipt_checks.status': 16,
  'receipt_checks.requested_by': MAX_LENGTH.operatorName,
  'receipt_checks.originator_conversation_id': MAX_LENGTH.conversationId,
  'receipt_checks.transaction_id': MAX_LENGTH.ownId,
  'receipt_checks.result_code': MAX_LENGTH.resultCode,
  'receipt_checks.created_at': 32,
  'receipt_checks.updated_at': 32,
  'webhook_endpoints.id': MAX_LENGTH.ownId,
  'webhook_endpoints.url': MAX_LENGTH.webhookUrl,
  'webhook_endpoints.events': 400,
  'webhook_endpoints.secret': 100,
  'webhook_endpoints.disabled_reason': 16,
  'webhook_endpoints.disabled_at': 32,
  'webhook_endpoints.failing_since': 32,
  'webhook_endpoints.created_by': MAX_LENGTH.operatorName,
  'webhook_endpoints.created_at': 32,
  'webhook_endpoints.updated_at': 32,
  'webhook_events.id': MAX_LENGTH.ownId,
  'webhook_events.type': 32,
  'webhook_events.transaction_id': MAX_LENGTH.ownId,
  'webhook_events.created_at': 32,
  'webhook_deliveries.id': MAX_LENGTH.ownId,
  'webhook_deliveries.event_id': MAX_LENGTH.ownId,
  'webhook_deliveries.endpoint_id': MAX_LENGTH.ownId,
  'webhook_deliveries.created_at': 32,
  'webhook_deliveries.next_attempt_at': 32,
  'webhook_deliveries.lease_owner': MAX_LENGTH.ownId,
  'webhook_deliveries.lease_until': 32,
  'webhook_deliveries.last_attempt_at': 32,
  'webhook_deliveries.last_response': MAX_LENGTH.webhookResponse,
  'webhook_deliveries.last_error': MAX_LENGTH.webhookError,
  'webhook_deliveries.delivered_at': 32,
  'webhook_deliveries.gave_up_at': 32,
};

/**
 * Whether `id` could be one of our own ids (printable ASCII, no longer than its column): anything
 * else names nothing, and is never sent to a query (PostgreSQL refuses a NUL outright).
 */
export function isOwnId(id: string): boolean {
  return id.length <= MAX_LENGTH.ownId && /^[\x21-\x7e]+$/.test(id);
}

/** Printable ASCII of at most `max` characters: what Daraja's identifiers and codes are made of. */
export function isStorableIdentifier(value: string, max: number): boolean {
  return value.length <= max && /^[\x20-\x7e]*$/.test(value);
}
