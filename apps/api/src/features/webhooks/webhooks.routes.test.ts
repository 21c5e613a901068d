/**
 * The owner's webhook routes, on each database: an endpoint added (its secret shown once), a test
 * event delivered and listed with its status, resent with the same event id, a URL refused where
 * private addresses are not allowed, a key with `webhooks:manage` at work, an audit line for each.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '@mpesa/shared/contract-webhooks';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { signedInWorld, type Browser, type SignedInWorld } from '../../test/signed-in.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { EXCERPT_MAX } from './answer-excerpt.ts';
import { deliverOnce } from '../../test/webhook-world.ts';

for (const dialect of DIALECTS) {
  describe(`webhook routes (${dialect})`, () => {
    let database: TestDatabase;
    let world: SignedInWorld;
    let receiver: Receiver;
    let owner: Browser;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      world = await signedInWorld(database);
      receiver = await startReceiver();
      owner = await world.signIn('owner');
    });
    afterEach(async () => {
      await receiver.close();
      await world.close();
      await database.destroy();
    });

    const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      world.app.inject({
        method,
        url,
        headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
        ...(payload ? { payload } : {}),
      });
    const deliver = () => deliverOnce(database.db, () => world.clock.now);

    it('adds an endpoint, sends it a test event, lists the delivery and resends it', async () => {
      const added = await send('POST', '/api/webhooks/endpoints', {
        url: `${receiver.url}/hooks`,
        events: ['payment.succeeded', 'payment.refunded'],
      });
      expect(added.statusCode, added.body).toBe(201);
      const { endpoint, secret } = added.json().data;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(endpoint).toMatchObject({ enabled: true, createdBy: 'Amina' });
      expect(secret.startsWith(endpoint.secretPrefix)).toBe(true);
      // Never shown again.
      const listed = await send('GET', '/api/webhooks/endpoints');
      expect(listed.body).not.toContain(secret);

      const test = await send('POST', `/api/webhooks/endpoints/${endpoint.id}/test`);
      expect(test.statusCode, test.body).toBe(201);
      expect(test.json().data.delivery).toMatchObject({
        eventType: 'webhook.test',
        state: 'pending',
      });
      await deliver();
      const page = await send('GET', `/api/webhooks/endpoints/${endpoint.id}/deliveries`);
      const [delivery] = page.json().data.deliveries;
      expect(delivery).toMatchObject({
        state: 'delivered',
        lastStatus: 200,
        attempts: 1,
        lastResponse: '{"received":true}',
      });
      expect(delivery.lastDurationMs).toBeGreaterThanOrEqual(0);

      const resent = await send('POST', `/api/webhooks/deliveries/${delivery.id}/resend`);
      expect(resent.statusCode, resent.body).toBe(200);
      await deliver();
      const ids = receiver.received.map((each) => each.headers['mpesa-event-id']);
      expect(ids).toEqual([delivery.eventId, delivery.eventId]);

      const audit = await database.db.selectFrom('audit_events').select('action').execute();
      expect(audit.map((each) => each.action)).toEqual(
        expect.arrayContaining(['webhook_endpoint_added', 'webhook_test_sent', 'webhook_resent']),
      );
    });

    it('subscribes a new endpoint to every payment event when its events are left out', async () => {
      const added = await send('POST', '/api/webhooks/endpoints', { url: `${receiver.url}/all` });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().data.endpoint.events).toEqual([...WEBHOOK_EVENT_TYPES]);
    });

    it('shows a short plain-text excerpt of an answer kept before excerpts were', async () => {
      const added = await send('POST', '/api/webhooks/endpoints', {
        url: `${receiver.url}/hooks`,
        events: ['payment.succeeded'],
      });
      const { endpoint } = added.json().data;
      await send('POST', `/api/webhooks/endpoints/${endpoint.id}/test`);
      // As an older deliverer kept it: the first 500 characters of whatever came back.
      const stored = `<html><body>\u001b[2J<b>db_password</b>=${'s'.repeat(480)}`.slice(0, 500);
      await database.db.updateTable('webhook_deliveries').set({ last_response: stored }).execute();
      const page = await send('GET', `/api/webhooks/endpoints/${endpoint.id}/deliveries`);
      const [delivery] = page.json().data.deliveries;
      expect(delivery.lastResponse).toBe(`[2J db_password =${'s'.repeat(182)}…`);
      expect(Array.from(delivery.lastResponse as string)).toHaveLength(EXCERPT_MAX);
    });

    it('changes, rotates the secret of, disables and removes an endpoint', async () => {
      const added = await send('POST', '/api/webhooks/endpoints', {
        url: `${receiver.url}/hooks`,
        events: ['payment.succeeded'],
      });
      const { endpoint, secret } = added.json().data;
      const rotated = await send('PATCH', `/api/webhooks/endpoints/${endpoint.id}`, {
        rotateSecret: true,
        enabled: false,
        events: ['payment.failed'],
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      expect(rotated.json().data.secret).toMatch(/^whsec_/);
      expect(rotated.json().data.secret).not.toBe(secret);
      expect(rotated.json().data.endpoint).toMatchObject({
        enabled: false,
        disabledReason: 'owner',
        events: ['payment.failed'],
      });
      const removed = await send('DELETE', `/api/webhooks/endpoints/${endpoint.id}`);
      expect(removed.statusCode).toBe(200);
      const again = await send('DELETE', `/api/webhooks/endpoints/${endpoint.id}`);
      expect(again.json()).toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    });

    it('refuses bad input in our shape', async () => {
      const noEvents = await send('POST', '/api/webhooks/endpoints', {
        url: receiver.url,
        events: [],
      });
      expect(noEvents.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      const unknown = await send('POST', '/api/webhooks/deliveries/nope/resend');
      expect(unknown.json()).toMatchObject({ code: 'WEBHOOK_DELIVERY_NOT_FOUND' });
      const cursor = await send('GET', '/api/webhooks/endpoints/x/deliveries?cursor=zz');
      expect(cursor.json()).toMatchObject({ code: 'INVALID_CURSOR' });
    });

    it('lets a key with webhooks:manage add an endpoint, with no CSRF token', async () => {
      const added = await world.app.inject({
        method: 'POST',
        url: '/api/webhooks/endpoints',
        headers: { authorization: `Bearer ${world.keys['webhooks:manage']}` },
        payload: { url: `${receiver.url}/k`, events: ['payment.received'] },
      });
      expect(added.statusCode, added.body).toBe(201);
      const [line] = await database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'webhook_endpoint_added')
        .execute();
      expect(line).toMatchObject({ actor_kind: 'key', actor: 'webhooks:manage key' });
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`webhook routes where private addresses are not allowed (${dialect})`, () => {
    it('refuses a URL to 127.0.0.1 or 10.0.0.0/8', async () => {
      const database = await createTestDatabase(dialect);
      const world = await signedInWorld(database, { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
      try {
        const owner = await world.signIn('owner');
        for (const url of ['http://127.0.0.1:4000/hooks', 'https://10.1.2.3/hooks']) {
          const refused = await world.app.inject({
            method: 'POST',
            url: '/api/webhooks/endpoints',
            headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
            payload: { url, events: ['payment.succeeded'] },
          });
          expect(refused.statusCode).toBe(400);
          expect(refused.json()).toMatchObject({ code: 'WEBHOOK_URL_REFUSED', field: 'url' });
        }
        expect(await database.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);
      } finally {
        await world.close();
        await database.destroy();
      }
    });
  });
}
