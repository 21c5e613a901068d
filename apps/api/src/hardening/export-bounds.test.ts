/**
 * Exports are bounded. At most EXPORT_MAX_RUNNING stream at once in an instance
 * (one more is answered 429 with Retry-After and a sentence), and a client that reads nothing for
 * EXPORT_STALL_TIMEOUT_MS is cut, so that a slow-read attack cannot hold connections and memory.
 * Over real HTTP: a client that stops reading only shows once the kernel's buffers are full.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { createTestApp } from '../test/test-app.ts';
import { seedDatabase } from '../seed/seed.ts';
import { EXPORT_RETRY_AFTER_S } from '../features/history/export-limit.ts';

/** About 9 MB of CSV: far more than a socket's buffers hold for a client that reads nothing. */
const PAYMENTS = 60_000;

describe('CSV exports under a slow-read attack', () => {
  let database: TestDatabase;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    await seedDatabase(database, {
      count: PAYMENTS,
      days: 30,
      seed: 19,
      now: new Date(),
      append: false,
      reconcile: { afterS: 90, maxBackoffS: 120, giveUpS: 600 },
    });
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(() => database?.destroy());

  async function listen(env: Record<string, string>): Promise<number> {
    ({ app } = await createTestApp({ database, env }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    return (app.server.address() as AddressInfo).port;
  }

  /**
   * Asks for the export and reads nothing until `readAll` is called; then reads what the server sent
   * until the connection closes (a paused socket does not even see the server close it).
   */
  function stalledExport(port: number) {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    socket.write(
      'GET /api/mpesa/transactions/export HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\n\r\n',
    );
    return {
      readAll: () =>
        new Promise<string>((resolve) => {
          let tail = '';
          socket.on(
            'data',
            (chunk: Buffer) => (tail = (tail + chunk.toString('latin1')).slice(-64)),
          );
          socket.on('error', () => {});
          socket.on('close', () => resolve(tail));
          socket.resume();
        }),
    };
  }

  it('refuses an export past EXPORT_MAX_RUNNING with 429 and Retry-After, and cuts a client that reads nothing', async () => {
    const port = await listen({ EXPORT_MAX_RUNNING: '1', EXPORT_STALL_TIMEOUT_MS: '1000' });
    const stalled = stalledExport(port);
    const running = app!;
    // Until the first export has taken its place.
    await expect
      .poll(() => running.inject('/api/mpesa/transactions/export').then((r) => r.statusCode))
      .toBe(429);

    const refused = await fetch(`http://127.0.0.1:${port}/api/mpesa/transactions/export`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(EXPORT_RETRY_AFTER_S));
    expect(await refused.json()).toEqual({
      success: false,
      code: 'TOO_MANY_EXPORTS',
      message: 'Other exports are under way on this server. Please try again in a few seconds.',
    });

    // Cut after a second of reading nothing: once it reads again, the answer stops short of the
    // chunked encoding's last, empty chunk, and the connection is closed.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const tail = await stalled.readAll();
    expect(tail.endsWith('\r\n0\r\n\r\n')).toBe(false);

    // Its place is free again: a client that reads gets the whole export.
    const whole = await fetch(`http://127.0.0.1:${port}/api/mpesa/transactions/export`);
    expect(whole.status).toBe(200);
    const lines = (await whole.text()).trimEnd().split('\n');
    expect(lines).toHaveLength(PAYMENTS + 1);
  });

  /**
   * Reads the export at about `bytesPerTick` every `tickMs` (6 MB/s with the figures below, far
   * slower than loopback), until the answer is whole (its last, empty chunk) or the connection is
   * closed; says which.
   */
  function readSteadily(
    port: number,
    tickMs: number,
    bytesPerTick: number,
  ): Promise<'whole' | 'cut'> {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    socket.write(
      'GET /api/mpesa/transactions/export HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\n\r\n',
    );
    return new Promise((resolve) => {
      let tail = '';
      const end = (how: 'whole' | 'cut') => {
        clearInterval(ticks);
        socket.destroy();
        resolve(how);
      };
      // A budget of bytes a tick: reading stops once it is spent, until the next tick.
      let budget = bytesPerTick;
      const ticks = setInterval(() => {
        budget = bytesPerTick;
        socket.resume();
      }, tickMs);
      socket.on('data', (chunk: Buffer) => {
        tail = (tail + chunk.toString('latin1')).slice(-64);
        if (tail.endsWith('\r\n0\r\n\r\n')) return end('whole');
        budget -= chunk.length;
        if (budget <= 0) socket.pause();
      });
      socket.on('error', () => {});
      socket.on('close', () => end('cut'));
    });
  }

  it('never cuts a client that reads slowly but steadily, with pauses shorter than EXPORT_STALL_TIMEOUT_MS', async () => {
    // The server sees a client's reading only as the kernel frees its send buffer, half of it at a
    // time (up to 4 MB on loopback): 6 MB/s frees that in a third of a second.
    const port = await listen({ EXPORT_STALL_TIMEOUT_MS: '1500' });
    expect(await readSteadily(port, 10, 64 * 1024)).toBe('whole');
  });
});
