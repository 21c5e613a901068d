/**
 * API keys, as an owner manages them and as the shop's systems use them (HISTORY_ACCESS=operators),
 * on each database. Who may call which route is in features/operators/access-matrix.test.ts.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { createTestApp } from '../../../test/test-app.ts';
import { signedInWorld, type Browser, type SignedInWorld } from '../../../test/signed-in.ts';

for (const dialect of DIALECTS) {
  describe(`API keys (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    let owner: Browser;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
      owner = await world.signIn('owner');
    });
    afterEach(async () => {
      await world.close();
      await database.destroy();
    });

    const asOwner = { cookie: () => owner.cookie, csrf: () => owner.csrfToken };
    const create = (body: object) =>
      world.app.inject({
        method: 'POST',
        url: '/api/keys',
        payload: body,
        headers: { cookie: asOwner.cookie(), 'x-csrf-token': asOwner.csrf() },
      });
    const revoke = (id: string) =>
      world.app.inject({
        method: 'DELETE',
        url: `/api/keys/${id}`,
        headers: { cookie: asOwner.cookie(), 'x-csrf-token': asOwner.csrf() },
      });
    const list = () =>
      world.app.inject({ url: '/api/keys', headers: { cookie: asOwner.cookie() } });
    const history = (key: string) =>
      world.app.inject({
        url: '/api/mpesa/transactions',
        headers: { authorization: `Bearer ${key}` },
      });

    it('shows a new key once, keeps only its hash, and lists it without the key', async () => {
      const answer = await create({ name: '  Till reconciliation ', scope: 'payments:read' });
      expect(answer.statusCode).toBe(201);
      expect(answer.headers['cache-control']).toBe('no-store');
      const { key, secret } = answer.json().data;
      expect(secret).toMatch(/^mpk_[A-Za-z0-9_-]{43}$/);
      expect(key).toMatchObject({
        name: 'Till reconciliation',
        scope: 'payments:read',
        prefix: secret.slice(0, 12),
        createdBy: 'Amina',
        createdAt: world.clock.now.toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      });

      const stored = await database.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', key.id)
        .executeTakeFirstOrThrow();
      expect(stored.key_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      const everything = JSON.stringify(
        await database.db.selectFrom('api_keys').selectAll().execute(),
      );
      expect(everything).not.toContain(secret);

      const listed = (await list()).json().data.keys;
      expect(listed[0]).toEqual(key);
      expect(JSON.stringify(listed)).not.toContain(secret);
      expect((await history(secret)).statusCode).toBe(200);
    });

    it('refuses a name no key can have', async () => {
      for (const name of ['', '   ', 'x'.repeat(65), 'tab\there']) {
        const answer = await create({ name, scope: 'payments:read' });
        expect(answer.statusCode).toBe(400);
        expect(answer.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'name' });
      }
      expect((await create({ name: 'ok', scope: 'payments:everything' })).statusCode).toBe(400);
    });

    it('refuses a revoked key at once, in every instance, and keeps it listed', async () => {
      const { key, secret } = (await create({ name: 'Till', scope: 'payments:read' })).json().data;
      // A second instance on the same database.
      const other = await createTestApp({ database, env: { HISTORY_ACCESS: 'operators' } });
      try {
        expect((await history(secret)).statusCode).toBe(200);
        world.advance(1000);
        const revoked = await revoke(key.id);
        expect(revoked.statusCode).toBe(200);
        expect(revoked.json().data.key.revokedAt).toBe(world.clock.now.toISOString());
        expect((await history(secret)).statusCode).toBe(401);
        const elsewhere = await other.app.inject({
          url: '/api/mpesa/summary',
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(elsewhere.statusCode).toBe(401);
      } finally {
        await other.app.close();
      }
      // Revoking again changes nothing.
      world.advance(1000);
      const again = await revoke(key.id);
      expect(again.json().data.key.revokedAt).not.toBe(world.clock.now.toISOString());
      const listed = (await list()).json().data.keys;
      expect(listed.find((each: { id: string }) => each.id === key.id).revokedAt).not.toBeNull();
    });

    it('answers 404 API_KEY_NOT_FOUND for an id that is no key', async () => {
      for (const id of ['no-such-key', 'x'.repeat(100)]) {
        const answer = await revoke(id);
        expect(answer.statusCode).toBe(404);
        expect(answer.json()).toEqual({
          success: false,
          code: 'API_KEY_NOT_FOUND',
          message: 'There is no API key with this id.',
        });
      }
    });

    it('records who created and revoked which key, and when', async () => {
      const { key } = (await create({ name: 'Till', scope: 'payments:request' })).json().data;
      world.advance(5000);
      await revoke(key.id);
      await revoke(key.id);
      const trail = await database.db
        .selectFrom('audit_events')
        .select(['at', 'actor_kind', 'actor', 'action', 'target', 'detail'])
        .where('action', 'in', ['key_created', 'key_revoked'])
        .orderBy('at')
        .execute();
      expect(trail).toEqual([
        {
          at: '2026-11-25T09:00:00.000Z',
          actor_kind: 'operator',
          actor: 'Amina',
          action: 'key_created',
          target: 'Till',
          detail: 'scope payments:request',
        },
        {
          at: '2026-11-25T09:00:05.000Z',
          actor_kind: 'operator',
          actor: 'Amina',
          action: 'key_revoked',
          target: 'Till',
          detail: 'scope payments:request',
        },
      ]);
    });

    it('writes when a key was last used at most once a minute', async () => {
      const { key, secret } = (await create({ name: 'Till', scope: 'payments:read' })).json().data;
      const lastUsed = async () =>
        (await list()).json().data.keys.find((each: { id: string }) => each.id === key.id)
          .lastUsedAt;
      const first = world.clock.now.toISOString();
      await history(secret);
      expect(await lastUsed()).toBe(first);
      world.advance(30_000);
      await history(secret);
      expect(await lastUsed()).toBe(first);
      world.advance(30_000);
      await history(secret);
      expect(await lastUsed()).toBe(world.clock.now.toISOString());
    });

    it('judges a request by its key alone, whatever session cookie it carries', async () => {
      const answer = await world.app.inject({
        url: '/api/mpesa/transactions',
        headers: { cookie: owner.cookie, authorization: `Bearer ${world.keys.revoked}` },
      });
      expect(answer.statusCode).toBe(401);
    });
  });
}
