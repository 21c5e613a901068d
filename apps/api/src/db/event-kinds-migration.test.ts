/**
 * The migration that gives every event its kind: rows written before it, with each note the app has
 * written, get the kind (and the reason) the timeline used to read from the note.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventKind } from '@mpesa/shared';
import {
  DIALECTS,
  createTestDatabase,
  migrateTo as migrate,
  type TestDatabase,
} from '../test/test-db.ts';
import { migrations } from './migrations/index.ts';

const EVENT_KINDS = '2026-11-25-006-event-kinds';
const names = Object.keys(migrations).sort();
const before = names[names.indexOf(EVENT_KINDS) - 1]!;

const CONTRADICTION =
  'M-PESA sent contradicting results for this request: 1 (failed), then 0 (success)';
const MISMATCH = 'M-PESA reported 1 KES, not 100 KES';

/** source, from, to, note as an earlier version wrote them; the kind and reason they get. */
const OLD_ROWS: Array<[string, string | null, string, string | null, EventKind, string | null]> = [
  ['initiation', null, 'pending', 'saved before the STK push', 'saved', null],
  ['initiation', 'pending', 'pending', 'accepted by M-PESA', 'accepted', null],
  [
    'initiation',
    'pending',
    'pending',
    'outcome unknown: Daraja did not answer within 10000 ms',
    'push_unknown',
    null,
  ],
  [
    'initiation',
    'pending',
    'pending',
    'flagged: M-PESA acknowledged this request as ws_CO_…',
    'flagged',
    'M-PESA acknowledged this request as ws_CO_…',
  ],
  ['initiation', 'pending', 'failed', null, 'push_failed', null],
  ['initiation', 'pending', 'pending', 'Outcome unknown: not our words', 'other', null],
  ['callback', 'pending', 'success', null, 'applied', null],
  ['callback', 'success', 'success', 'duplicate callback', 'duplicate', null],
  ['query', 'success', 'success', 'duplicate query', 'duplicate', null],
  ['callback', 'pending', 'failed', `flagged: ${MISMATCH}`, 'flagged', MISMATCH],
  [
    'callback',
    'failed',
    'failed',
    `not applied: flagged for review (${MISMATCH})`,
    'not_applied_under_review',
    null,
  ],
  ['query', 'success', 'success', 'ignored: success is final', 'ignored', 'success is final'],
  ['callback', 'success', 'success', 'receipt added by a late callback', 'receipt_added', null],
  [
    'query',
    'unknown',
    'cancelled',
    'late query settled the unknown outcome',
    'settled_unknown',
    null,
  ],
  ['callback', 'failed', 'success', 'late callback success lifted failed', 'lifted', null],
  ['callback', 'timeout', 'success', 'late success callback lifted timeout', 'lifted', null],
  [
    'callback',
    'failed',
    'success',
    `late callback success lifted failed; flagged: ${CONTRADICTION}`,
    'lifted_flagged',
    CONTRADICTION,
  ],
  [
    'callback',
    'cancelled',
    'success',
    'late callback success lifted cancelled; still flagged for review',
    'lifted_under_review',
    null,
  ],
  ['callback', 'pending', 'success', 'words of another time', 'other', null],
  [
    'reconciliation',
    'pending',
    'unknown',
    'M-PESA gave no result for this payment within 10 minutes.',
    'gave_up',
    null,
  ],
  [
    'review',
    'failed',
    'success',
    `flag cleared (${MISMATCH}): payer paid the rest in cash`,
    'flag_cleared',
    null,
  ],
  [
    'review',
    'unknown',
    'success',
    'unknown outcome settled: on the statement',
    'unknown_settled',
    null,
  ],
];

for (const dialect of DIALECTS) {
  describe(`the event kinds migration (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect, { runMigrations: true });
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('gives the events written before it their kind, from their notes', async () => {
      await migrate(database, before);
      await database.db
        .insertInto('transactions')
        .values({
          id: 'tx-old',
          reference: 'INV-1',
          description: 'Payment',
          phone_number: '254712345678',
          amount: 100,
          status: 'success',
          merchant_request_id: null,
          checkout_request_id: null,
          result_code: '0',
          response_description: null,
          customer_message: null,
          mpesa_receipt_number: null,
          transaction_date: null,
          created_at: '2026-11-22T10:00:00.000Z',
          updated_at: '2026-11-22T10:00:00.000Z',
          next_check_at: null,
          lease_until: null,
          lease_owner: null,
          flagged_reason: null,
        })
        .execute();
      for (const [index, [source, from, to, note]] of OLD_ROWS.entries()) {
        await sql`
          insert into transaction_events (id, transaction_id, at, source, from_status, to_status, note, payload)
          values (${`ev-${String(index).padStart(2, '0')}`}, 'tx-old', '2026-11-22T10:00:00.000Z',
            ${source}, ${from}, ${to}, ${note}, null)`.execute(database.db);
      }

      await migrate(database);

      const rows = await database.db
        .selectFrom('transaction_events')
        .select(['source', 'from_status', 'to_status', 'note', 'kind', 'reason'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual(
        OLD_ROWS.map(([source, from, to, note, kind, reason]) => ({
          source,
          from_status: from,
          to_status: to,
          note,
          kind,
          reason,
        })),
      );
    });
  });
}
