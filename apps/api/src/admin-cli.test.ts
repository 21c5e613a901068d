/**
 * The command lines an owner locked out of the web app relies on: `npm run operator -- link`, the
 * last-owner and look-alike rules as the web app applies them, and each change (and `npm run
 * review -- clear`) in the audit trail as the command line's. On each database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, settingsFor, type TestDatabase } from './test/test-db.ts';
import { storedPayment } from './test/stored-payment.ts';
import { addOperator } from './features/operators/operators.service.ts';
import { hashToken } from './features/operators/sessions.service.ts';
import { TEST_PASSWORD_HASH_COST } from './test/test-app.ts';
import { operatorCommand } from './operator-cli.ts';
import { reviewCommand } from './review-cli.ts';
import { called } from './test/command.ts';

// The commands are called in this process (test/command.ts); operator-cli.test.ts and
// review-cli.test.ts start each as a program too.

for (const dialect of DIALECTS) {
  describe(`the owner's command lines (${dialect})`, () => {
    let dir: string;
    let database: TestDatabase;

    beforeEach(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-admin-'));
      database = await createTestDatabase(dialect, { file: path.join(dir, 'admin.sqlite') });
      await addOperator(database.db, {
        name: 'Amina',
        role: 'owner',
        password: 'correct horse battery',
        now: new Date(),
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
    });
    afterEach(async () => {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const run = (command: typeof operatorCommand, args: string[], input = '') =>
      called(command, args, {
        env: { ...settingsFor(database, dir), PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) },
        input,
      });
    const audit = () =>
      database.db
        .selectFrom('audit_events')
        .select(['action', 'actor_kind', 'actor', 'target'])
        .orderBy('at')
        .orderBy('id')
        .execute();

    it('prints a one-time link, and keeps the last owner and look-alike names out', async () => {
      const linked = await run(operatorCommand, ['link', 'amina']);
      expect(linked.code).toBe(0);
      const token = /\/set-password#([\w-]{43})\n$/.exec(linked.output)?.[1];
      expect(token).toBeDefined();
      const [stored] = await database.db.selectFrom('password_links').selectAll().execute();
      expect(stored?.token_hash).toBe(hashToken(token!));

      const demoted = await run(operatorCommand, ['role', 'Amina', 'viewer']);
      expect(demoted).toEqual({
        code: 1,
        output:
          'This is the last owner: make another operator an owner first, so that someone can still manage the shop.\n',
      });
      expect((await run(operatorCommand, ['remove', 'Amina'])).code).toBe(1);
      // "Аmina" with a Cyrillic А.
      const lookAlike = await run(
        operatorCommand,
        ['add', '\u0410mina', '--role', 'owner'],
        'a long enough phrase\n',
      );
      expect(lookAlike.code).toBe(1);
      expect(lookAlike.output).toContain('mixes Latin letters with Cyrillic or Greek');
      expect(await audit()).toEqual([
        { action: 'password_link_issued', actor_kind: 'command', actor: null, target: 'Amina' },
      ]);
    });

    it('refuses names that look blank or like another’s, as the web app does', async () => {
      const refusals: Record<string, string> = {
        'Amina\u3164': 'The name must be made of visible characters',
        'Amina\u034F': 'The name must be made of visible characters',
        'Amina\u2800': 'The name must be made of visible characters',
        '\u3164': 'The name must be made of visible characters',
        'Am\u0131na': 'looks like Amina, an existing operator',
        '\u0555tieno': 'The name mixes letters of different scripts (Armenian, Latin)',
      };
      for (const [name, refusal] of Object.entries(refusals)) {
        const added = await run(
          operatorCommand,
          ['add', name, '--role', 'viewer'],
          'a long enough phrase\n',
        );
        expect(added.code, JSON.stringify(name)).toBe(1);
        expect(added.output).toContain(refusal);
      }
      expect(await database.db.selectFrom('operators').select('name').execute()).toEqual([
        { name: 'Amina' },
      ]);
    });

    it('records a review cleared from the command line as the command line’s', async () => {
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment('tx-flagged', '2026-11-25T08:00:00.000Z', { flagged_reason: 'odd amount' }),
        )
        .execute();
      const cleared = await run(reviewCommand, [
        'clear',
        'tx-flagged',
        '--note',
        'seen on statement',
      ]);
      expect(cleared.code).toBe(0);
      expect(await audit()).toEqual([
        { action: 'review', actor_kind: 'command', actor: null, target: 'tx-flagged' },
      ]);
    });
  });
}
