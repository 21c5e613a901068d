/**
 * `npm run operator`: a person adds, lists, re-roles and removes operators on the app's database;
 * the password comes from standard input (a terminal's is typed unseen), never the command line.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, settingsFor, type TestDatabase } from './test/test-db.ts';
import { verifyPassword } from './lib/password.ts';
import { createKey, keyFor } from './features/operators/keys/keys.service.ts';
import { operatorCommand } from './operator-cli.ts';
import { called } from './test/command.ts';
import { TEST_PASSWORD_HASH_COST } from './test/test-app.ts';

const CLI = path.resolve(import.meta.dirname, 'operator-cli.ts');
const PASSWORD = 'a long enough phrase';

for (const dialect of DIALECTS) {
  describe(`npm run operator (${dialect})`, () => {
    let dir: string;
    let database: TestDatabase;

    beforeEach(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-operator-'));
      database = await createTestDatabase(dialect, { file: path.join(dir, 'operators.sqlite') });
    });
    afterEach(async () => {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** The command, called here with `input` as if piped to it (test/command.ts), hashing cheaply. */
    const operator = (args: string[], input = '') =>
      called(operatorCommand, args, {
        env: { ...settingsFor(database, dir), PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) },
        input,
      });
    /** The program, started with `input` on its standard input (a pipe, not a terminal). */
    const started = (args: string[], input = '') =>
      new Promise<{ code: number; output: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [CLI, ...args],
          {
            env: {
              PATH: process.env.PATH ?? '',
              NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? '',
              ...settingsFor(database, dir),
            },
          },
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
        );
        child.stdin?.end(input);
      });

    const stored = () =>
      database.db.selectFrom('operators').selectAll().orderBy('name_key').execute();

    it('adds an operator with a hashed password read from standard input', async () => {
      const added = await started(['add', 'Amina', '--role', 'owner'], `${PASSWORD}\n`);
      expect(added).toEqual({ code: 0, output: 'Added Amina as owner.\n' });
      const [row] = await stored();
      expect(row).toMatchObject({ name: 'Amina', name_key: 'amina', role: 'owner' });
      expect(row?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
      expect(row?.password_hash).not.toContain(PASSWORD);
      expect(await verifyPassword(PASSWORD, row!.password_hash)).toBe(true);
      expect(await verifyPassword('another phrase entirely', row!.password_hash)).toBe(false);

      const again = await operator(['add', ' AMINA ', '--role', 'viewer'], `${PASSWORD}\n`);
      expect(again).toMatchObject({
        code: 1,
        output: expect.stringContaining('An operator named AMINA already exists.'),
      });
    });

    it('refuses a password on the command line, and a short one, saying why', async () => {
      const flagged = await started(['add', 'Amina', '--role', 'owner', '--password', PASSWORD]);
      expect(flagged.code).toBe(2);
      expect(flagged.output).toContain('never given on the command line');
      const short = await operator(['add', 'Amina', '--role', 'owner'], 'short\n');
      expect(short).toMatchObject({
        code: 1,
        output: expect.stringContaining('The password must be 12 to 256 characters long'),
      });
      expect(await stored()).toEqual([]);
    });

    it('lists, changes a role and removes, with usage for anything else', async () => {
      await operator(['add', 'Amina', '--role', 'owner'], `${PASSWORD}\n`);
      await operator(['add', 'Otieno', '--role', 'cashier'], `${PASSWORD}\n`);
      const listed = await operator(['list']);
      expect(listed.code).toBe(0);
      expect(listed.output).toMatch(/^Amina {2}owner {4}since .*\nOtieno {2}cashier {2}since /);

      expect(await operator(['role', 'otieno', 'viewer'])).toEqual({
        code: 0,
        output: 'otieno is now viewer.\n',
      });
      expect((await stored()).map((row) => row.role)).toEqual(['owner', 'viewer']);
      expect(await operator(['role', 'Otieno', 'king'])).toMatchObject({ code: 2 });
      expect(await operator(['add', 'Zed'])).toMatchObject({
        code: 2,
        output: expect.stringContaining('Usage: npm run operator'),
      });

      expect(await operator(['remove', 'Otieno'])).toMatchObject({ code: 0 });
      expect(await operator(['remove', 'Otieno'])).toMatchObject({
        code: 1,
        output: expect.stringContaining('No operator is named Otieno.'),
      });
      expect((await stored()).map((row) => row.name)).toEqual(['Amina']);
    });

    it('revokes the keys of an owner it removes or makes a cashier, saying so, with a line each', async () => {
      for (const name of ['Amina', 'Zuri', 'Kito']) {
        expect(await operator(['add', name, '--role', 'owner'], `${PASSWORD}\n`)).toMatchObject({
          code: 0,
        });
      }
      const ids = Object.fromEntries((await stored()).map((row) => [row.name, row.id]));
      const now = new Date();
      const keyOf = (maker: string, name: string) =>
        createKey(database.db, {
          name,
          scope: 'payments:read',
          createdBy: maker,
          createdById: ids[maker]!,
          now,
        });
      const kept = await keyOf('Amina', 'Till');
      await keyOf('Zuri', 'Accounts');
      await keyOf('Kito', 'Export 1');
      await keyOf('Kito', 'Export 2');

      expect(await operator(['role', 'Zuri', 'cashier'])).toEqual({
        code: 0,
        output: 'Zuri is now cashier. The API key they made is revoked.\n',
      });
      expect(await operator(['remove', 'Kito'])).toEqual({
        code: 0,
        output: 'Removed Kito; their sessions are ended. The 2 API keys they made are revoked.\n',
      });
      const keys = await database.db
        .selectFrom('api_keys')
        .select(['name', 'revoked_reason', 'revoked_by'])
        .where('revoked_at', 'is not', null)
        .orderBy('name')
        .execute();
      expect(keys).toEqual([
        { name: 'Accounts', revoked_reason: 'maker_not_owner', revoked_by: null },
        { name: 'Export 1', revoked_reason: 'maker_removed', revoked_by: null },
        { name: 'Export 2', revoked_reason: 'maker_removed', revoked_by: null },
      ]);
      expect(await keyFor({ db: database.db, now: () => now }, kept.secret)).toBeDefined();
      const lines = await database.db
        .selectFrom('audit_events')
        .select(['actor_kind', 'target', 'detail'])
        .where('action', '=', 'key_revoked')
        .orderBy('target')
        .execute();
      expect(lines).toEqual([
        {
          actor_kind: 'command',
          target: 'Accounts',
          detail: 'scope payments:read; its maker Zuri is no longer an owner (now cashier)',
        },
        {
          actor_kind: 'command',
          target: 'Export 1',
          detail: 'scope payments:read; its maker Kito was removed',
        },
        {
          actor_kind: 'command',
          target: 'Export 2',
          detail: 'scope payments:read; its maker Kito was removed',
        },
      ]);
    });
  });
}
