/**
 * The owner's management of operators (add with a one-time link, change a role, remove, a new
 * link), the last owner, and look-alike names, on each database.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import {
  PASSWORD,
  STAFF,
  addStaff,
  refusalsOf,
  refusedAll,
  send,
  signedIn,
} from '../../test/operator-session.ts';
import { addOperator, changeRole, OperatorError } from './operators.service.ts';

for (const dialect of DIALECTS) {
  describe(`an owner managing operators (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let clock: Date;
    let owner: string;

    beforeEach(async () => {
      clock = new Date('2026-11-25T09:00:00.000Z');
      database = await createTestDatabase(dialect);
      await addStaff(database, clock);
      // The operator routes are an owner's whatever HISTORY_ACCESS says.
      ({ app } = await createTestApp({
        database,
        now: () => clock,
        env: { HISTORY_ACCESS: 'operators' },
      }));
      owner = await signedIn(app, STAFF.owner);
    });
    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    const roleOf = async (name: string) =>
      (await send(app, { method: 'GET', url: '/api/operators' }, owner))
        .json()
        .data.operators.find((each: { name: string }) => each.name === name)?.role;

    it('refuses every route to a stranger, a viewer, a cashier, another site and a request without the CSRF token', async () => {
      const routes = [
        { method: 'GET', url: '/api/operators' },
        { method: 'POST', url: '/api/operators', payload: { name: 'Zawadi', role: 'viewer' } },
        { method: 'PATCH', url: '/api/operators/Otieno', payload: { role: 'owner' } },
        { method: 'DELETE', url: '/api/operators/Otieno' },
        { method: 'POST', url: '/api/operators/Otieno/password-link' },
      ] as const;
      for (const route of routes) {
        expect(await refusalsOf(app, route), `${route.method} ${route.url}`).toEqual(
          refusedAll(route.method !== 'GET'),
        );
      }
      // Nothing was changed by any of them.
      expect(await roleOf('Otieno')).toBe('viewer');
      expect(await roleOf('Zawadi')).toBeUndefined();
    });

    it('adds an operator with no password until they use their link, which then ends with one use', async () => {
      const added = await send(
        app,
        { method: 'POST', url: '/api/operators', payload: { name: ' Zawadi ', role: 'cashier' } },
        owner,
      );
      expect(added.statusCode).toBe(201);
      const { operator, link } = added.json().data;
      expect(operator).toEqual({
        name: 'Zawadi',
        role: 'cashier',
        createdAt: clock.toISOString(),
        passwordSet: false,
        you: false,
      });
      expect(link).toEqual({
        name: 'Zawadi',
        path: expect.stringMatching(/^\/set-password#[\w-]{43}$/),
        expiresAt: '2026-11-26T09:00:00.000Z',
      });
      // No password works yet, not even the marker kept in its place.
      for (const password of ['!', PASSWORD]) {
        const answer = await app.inject({
          method: 'POST',
          url: '/api/auth/sign-in',
          payload: { name: 'Zawadi', password },
        });
        expect(answer.json().code).toBe('SIGN_IN_FAILED');
      }
      const token = link.path.split('#')[1];
      const set = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { token, password: 'a phrase of her own' },
      });
      expect(set.json()).toEqual({ success: true, data: { name: 'Zawadi' } });
      await signedIn(app, 'Zawadi', 'a phrase of her own');
      const listed = await send(app, { method: 'GET', url: '/api/operators' }, owner);
      expect(listed.json().data.operators).toEqual([
        expect.objectContaining({ name: 'Amina', role: 'owner', passwordSet: true, you: true }),
        expect.objectContaining({ name: 'Baraka', role: 'cashier', you: false }),
        expect.objectContaining({ name: 'Otieno', role: 'viewer' }),
        expect.objectContaining({ name: 'Zawadi', role: 'cashier', passwordSet: true }),
      ]);
      // The same link a second time.
      const again = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { token, password: 'another phrase entirely' },
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('PASSWORD_LINK_INVALID');
      await signedIn(app, 'Zawadi', 'a phrase of her own');
    });

    it('changes a role and removes an operator, ending their sessions; names match in any case', async () => {
      const viewer = await signedIn(app, STAFF.viewer);
      const changed = await send(
        app,
        { method: 'PATCH', url: '/api/operators/OTIENO', payload: { role: 'cashier' } },
        owner,
      );
      expect(changed.json().data.operator).toMatchObject({ name: 'Otieno', role: 'cashier' });
      const removed = await send(app, { method: 'DELETE', url: '/api/operators/otieno' }, owner);
      expect(removed.json()).toEqual({ success: true, data: { removed: true } });
      const me = await app.inject({ url: '/api/auth/me', headers: { cookie: viewer } });
      expect(me.statusCode).toBe(401);
      const missing = await send(app, { method: 'DELETE', url: '/api/operators/Otieno' }, owner);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({
        code: 'OPERATOR_NOT_FOUND',
        message: 'No operator is named Otieno.',
      });
    });

    it('never removes or demotes the last owner, and lets a second owner go', async () => {
      for (const request of [
        { method: 'PATCH', url: '/api/operators/Amina', payload: { role: 'viewer' } },
        { method: 'DELETE', url: '/api/operators/amina' },
      ] as const) {
        const answer = await send(app, request, owner);
        expect(answer.statusCode).toBe(409);
        expect(answer.json().code).toBe('LAST_OWNER');
      }
      expect(await roleOf('Amina')).toBe('owner');
      await send(
        app,
        { method: 'PATCH', url: '/api/operators/Baraka', payload: { role: 'owner' } },
        owner,
      );
      const demoted = await send(
        app,
        { method: 'PATCH', url: '/api/operators/Amina', payload: { role: 'viewer' } },
        owner,
      );
      expect(demoted.json().data.operator).toMatchObject({ role: 'viewer', you: true });
      await expect(changeRole(database.db, 'Baraka', 'cashier', clock)).rejects.toMatchObject({
        kind: 'last_owner',
      });
    });

    it('keeps one owner when two owners demote each other at the same moment', async () => {
      await changeRole(database.db, 'Baraka', 'owner', clock);
      for (let round = 0; round < 3; round++) {
        const results = await Promise.allSettled([
          changeRole(database.db, 'Amina', 'viewer', clock),
          changeRole(database.db, 'Baraka', 'viewer', clock),
        ]);
        const refused = results.filter((each) => each.status === 'rejected');
        expect(refused).toHaveLength(1);
        expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(OperatorError);
        const owners = await database.db
          .selectFrom('operators')
          .select('name')
          .where('role', '=', 'owner')
          .execute();
        expect(owners).toHaveLength(1);
        // Both owners again for the next round.
        await changeRole(database.db, 'Amina', 'owner', clock);
        await changeRole(database.db, 'Baraka', 'owner', clock);
      }
    });

    it('refuses names that mix alphabets or look like an operator’s, from the web and the command line alike', async () => {
      await addOperator(database.db, {
        name: 'Mike',
        role: 'viewer',
        password: PASSWORD,
        now: clock,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
      const add = (name: string) =>
        send(
          app,
          { method: 'POST', url: '/api/operators', payload: { name, role: 'viewer' } },
          owner,
        );

      // "Аmina" with a Cyrillic А.
      const mixed = await add('\u0410mina');
      expect(mixed.statusCode).toBe(400);
      expect(mixed.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        field: 'name',
        message: expect.stringContaining('mixes Latin letters with Cyrillic or Greek'),
      });
      // "Міке", all Cyrillic, reads as Mike.
      const lookAlike = await add('\u041c\u0456\u043a\u0435');
      expect(lookAlike.statusCode).toBe(409);
      expect(lookAlike.json()).toMatchObject({
        code: 'OPERATOR_EXISTS',
        field: 'name',
        message:
          '\u041c\u0456\u043a\u0435 looks like Mike, an existing operator: choose a name that cannot be mistaken for it.',
      });
      const same = await add('ＡＭＩＮＡ');
      expect(same.json()).toMatchObject({
        code: 'OPERATOR_EXISTS',
        message: 'An operator named AMINA already exists.',
      });
      // The command line's way in refuses them too.
      await expect(
        addOperator(database.db, {
          name: '\u041c\u0456\u043a\u0435',
          role: 'owner',
          password: PASSWORD,
          now: clock,
          passwordHashCost: TEST_PASSWORD_HASH_COST,
        }),
      ).rejects.toMatchObject({ kind: 'exists' });
      // A name wholly in another alphabet that looks like no one's is a name.
      expect((await add('Ольга')).statusCode).toBe(201);
    });
  });
}
