import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { createTestApp } from '../test/test-app.ts';
import { startSimulator, type RunningSimulator } from '../test/simulator.ts';
import { sql } from 'kysely';
import { NOT_COPIED, TABLES, copyDatabase } from './copy-database.ts';

describe('copying an SQLite file’s data to another database', () => {
  let simulator: RunningSimulator;
  let source: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    simulator = await startSimulator();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-copy-'));
    source = await createTestDatabase('sqlite', { file: path.join(dir, 'source.sqlite') });
    const { app } = await createTestApp({
      database: source,
      env: { MPESA_BASE_URL: simulator.url },
    });
    for (let i = 0; i < 7; i++) {
      await app.inject({
        method: 'POST',
        url: '/api/mpesa/stkpush',
        payload: { phoneNumber: `071300000${i}`, amount: 10 + i, reference: `Ref ${i}` },
        headers: { 'Idempotency-Key': `copy-${i}` },
      });
    }
    await app.close();
    // The shop's people, a key for its systems and the trail of who did what move too.
    const at = '2026-11-25T10:00:00.000Z';
    await source.db
      .insertInto('operators')
      .values({
        id: 'op-1',
        name: 'Amina',
        name_key: 'amina',
        role: 'owner',
        password_hash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await source.db
      .insertInto('api_keys')
      .values({
        id: 'key-1',
        name: 'Till system',
        scope: 'payments:read',
        prefix: 'mpk_abcdefgh',
        key_hash: 'a'.repeat(64),
        created_at: at,
        created_by: 'Amina',
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    await source.db
      .insertInto('audit_events')
      .values({
        id: 'audit-1',
        at,
        actor_kind: 'operator',
        actor: 'Amina',
        action: 'key_created',
        target: 'Till system',
        detail: 'payments:read',
        address: '127.0.0.1',
      })
      .execute();
    // Money back, a receipt check, and the shop's webhooks with what they owe: all the shop's.
    const [paid] = await source.db.selectFrom('transactions').select('id').limit(1).execute();
    await source.db
      .insertInto('refunds')
      .values({
        id: 'refund-1',
        transaction_id: paid!.id,
        status: 'reversed',
        amount: 10,
        reason: 'Returned goods',
        requested_by: 'Amina',
        requested_by_id: 'op-1',
        originator_conversation_id: 'oc-1',
        conversation_id: 'c-1',
        status_query_id: null,
        result_code: '0',
        result_description: 'The service request is processed successfully.',
        reversal_receipt: 'UF1E26WQJY',
        created_at: at,
        updated_at: at,
        next_check_at: null,
        lease_until: null,
      })
      .execute();
    await source.db
      .insertInto('receipt_checks')
      .values({
        id: 'check-1',
        receipt: 'UF1E26WQJZ',
        status: 'not_found',
        requested_by: 'Amina',
        originator_conversation_id: 'oc-2',
        transaction_id: null,
        result_code: '1',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await source.db
      .insertInto('webhook_endpoints')
      .values({
        id: 'endpoint-1',
        url: 'https://shop.example/hooks',
        events: '["payment.succeeded"]',
        secret: `whsec_${'b'.repeat(32)}`,
        enabled: 1,
        disabled_reason: null,
        disabled_at: null,
        failing_since: null,
        created_by: 'Amina',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await source.db
      .insertInto('webhook_events')
      .values({
        id: 'event-1',
        type: 'payment.succeeded',
        transaction_id: paid!.id,
        body: '{"id":"event-1"}',
        created_at: at,
      })
      .execute();
    await source.db
      .insertInto('webhook_deliveries')
      .values({
        id: 'delivery-1',
        event_id: 'event-1',
        endpoint_id: 'endpoint-1',
        created_at: at,
        next_attempt_at: at,
        lease_owner: null,
        lease_until: null,
        last_attempt_at: null,
        last_status: null,
        last_duration_ms: null,
        last_response: null,
        last_error: null,
        delivered_at: null,
        gave_up_at: null,
      })
      .execute();
    // Money out and the balance M-PESA held: the shop's too.
    await source.db
      .insertInto('payouts')
      .values({
        id: 'payout-1',
        batch_id: null,
        kind: 'SalaryPayment',
        payee: '254708374149',
        account: null,
        amount: 1500,
        reason: 'Wages',
        status: 'succeeded',
        proposed_by: 'Baraka',
        proposed_by_id: 'op-2',
        decided_by: 'Amina',
        decided_by_id: 'op-1',
        decided_at: at,
        originator_conversation_id: 'payout-payout-1',
        receipt: 'UF1E26WQJX',
        receiver_name: '254708374149 - John Doe',
        charge_cents: 2240,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await source.db
      .insertInto('balance_readings')
      .values({
        id: 'reading-1',
        shortcode: '174379',
        status: 'read',
        asked_by: null,
        asked_at: at,
        accounts: '[]',
        read_at: at,
      })
      .execute();
    // A payment link the shop made.
    await source.db
      .insertInto('payment_links')
      .values({
        id: 'link-1',
        code: 'abcdefgh2345',
        amount: 1500,
        min_amount: null,
        purpose: 'Kitenge dress',
        reference: 'ORDER-77',
        one_only: 1,
        expires_at: null,
        switched_off_at: null,
        switched_off_by: null,
        created_by: 'Baraka',
        created_by_id: 'op-2',
        created_at: at,
      })
      .execute();
  });
  afterAll(async () => {
    await source.destroy();
    await simulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const dialect of DIALECTS) {
    it(`moves every record to ${dialect}, and refuses to copy twice`, async () => {
      const target = await createTestDatabase(dialect, {
        file: path.join(dir, `target-${Date.now()}.sqlite`),
      });
      try {
        const counts = await copyDatabase(source, target);
        expect(counts).toEqual({
          payment_links: 1,
          transactions: 7,
          // Saved, then accepted by M-PESA: two events per payment.
          transaction_events: 14,
          callbacks: 0,
          idempotency_keys: 7,
          phone_locks: 7,
          refunds: 1,
          receipt_checks: 1,
          operators: 1,
          api_keys: 1,
          audit_events: 1,
          webhook_endpoints: 1,
          webhook_events: 1,
          webhook_deliveries: 1,
          payouts: 1,
          balance_readings: 1,
        });
        for (const table of TABLES) {
          const order =
            table === 'idempotency_keys' ? 'key' : table === 'phone_locks' ? 'phone_number' : 'id';
          const from = await source.db
            .selectFrom(table)
            .selectAll()
            .orderBy(order as never)
            .execute();
          const to = await target.db
            .selectFrom(table)
            .selectAll()
            .orderBy(order as never)
            .execute();
          expect(to.map((row) => ({ ...row }))).toEqual(from.map((row) => ({ ...row })));
        }
        // Each event keeps its kind.
        const kinds = await target.db
          .selectFrom('transaction_events')
          .select('kind')
          .distinct()
          .orderBy('kind')
          .execute();
        expect(kinds.map((row) => row.kind)).toEqual(['accepted', 'saved']);
        await expect(copyDatabase(source, target)).rejects.toThrow(
          /already has data in "payment_links"/,
        );
      } finally {
        await target.destroy();
      }
    });
  }
});

it('copies every table the migrations make, or says why not', async () => {
  const database = await createTestDatabase('sqlite');
  try {
    const { rows } = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'kysely_%'
        and name not like 'sqlite_%' order by name`.execute(database.db);
    expect(rows.map((row) => row.name)).toEqual([...TABLES, ...Object.keys(NOT_COPIED)].sort());
  } finally {
    await database.destroy();
  }
});
