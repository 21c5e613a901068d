/**
 * Migration 014 (a key ends with its maker): keys made before it get their maker's id, and a live
 * key whose maker was removed or is no longer an owner, which the code before it left working, is
 * revoked, with why and a line in the audit trail. On each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  createTestDatabase,
  migrateTo as migrate,
  type TestDatabase,
} from '../test/test-db.ts';
import { migrations } from './migrations/index.ts';

const KEY_REVOCATION = '2026-11-28-014-key-revocation';
const names = Object.keys(migrations).sort();
const before = names[names.indexOf(KEY_REVOCATION) - 1]!;
const AT = '2026-11-25T09:00:00.000Z';

for (const dialect of DIALECTS) {
  describe(`the key revocation migration (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect, { runMigrations: true });
    });
    afterEach(async () => {
      await database.destroy();
    });

    it('revokes the live keys of makers removed or no longer owners, and keeps the others', async () => {
      await migrate(database, before);
      const operator = (id: string, name: string, role: 'owner' | 'cashier', at = AT) => ({
        id,
        name,
        name_key: name.toLowerCase(),
        role,
        password_hash: '!',
        created_at: at,
        updated_at: at,
      });
      // A Baraka who made k5 was removed; another Baraka, added after, did not make it.
      await database.db
        .insertInto('operators')
        .values([
          operator('op-amina', 'Amina', 'owner'),
          operator('op-zuri', 'Zuri', 'cashier'),
          operator('op-baraka-2', 'Baraka', 'owner', '2026-11-26T09:00:00.000Z'),
        ])
        .execute();
      const key = (id: string, createdBy: string, revokedAt: string | null = null) => ({
        id,
        name: `key ${id}`,
        scope: 'payments:read' as const,
        prefix: `mpk_${id}`,
        key_hash: id.padEnd(64, '0'),
        created_at: AT,
        created_by: createdBy,
        last_used_at: null,
        revoked_at: revokedAt,
      });
      await database.db
        .insertInto('api_keys')
        .values([
          key('k1', 'Amina'),
          key('k2', 'Zuri'),
          key('k3', 'Kito'),
          key('k4', 'Kito', AT),
          key('k5', 'Baraka'),
        ])
        .execute();

      await migrate(database);

      const keys = await database.db
        .selectFrom('api_keys')
        .select(['id', 'created_by_id', 'revoked_at', 'revoked_reason', 'revoked_by'])
        .orderBy('id')
        .execute();
      expect(keys).toEqual([
        {
          id: 'k1',
          created_by_id: 'op-amina',
          revoked_at: null,
          revoked_reason: null,
          revoked_by: null,
        },
        {
          id: 'k2',
          created_by_id: 'op-zuri',
          revoked_at: expect.any(String),
          revoked_reason: 'maker_not_owner',
          revoked_by: null,
        },
        {
          id: 'k3',
          created_by_id: null,
          revoked_at: expect.any(String),
          revoked_reason: 'maker_removed',
          revoked_by: null,
        },
        {
          id: 'k4',
          created_by_id: null,
          revoked_at: AT,
          revoked_reason: 'owner',
          revoked_by: null,
        },
        {
          id: 'k5',
          created_by_id: null,
          revoked_at: expect.any(String),
          revoked_reason: 'maker_removed',
          revoked_by: null,
        },
      ]);
      const lines = await database.db
        .selectFrom('audit_events')
        .select(['actor_kind', 'actor', 'action', 'target', 'detail'])
        .orderBy('target')
        .execute();
      expect(lines).toEqual([
        {
          actor_kind: 'command',
          actor: null,
          action: 'key_revoked',
          target: 'key k2',
          detail: 'scope payments:read; its maker Zuri is no longer an owner (now cashier)',
        },
        {
          actor_kind: 'command',
          actor: null,
          action: 'key_revoked',
          target: 'key k3',
          detail: 'scope payments:read; its maker Kito was removed',
        },
        {
          actor_kind: 'command',
          actor: null,
          action: 'key_revoked',
          target: 'key k5',
          detail: 'scope payments:read; its maker Baraka was removed',
        },
      ]);

      // And back: the columns go, the keys stay.
      await migrate(database, before);
      expect(
        await database.db.selectFrom('api_keys').select('id').orderBy('id').execute(),
      ).toHaveLength(5);
    });
  });
}
