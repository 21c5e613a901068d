/**
 * SQLite's form of the hot writes (payment-writes.ts): the generic code's statements one after
 * another, as each is a function call into this process, each compiled once
 * (db/compiled-once.ts): building them cost a payment more than running them.
 */
import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-once.ts';
import type {
  NewTransactionEventRow,
  NewTransactionRow,
  TransactionPatch,
  TransactionRow,
} from '../../db/schema.ts';
import { transact } from '../../db/transact.ts';
import { countHitQuery, storableKey } from '../../limits/rate-limit.repository.ts';
import { keyUsedQuery } from './idempotency.ts';
import type { Acknowledgement, PaymentWrites } from './payment-writes.ts';
import { phoneLockQuery } from './phone-locks.repository.ts';
import { attachIdsQuery } from './transactions.repository.ts';

const countHit = compiledOnce((db, hit: { key: string; windowIndex: number }) =>
  countHitQuery(db, hit.key, hit.windowIndex),
);

const insertPayment = compiledOnce((db, row: NewTransactionRow) =>
  db.insertInto('transactions').values(row),
);

const takeLock = compiledOnce(
  (db, lock: { phoneNumber: string; transactionId: string; now: string; lockedUntil: string }) =>
    phoneLockQuery(db, lock.phoneNumber, lock.transactionId, lock.now, lock.lockedUntil).returning(
      'phone_number',
    ),
);

const insertEvent = compiledOnce((db, event: NewTransactionEventRow) =>
  db.insertInto('transaction_events').values(event),
);

const markKeyUsed = compiledOnce((db, used: { key: string; transactionId: string }) =>
  keyUsedQuery(db, used.key, used.transactionId),
);

const attachIds = compiledOnce((db, { id, ids, texts }: Omit<Acknowledgement, 'event' | 'hold'>) =>
  attachIdsQuery(db, id, ids, texts),
);

const holdPhone = compiledOnce(
  (db, hold: { phoneNumber: string; transactionId: string; until: string }) =>
    db
      .updateTable('phone_locks')
      .set({ locked_until: hold.until })
      .where('phone_number', '=', hold.phoneNumber)
      .where('transaction_id', '=', hold.transactionId),
);

const moveFrom = compiledOnce(
  (db, move: { row: Pick<TransactionRow, 'id' | 'status'>; patch: TransactionPatch }) =>
    db
      .updateTable('transactions')
      .set(move.patch)
      .where('id', '=', move.row.id)
      .where('status', '=', move.row.status),
);

/** Whether any webhook endpoint is enabled (payment-events.ts reads them when one is). */
const anyEndpoint = compiledOnce((db, _none: Record<string, never>) =>
  db.selectNoFrom(
    sql<number>`exists (select 1 from webhook_endpoints where enabled = 1)`.as('endpoints'),
  ),
);

export const sqliteWrites: PaymentWrites = {
  async savePending(trx, { hit, payment, lock, event, idempotencyKey }) {
    // The address's count goes up with the payment it lets through, in the same commit: a request
    // refused for any reason (the limit itself, a busy phone) leaves it as it was.
    let hits: number | null = null;
    if (hit) {
      const key = storableKey(hit.key);
      const { rows } = await trx.executeQuery(countHit(trx, { key, windowIndex: hit.windowIndex }));
      hits = Number(rows[0]!.hits);
      if (hits > hit.max) return { hits, locked: false };
    }
    await trx.executeQuery(insertPayment(trx, payment));
    const taken = await trx.executeQuery(
      takeLock(trx, {
        phoneNumber: lock.phoneNumber,
        transactionId: payment.id,
        now: lock.now,
        lockedUntil: lock.lockedUntil,
      }),
    );
    if (taken.rows.length === 0) return { hits, locked: false };
    await trx.executeQuery(insertEvent(trx, event));
    // In the same commit: a key that names no payment had none saved under it (idempotency.ts).
    if (idempotencyKey !== undefined) {
      await trx.executeQuery(markKeyUsed(trx, { key: idempotencyKey, transactionId: payment.id }));
    }
    return { hits, locked: true };
  },

  acknowledge(db, { id, ids, texts, event, hold }) {
    return transact(db, async (trx) => {
      const attached = await trx.executeQuery(
        attachIds(trx, {
          id,
          ids: {
            merchantRequestId: ids.merchantRequestId,
            checkoutRequestId: ids.checkoutRequestId,
          },
          texts: {
            responseDescription: texts.responseDescription,
            customerMessage: texts.customerMessage,
            at: texts.at,
          },
        }),
      );
      if (Number(attached.numAffectedRows) !== 1) return false;
      await trx.executeQuery(insertEvent(trx, event));
      await trx.executeQuery(
        holdPhone(trx, { phoneNumber: hold.phoneNumber, transactionId: id, until: hold.until }),
      );
      return true;
    });
  },

  async move(trx, row, patch, event) {
    const moved = await trx.executeQuery(
      moveFrom(trx, { row: { id: row.id, status: row.status }, patch }),
    );
    if (Number(moved.numAffectedRows) !== 1) return { moved: false, endpoints: false };
    await trx.executeQuery(insertEvent(trx, event));
    const { rows } = await trx.executeQuery(anyEndpoint(trx, {}));
    return { moved: true, endpoints: Boolean(rows[0]?.endpoints) };
  },
};
