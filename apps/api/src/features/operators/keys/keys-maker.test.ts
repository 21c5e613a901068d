/**
 * A key ends with its maker: removing the owner who made it, or making them a cashier or
 * a viewer, revokes it in the same transaction, on every instance at once, with a line in the
 * audit trail; the keys' list says who made each key and why a revoked one was revoked. On each
 * database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKey } from '@mpesa/shared/contract-admin';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { createTestApp, TEST_PASSWORD_HASH_COST } from '../../../test/test-app.ts';
import {
  PASSWORD,
  signedInWorld,
  type Browser,
  type SignedInWorld,
} from '../../../test/signed-in.ts';
import { addOperator, removeOperator } from '../operators.service.ts';
import { createKey } from './keys.service.ts';

/** A second owner, who makes keys and is then removed or demoted by Amina. */
const MAKER = 'Zuri';

for (const dialect of DIALECTS) {
  describe(`a key ends with its maker (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    let amina: Browser;
    let zuri: Browser;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
      await addOperator(database.db, {
        name: MAKER,
        role: 'owner',
        password: PASSWORD,
        now: world.clock.now,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
      amina = await world.signIn('owner');
      zuri = await signInAs(MAKER);
    });
    afterEach(async () => {
      await world.close();
      await database.destroy();
    });

    async function signInAs(name: string): Promise<Browser> {
      const answer = await world.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { name, password: PASSWORD },
      });
      const session = answer.cookies.find((each) => each.name === 'mpesa_session');
      // The token is bound to the session it is asked with.
      const csrf = await world.app.inject({
        url: '/api/auth/csrf',
        headers: { cookie: `mpesa_session=${session?.value}` },
      });
      const secret = csrf.cookies.find((each) => each.name === 'mpesa_csrf');
      return {
        cookie: `mpesa_session=${session?.value}; mpesa_csrf=${secret?.value}`,
        csrfToken: csrf.json().data.token,
      };
    }

    const as = (browser: Browser) => ({
      cookie: browser.cookie,
      'x-csrf-token': browser.csrfToken,
    });
    const makeKey = async (by: Browser, name: string) => {
      const answer = await world.app.inject({
        method: 'POST',
        url: '/api/keys',
        payload: { name, scope: 'payments:read' },
        headers: as(by),
      });
      expect(answer.statusCode).toBe(201);
      return answer.json().data as { key: ApiKey; secret: string };
    };
    const listed = async (id: string): Promise<ApiKey> => {
      const answer = await world.app.inject({ url: '/api/keys', headers: as(amina) });
      return answer.json().data.keys.find((each: ApiKey) => each.id === id);
    };
    const history = (app: SignedInWorld['app'], secret: string) =>
      app.inject({
        url: '/api/mpesa/transactions',
        headers: { authorization: `Bearer ${secret}` },
      });
    const keyLines = () =>
      database.db
        .selectFrom('audit_events')
        .select(['actor_kind', 'actor', 'action', 'target', 'detail'])
        .where('action', '=', 'key_revoked')
        .orderBy('id')
        .execute();

    it('revokes every key a removed owner made, on every instance at once, and says why', async () => {
      const first = await makeKey(zuri, 'Till export');
      const second = await makeKey(zuri, 'Accounts');
      const kept = await makeKey(amina, 'Amina’s own');
      const other = await createTestApp({ database, env: { HISTORY_ACCESS: 'operators' } });
      try {
        expect((await history(other.app, first.secret)).statusCode).toBe(200);
        world.advance(1000);
        const removed = await world.app.inject({
          method: 'DELETE',
          url: `/api/operators/${MAKER}`,
          headers: as(amina),
        });
        expect(removed.statusCode).toBe(200);
        for (const { secret } of [first, second]) {
          for (const app of [world.app, other.app]) {
            const refused = await history(app, secret);
            expect(refused.statusCode).toBe(401);
            expect(refused.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
          }
        }
        // A key whose maker is still an owner keeps working.
        expect((await history(other.app, kept.secret)).statusCode).toBe(200);
      } finally {
        await other.app.close();
      }

      expect(await listed(first.key.id)).toMatchObject({
        createdBy: MAKER,
        revokedAt: world.clock.now.toISOString(),
        revokedReason: 'maker_removed',
        revokedBy: 'Amina',
      });
      expect(await listed(kept.key.id)).toMatchObject({
        createdBy: 'Amina',
        revokedAt: null,
        revokedReason: null,
        revokedBy: null,
      });
      expect(await keyLines()).toEqual(
        ['Till export', 'Accounts'].map((target) => ({
          actor_kind: 'operator',
          actor: 'Amina',
          action: 'key_revoked',
          target,
          detail: `scope payments:read; its maker ${MAKER} was removed`,
        })),
      );
    });

    for (const role of ['cashier', 'viewer'] as const) {
      it(`revokes every key of an owner made a ${role}, and says why`, async () => {
        const made = await makeKey(zuri, 'Till export');
        const changed = await world.app.inject({
          method: 'PATCH',
          url: `/api/operators/${MAKER}`,
          payload: { role },
          headers: as(amina),
        });
        expect(changed.statusCode).toBe(200);
        expect((await history(world.app, made.secret)).statusCode).toBe(401);
        expect(await listed(made.key.id)).toMatchObject({
          createdBy: MAKER,
          revokedReason: 'maker_not_owner',
          revokedBy: 'Amina',
        });
        expect(await keyLines()).toEqual([
          {
            actor_kind: 'operator',
            actor: 'Amina',
            action: 'key_revoked',
            target: 'Till export',
            detail: `scope payments:read; its maker ${MAKER} is no longer an owner (now ${role})`,
          },
        ]);
      });
    }

    it('keeps the keys of an owner whose role is set to owner again, or who changes someone else', async () => {
      const made = await makeKey(zuri, 'Till export');
      for (const [name, role] of [
        [MAKER, 'owner'],
        ['Otieno', 'cashier'],
      ] as const) {
        const changed = await world.app.inject({
          method: 'PATCH',
          url: `/api/operators/${name}`,
          payload: { role },
          headers: as(amina),
        });
        expect(changed.statusCode).toBe(200);
      }
      await world.app.inject({ method: 'DELETE', url: '/api/operators/Baraka', headers: as(zuri) });
      expect((await history(world.app, made.secret)).statusCode).toBe(200);
      expect((await listed(made.key.id)).revokedAt).toBeNull();
      expect(await keyLines()).toEqual([]);
    });

    it('says who revoked a key an owner revoked', async () => {
      const made = await makeKey(zuri, 'Till export');
      await world.app.inject({
        method: 'DELETE',
        url: `/api/keys/${made.key.id}`,
        headers: as(amina),
      });
      expect(await listed(made.key.id)).toMatchObject({
        revokedReason: 'owner',
        revokedBy: 'Amina',
      });
    });

    it('makes no key for an owner who is no longer one by the time it is written', async () => {
      const zuriRow = await database.db
        .selectFrom('operators')
        .select('id')
        .where('name', '=', MAKER)
        .executeTakeFirstOrThrow();
      await removeOperator(database.db, MAKER, { now: world.clock.now });
      await expect(
        createKey(database.db, {
          name: 'Late',
          scope: 'payments:read',
          createdBy: MAKER,
          createdById: zuriRow.id,
          now: world.clock.now,
        }),
      ).rejects.toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
      expect(
        await database.db.selectFrom('api_keys').select('id').where('name', '=', 'Late').execute(),
      ).toEqual([]);
    });
  });
}
