/**
 * `npm run bench:limits`: how much the database-backed limits cost a payment request, and how the main
 * reads compare, each as a ratio against a baseline measured in the same run (these machines are
 * shared and noisy; absolute times are printed for context only).
 *
 * - initiation with the per-address limit counted in the database, against the same initiation with
 *   the limit off (decision 002 rests on this ratio staying small);
 * - GET one transaction and GET the newest 100, against GET /api/health.
 *
 * Runs on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set. Every request must be
 * answered 200 (the limit is set far above what is sent: the bench measures counting, not
 * refusing); any other answer stops the run, exit 1, before any figure is printed.
 */
import { performance } from 'node:perf_hooks';
import { createTestDatabase, DIALECTS } from '../apps/api/src/test/test-db.ts';
import { createTestApp } from '../apps/api/src/test/test-app.ts';
import { startSimulator } from '../apps/api/src/test/simulator.ts';
import { requireExpectedAnswer, stopOnFailedRequests } from './lib.ts';

const PAYMENTS = 300;
const READS = 1000;

type Inject = (options: {
  method?: 'GET' | 'POST';
  url: string;
  payload?: object;
}) => Promise<{ statusCode: number; body: string; json: () => unknown }>;

/** A request of `scenario`, which must be answered 200. */
async function ask(
  scenario: string,
  inject: Inject,
  options: Parameters<Inject>[0],
): Promise<{ json: () => unknown }> {
  const response = await inject(options);
  requireExpectedAnswer(
    scenario,
    `${options.method ?? 'GET'} ${options.url}`,
    response.statusCode,
    response.body,
    200,
  );
  return response;
}

async function timePerCall(count: number, call: (i: number) => Promise<void>): Promise<number> {
  for (let i = 0; i < 20; i++) await call(-1 - i); // warm-up
  const started = performance.now();
  for (let i = 0; i < count; i++) await call(i);
  return (performance.now() - started) / count;
}

async function payments(scenario: string, inject: Inject, offset: number): Promise<number> {
  return timePerCall(PAYMENTS, async (i) => {
    const n = offset + (i < 0 ? 90_000 - i : i);
    await ask(scenario, inject, {
      method: 'POST',
      url: '/api/mpesa/stkpush',
      payload: { phoneNumber: `0714${String(n).padStart(6, '0')}`, amount: 10 },
    });
  });
}

const simulator = await startSimulator({ SIM_CALLBACK_DELAY_MS: '600000' });
const rows: string[] = [];
try {
  for (const dialect of DIALECTS) {
    simulator.prompts.reset();
    const database = await createTestDatabase(dialect);
    const limited = await createTestApp({
      database,
      env: { MPESA_BASE_URL: simulator.url, STKPUSH_RATE_LIMIT: '1000000' },
    });
    const unlimited = await createTestApp({
      database,
      env: { MPESA_BASE_URL: simulator.url, STKPUSH_RATE_LIMIT: '0' },
    });
    const inject =
      (app: typeof limited.app): Inject =>
      (options) =>
        app.inject(options);

    // Interleave the two so that machine noise hits both alike.
    let off = 0;
    let on = 0;
    for (let round = 0; round < 2; round++) {
      off += await payments(
        `${dialect}: payment without the limit`,
        inject(unlimited.app),
        200_000 * round,
      );
      on += await payments(
        `${dialect}: payment with the limit`,
        inject(limited.app),
        200_000 * round + 100_000,
      );
    }
    const read = (scenario: string, url: string) =>
      ask(`${dialect}: ${scenario}`, inject(limited.app), { url });
    const [some] = (
      (await read('GET one transaction', '/api/mpesa/transactions?limit=1')).json() as {
        data: { _id: string }[];
      }
    ).data;
    const health = await timePerCall(
      READS,
      async () => void (await read('GET /api/health', '/api/health')),
    );
    const one = await timePerCall(
      READS,
      async () => void (await read('GET one transaction', `/api/mpesa/transactions/${some!._id}`)),
    );
    const list = await timePerCall(
      READS / 10,
      async () => void (await read('GET newest 100', '/api/mpesa/transactions?limit=100')),
    );

    rows.push(
      `${dialect.padEnd(9)} payment with limit / without   ${(on / off).toFixed(2)}×   (${(on / 2).toFixed(2)} ms vs ${(off / 2).toFixed(2)} ms)`,
      `${dialect.padEnd(9)} GET one transaction / health    ${(one / health).toFixed(2)}×   (${one.toFixed(3)} ms vs ${health.toFixed(3)} ms)`,
      `${dialect.padEnd(9)} GET newest 100 / health         ${(list / health).toFixed(2)}×   (${list.toFixed(3)} ms vs ${health.toFixed(3)} ms)`,
    );
    await limited.app.close();
    await unlimited.app.close();
    await database.destroy();
  }
} catch (error) {
  stopOnFailedRequests(error);
} finally {
  await simulator.close();
}
if (!process.exitCode) {
  console.log(rows.join('\n'));
  if (DIALECTS.length === 1)
    console.log('(PostgreSQL skipped: set TEST_DATABASE_URL to include it.)');
}
