/**
 * `npm run db:seed`: exactly the payments asked for, each as the app would have saved it, on both
 * dialects; the same seed gives the same rows; and it never mixes made-up payments with real ones.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSACTION_STATUSES } from '@mpesa/shared';
import { statusForResultCode } from '../daraja/result-codes.ts';
import { createTestApp } from '../test/test-app.ts';
import { DIALECTS, createTestDatabase, settingsFor, type TestDatabase } from '../test/test-db.ts';
import type { Selectable } from 'kysely';
import type { TransactionEventTable, TransactionTable } from '../db/schema.ts';
import { SeedError, countPayments, seedDatabase, type SeedOptions } from './seed.ts';

const CLI = path.resolve(import.meta.dirname, 'seed-cli.ts');
const NOW = new Date('2026-11-23T12:00:00.000Z');
const DAYS = 30;
const options = (overrides: Partial<SeedOptions> = {}): SeedOptions => ({
  count: 1200,
  days: DAYS,
  seed: 7,
  now: NOW,
  append: false,
  reconcile: { afterS: 90, maxBackoffS: 120, giveUpS: 600 },
  batchSize: 500,
  ...overrides,
});

async function seedCli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
        ...env,
      },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const unique = (values: Array<string | null>) => {
  const present = values.filter((value) => value !== null);
  return new Set(present).size === present.length;
};

for (const dialect of DIALECTS) {
  describe(`seeding payments (${dialect})`, () => {
    let dir: string;
    let database: TestDatabase;
    const fresh = () =>
      createTestDatabase(dialect, { file: path.join(dir, `${Math.random()}.sqlite`) });

    beforeEach(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-seed-'));
      database = await fresh();
    });
    afterEach(async () => {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('adds exactly the payments asked for, each as the app would have saved it', async () => {
      const result = await seedDatabase(database, options());
      const rows = await database.db.selectFrom('transactions').selectAll().execute();
      const events = await database.db
        .selectFrom('transaction_events')
        .selectAll()
        .orderBy('id')
        .execute();
      expect(result).toEqual({ payments: 1200, events: events.length, existing: 0 });
      expect(rows).toHaveLength(1200);

      const start = NOW.getTime() - DAYS * 86_400_000;
      const within = (at: string | null, from = start) =>
        at !== null && Date.parse(at) >= from && Date.parse(at) <= NOW.getTime();
      const paid = (row: (typeof rows)[number]) => ['success', 'refunded'].includes(row.status);
      for (const row of rows) {
        expect(TRANSACTION_STATUSES).toContain(row.status);
        expect(Number.isInteger(Number(row.amount))).toBe(true);
        expect(Number(row.amount)).toBeGreaterThanOrEqual(1);
        expect(Number(row.amount)).toBeLessThanOrEqual(250_000);
        expect(row.reference).toMatch(/^(INV-\d{4,}|Payment)$/);
        expect(within(row.created_at)).toBe(true);
        expect(within(row.updated_at, Date.parse(row.created_at))).toBe(true);
        expect(row.flagged_reason).toBeNull();
        if (paid(row)) {
          expect(row.mpesa_receipt_number).toMatch(/^[A-Z0-9]{10}$/);
          expect(within(row.transaction_date, Date.parse(row.created_at) - 1000)).toBe(true);
        } else {
          expect(row.mpesa_receipt_number).toBeNull();
          expect(row.transaction_date).toBeNull();
        }
        expect(row.next_check_at === null).toBe(row.status !== 'pending');
        if (row.channel === 'prompt') expectPrompt(row);
        else expectMenuPayment(row);
      }
      expect(unique(rows.map((row) => row.mpesa_receipt_number))).toBe(true);
      expect(unique(rows.map((row) => row.checkout_request_id))).toBe(true);
      const statuses = new Set(rows.map((row) => row.status));
      for (const status of ['success', 'cancelled', 'failed', 'timeout', 'refunded']) {
        expect(statuses).toContain(status);
      }
      const channels = new Set(rows.map((row) => row.channel));
      expect([...channels].sort()).toEqual(['paybill', 'prompt', 'till']);

      const byPayment = Map.groupBy(events, (event) => event.transaction_id);
      expect(byPayment.size).toBe(1200);
      for (const row of rows) {
        const told = byPayment.get(row.id) ?? [];
        // A refund's two events come last: asked for, then reversed by M-PESA.
        const own = row.status === 'refunded' ? told.slice(0, -2) : told;
        if (row.channel === 'prompt') expectPromptEvents(row, own);
        else {
          expect(own).toEqual([
            expect.objectContaining({ source: 'c2b', kind: 'c2b_confirmed', to_status: 'success' }),
          ]);
        }
      }
      await expectRefunds(rows, byPayment);
    });

    type Row = Selectable<TransactionTable>;
    type Event = Selectable<TransactionEventTable>;

    function expectPrompt(row: Row) {
      expect(row.phone_number).toMatch(/^254[17]\d{8}$/);
      expect(row.checkout_request_id).toMatch(
        new RegExp(`^ws_CO_\\d{17}${row.phone_number.slice(3)}$`),
      );
      expect(row.merchant_request_id).toMatch(
        /^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\d{4,7}$/,
      );
      expect(row.payer_name).toBeNull();
      if (row.status === 'pending' || row.status === 'unknown') expect(row.result_code).toBeNull();
      else if (row.status === 'refunded') expect(row.result_code).toBe('0');
      else expect(statusForResultCode(row.result_code ?? '')).toBe(row.status);
    }

    /** As C2B v2 confirms it: the number masked, the payer's name, the shop's till or paybill. */
    function expectMenuPayment(row: Row) {
      expect(['success', 'refunded']).toContain(row.status);
      expect(row.phone_number).toMatch(/^254[17] \*{5} \d{3}$/);
      expect(row.payer_msisdn).toBe(row.phone_number);
      expect(row.payer_name).toMatch(/^[A-Z]+( [A-Z]+)?$/);
      expect(row.shortcode).toBe(row.channel === 'till' ? '600100' : '600200');
      expect(row.reference).toMatch(row.channel === 'till' ? /^Payment$/ : /^INV-\d+$/);
      expect(row.checkout_request_id).toBeNull();
      expect(row.merchant_request_id).toBeNull();
    }

    /** Saved, accepted by M-PESA, then the outcome it now has. */
    function expectPromptEvents(row: Row, told: Event[]) {
      const [saved, accepted, ...outcome] = told;
      expect(saved).toMatchObject({
        source: 'initiation',
        at: row.created_at,
        from_status: null,
        to_status: 'pending',
      });
      expect(accepted).toMatchObject({ source: 'initiation', note: 'accepted by M-PESA' });
      expect(accepted!.at > row.created_at).toBe(true);
      if (row.status === 'pending') {
        expect(outcome).toEqual([]);
        expect(accepted!.at).toBe(row.updated_at);
        return;
      }
      const settled = row.status === 'refunded' ? 'success' : row.status;
      expect(outcome).toEqual([
        expect.objectContaining({ from_status: 'pending', to_status: settled }),
      ]);
      if (row.status !== 'refunded') expect(outcome[0]!.at).toBe(row.updated_at);
      expect(outcome[0]!.at > accepted!.at).toBe(true);
      expect(['callback', 'query', 'reconciliation']).toContain(outcome[0]!.source);
    }

    /** One reversed refund per refunded payment, told by its two events, and none for others. */
    async function expectRefunds(rows: Row[], byPayment: Map<string, Event[]>) {
      const refunds = await database.db.selectFrom('refunds').selectAll().execute();
      const refunded = rows.filter((row) => row.status === 'refunded');
      expect(refunds.map((refund) => refund.transaction_id).sort()).toEqual(
        refunded.map((row) => row.id).sort(),
      );
      for (const refund of refunds) {
        const row = refunded.find((one) => one.id === refund.transaction_id)!;
        expect(refund).toMatchObject({
          status: 'reversed',
          result_code: '0',
          updated_at: row.updated_at,
        });
        expect(Number(refund.amount)).toBe(Number(row.amount));
        expect(refund.reversal_receipt).toMatch(/^[A-Z0-9]{10}$/);
        expect(byPayment.get(row.id)!.slice(-2)).toEqual([
          expect.objectContaining({
            source: 'refund',
            kind: 'refund_requested',
            at: refund.created_at,
          }),
          expect.objectContaining({ kind: 'refunded', to_status: 'refunded', at: row.updated_at }),
        ]);
      }
      expect(unique(refunds.map((refund) => refund.reversal_receipt))).toBe(true);
    }

    it('gives payments the API serves: the history, each payment and its timeline', async () => {
      await seedDatabase(database, options({ count: 300 }));
      const { app } = await createTestApp({ database });
      try {
        const list = await app.inject({ method: 'GET', url: '/api/mpesa/transactions' });
        expect(list.statusCode).toBe(200);
        expect(list.json().data.length).toBeGreaterThan(0);
        const rows = await database.db.selectFrom('transactions').selectAll().execute();
        const kinds = Map.groupBy(rows, (r) => `${r.status} ${r.channel}`);
        for (const row of [...kinds.values()].map((of) => of[0]!)) {
          const detail = await app.inject({ url: `/api/mpesa/transactions/${row.id}` });
          expect(detail.json()).toMatchObject({ success: true, data: { status: row.status } });
          const timeline = await app.inject({ url: `/api/mpesa/transactions/${row.id}/events` });
          expect(timeline.statusCode).toBe(200);
          const own = row.channel === 'prompt' ? (row.status === 'pending' ? 2 : 3) : 1;
          expect(timeline.json().data).toHaveLength(own + (row.status === 'refunded' ? 2 : 0));
          if (row.mpesa_receipt_number) expect(timeline.body).toContain(row.mpesa_receipt_number);
        }
      } finally {
        await app.close();
      }
    });

    it('gives the same rows for the same seed', async () => {
      await seedDatabase(database, options({ count: 300 }));
      const again = await fresh();
      try {
        await seedDatabase(again, options({ count: 300, batchSize: 7 }));
        for (const table of ['transactions', 'transaction_events'] as const) {
          const read = (handle: TestDatabase) =>
            handle.db.selectFrom(table).selectAll().orderBy('id').execute();
          expect(await read(again)).toEqual(await read(database));
        }
      } finally {
        await again.destroy();
      }
    });

    it('refuses a database that has payments, unless told to add to them', async () => {
      await seedDatabase(database, options({ count: 300 }));
      await expect(seedDatabase(database, options({ count: 300 }))).rejects.toThrow(SeedError);
      await expect(seedDatabase(database, options({ count: 300 }))).rejects.toThrow(
        /already has 300 payments/,
      );
      expect(await countPayments(database.db)).toBe(300);

      // The same seed again adds other payments, not copies that would collide with the first.
      const added = await seedDatabase(database, options({ count: 300, append: true }));
      expect(added).toMatchObject({ payments: 300, existing: 300 });
      const rows = await database.db.selectFrom('transactions').selectAll().execute();
      expect(rows).toHaveLength(600);
      expect(unique(rows.map((row) => row.checkout_request_id))).toBe(true);
      expect(unique(rows.map((row) => row.mpesa_receipt_number))).toBe(true);
    });

    it('runs as npm run db:seed on the app’s own database, and refuses production', async () => {
      const env = settingsFor(database, dir);
      const seeded = await seedCli(['--count', '40', '--days', '7', '--seed', '3'], env);
      expect(seeded).toMatchObject({
        code: 0,
        output: expect.stringMatching(/Seeded 40 payments and \d+ events in .*payments\/s/),
      });
      expect(seeded.output).toContain('seed 3');
      expect(await countPayments(database.db)).toBe(40);

      expect(await seedCli(['--count', '40'], env)).toMatchObject({
        code: 1,
        output: expect.stringContaining('already has 40 payments'),
      });
      expect(await seedCli(['--count', '10', '--append'], env)).toMatchObject({ code: 0 });
      expect(await countPayments(database.db)).toBe(50);

      const production = {
        ...env,
        MPESA_ENV: 'production',
        MPESA_CONSUMER_KEY: 'key',
        MPESA_CONSUMER_SECRET: 'secret',
        MPESA_SHORTCODE: '600000',
        MPESA_PASSKEY: 'passkey',
        MPESA_CALLBACK_URL: 'https://shop.example.com',
      };
      expect(await seedCli(['--count', '10', '--append'], production)).toMatchObject({
        code: 1,
        output: expect.stringContaining('Refusing to seed: MPESA_ENV=production'),
      });
      expect(await countPayments(database.db)).toBe(50);
    });
  });
}

describe('npm run db:seed with bad options', () => {
  it('prints the usage and exits 2, touching no database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-seed-usage-'));
    try {
      const bad = [
        [],
        ['--count'],
        ['--count', '0'],
        ['--count', 'many'],
        ['--count', '1e3'],
        ['--count', '10000001'],
        ['--count', '10', '--days', '0'],
        ['--count', '10', '--seed', '-1'],
        ['--count', '10', '--seed', '4294967296'],
        ['--count', '10', '--force'],
        ['--count', '10', 'extra'],
      ];
      const results = await Promise.all(bad.map((args) => seedCli(args, { DATA_DIR: dir })));
      for (const [i, result] of results.entries()) {
        expect({ args: bad[i], ...result }).toMatchObject({
          code: 2,
          output: expect.stringContaining('Usage: npm run db:seed -- --count <payments>'),
        });
      }
      expect(fs.readdirSync(dir)).toEqual([]);
      expect(await seedCli(['--help'], { DATA_DIR: dir })).toMatchObject({ code: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
