/** The SQL that reads a payment's timeline. Functions take `db` or `trx` first. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, TransactionEventTable } from '../../db/schema.ts';

export type TimelineRow = Pick<
  Selectable<TransactionEventTable>,
  'at' | 'source' | 'from_status' | 'to_status' | 'kind' | 'reason' | 'note' | 'payload'
>;

/**
 * A transaction's events, oldest first. Ordered by id, which sorts in the order the events were
 * recorded (lib/sortable-id.ts), also when two share a timestamp.
 */
export async function listTransactionEvents(
  db: Kysely<Database>,
  transactionId: string,
): Promise<TimelineRow[]> {
  return db
    .selectFrom('transaction_events')
    .select(['at', 'source', 'from_status', 'to_status', 'kind', 'reason', 'note', 'payload'])
    .where('transaction_id', '=', transactionId)
    .orderBy('id')
    .execute();
}
