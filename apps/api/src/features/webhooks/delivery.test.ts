/**
 * The outbox and its delivery, on each database: nothing sent for a change rolled back, retries on
 * the injected clock with the same event id, a signature checked by an implementation written here
 * (node:crypto directly, not signature.ts), no redirect followed, an answer read only up to its
 * bound, giving up after three days and disabling an endpoint that keeps failing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { transact } from '../../db/transact.ts';
import { storedPayment } from '../../test/stored-payment.ts';
import { RESPONSE_READ_MAX } from './http-post.ts';
import { EXCERPT_MAX } from './answer-excerpt.ts';
import { RETRY_AFTER_S, retryAfterS } from './deliverer.ts';
import { enqueueWebhookEvent } from './outbox.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import {
  deliverOnce,
  paymentSucceeded,
  silentLog,
  webhookClock,
} from '../../test/webhook-world.ts';
import { toTransactionDto } from '../payments/transaction-dto.ts';

/** Stripe's scheme, as a receiver would check it: t=…,v1=hex HMAC-SHA256 of "t.body". */
function verifiedByReceiver(header: string, body: string, secret: string, nowS: number): boolean {
  const parts = Object.fromEntries(
    header.split(',').map((part) => part.split('=') as [string, string]),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowS - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery (${dialect})`, () => {
    let database: TestDatabase;
    let receiver: Receiver;
    const clock = webhookClock();

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await receiver.close();
      await database.destroy();
    });

    const deliveries = () => database.db.selectFrom('webhook_deliveries').selectAll().execute();

    it('sends nothing for a change rolled back, and the event of one committed', async () => {
      await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      const failing = transact(database.db, async (trx) => {
        const row = storedPayment('rolled-back', clock.now().toISOString());
        await trx.insertInto('transactions').values(row).execute();
        const saved = await trx.selectFrom('transactions').selectAll().executeTakeFirstOrThrow();
        await enqueueWebhookEvent(trx, {
          type: 'payment.succeeded',
          transactionId: saved.id,
          data: { payment: toTransactionDto(saved) },
          at: clock.now(),
        });
        throw new Error('the change fails after its event was written');
      });
      await expect(failing).rejects.toThrow('the change fails');
      expect(await database.db.selectFrom('webhook_events').selectAll().execute()).toEqual([]);
      expect(await deliverOnce(database.db, clock.now)).toBe(0);
      expect(receiver.received).toEqual([]);

      const eventId = await paymentSucceeded(database.db, 'committed', clock.now());
      expect(await deliverOnce(database.db, clock.now)).toBe(1);
      expect(receiver.received.map((each) => each.headers['mpesa-event-id'])).toEqual([eventId]);
    });

    it('sends an event only to the enabled endpoints that want its type', async () => {
      await anEndpoint(database.db, { url: `${receiver.url}/wants` });
      await anEndpoint(database.db, {
        url: `${receiver.url}/other`,
        eventTypes: ['payment.failed'],
      });
      await anEndpoint(database.db, { url: `${receiver.url}/off`, enabled: 0 });
      await paymentSucceeded(database.db, 'p1', clock.now());
      await deliverOnce(database.db, clock.now);
      expect(receiver.received.map((each) => each.path)).toEqual(['/wants']);
    });

    it('tries a failing receiver again with backoff, and delivers on the fifth try with the same id', async () => {
      receiver.answers = [500, 503, 404, 302, 200];
      const endpoint = await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      const eventId = await paymentSucceeded(database.db, 'p1', clock.now());
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect(await deliverOnce(database.db, clock.now)).toBe(1);
        expect(receiver.received).toHaveLength(attempt);
        // Each attempt signed afresh, at its own time.
        const got = receiver.received.at(-1)!;
        const nowS = Math.floor(clock.now().getTime() / 1000);
        const header = String(got.headers['mpesa-signature']);
        expect(verifiedByReceiver(header, got.body, endpoint.secret, nowS)).toBe(true);
        if (attempt < 5) {
          // Not before its backoff has passed.
          clock.advance(retryAfterS(attempt) * 1000 - 1000);
          expect(await deliverOnce(database.db, clock.now)).toBe(0);
          clock.advance(1000);
        }
      }
      const ids = receiver.received.map((each) => each.headers['mpesa-event-id']);
      expect(ids).toEqual(Array(5).fill(eventId));
      const bodies = new Set(receiver.received.map((each) => each.body));
      expect(bodies.size).toBe(1);
      expect(JSON.parse([...bodies][0]!)).toMatchObject({
        id: eventId,
        type: 'payment.succeeded',
        data: { payment: { _id: 'p1', status: 'success', amount: 100 } },
      });
      const [delivery] = await deliveries();
      expect(delivery).toMatchObject({ attempts: 5, last_status: 200, next_attempt_at: null });
      expect(delivery!.delivered_at).not.toBeNull();
      expect(RETRY_AFTER_S.slice(0, 4)).toEqual([60, 300, 1800, 7200]);
    });

    it('signs each attempt so that a receiver with the secret verifies it, and one without does not', async () => {
      const endpoint = await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      await paymentSucceeded(database.db, 'p1', clock.now());
      await deliverOnce(database.db, clock.now);
      const [got] = receiver.received;
      const header = String(got!.headers['mpesa-signature']);
      expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      const nowS = Math.floor(clock.now().getTime() / 1000);
      expect(verifiedByReceiver(header, got!.body, endpoint.secret, nowS)).toBe(true);
      expect(verifiedByReceiver(header, got!.body, 'whsec_another', nowS)).toBe(false);
      expect(
        verifiedByReceiver(header, got!.body.replace('100', '999'), endpoint.secret, nowS),
      ).toBe(false);
      // Replayed ten minutes later: outside the tolerance.
      expect(verifiedByReceiver(header, got!.body, endpoint.secret, nowS + 600)).toBe(false);
    });

    it('follows no redirect: a 3xx is a failure, and the place it points to gets nothing', async () => {
      receiver.answers = [
        (response) => {
          response.writeHead(302, { Location: `${receiver.url}/elsewhere` });
          response.end();
        },
      ];
      await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      await paymentSucceeded(database.db, 'p1', clock.now());
      await deliverOnce(database.db, clock.now);
      expect(receiver.received.map((each) => each.path)).toEqual(['/hooks']);
      const [delivery] = await deliveries();
      expect(delivery).toMatchObject({ attempts: 1, last_status: 302, delivered_at: null });
      expect(delivery!.last_error).toMatch(/redirect is not followed/);
      expect(delivery!.next_attempt_at).not.toBeNull();
    });

    it('reads an overlong answer only up to its bound, and keeps its start', async () => {
      const total = 64 * 1024 * 1024;
      let written = 0;
      receiver.answers = [
        (response) => {
          response.writeHead(200, { 'Content-Type': 'text/plain' });
          const chunk = Buffer.alloc(64 * 1024, 'x');
          const pump = () => {
            while (written < total) {
              written += chunk.length;
              if (!response.write(chunk)) return void response.once('drain', pump);
            }
            response.end();
          };
          response.on('close', () => undefined);
          pump();
        },
      ];
      await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      await paymentSucceeded(database.db, 'p1', clock.now());
      await deliverOnce(database.db, clock.now);
      const [delivery] = await deliveries();
      expect(delivery!.delivered_at).not.toBeNull();
      // Only a short excerpt of it is kept (answer-excerpt.ts).
      expect(delivery!.last_response).toBe(`${'x'.repeat(EXCERPT_MAX - 1)}…`);
      // The answer was cut once its first bytes were read: far from all of it was sent.
      expect(written).toBeLessThan(total / 4);
      expect(RESPONSE_READ_MAX).toBeLessThanOrEqual(4096);
    });

    it('keeps a short plain-text excerpt of a text answer, and nothing of any other', async () => {
      const page =
        '<!doctype html><html><head><style>body{color:red}</style><script>var secret = 1;</script>' +
        '<title>Admin</title></head><body>\u0000<h1>Internal\u001b[31m service</h1>\u202e' +
        `<p>${'word '.repeat(200)}</p></body></html>`;
      receiver.answers = [
        (response) => {
          response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          response.end(page);
        },
        (response) => {
          response.writeHead(500, { 'Content-Type': 'application/octet-stream' });
          response.end('root:x:0:0:root:/root:/bin/bash');
        },
        (response) => {
          response.writeHead(200);
          response.end('no content type');
        },
      ];
      await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      for (const id of ['p1', 'p2', 'p3']) await paymentSucceeded(database.db, id, clock.now());
      await deliverOnce(database.db, clock.now);
      const kept = (await deliveries()).map((each) => [each.last_status, each.last_response]);
      const html = kept.find(([, response]) => response !== null)![1] as string;
      expect(html.startsWith('Admin Internal [31m service word word')).toBe(true);
      expect(Array.from(html)).toHaveLength(EXCERPT_MAX);
      expect(html).not.toMatch(/[<>\p{Cc}\u202e]|secret|color/u);
      expect(kept).toContainEqual([500, null]);
      expect(kept).toContainEqual([200, null]);
    });

    it('logs an endpoint disabled only when one was', async () => {
      receiver.answers = [500];
      const warned: string[] = [];
      const log = {
        ...silentLog,
        warn: (_: object, message: string) => void warned.push(message),
      } as unknown as typeof silentLog;
      const endpoint = await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      await paymentSucceeded(database.db, 'p1', clock.now());
      await deliverOnce(database.db, clock.now, { log });
      // Failed, but for less than three days: nothing disabled, nothing said.
      expect(warned).toEqual([]);
      clock.advance(3 * 24 * 3_600_000 + 60_000);
      await paymentSucceeded(database.db, 'p2', clock.now());
      await deliverOnce(database.db, clock.now, { log });
      expect(warned).toEqual(['webhook endpoint disabled: failing for more than three days']);
      const [row] = await database.db.selectFrom('webhook_endpoints').selectAll().execute();
      expect(row).toMatchObject({ id: endpoint.id, enabled: 0 });
      // p1's retry and p2 failed side by side: the endpoint was disabled (and the owner told) once.
      const audit = await database.db.selectFrom('audit_events').select('action').execute();
      expect(audit).toEqual([{ action: 'webhook_endpoint_disabled' }]);
    });

    it('gives up three days after the event, and disables an endpoint failing for more than three days', async () => {
      receiver.answers = [500];
      const endpoint = await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      await paymentSucceeded(database.db, 'p1', clock.now());
      const start = clock.now().getTime();
      let tries = 0;
      while ((await deliverOnce(database.db, clock.now)) === 1) {
        tries++;
        const [row] = await deliveries();
        if (row!.next_attempt_at === null) break;
        clock.advance(Date.parse(row!.next_attempt_at) - clock.now().getTime());
      }
      const [given] = await deliveries();
      expect(given!.gave_up_at).not.toBeNull();
      expect(given!.attempts).toBe(tries);
      expect(clock.now().getTime() - start).toBeLessThanOrEqual(3 * 24 * 3_600_000);
      // Still enabled: it has failed for less than three days.
      const before = await database.db.selectFrom('webhook_endpoints').selectAll().execute();
      expect(before[0]!.enabled).toBe(1);

      clock.advance(3 * 24 * 3_600_000 - (clock.now().getTime() - start) + 60_000);
      await paymentSucceeded(database.db, 'p2', clock.now());
      await deliverOnce(database.db, clock.now);
      const [after] = await database.db.selectFrom('webhook_endpoints').selectAll().execute();
      expect(after).toMatchObject({ enabled: 0, disabled_reason: 'failing' });
      const audit = await database.db.selectFrom('audit_events').selectAll().execute();
      expect(audit).toMatchObject([{ action: 'webhook_endpoint_disabled', target: endpoint.id }]);
      // Disabled: its next event is not sent.
      const sent = receiver.received.length;
      await paymentSucceeded(database.db, 'p3', clock.now());
      expect(await deliverOnce(database.db, clock.now)).toBe(0);
      expect(receiver.received).toHaveLength(sent);
    });

    it('sends again a delivery whose sender died mid-send, once its lease has lapsed', async () => {
      await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      const eventId = await paymentSucceeded(database.db, 'p1', clock.now());
      // Another instance claimed it and was killed before recording anything.
      await database.db
        .updateTable('webhook_deliveries')
        .set({
          lease_owner: 'killed',
          lease_until: new Date(clock.now().getTime() + 30_000).toISOString(),
        })
        .execute();
      expect(await deliverOnce(database.db, clock.now)).toBe(0);
      clock.advance(31_000);
      expect(await deliverOnce(database.db, clock.now)).toBe(1);
      expect(receiver.received.map((each) => each.headers['mpesa-event-id'])).toEqual([eventId]);
    });
  });
}
