/**
 * The SQL of phone retention (phone-retention.ts): the next payments whose number is due to be
 * masked, and the masking of one payment everywhere its number is stored. Functions take `trx`
 * first: a payment is masked everywhere in one transaction, or nowhere.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { TransactionStatus } from '@mpesa/shared';
import type { PayoutStatus } from '@mpesa/shared/contract-payouts';
import type { DialectName } from '../../db/create-db.ts';
import type { Database, TransactionRow } from '../../db/schema.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import { withoutPayer } from './c2b-retention.ts';

type Trx = Transaction<Database>;

/**
 * Only settled payments are masked. A `pending` or `unknown` payment may still be settled by a
 * late callback or a query, matched by its CheckoutRequestID, and the merchant checks an `unknown`
 * one against the M-PESA statement by the payer's number (docs/product.md); a flagged one waits
 * for a person's review, which needs the number too. Each is masked in the first round after it
 * is settled or reviewed.
 */
export const MASKABLE_STATUSES: readonly TransactionStatus[] = [
  'success',
  'failed',
  'cancelled',
  'timeout',
  'refunded',
];

export type Unmasked = Pick<
  TransactionRow,
  'id' | 'phone_number' | 'checkout_request_id' | 'channel'
>;

/**
 * Up to `limit` settled payments created before `cutoff` whose number is still kept, oldest first.
 * On PostgreSQL they are locked for this transaction and rows another instance holds are passed
 * over, so that instances running the job at once mask different payments. (SQLite has one
 * writer: its transactions run one after another.)
 */
export function nextUnmasked(
  trx: Trx,
  dialect: DialectName,
  cutoff: string,
  limit: number,
): Promise<Unmasked[]> {
  return trx
    .selectFrom('transactions')
    .select(['id', 'phone_number', 'checkout_request_id', 'channel'])
    .where('phone_masked_at', 'is', null)
    .where('created_at', '<', cutoff)
    .where('status', 'in', MASKABLE_STATUSES)
    .where('flagged_reason', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked())
    .execute();
}

/** What to hide in a stored text, and what to put in its place. */
export interface Mask {
  hide: string;
  by: string;
  /**
   * The whole number as a JSON number may hold it (`"Value":254712345678` in a callback's
   * metadata), and what it becomes there: a string, so that the JSON stays valid.
   */
  number: string;
  numberBy: string;
}

type MaskedColumn = 'raw_body' | 'checkout_request_id' | 'payload' | 'note' | 'response_body';

/** `column` with this number hidden: first where it is a JSON number, then wherever it is. */
function hidden(column: MaskedColumn, mask: Mask): RawBuilder<string> {
  let text = sql<string>`${sql.ref(column)}`;
  for (const gap of [':', ': ']) {
    text = sql<string>`replace(${text}, ${gap + mask.number}, ${gap + mask.numberBy})`;
  }
  return sql<string>`replace(${text}, ${mask.hide}, ${mask.by})`;
}

/**
 * A CheckoutRequestID with the payer's digits masked, still unique among the payments: two
 * requests made in the same millisecond to numbers with the same last digits would mask alike,
 * and the second then carries its payment's id.
 */
async function uniqueCheckoutId(trx: Trx, row: Unmasked, masked: string): Promise<string> {
  if (masked === row.checkout_request_id) return masked;
  const taken = await trx
    .selectFrom('transactions')
    .select('id')
    .where('checkout_request_id', '=', masked)
    .where('id', '<>', row.id)
    .executeTakeFirst();
  if (!taken) return masked;
  const suffix = `/${row.id}`;
  return `${masked.slice(0, MAX_LENGTH.darajaId - suffix.length)}${suffix}`;
}

/**
 * Hides the number in what is kept about payment `paymentId` besides its row: its callbacks (and
 * any with its CheckoutRequestID), its events, its idempotency answer.
 */
export async function hideTraces(
  trx: Trx | Kysely<Database>,
  paymentId: string,
  checkout: string | null,
  mask: Mask,
): Promise<void> {
  await trx
    .updateTable('callbacks')
    .set(() => ({
      raw_body: hidden('raw_body', mask),
      checkout_request_id: hidden('checkout_request_id', mask),
    }))
    .where((eb) =>
      eb.or([
        eb('transaction_id', '=', paymentId),
        ...(checkout === null ? [] : [eb('checkout_request_id', '=', checkout)]),
      ]),
    )
    .execute();
  await trx
    .updateTable('transaction_events')
    .set(() => ({
      payload: hidden('payload', mask),
      note: hidden('note', mask),
    }))
    .where('transaction_id', '=', paymentId)
    .execute();
  await trx
    .updateTable('idempotency_keys')
    .set(() => ({
      response_body: hidden('response_body', mask),
    }))
    .where('transaction_id', '=', paymentId)
    .execute();
}

