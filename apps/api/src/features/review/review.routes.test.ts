/**
 * Reviewing a payment from the web app, an owner's (docs/product.md: only a person clears a flag):
 * the same rules as `npm run review`, with who reviewed in the timeline and the audit trail.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import {
  STAFF,
  addStaff,
  refusalsOf,
  refusedAll,
  send,
  signedIn,
} from '../../test/operator-session.ts';

const FLAG = 'M-PESA reported 1 KES, not 100 KES';
const review = (id: string, payload: Record<string, unknown>) =>
  ({ method: 'POST', url: `/api/mpesa/transactions/${id}/review`, payload }) as const;

for (const dialect of DIALECTS) {
  // With `open` there are no owners' screens: the route is not there (below).
  for (const historyAccess of ['operators']) {
    describe(`an owner reviewing a payment, HISTORY_ACCESS=${historyAccess} (${dialect})`, () => {
      let database: TestDatabase;
      let app: FastifyInstance;
      const clock = new Date('2026-11-25T09:00:00.000Z');

      beforeEach(async () => {
        database = await createTestDatabase(dialect);
        await addStaff(database, clock);
        await database.db
          .insertInto('transactions')
          .values([
            storedPayment('tx-flagged', '2026-11-25T08:00:00.000Z', { flagged_reason: FLAG }),
            storedPayment('tx-unknown', '2026-11-25T08:01:00.000Z', { status: 'unknown' }),
            storedPayment('tx-plain', '2026-11-25T08:02:00.000Z'),
          ])
          .execute();
        ({ app } = await createTestApp({
          database,
          env: { HISTORY_ACCESS: historyAccess },
          now: () => clock,
        }));
      });
      afterEach(async () => {
        await app.close();
        await database.destroy();
      });

      it('refuses a stranger, a viewer, a cashier, another site and a request without the CSRF token', async () => {
        expect(await refusalsOf(app, review('tx-flagged', { note: 'seen it' }))).toEqual(
          refusedAll(true),
        );
        const row = await database.db
          .selectFrom('transactions')
          .select('flagged_reason')
          .where('id', '=', 'tx-flagged')
          .executeTakeFirstOrThrow();
        expect(row.flagged_reason).toBe(FLAG);
      });

      it('clears a flag with a note, naming the owner in the timeline and the audit trail', async () => {
        const owner = await signedIn(app, STAFF.owner);
        const answer = await send(
          app,
          review('tx-flagged', { note: 'statement shows 100 KES', status: 'success' }),
          owner,
        );
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toMatchObject({
          success: true,
          data: { _id: 'tx-flagged', status: 'success', updatedAt: clock.toISOString() },
        });
        const timeline = await app.inject({
          url: '/api/mpesa/transactions/tx-flagged/events',
          headers: { cookie: owner },
        });
        expect(timeline.json().data.at(-1)).toMatchObject({
          source: 'review',
          kind: 'flag_cleared',
          reviewer: 'Amina',
          title: 'Reviewed by Amina: kept paid',
          detail: expect.stringContaining('statement shows 100 KES'),
        });
        const audit = await database.db
          .selectFrom('audit_events')
          .selectAll()
          .where('action', '=', 'review')
          .execute();
        expect(audit).toEqual([
          expect.objectContaining({
            actor_kind: 'operator',
            actor: 'Amina',
            target: 'tx-flagged',
            detail: 'success → success: statement shows 100 KES',
          }),
        ]);
        // Cleared once: the same review again has nothing to clear.
        const again = await send(app, review('tx-flagged', { note: 'again' }), owner);
        expect(again.statusCode).toBe(409);
        expect(again.json()).toMatchObject({
          code: 'REVIEW_REFUSED',
          message: 'Transaction tx-flagged is neither flagged nor of unknown outcome.',
        });
      });

      it('refuses an empty note, an unknown payment, one not waiting for review, and an unknown outcome without a status', async () => {
        const owner = await signedIn(app, STAFF.owner);
        const empty = await send(app, review('tx-flagged', { note: '   ' }), owner);
        expect(empty.statusCode).toBe(400);
        expect(empty.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'note' });
        const missing = await send(app, review('tx-none', { note: 'why' }), owner);
        expect(missing.statusCode).toBe(404);
        expect(missing.json().code).toBe('TRANSACTION_NOT_FOUND');
        const plain = await send(app, review('tx-plain', { note: 'why' }), owner);
        expect(plain.json().code).toBe('REVIEW_REFUSED');
        const noStatus = await send(app, review('tx-unknown', { note: 'why' }), owner);
        expect(noStatus.statusCode).toBe(409);
        const settled = await send(
          app,
          review('tx-unknown', { note: 'not on the statement', status: 'failed' }),
          owner,
        );
        expect(settled.json().data.status).toBe('failed');
        const badStatus = await send(
          app,
          review('tx-flagged', { note: 'why', status: 'pending' }),
          owner,
        );
        expect(badStatus.statusCode).toBe(400);
      });
    });
  }
}

describe('reviewing from the web app with HISTORY_ACCESS=open', () => {
  it('is not there: the specification’s screens have no owner, and `npm run review` remains', async () => {
    const database = await createTestDatabase('sqlite');
    const clock = new Date('2026-11-25T09:00:00.000Z');
    await addStaff(database, clock);
    await database.db
      .insertInto('transactions')
      .values(storedPayment('tx-flagged', '2026-11-25T08:00:00.000Z', { flagged_reason: FLAG }))
      .execute();
    const { app } = await createTestApp({ database, env: { HISTORY_ACCESS: 'open' } });
    try {
      const owner = await signedIn(app, STAFF.owner);
      const answer = await send(app, review('tx-flagged', { note: 'seen it' }), owner);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
      const row = await database.db
        .selectFrom('transactions')
        .select('flagged_reason')
        .where('id', '=', 'tx-flagged')
        .executeTakeFirstOrThrow();
      expect(row.flagged_reason).toBe(FLAG);
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});
