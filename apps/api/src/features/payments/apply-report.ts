/**
 * Daraja's result callback. The raw body is always recorded, whatever it says; a duplicate changes
 * nothing; a callback for a CheckoutRequestID we never issued is kept as an orphan.
 */
import { maskCheckoutId } from '@mpesa/shared';
import type { Kysely } from 'kysely';
import { parseStkCallback, type StkCallback } from '../../daraja/callback-parser.ts';
import { sortableId } from '../../lib/sortable-id.ts';
import type { CallbackOutcome, Database, TransactionRow } from '../../db/schema.ts';
import { applyOutcome, flag } from './transaction-outcome.ts';
import type { PaymentDeps } from './transactions.service.ts';
import * as repo from './transactions.repository.ts';
import { maskFor, hideTraces } from '../privacy/index.ts';
import { transact, writeOne } from '../../db/transact.ts';

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

/**
 * A push whose acknowledgement was lost (timeout, a crash) has no CheckoutRequestID; a success for
 * the same phone and amount is that payment: the money moved and the record must say so. Only an
 * unambiguous match is made: when two such payments could be it, both are flagged for a person and
 * the callback is kept as an orphan. The ids are attached only if no one attached others first.
 */
async function matchUnacknowledged(
  deps: PaymentDeps,
  trx: Kysely<Database>,
  callback: StkCallback,
  found: { phoneNumber: string; amount: number; receivedAt: string; rawBody: string },
): Promise<TransactionRow | undefined> {
  const since = new Date(Date.parse(found.receivedAt) - UNACKNOWLEDGED_WINDOW_MS).toISOString();
  const candidates = await repo.findUnacknowledgedPayments(
    trx,
    found.phoneNumber,
    found.amount,
    since,
    deps.dialect,
  );
  if (candidates.length > 1) {
    for (const candidate of candidates) {
      await flag(
        deps.writes,
        trx,
        candidate,
        `M-PESA reported a payment of ${found.amount} KES from this phone ` +
          `(${maskCheckoutId(callback.checkoutRequestId)}) that could belong to this or another ` +
          'unconfirmed request',
        { source: 'callback', payload: found.rawBody, at: found.receivedAt },
      );
    }
    return undefined;
  }
  const [candidate] = candidates;
  if (!candidate) return undefined;
  // Attached only if no one attached other ids first; either way the row is read again, as it is
  // now (another delivery of this callback, on another instance, may have attached and applied it).
  await repo.attachDarajaIds(trx, candidate.id, callback);
  return repo.findTransactionByCheckoutId(trx, callback.checkoutRequestId, deps.dialect);
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
    await writeOne(deps.db, (trx) =>
      repo.insertCallback(trx, {
        id: sortableId(),
        kind: 'stk-push',
        received_at: receivedAt,
        checkout_request_id: null,
        transaction_id: null,
        source_ip: sourceIp,
        raw_body: rawBody,
        outcome: 'invalid',
      }),
    );
    deps.log.warn({ reason: parsed.reason }, 'callback rejected: not a Daraja STK callback');
    return { outcome: 'invalid', transactionId: null };
  }

  // Kept before anything is decided, in a transaction of its own: if applying it fails (a deadlock
  // between instances, a database gone away), the body is still on record, as `received`.
  const callback = parsed.callback;
  const callbackId = sortableId();
  await writeOne(deps.db, (trx) =>
    repo.insertCallback(trx, {
      id: callbackId,
      kind: 'stk-push',
      received_at: receivedAt,
      checkout_request_id: callback.checkoutRequestId,
      transaction_id: null,
      source_ip: sourceIp,
      raw_body: rawBody,
      outcome: 'received',
    }),
  );
  return transact(deps.db, (trx) =>
    settle(deps, trx, callback, { callbackId, rawBody, receivedAt }),
  );
}

/**
 * Finds the callback's payment and applies the callback to it (decide-outcome.ts), then records
 * what became of it.
 */
async function settle(
  deps: PaymentDeps,
  trx: Kysely<Database>,
  callback: StkCallback,
  kept: { callbackId: string; rawBody: string; receivedAt: string },
): Promise<CallbackResult> {
  const { rawBody, receivedAt } = kept;
  let row: TransactionRow | undefined = await repo.findTransactionByCheckoutId(
    trx,
    callback.checkoutRequestId,
    deps.dialect,
  );
  const metadata = callback.metadata;
  if (!row && callback.resultCode === '0' && metadata?.phoneNumber && metadata.amount !== null) {
    row = await matchUnacknowledged(deps, trx, callback, {
      phoneNumber: metadata.phoneNumber,
      amount: metadata.amount,
      receivedAt,
      rawBody,
    });
  }

  let outcome: CallbackOutcome = 'orphan';
  if (row) {
    const redelivered = await repo.hasCallback(trx, row.id, callback.checkoutRequestId, rawBody);
    outcome = await applyOutcome(
      deps.writes,
      trx,
      row,
      {
        kind: 'callback',
        resultCode: callback.resultCode,
        resultDesc: callback.resultDesc,
        metadata,
        redelivered,
      },
      { payload: rawBody, at: receivedAt },
    );
  }
  await repo.settleCallback(trx, kept.callbackId, { transactionId: row?.id ?? null, outcome });
  // Late, for a payment whose number retention masked: what it brought is masked at once.
  if (row?.phone_masked_at) await hideLateTraces(trx, row.id, callback);
  deps.log.info(
    {
      checkoutRequestId: maskCheckoutId(callback.checkoutRequestId),
      resultCode: callback.resultCode,
      outcome,
    },
    'callback received',
  );
  return { outcome, transactionId: row?.id ?? null };
}

/**
 * Masks, in what is kept about a payment whose number retention already masked, the number a late
 * callback brought: in its metadata, and at the end of its CheckoutRequestID (docs/daraja-protocol.md
 * §3.4).
 */
async function hideLateTraces(
  trx: Kysely<Database>,
  paymentId: string,
  callback: StkCallback,
): Promise<void> {
  const fromId = /([0-9]{9})$/.exec(callback.checkoutRequestId)?.[1];
  const numbers = new Set([callback.metadata?.phoneNumber, fromId && `254${fromId}`]);
  for (const phone of numbers) {
    if (phone) await hideTraces(trx, paymentId, callback.checkoutRequestId, maskFor(phone));
  }
}
