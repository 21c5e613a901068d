/**
 * `npm run review`: a person lists the payments flagged for review and clears one, with a note,
 * on the same database the app uses.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewTransactionRow } from './db/schema.ts';
import { DIALECTS, createTestDatabase, settingsFor, type TestDatabase } from './test/test-db.ts';
import { reviewCommand } from './review-cli.ts';
import { called } from './test/command.ts';

const CLI = path.resolve(import.meta.dirname, 'review-cli.ts');

for (const dialect of DIALECTS) {
  describe(`npm run review (${dialect})`, () => {
    let dir: string;
    let database: TestDatabase;

    /** A payment waiting for review: by default flagged for an amount M-PESA reported wrong. */
    const insert = (fields: Partial<NewTransactionRow>) =>
      database.db
        .insertInto('transactions')
        .values({
          id: 'tx-flagged',
          reference: 'INV-7',
          description: 'Payment for services',
          phone_number: '254712345678',
          amount: 100,
          status: 'failed',
          result_code: '0',
          created_at: '2026-11-23T10:00:00.000Z',
          updated_at: '2026-11-23T10:00:00.000Z',
          flagged_reason: 'M-PESA reported 1 KES, not 100 KES',
          merchant_request_id: null,
          checkout_request_id: 'ws_CO_review',
          response_description: null,
          customer_message: null,
          mpesa_receipt_number: null,
          transaction_date: null,
          next_check_at: null,
          lease_owner: null,
          lease_until: null,
          ...fields,
        })
        .execute();

    beforeEach(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-review-'));
      database = await createTestDatabase(dialect, { file: path.join(dir, 'review.sqlite') });
      await insert({});
    });
    afterEach(async () => {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** The command, called here (test/command.ts). */
    const review = (...args: string[]) =>
      called(reviewCommand, args, { env: settingsFor(database, dir) });
    /** The program, started as `npm run review` starts it. */
    const started = async (...args: string[]) => {
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], {
          env: {
            PATH: process.env.PATH ?? '',
            NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
            ...settingsFor(database, dir),
          },
        });
        return { code: 0, output: stdout };
      } catch (error) {
        const failed = error as { code: number; stdout: string; stderr: string };
        return { code: failed.code, output: failed.stdout + failed.stderr };
      }
    };

    it('shows each payment’s phone number in full, which the M-PESA statement is searched by', async () => {
      await insert({
        id: 'tx-unknown',
        phone_number: '254700000001',
        amount: 250,
        status: 'unknown',
        result_code: null,
        flagged_reason: null,
        checkout_request_id: 'ws_CO_unknown',
        created_at: '2026-11-23T10:05:00.000Z',
      });
      const listed = await started();
      expect(listed.code).toBe(0);
      const lines = listed.output.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(
        /^tx-flagged .* 100 KES {2}254712345678 {2}M-PESA reported 1 KES, not 100 KES$/,
      );
      expect(lines[1]).toMatch(
        /^tx-unknown .* unknown .* 250 KES {2}254700000001 {2}outcome unknown: check the M-PESA statement for this amount from this phone$/,
      );
    });

    it('lists flagged payments, and clears one only with a note', async () => {
      const listed = await review();
      expect(listed.code).toBe(0);
      expect(listed.output).toContain('tx-flagged');
      expect(listed.output).toContain('M-PESA reported 1 KES, not 100 KES');

      expect(await review('clear', 'tx-flagged')).toMatchObject({
        code: 1,
        output: expect.stringContaining('Say why the flag is cleared (--note).'),
      });
      expect(await review('clear', 'tx-flagged', '--status', 'paid')).toMatchObject({ code: 2 });
      expect(await review('clear', 'tx-flagged', '--notes', 'typo')).toMatchObject({
        code: 2,
        output: expect.stringContaining('Usage: npm run review'),
      });
      expect(await review('--status', 'success', '--note', 'paid')).toMatchObject({ code: 2 });
      expect(await review('clear', 'x'.repeat(5000), '--note', 'x')).toMatchObject({
        code: 1,
        output: expect.stringContaining('No transaction'),
      });
      expect(await review('clear', 'tx-nope', '--note', 'x')).toMatchObject({
        code: 1,
        output: expect.stringContaining('No transaction tx-nope.'),
      });

      const cleared = await review(
        'clear',
        'tx-flagged',
        '--note',
        'refunded',
        '--status',
        'failed',
      );
      expect(cleared).toMatchObject({
        code: 0,
        output: expect.stringContaining('its status is failed'),
      });
      expect((await review()).output).toContain('No payments are waiting for review.');
      const row = await database.db
        .selectFrom('transactions')
        .select(['status', 'flagged_reason'])
        .where('id', '=', 'tx-flagged')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'failed', flagged_reason: null });
    });
  });
}
