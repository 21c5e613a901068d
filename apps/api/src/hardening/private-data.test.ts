/**
 * Files with personal data are the owner's alone. Payers' phone numbers are
 * personal data under Kenya's Data Protection Act: the data folder is created 0700, and the
 * database (with its -wal and -shm files) and the callback secret are 0600, whatever the umask.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, migrateToLatest } from '../db/create-db.ts';
import { loadOrCreateCallbackSecret } from '../callbacks/callback-secret.ts';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('files with personal data', () => {
  let root: string;
  let umask: number;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-private-'));
    // The most open umask there is: nothing of the modes below may come from it.
    umask = process.umask(0);
  });
  afterEach(() => {
    process.umask(umask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('creates the database’s folders 0700 and the database, its WAL and its shared memory 0600', async () => {
    const file = path.join(root, 'data', 'nested', 'mpesa.sqlite');
    const handle = createDb(file);
    try {
      await migrateToLatest(handle);
      await sql`select count(*) from transactions`.execute(handle.db);
      expect(modeOf(path.join(root, 'data'))).toBe(0o700);
      expect(modeOf(path.join(root, 'data', 'nested'))).toBe(0o700);
      for (const each of [file, `${file}-wal`, `${file}-shm`]) {
        expect(modeOf(each), each).toBe(0o600);
      }
    } finally {
      await handle.db.destroy();
    }
  });

  it('makes a database that an older version left readable by others 0600', async () => {
    const file = path.join(root, 'old.sqlite');
    fs.writeFileSync(file, '');
    fs.chmodSync(file, 0o644);
    const handle = createDb(file);
    try {
      await migrateToLatest(handle);
      expect(modeOf(file)).toBe(0o600);
    } finally {
      await handle.db.destroy();
    }
  });

  it('creates the data folder 0700 for the callback secret, itself 0600', () => {
    const dataDir = path.join(root, 'fresh');
    loadOrCreateCallbackSecret(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'callback-secret'))).toBe(0o600);
  });

  it('makes a callback secret that was left readable by others 0600', () => {
    const dataDir = path.join(root, 'old');
    const secret = loadOrCreateCallbackSecret(dataDir);
    fs.chmodSync(path.join(dataDir, 'callback-secret'), 0o644);
    expect(loadOrCreateCallbackSecret(dataDir)).toBe(secret);
    expect(modeOf(path.join(dataDir, 'callback-secret'))).toBe(0o600);
  });

  it('leaves a folder that already exists as its owner set it', () => {
    const shared = path.join(root, 'shared');
    fs.mkdirSync(shared, { mode: 0o755 });
    createDb(path.join(shared, 'mpesa.sqlite'));
    expect(modeOf(shared)).toBe(0o755);
    expect(modeOf(path.join(shared, 'mpesa.sqlite'))).toBe(0o600);
  });
});
