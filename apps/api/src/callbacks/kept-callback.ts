/**
 * Keeping a callback's body first, whatever it holds (docs/architecture.md "Where a new Daraja API
 * goes", step 4), for the kinds that are not STK push's: each handler calls `keepCallback` before
 * it decides anything, and settles the row's outcome once it has.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { CallbackOutcome, Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';
import { sortableId } from '../lib/sortable-id.ts';
import type { CallbackHandler } from './callback.routes.ts';
import { resultRoute } from './callback-paths.ts';
import { CALLBACK_ANSWERS, CALLBACK_ACCEPTED } from './callbacks.openapi.ts';

/**
 * The body as received, for the record. PostgreSQL text cannot hold a NUL character, so a literal
 * NUL (never part of valid JSON) is kept as the six characters "\u0000" instead.
 */
export function storableBody(rawBody: string): string {
  return rawBody.replaceAll('\u0000', '\\u0000');
}

export interface KeptCallback {
  /** Which kind of callback it is (`callbacks.kind`: at most 16 characters). */
  kind: string;
  raw: string;
  ip: string | null;
  at: string;
  /** The payment it is about, when already known. */
  transactionId?: string | null;
  outcome?: CallbackOutcome;
}

/** Keeps the body in `callbacks`, in a transaction of its own, and gives the row's id. */
export async function keepCallback(db: Kysely<Database>, callback: KeptCallback): Promise<string> {
  const id = sortableId();
  await transact(db, (trx) =>
    trx
      .insertInto('callbacks')
      .values({
        id,
        kind: callback.kind,
        received_at: callback.at,
        checkout_request_id: null,
        transaction_id: callback.transactionId ?? null,
        source_ip: callback.ip,
        raw_body: storableBody(callback.raw),
        outcome: callback.outcome ?? 'received',
      })
      .execute(),
  );
  return id;
}

/** Settles a kept callback's outcome, and the payment it turned out to be about. */
export async function settleKeptCallback(
  db: Kysely<Database>,
  id: string,
  outcome: CallbackOutcome,
  transactionId: string | null = null,
): Promise<void> {
  await db
    .updateTable('callbacks')
    .set({ outcome, ...(transactionId === null ? {} : { transaction_id: transactionId }) })
    .where('id', '=', id)
    .execute();
}

/** What every Result API callback is answered: taken (Daraja reads nothing more of it). */
export const RESULT_TAKEN = CALLBACK_ACCEPTED;

/**
 * A kind whose body is kept and nothing more: a Result API's QueueTimeOutURL (docs/daraja-
 * protocol.md §M1.4), after which the recovery asks M-PESA again in its own time.
 */
export function keptOnlyCallback(
  db: Kysely<Database>,
  kind: string,
  now: () => Date,
  summary: string,
): CallbackHandler {
  return {
    schema: {
      summary,
      description:
        'Kept as it arrived, whatever it holds; nothing else follows from it: the recovery asks M-PESA ' +
        'by transaction status in its own time.',
      tags: ['M-PESA callback'],
      body: z.unknown(),
      response: CALLBACK_ANSWERS,
    },
    async handle({ raw, ip }, reply) {
      await keepCallback(db, { kind, raw, ip, at: now().toISOString(), outcome: 'ignored' });
      return reply.code(200).send(RESULT_TAKEN);
    },
  };
}

/**
 * The one kind callbacks/ handles itself, in a feature's shape (features/feature.ts): any Result
 * API's QueueTimeOutURL, which every feature that calls a Result API gives Daraja
 * (`callbackUrlFor('queue-timeout')`).
 */
export const QUEUE_TIMEOUT_CALLBACK = {
  'queue-timeout': {
    route: resultRoute('/queue-timeout'),
    handler: ({ database, now }: { database: { db: Kysely<Database> }; now: () => Date }) =>
      keptOnlyCallback(
        database.db,
        'queue-timeout',
        now,
        'M-PESA’s word that a Result API request timed out in its queue',
      ),
  },
};
