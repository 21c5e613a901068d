/**
 * The writes on a payment's hot path, each behind one interface with a form per database
 * (docs/decisions/007-postgres-single-statement-writes.md): on SQLite several statements, each a
 * function call into the same process (sqlite-writes.repository.ts); on PostgreSQL one statement,
 * as every statement there is a round trip to another process (postgres-writes.repository.ts).
 * The form is chosen once (payment-writes-for.ts), when the app's parts are put together
 * (app-deps.ts), and the services
 * (save-pending.ts, push-answers.ts, transaction-outcome.ts) call it without asking which it is.
 * Both forms do the same writes in the same transaction, and the tests run both.
 */
import type { Kysely } from 'kysely';
import type {
  Database,
  NewTransactionEventRow,
  NewTransactionRow,
  TransactionPatch,
  TransactionRow,
} from '../../db/schema.ts';

type Db = Kysely<Database>;

/** What is saved before a push (save-pending.ts), and who is counted. */
export interface PaymentToSave {
  /** The per-address count (rate-limit.repository.ts), if there is a limit: over `max` refuses. */
  hit?: { key: string; windowIndex: number; max: number } | undefined;
  payment: NewTransactionRow;
  /** The phone's lock (phone-locks.repository.ts), taken at `now` until `lockedUntil`. */
  lock: { phoneNumber: string; now: string; lockedUntil: string };
  event: NewTransactionEventRow;
  /** The request's Idempotency-Key, told the payment's id (idempotency.ts), if there is one. */
  idempotencyKey?: string | undefined;
}

/** How the save went: the address's count (null without a limit) and whether the lock was had. */
export interface Saved {
  hits: number | null;
  locked: boolean;
}

/** Daraja's acknowledgement of a push, as recorded (push-answers.ts). */
export interface Acknowledgement {
  id: string;
  ids: { merchantRequestId: string; checkoutRequestId: string };
  texts: { responseDescription: string; customerMessage: string; at: string };
  /** The `accepted` event. */
  event: NewTransactionEventRow;
  /** The phone held by this payment until the cooldown ends. */
  hold: { phoneNumber: string; until: string };
}

export interface PaymentWrites {
  /**
   * The address's count, the payment, its phone's lock, its `saved` event and the key, in the
   * caller's transaction. The caller refuses (and so rolls back) a count over the limit or a
   * lock not had; the writes may stop at the first of these, having said enough to refuse.
   */
  savePending(trx: Db, save: PaymentToSave): Promise<Saved>;
  /**
   * Daraja's ids and texts on the payment, its `accepted` event and the phone held for the
   * cooldown, committed as a transaction of their own. False, with nothing changed, when another
   * push's ids are on the payment already: the caller then sorts that out (push-answers.ts).
   */
  acknowledge(db: Db, acknowledgement: Acknowledgement): Promise<boolean>;
  /**
   * transaction-outcome.ts `transition`: the payment moved from `row.status` with `patch` and
   * `event` recorded, only while it still has that status, in the caller's transaction. Says
   * whether it moved, and whether any webhook endpoint is enabled (read in the same transaction):
   * with none, the shop's systems have nothing to hear of it.
   */
  move(
    trx: Db,
    row: Pick<TransactionRow, 'id' | 'status'>,
    patch: TransactionPatch,
    event: NewTransactionEventRow,
  ): Promise<{ moved: boolean; endpoints: boolean }>;
}
