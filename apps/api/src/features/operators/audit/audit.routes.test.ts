/**
 * The audit trail: what is recorded (sign-ins, failed ones without the typed text, sign-outs,
 * operator changes, links, passwords set, from the web and the command line), and reading it back
 * as an owner, newest first, a page at a time. On each database.
 */
import type { FastifyInstance } from 'fastify';
import type { AuditAction, AuditActorKind, AuditEntry } from '@mpesa/shared/contract-admin';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/test-app.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import {
  STAFF,
  addStaff,
  refusalsOf,
  refusedAll,
  send,
  signedIn,
} from '../../../test/operator-session.ts';
import { storedPayment } from '../../../test/stored-payment.ts';
import { changeRole } from '../operators.service.ts';

const ADDRESS = '203.0.113.9';

for (const dialect of DIALECTS) {
  describe(`the audit trail (${dialect})`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let clock: Date;

    beforeEach(async () => {
      clock = new Date('2026-11-25T09:00:00.000Z');
      database = await createTestDatabase(dialect);
      await addStaff(database, clock);
      ({ app } = await createTestApp({
        database,
        now: () => clock,
        env: { HISTORY_ACCESS: 'operators' },
      }));
    });
    afterEach(async () => {
      await app.close();
      await database.destroy();
    });

    /** One minute later, so that each line has its own time. */
    const tick = () => {
      clock = new Date(clock.getTime() + 60_000);
    };
    const signIn = (name: string, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/sign-in',
        payload: { name, password },
        remoteAddress: ADDRESS,
      });
    const read = async (owner: string, query = '') => {
      const answer = await app.inject({ url: `/api/audit${query}`, headers: { cookie: owner } });
      expect(answer.statusCode).toBe(200);
      return answer.json().data as {
        entries: AuditEntry[];
        nextCursor: string | null;
      };
    };

    it('is an owner’s to read: a stranger, a viewer and a cashier are refused', async () => {
      expect(await refusalsOf(app, { method: 'GET', url: '/api/audit' })).toEqual(
        refusedAll(false),
      );
    });

    it('records sign-ins, failed ones and sign-outs, keeping no typed text that is no operator’s name', async () => {
      const typedPassword = 'hunter2-typed-in-the-name-field';
      expect((await signIn(typedPassword, 'whatever it is')).statusCode).toBe(401);
      tick();
      expect((await signIn('Otieno', 'the wrong password')).statusCode).toBe(401);
      tick();
      const session = await signIn('Otieno', 'correct horse battery');
      const cookie = `mpesa_session=${session.cookies[0]?.value}`;
      tick();
      await send(app, { method: 'POST', url: '/api/auth/sign-out' }, cookie);
      tick();
      const owner = await signedIn(app, STAFF.owner);

      const { entries } = await read(owner);
      expect(entries.map(({ action, actor, actorKind }) => [action, actorKind, actor])).toEqual([
        ['sign_in', 'operator', 'Amina'],
        ['sign_out', 'operator', 'Otieno'],
        ['sign_in', 'operator', 'Otieno'],
        ['sign_in_failed', 'anonymous', 'Otieno'],
        ['sign_in_failed', 'anonymous', null],
      ]);
      expect(entries[2]).toMatchObject({ address: ADDRESS, at: '2026-11-25T09:02:00.000Z' });
      const everything = JSON.stringify(
        await database.db.selectFrom('audit_events').selectAll().execute(),
      );
      expect(everything).not.toContain(typedPassword);
      expect(everything).not.toContain('hunter2');
    });

    it('records operator changes and links from the web app and from the command line', async () => {
      const owner = await signedIn(app, STAFF.owner);
      await send(
        app,
        { method: 'POST', url: '/api/operators', payload: { name: 'Zawadi', role: 'viewer' } },
        owner,
      );
      tick();
      const answer = await send(
        app,
        { method: 'PATCH', url: '/api/operators/Zawadi', payload: { role: 'cashier' } },
        owner,
      );
      expect(answer.statusCode).toBe(200);
      tick();
      await changeRole(database.db, 'Zawadi', 'viewer', clock, {
        actorKind: 'command',
        actor: null,
        address: null,
      });
      tick();
      await send(app, { method: 'DELETE', url: '/api/operators/Zawadi' }, owner);

      const { entries } = await read(owner);
      const lines = entries
        .filter((entry) => entry.action !== 'sign_in')
        .map(({ action, actorKind, actor, target, detail }) => [
          action,
          actorKind,
          actor,
          target,
          detail,
        ]);
      expect(lines).toEqual([
        ['operator_removed', 'operator', 'Amina', 'Zawadi', 'was viewer'],
        ['operator_role_changed', 'command', null, 'Zawadi', 'cashier → viewer'],
        ['operator_role_changed', 'operator', 'Amina', 'Zawadi', 'viewer → cashier'],
        ['password_link_issued', 'operator', 'Amina', 'Zawadi', null],
        ['operator_added', 'operator', 'Amina', 'Zawadi', 'role: viewer'],
      ]);
    });

    it('records an operator setting their own password with a one-time link as done by them', async () => {
      const owner = await signedIn(app, STAFF.owner);
      const added = await send(
        app,
        { method: 'POST', url: '/api/operators', payload: { name: 'Zawadi', role: 'cashier' } },
        owner,
      );
      const token = added.json().data.link.path.split('#')[1];
      tick();
      const set = await app.inject({
        method: 'POST',
        url: '/api/auth/set-password',
        payload: { token, password: 'a phrase of her own choosing' },
        remoteAddress: ADDRESS,
      });
      expect(set.statusCode).toBe(200);

      const [line] = (await read(owner)).entries;
      expect(line).toEqual({
        id: expect.any(String),
        at: '2026-11-25T09:01:00.000Z',
        actorKind: 'operator',
        actor: 'Zawadi',
        action: 'password_set',
        target: 'Zawadi',
        subject: { kind: 'operator', id: 'Zawadi', name: 'Zawadi' },
        detail: 'by a one-time link',
        facts: { kind: 'one_time_link' },
        address: ADDRESS,
      });
      // As stored, not only as read.
      const stored = await database.db
        .selectFrom('audit_events')
        .select(['actor_kind', 'actor'])
        .where('action', '=', 'password_set')
        .execute();
      expect(stored).toEqual([{ actor_kind: 'operator', actor: 'Zawadi' }]);
    });

    it('reads a password set by an earlier version, stored as by someone not signed in, as the operator’s own', async () => {
      await database.db
        .insertInto('audit_events')
        .values({
          id: '0000000000000000000000a1',
          at: '2026-11-20T09:00:00.000Z',
          actor_kind: 'anonymous',
          actor: null,
          action: 'password_set',
          target: 'Otieno',
          detail: 'by a one-time link',
          address: ADDRESS,
        })
        .execute();
      const owner = await signedIn(app, STAFF.owner);
      const line = (await read(owner)).entries.find((entry) => entry.action === 'password_set');
      expect(line).toMatchObject({ actorKind: 'operator', actor: 'Otieno', target: 'Otieno' });
    });

    it('reads a line a later version wrote, of an action and a doer this one does not know, as stored', async () => {
      await database.db
        .insertInto('audit_events')
        .values({
          id: '0000000000000000000000b1',
          at: '2026-11-20T09:00:00.000Z',
          // As a later version (payouts, say) may write it, before this one is rolled back to.
          actor_kind: 'scheduler' as AuditActorKind,
          actor: 'Night run',
          action: 'payout_approved' as AuditAction,
          target: 'po_123',
          detail: 'KES 5,000 to 254712345678',
          address: null,
        })
        .execute();
      const owner = await signedIn(app, STAFF.owner);
      const line = (await read(owner)).entries.find((entry) => entry.target === 'po_123');
      expect(line).toMatchObject({
        actorKind: 'scheduler',
        actor: 'Night run',
        action: 'payout_approved',
        subject: null,
        detail: 'KES 5,000 to 254712345678',
        facts: null,
      });
    });

    it('names what each line is about and reads its detail into parts, keeping the stored words', async () => {
      await database.db
        .insertInto('transactions')
        .values(
          storedPayment('tx-flagged', '2026-11-25T08:00:00.000Z', {
            reference: 'INV-1042',
            flagged_reason: 'M-PESA reported 1 KES, not 100 KES',
          }),
        )
        .execute();
      const owner = await signedIn(app, STAFF.owner);
      tick();
      const reviewed = await send(
        app,
        {
          method: 'POST',
          url: '/api/mpesa/transactions/tx-flagged/review',
          payload: { note: 'statement shows 100 KES', status: 'success' },
        },
        owner,
      );
      expect(reviewed.statusCode).toBe(200);
      tick();
      const exported = await app.inject({
        url: '/api/mpesa/transactions/export?status=success,failed&from=2026-11-01&to=2026-11-25&q=0712345678',
        headers: { cookie: owner },
      });
      expect(exported.statusCode).toBe(200);
      tick();
      await send(
        app,
        { method: 'POST', url: '/api/keys', payload: { name: 'Till 2', scope: 'payments:read' } },
        owner,
      );
      tick();
      await send(
        app,
        { method: 'PATCH', url: '/api/operators/Otieno', payload: { role: 'cashier' } },
        owner,
      );

      const { entries } = await read(owner);
      const parts = entries
        .filter((entry) => entry.action !== 'sign_in')
        .map(({ action, subject, facts }) => ({ action, subject, facts }));
      expect(parts).toEqual([
        {
          action: 'operator_role_changed',
          subject: { kind: 'operator', id: 'Otieno', name: 'Otieno' },
          facts: { kind: 'role_change', from: 'viewer', to: 'cashier' },
        },
        {
          action: 'key_created',
          subject: { kind: 'key', id: 'Till 2', name: 'Till 2' },
          facts: { kind: 'key', scope: 'payments:read', maker: null },
        },
        {
          action: 'export',
          subject: null,
          facts: {
            kind: 'export',
            status: ['success', 'failed'],
            channel: [],
            from: '2026-11-01',
            to: '2026-11-25',
            search: true,
            more: [],
          },
        },
        {
          action: 'review',
          subject: { kind: 'payment', id: 'tx-flagged', name: 'INV-1042' },
          facts: {
            kind: 'review',
            from: 'success',
            to: 'success',
            note: 'statement shows 100 KES',
          },
        },
      ]);
      // The stored words are still answered, for the API's other readers.
      expect(entries.find((entry) => entry.action === 'review')?.detail).toBe(
        'success → success: statement shows 100 KES',
      );
      // The search text (often a payer's number) is in no line.
      expect(JSON.stringify(entries)).not.toContain('0712345678');
    });

    it('pages newest first by an opaque cursor, and refuses one it never gave', async () => {
      const owner = await signedIn(app, STAFF.owner);
      // Five more lines, two of them in the same millisecond.
      for (const name of [STAFF.viewer, STAFF.cashier, STAFF.viewer]) {
        tick();
        await signedIn(app, name);
      }
      await signedIn(app, STAFF.cashier);
      await signedIn(app, STAFF.viewer);

      const all = (await read(owner)).entries.map((entry) => entry.id);
      expect(all).toHaveLength(6);
      const seen: unknown[] = [];
      let query = '?limit=4';
      for (;;) {
        const page = await read(owner, query);
        seen.push(...page.entries.map((entry) => entry.id));
        if (!page.nextCursor) break;
        query = `?limit=4&cursor=${page.nextCursor}`;
      }
      expect(seen).toEqual(all);
      expect(all).toEqual([...all].sort().reverse());

      for (const bad of [
        '?cursor=not-a-cursor',
        `?cursor=${Buffer.from('[1,2]').toString('base64url')}`,
      ]) {
        const answer = await app.inject({ url: `/api/audit${bad}`, headers: { cookie: owner } });
        expect(answer.statusCode).toBe(400);
        expect(answer.json().code).toBe('INVALID_CURSOR');
      }
      for (const limit of ['0', '101', 'many']) {
        const answer = await app.inject({
          url: `/api/audit?limit=${limit}`,
          headers: { cookie: owner },
        });
        expect(answer.json().code).toBe('VALIDATION_ERROR');
      }
    });
  });
}
