/**
 * Daraja's result callback. The raw body is always recorded, whatever it says; a duplicate changes
 * nothing; a callback for a CheckoutRequestID we never issued is kept as an orphan.
 */
import { maskCheckoutId } from '@mpesa/shared';
import { parseStkCallback } from '../daraja/callback-parser.ts';
import { sortableId } from '../lib/sortable-id.ts';
import type { CallbackOutcome, TransactionRow } from '../db/schema.ts';
import { applyOutcome } from './transaction-outcome.ts';
import type { PaymentDeps } from './transactions.service.ts';
import * as repo from './transactions.repository.ts';

export interface CallbackResult {
  outcome: CallbackOutcome;
  transactionId: string | null;
}

/** How far back a success callback may reach for a push whose acknowledgement never came. */
const UNACKNOWLEDGED_WINDOW_MS = 24 * 3600_000;

/**
 * The body as received, for the record. PostgreSQL text cannot hold a NUL character, so a literal
 * NUL (never part of valid JSON) is kept as the six characters "\u0000" instead.
 */
function storable(rawBody: string): string {
  return rawBody.replaceAll('\u0000', '\\u0000');
}

export async function applyCallback(
  deps: PaymentDeps,
  received: string,
  sourceIp: string | null,
): Promise<CallbackResult> {
  const rawBody = storable(received);
  let body: unknown;
  try {
    body = JSON.parse(received);
  } catch {
    body = undefined;
  }
  const parsed = parseStkCallback(body);
  const receivedAt = deps.now().toISOString();

  if (!parsed.ok) {
    await repo.insertCallback(deps.db, {
      id: sortableId(),
      received_at: receivedAt,
      checkout_request_id: null,
      transaction_id: null,
      source_ip: sourceIp,
      raw_body: rawBody,
      outcome: 'invalid',
    });
    deps.log.warn({ reason: parsed.reason }, 'callback rejected: not a Daraja STK callback');
    return { outcome: 'invalid', transactionId: null };
  }

  const callback = parsed.callback;
  return deps.db.transaction().execute(async (trx) => {
    let row: TransactionRow | undefined = await repo.findTransactionByCheckoutId(
      trx,
      callback.checkoutRequestId,
      deps.dialect,
    );
    const metadata = callback.metadata;
    if (!row && callback.resultCode === '0' && metadata?.phoneNumber && metadata.amount !== null) {
      // A push whose acknowledgement was lost (timeout) has no CheckoutRequestID; a success for the
      // same phone and amount is that payment: the money moved and the record must say so.
      const since = new Date(Date.parse(receivedAt) - UNACKNOWLEDGED_WINDOW_MS).toISOString();
      const candidate = await repo.findUnacknowledgedPayment(
        trx,
        metadata.phoneNumber,
        metadata.amount,
        since,
      );
      if (candidate) {
        await repo.attachDarajaIds(trx, candidate.id, callback);
        row = { ...candidate, checkout_request_id: callback.checkoutRequestId };
      }
    }

    const outcome: CallbackOutcome = row
      ? await applyOutcome(
          trx,
          row,
          {
            source: 'callback',
            resultCode: callback.resultCode,
            resultDesc: callback.resultDesc,
            metadata,
            payload: rawBody,
          },
          receivedAt,
        )
      : 'orphan';
    await repo.insertCallback(trx, {
      id: sortableId(),
      received_at: receivedAt,
      checkout_request_id: callback.checkoutRequestId,
      transaction_id: row?.id ?? null,
      source_ip: sourceIp,
      raw_body: rawBody,
      outcome,
    });
    deps.log.info(
      {
        checkoutRequestId: maskCheckoutId(callback.checkoutRequestId),
        resultCode: callback.resultCode,
        outcome,
      },
      'callback received',
    );
    return { outcome, transactionId: row?.id ?? null };
  });
}
