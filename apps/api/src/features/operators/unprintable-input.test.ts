/**
 * Text that can name nothing of ours on the owner's routes (a NUL in a path or a note, which
 * PostgreSQL refuses outright) gets our refusals, never a 500, on each database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { signedInWorld, type Browser, type SignedInWorld } from '../../test/signed-in.ts';

const FLAGGED = 'tx-flagged';
const FLAGGED_TOO = 'tx-flagged-too';
const FLAG = 'M-PESA reported 1 KES, not 100 KES';

for (const dialect of DIALECTS) {
  describe(`text with control characters on the owner's routes (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    let owner: Browser;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
      await database.db
        .insertInto('transactions')
        .values(
          [FLAGGED, FLAGGED_TOO].map((id) =>
            storedPayment(id, '2026-11-25T08:30:00.000Z', { flagged_reason: FLAG }),
          ),
        )
        .execute();
      owner = await world.signIn('owner');
    });
    afterAll(async () => {
      await world.close();
      await database.destroy();
    });

    const asOwner = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      world.app.inject({
        method,
        url,
        ...(payload ? { payload } : {}),
        headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
      });
    const flagOf = async (id = FLAGGED) =>
      (
        await database.db
          .selectFrom('transactions')
          .select('flagged_reason')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).flagged_reason;

    it('finds no payment to review with a NUL in its id', async () => {
      const answer = await asOwner('POST', '/api/mpesa/transactions/a%00b/review', { note: 'ok' });
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
    });

    it('refuses a review note with a control character, and keeps the flag', async () => {
      const answer = await asOwner('POST', `/api/mpesa/transactions/${FLAGGED}/review`, {
        note: 'statement\u0000shows 100 KES',
      });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'note' });
      expect(await flagOf()).toBe(FLAG);
    });

    it('takes a note on several lines, with tabs', async () => {
      const answer = await asOwner('POST', `/api/mpesa/transactions/${FLAGGED_TOO}/review`, {
        note: 'Statement:\r\n\t100 KES',
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await flagOf(FLAGGED_TOO)).toBeNull();
    });

    it('finds no API key to revoke with a NUL in its id', async () => {
      const answer = await asOwner('DELETE', '/api/keys/a%00b');
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json()).toMatchObject({ code: 'API_KEY_NOT_FOUND' });
    });

    it('finds no operator with a NUL in their name', async () => {
      for (const [method, url, payload] of [
        ['PATCH', '/api/operators/a%00b', { role: 'viewer' }],
        ['DELETE', '/api/operators/a%00b', undefined],
        ['POST', '/api/operators/a%00b/password-link', undefined],
      ] as const) {
        const answer = await asOwner(method, url, payload);
        expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBe(404);
        expect(answer.json()).toMatchObject({ code: 'OPERATOR_NOT_FOUND' });
      }
    });
  });
}
