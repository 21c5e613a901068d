/** The gate of the merchant's routes, by role: a viewer is refused what needs an owner. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_PASSWORD_HASH_COST } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { addOperator } from './operators.service.ts';
import { operatorOf, requireOperator, type AuthDeps } from './require-operator.ts';
import { SIGN_IN_LIMIT } from './operators.plugin.ts';
import { signIn } from './sessions.service.ts';

const PASSWORD = 'correct horse battery';

for (const dialect of DIALECTS) {
  describe(`requireOperator (${dialect})`, () => {
    let database: TestDatabase;
    let deps: AuthDeps;
    const now = new Date('2026-11-25T09:00:00.000Z');

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      deps = {
        db: database.db,
        now: () => now,
        cookieName: 'mpesa_session',
        sessions: {
          idleMs: 30 * 60_000,
          maxMs: 12 * 3_600_000,
          signInLimit: SIGN_IN_LIMIT,
          passwordHashCost: TEST_PASSWORD_HASH_COST,
        },
      };
      await addOperator(database.db, {
        name: 'Amina',
        role: 'owner',
        password: PASSWORD,
        now,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
      await addOperator(database.db, {
        name: 'Otieno',
        role: 'viewer',
        password: PASSWORD,
        now,
        passwordHashCost: TEST_PASSWORD_HASH_COST,
      });
    });
    afterEach(async () => {
      await database.destroy();
    });

    /** Runs the gate for a request carrying `token` as its session cookie. */
    async function gate(minimum: 'viewer' | 'owner', token?: string) {
      const request = {
        headers: {},
        cookies: token ? { mpesa_session: token } : {},
      } as FastifyRequest;
      const hook = requireOperator(deps, minimum);
      await hook.call(null as never, request, {} as FastifyReply);
      return operatorOf(request);
    }

    const tokenOf = async (name: string) =>
      (await signIn(deps, { name, password: PASSWORD, addressKey: '192.0.2.1' })).token;

    it('lets an owner through a route that needs an owner, and refuses a viewer 403', async () => {
      await expect(gate('owner', await tokenOf('Amina'))).resolves.toMatchObject({
        name: 'Amina',
        role: 'owner',
      });
      await expect(gate('owner', await tokenOf('Otieno'))).rejects.toMatchObject({
        statusCode: 403,
        code: 'ROLE_NOT_ALLOWED',
      });
      await expect(gate('viewer', await tokenOf('Otieno'))).resolves.toMatchObject({
        role: 'viewer',
      });
    });

    it('refuses a stranger and a made-up token 401', async () => {
      for (const token of [undefined, 'made-up', 'x'.repeat(5000)]) {
        await expect(gate('viewer', token)).rejects.toMatchObject({
          statusCode: 401,
          code: 'UNAUTHENTICATED',
        });
      }
    });
  });
}
