/** Every export is in the audit trail: who, when, from where, and the filters. On each database. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { signedInWorld } from '../../test/signed-in.ts';

const FILTERS = '?status=success&from=2026-11-01&to=2026-11-25';

for (const dialect of DIALECTS) {
  describe(`the export in the audit trail (${dialect})`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await createTestDatabase(dialect);
    });
    afterEach(async () => {
      await database.destroy();
    });

    const trail = () =>
      database.db
        .selectFrom('audit_events')
        .select(['at', 'actor_kind', 'actor', 'detail', 'address'])
        .where('action', '=', 'export')
        .orderBy('id')
        .execute();

    it('names the owner or the key that exported, and what they selected', async () => {
      const world = await signedInWorld(database);
      try {
        const owner = await world.signIn('owner');
        const byOwner = await world.app.inject({
          url: `/api/mpesa/transactions/export${FILTERS}`,
          headers: { cookie: owner.cookie },
          remoteAddress: '198.51.100.7',
        });
        expect(byOwner.statusCode).toBe(200);
        const byKey = await world.app.inject({
          url: '/api/mpesa/transactions/export',
          headers: { authorization: `Bearer ${world.keys['payments:read']}` },
        });
        expect(byKey.statusCode).toBe(200);
        // A refused export is not one.
        const viewer = await world.signIn('viewer');
        await world.app.inject({
          url: '/api/mpesa/transactions/export',
          headers: { cookie: viewer.cookie },
        });

        const lines = await trail();
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatchObject({
          at: world.clock.now.toISOString(),
          actor_kind: 'operator',
          actor: 'Amina',
          address: '198.51.100.7',
        });
        expect(JSON.parse(lines[0]?.detail ?? '')).toMatchObject({
          status: ['success'],
          from: '2026-11-01',
          to: '2026-11-25',
        });
        expect(lines[1]).toMatchObject({ actor_kind: 'key', actor: 'payments:read key' });
      } finally {
        await world.close();
      }
    });

    it('records an export open to all (HISTORY_ACCESS=open) as anonymous', async () => {
      const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: 'open' } });
      try {
        expect((await app.inject('/api/mpesa/transactions/export')).statusCode).toBe(200);
        expect(await trail()).toMatchObject([{ actor_kind: 'anonymous', actor: null }]);
      } finally {
        await app.close();
      }
    });

    it('says a search was made, never what was searched for (often a payer’s number)', async () => {
      const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: 'open' } });
      try {
        const answer = await app.inject('/api/mpesa/transactions/export?q=0712345678');
        expect(answer.statusCode).toBe(200);
        const [line] = await trail();
        expect(line?.detail).not.toContain('712345678');
        expect(JSON.parse(line?.detail ?? '')).toMatchObject({ q: '…' });
      } finally {
        await app.close();
      }
    });
  });
}
