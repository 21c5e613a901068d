/**
 * Idempotent initiation: a payment request sent again with the same Idempotency-Key and body gets
 * the first answer back and prompts the phone no second time; the same key with another body is
 * refused. Keys are kept 24 hours. The key row is taken before anything else happens, so two
 * concurrent requests with one key (on any instance) cannot both start a payment.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  AppError,
  answerNotRecorded,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  internalError,
  invalidIdempotencyKey,
} from '../../errors.ts';
import type { Database } from '../../db/schema.ts';
import { MAX_LENGTH } from '../../lib/stored-lengths.ts';
import { transact } from '../../db/transact.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
const KEY_FORMAT = new RegExp(`^[\x21-\x7e]{1,${MAX_LENGTH.idempotencyKey}}$`);

export interface StoredAnswer {
  statusCode: number;
  body: unknown;
  replayed: boolean;
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

async function claimKey(
  db: Kysely<Database>,
  key: string,
  hash: string,
  now: Date,
): Promise<boolean> {
  const inserted = await transact(db, (trx) =>
    trx
      .insertInto('idempotency_keys')
      .values({
        key,
        request_hash: hash,
        transaction_id: null,
        status_code: null,
        response_body: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
      })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .returning('key')
      .executeTakeFirst(),
  );
  return inserted !== undefined;
}

export interface IdempotencyKey {
  key: string;
  /**
   * A key taken this long ago that names no saved payment and holds no answer was left by a
   * request that failed with the database and could not free it: it is free again. (Longer than
   * any wait a request can make for the database before its payment is saved.)
   */
  abandonedAfterMs: number;
}

type Answer = { statusCode: number; body: unknown; transactionId?: string };

/**
 * Runs `answer` once per key. `answer` gives the status and body to send; an AppError it throws is
 * stored and replayed like any other answer, except the per-address limit's refusal.
 */
export async function withIdempotencyKey(
  db: Kysely<Database>,
  idempotency: IdempotencyKey,
  body: unknown,
  now: Date,
  answer: () => Promise<Answer>,
): Promise<StoredAnswer> {
  const { key } = idempotency;
  if (!KEY_FORMAT.test(key)) {
    throw invalidIdempotencyKey();
  }
  const hash = requestHash(body);
  if (!(await claimKey(db, key, hash, now))) {
    const replay = await answerTaken(db, idempotency, hash, now);
    if (replay === 'free') return withIdempotencyKey(db, idempotency, body, now, answer);
    return replay;
  }

  const result = await answerFirst(db, key, answer);
  try {
    await store(db, key, result);
  } catch (error) {
    // The payment was made and its prompt sent: "try again" would be the wrong thing to say.
    if (isDatabaseUnavailable(error) && result.transactionId !== undefined) {
      throw answerNotRecorded(result.transactionId, error);
    }
    throw error;
  }
  return { ...result, replayed: false };
}

/**
 * A key someone took already: its stored answer, replayed, or a refusal; 'free' once the key was
 * found expired or abandoned and freed (take it again).
 */
async function answerTaken(
  db: Kysely<Database>,
  idempotency: IdempotencyKey,
  hash: string,
  now: Date,
): Promise<StoredAnswer | 'free'> {
  const { key } = idempotency;
  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('key', '=', key)
    .executeTakeFirst();
  if (!existing || existing.expires_at < now.toISOString()) {
    // Expired (or just purged): the key is free again.
    await db
      .deleteFrom('idempotency_keys')
      .where('key', '=', key)
      .where('expires_at', '<', now.toISOString())
      .execute();
    return 'free';
  }
  if (existing.request_hash !== hash) {
    throw idempotencyKeyReused();
  }
  const abandonedBefore = new Date(now.getTime() - idempotency.abandonedAfterMs).toISOString();
  if (
    existing.status_code === null &&
    existing.transaction_id === null &&
    existing.created_at < abandonedBefore
  ) {
    // Nothing was saved under it (initiatePayment names its payment in the same commit), and its
    // request is long over: taken again, by one request only (the delete names what it saw).
    await db
      .deleteFrom('idempotency_keys')
      .where('key', '=', key)
      .where('status_code', 'is', null)
      .where('transaction_id', 'is', null)
      .where('created_at', '<', abandonedBefore)
      .execute();
    return 'free';
  }
  if (existing.status_code === null || existing.response_body === null) {
    throw idempotencyKeyInUse();
  }
  return {
    statusCode: existing.status_code,
    body: JSON.parse(existing.response_body),
    replayed: true,
  };
}

/**
 * Runs `answer` for the request that took the key. A refusal it throws is stored as the key's
 * answer (and thrown), except those that leave the key free for a retry.
 */
async function answerFirst(
  db: Kysely<Database>,
  key: string,
  answer: () => Promise<Answer>,
): Promise<Answer> {
  try {
    return await answer();
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      // Nothing can be stored now. Before the payment was saved, nothing was done: the key is
      // freed (if the database lets us) for the retry that Retry-After asks for. Once it was
      // saved (the error names it), a prompt may be on its way: the key stays taken, and the same
      // request sent again is told to check the history instead of prompting the phone again.
      const saved = error instanceof AppError && error.transactionId !== undefined;
      if (!saved) await freeKey(db, key).catch(() => undefined);
      throw error;
    }
    if (error instanceof AppError && refusedBeforeAnythingWasDone(error)) {
      // It will pass in a minute: the key is free again for that retry, instead of answering it
      // with this refusal for a day.
      await freeKey(db, key);
      throw error;
    }
    const failure = error instanceof AppError ? error : internalError();
    await store(db, key, {
      statusCode: failure.statusCode,
      body: {
        success: false,
        code: failure.code,
        message: failure.message,
        ...(failure.transactionId === undefined ? {} : { transactionId: failure.transactionId }),
      },
      ...(failure.transactionId === undefined ? {} : { transactionId: failure.transactionId }),
    });
    throw error;
  }
}

/**
 * The per-address limit, and a phone still held, refuse a payment before it is saved: nothing was
 * done, and the same request can pass a minute later. (A busy phone that M-PESA reported after the
 * payment was saved carries its transaction, and is kept like any other answer.)
 */
function refusedBeforeAnythingWasDone(error: AppError): boolean {
  return (
    (error.code === 'RATE_LIMITED' || error.code === 'PHONE_BUSY') &&
    error.transactionId === undefined
  );
}

/** Names the payment saved under `key`, in the transaction that saves it (payment-writes.ts). */
export function keyUsedQuery(trx: Kysely<Database>, key: string, transactionId: string) {
  return trx
    .updateTable('idempotency_keys')
    .set({ transaction_id: transactionId })
    .where('key', '=', key);
}

async function freeKey(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('key', '=', key).execute();
}

async function store(db: Kysely<Database>, key: string, result: Answer): Promise<void> {
  await transact(db, (trx) =>
    trx
      .updateTable('idempotency_keys')
      .set({
        status_code: result.statusCode,
        response_body: JSON.stringify(result.body),
        transaction_id: result.transactionId ?? null,
      })
      .where('key', '=', key)
      .execute(),
  );
}

/** Removes idempotency keys past their 24 hours. */
export async function purgeExpiredKeys(deps: {
  db: Kysely<Database>;
  now: () => Date;
}): Promise<void> {
  await deps.db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<', deps.now().toISOString())
    .execute();
}
