/**
 * Two instances on one PostgreSQL (two connection pools on the same schema, each its own
 * deliverer) running at once: every delivery is sent exactly once. On SQLite one process writes,
 * so there is no second instance to race with (docs/deployment.md): this file is PostgreSQL's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../db/create-db.ts';
import { DIALECTS, createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.ts';
import { anEndpoint } from '../../test/webhooks.fixtures.ts';
import { deliverOnce, paymentSucceeded, webhookClock } from '../../test/webhook-world.ts';

const EVENTS = 60;

describe.runIf(DIALECTS.includes('postgres'))('two deliverers on one PostgreSQL', () => {
  let database: TestDatabase;
  let second: DbHandle;
  let receiver: Receiver;
  const clock = webhookClock();

  beforeEach(async () => {
    database = await createTestDatabase('postgres');
    second = createDb(database.url, { schema: database.schema, poolSize: 5 });
    // A receiver slow enough that the two overlap on every batch.
    receiver = await startReceiver([
      (response) => {
        setTimeout(() => {
          response.writeHead(200);
          response.end('ok');
        }, 5);
      },
    ]);
  });
  afterEach(async () => {
    await receiver.close();
    await second.db.destroy();
    await database.destroy();
  });

  it('sends each delivery once, whichever instance claims it', async () => {
    await anEndpoint(database.db, { url: `${receiver.url}/a` });
    await anEndpoint(database.db, { url: `${receiver.url}/b` });
    for (let i = 0; i < EVENTS; i++) await paymentSucceeded(database.db, `p${i}`, clock.now());

    const loop = async (db: DbHandle['db'], owner: string) => {
      let claimed = 0;
      for (let n; (n = await deliverOnce(db, clock.now, { owner })) > 0;) claimed += n;
      return claimed;
    };
    const [first, other] = await Promise.all([loop(database.db, 'one'), loop(second.db, 'two')]);
    expect(first + other).toBe(2 * EVENTS);
    // Both took part: otherwise the race was never run.
    expect(first).toBeGreaterThan(0);
    expect(other).toBeGreaterThan(0);

    const sent = receiver.received.map((each) => `${each.path} ${each.headers['mpesa-event-id']}`);
    expect(sent).toHaveLength(2 * EVENTS);
    expect(new Set(sent).size).toBe(2 * EVENTS);
    const open = await database.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('delivered_at', 'is', null)
      .execute();
    expect(open).toEqual([]);
  });
});
