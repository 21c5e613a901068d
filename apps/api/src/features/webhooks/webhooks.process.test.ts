/**
 * The API as a process, killed with SIGKILL while it sends a committed event (its receiver has the
 * request and has not answered): once the process is back and the dead one's lease has lapsed, the
 * event is sent again, with the same id, and recorded delivered. At least once, never lost.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../db/create-db.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { freePort, startApiProcess, type ApiProcess } from '../../test/api-process.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { paymentSucceeded } from '../../test/webhook-world.ts';

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

for (const dialect of DIALECTS) {
  describe(`webhooks across a SIGKILL (${dialect})`, () => {
    let dataDir: string;
    let receiver: Receiver;
    let database: TestDatabase;

    beforeAll(async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpesa-webhooks-'));
    });
    afterAll(async () => {
      await receiver.close();
      await database.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('sends again, once the process is back, an event it was killed sending', async () => {
      // The first request is never answered: the API is killed the moment it arrives, before its
      // 1 s timeout can record a failure (whose retry would wait 60 s); the next are answered.
      let api: ApiProcess | undefined;
      receiver = await startReceiver([() => void api?.child.kill('SIGKILL'), 200]);
      const file = path.join(dataDir, 'webhooks.sqlite');
      database = await createTestDatabase(dialect, { file });
      await anEndpoint(database.db, { url: `${receiver.url}/hooks` });
      const env = {
        DATA_DIR: dataDir,
        ...(dialect === 'sqlite'
          ? { DATABASE_URL: file }
          : { DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema! }),
        MPESA_CALLBACK_SECRET: 'webhook-kill-secret-0123456789',
        WEBHOOK_INTERVAL_MS: '100',
        // A lease of 2 × 1 s + 5 s: the restarted process waits out the dead one's.
        WEBHOOK_TIMEOUT_MS: '1000',
      };
      const port = await freePort();
      api = await startApiProcess(env, port);
      // Made once the process is up, so that its first send finds `api` to kill.
      const eventId = await paymentSucceeded(database.db, 'p1', new Date());
      await until('the first send', () => receiver.received.length === 1);
      await api.exited;

      api = await startApiProcess(env, port);
      try {
        const check = createDb(database.url, {
          ...(database.schema ? { schema: database.schema } : {}),
        });
        try {
          await until('the delivery', async () => {
            const row = await check.db
              .selectFrom('webhook_deliveries')
              .select('delivered_at')
              .executeTakeFirstOrThrow();
            return row.delivered_at !== null;
          });
        } finally {
          await check.db.destroy();
        }
      } finally {
        api.child.kill('SIGTERM');
        await api.exited;
      }
      expect(receiver.received.map((each) => each.headers['mpesa-event-id'])).toEqual([
        eventId,
        eventId,
      ]);
    });
  });
}