/**
 * Masks one payment's number in place everywhere it is stored: the callbacks kept for it (their
 * bodies and CheckoutRequestIDs), its events' payloads and notes, its idempotency key's stored
 * answer, its phone lock once expired, and the payment itself, which is marked masked. Everything
 * else (amount, receipt, status, references, times) is kept. Does nothing to a payment already
 * masked, so that a round that runs twice changes nothing the second time.
 */
export async function maskPayment(
  trx: Trx,
  row: Unmasked,
  mask: Mask,
  maskedPhone: string,
  at: string,
): Promise<void> {
  const checkout = row.checkout_request_id;
  await hideTraces(trx, row.id, checkout, mask);
  if (row.channel !== 'prompt') await hidePayerInMessages(trx, row.id);
  await deleteExpiredLocks(trx, row.id, at);
  await trx
    .updateTable('transactions')
    .set({
      phone_number: maskedPhone,
      // A till or paybill payer's name and number as M-PESA gave them (features/privacy/c2b-retention.ts).
      payer_name: null,
      payer_msisdn: null,
      checkout_request_id:
        checkout === null
          ? null
          : await uniqueCheckoutId(trx, row, checkout.replaceAll(mask.hide, mask.by)),
      phone_masked_at: at,
    })
    .where('id', '=', row.id)
    .where('phone_masked_at', 'is', null)
    .execute();
}

/** The payer's name and number out of the C2B messages kept for a till or paybill payment. */
async function hidePayerInMessages(trx: Trx, paymentId: string): Promise<void> {
  const kept = await trx
    .selectFrom('callbacks')
    .select(['id', 'raw_body'])
    .where('transaction_id', '=', paymentId)
    .execute();
  for (const callback of kept) {
    const masked = withoutPayer(callback.raw_body);
    if (masked === callback.raw_body) continue;
    await trx
      .updateTable('callbacks')
      .set({ raw_body: masked })
      .where('id', '=', callback.id)
      .execute();
  }
}

/**
 * A phone lock still in force (PHONE_COOLDOWN_S can be longer than the retention) is kept until
 * it expires; `deleteLocksOfMasked` then removes it.
 */
function deleteExpiredLocks(trx: Trx, transactionId: string, now: string) {
  return trx
    .deleteFrom('phone_locks')
    .where('transaction_id', '=', transactionId)
    .where('locked_until', '<=', now)
    .execute();
}

/** The expired phone locks of payments already masked: each holds the full number. */
export async function deleteLocksOfMasked(db: Trx | Kysely<Database>, now: string) {
  const result = await db
    .deleteFrom('phone_locks')
    .where('locked_until', '<=', now)
    .where('transaction_id', 'in', (eb) =>
      eb.selectFrom('transactions').select('id').where('phone_masked_at', 'is not', null),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export type UnclaimedCallback = {
  id: string;
  raw_body: string;
  checkout_request_id: string | null;
};

/**
 * Up to `limit` callbacks no payment claimed (orphans, bodies that could not be read), received
 * before `cutoff`, whose numbers are still kept; locked as `nextUnmasked` locks payments.
 */
export function nextUnclaimedCallbacks(
  trx: Trx,
  dialect: DialectName,
  cutoff: string,
  limit: number,
): Promise<UnclaimedCallback[]> {
  return trx
    .selectFrom('callbacks')
    .select(['id', 'raw_body', 'checkout_request_id'])
    .where('transaction_id', 'is', null)
    .where('phone_masked_at', 'is', null)
    .where('received_at', '<', cutoff)
    .orderBy('received_at')
    .limit(limit)
    .$if(dialect === 'postgres', (query) => query.forUpdate().skipLocked())
    .execute();
}

export async function saveMaskedCallback(
  trx: Trx,
  masked: UnclaimedCallback,
  at: string,
): Promise<void> {
  await trx
    .updateTable('callbacks')
    .set({
      raw_body: masked.raw_body,
      checkout_request_id: masked.checkout_request_id,
      phone_masked_at: at,
    })
    .where('id', '=', masked.id)
    .execute();
}

/** Settled payouts created before `cutoff` whose payee is not masked yet, oldest first. */
export function nextUnmaskedPayouts(
  db: Trx | Kysely<Database>,
  cutoff: string,
  settled: readonly PayoutStatus[],
  limit: number,
) {
  return db
    .selectFrom('payouts')
    .select(['id', 'payee', 'receiver_name'])
    .where('payee_masked_at', 'is', null)
    .where('status', 'in', settled)
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Saves a payout's masked payee, unless another instance masked it first. */
export async function saveMaskedPayout(
  db: Trx | Kysely<Database>,
  id: string,
  masked: { payee: string; receiver_name: string | null; payee_masked_at: string },
): Promise<void> {
  await db
    .updateTable('payouts')
    .set(masked)
    .where('id', '=', id)
    .where('payee_masked_at', 'is', null)
    .execute();
}
