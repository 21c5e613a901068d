/**
 * `npm run bench:history`: the merchant's history at 1,000,000 payments, on SQLite and,
 * when TEST_DATABASE_URL is set, on PostgreSQL.
 *
 * For each database it seeds the payments (`npm run db:seed`), starts the API as its own process on
 * 127.0.0.1, and asks it, one request at a time, for: the first page, the 200th page by cursor, a
 * status page, channel pages (alone and with a status), a phone search, a search by a phone's last
 * four digits, a receipt search, reference searches (as written and in lower case), the summary,
 * what filtered selections add up to (totals), and the CSV export of every payment. Times are the server's own (Fastify's `responseTime` in its request log), so
 * they hold the route's work and not the client's; GET /api/health, asked the same way in the same
 * run, is the baseline each is compared with. The export's RSS is the server process's, read from
 * /proc while it streams.
 *
 * The targets are times at the machine's pace of the day they were set: a bare Fastify
 * hello-world, run first for each database, scales them (machine-pace.ts).
 *
 * Options: --count <n> (default 1,000,000); --keep keeps the seeded databases (in
 * /tmp/mpesa-bench-history and the PostgreSQL schema bench_history) and reuses them on the next
 * run when they hold exactly that many payments. Exits 1 when a target is missed, and at once,
 * writing nothing, when any request is answered with anything but a 2xx (lib.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TEST_DATABASE_URL } from '../apps/api/src/test/test-db.ts';
import {
  SAMPLES,
  Server,
  getJson,
  measure,
  measureExport,
  type ExportFigures,
  type Figures,
  type Page,
  type Row,
} from './history-measure.ts';
import { ROOT, seededPayments, stopOnFailedRequests } from './lib.ts';
import { REFERENCE_RATE, machinePace } from './machine-pace.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '1000000' }, keep: { type: 'boolean' } },
});
const COUNT = Number(values.count);
if (!Number.isInteger(COUNT) || COUNT < 20_000) throw new Error('--count must be 20000 or more');

interface Target {
  /**
   * The server-side p99 (or, for the summary, every answer) must be under this, in ms, at the
   * machine's reference pace: each is multiplied by the run's scale (machine-pace.ts).
   */
  p99Ms?: number;
  maxMs?: number;
}

const TARGETS: Record<string, Target> = {
  'first page': { p99Ms: 10 },
  '200th page by cursor': { p99Ms: 10 },
  'status page (failed)': { p99Ms: 10 },
  'phone search': { p99Ms: 10 },
  'phone search (last 4 digits)': { p99Ms: 10 },
  'receipt search': { p99Ms: 10 },
  'reference search (prefix, lower case)': { p99Ms: 10 },
  summary: { maxMs: 50 },
  // The line under a filtered list, asked beside its page: the whole selection, counted.
  'totals (last 7 days)': { p99Ms: 200 },
  'totals (status failed)': { p99Ms: 200 },
  'totals (last 4 digits)': { p99Ms: 200 },
  'totals (common word: payment)': { p99Ms: 200 },
};

/** A target's time at this run's scale, as the tables write it. */
const goalOf = (target: Target | undefined, scale: number): string =>
  target?.p99Ms
    ? `p99 < ${(target.p99Ms * scale).toFixed(1)}`
    : target?.maxMs
      ? `< ${(target.maxMs * scale).toFixed(1)}`
      : '';
const LIST = '/api/mpesa/transactions';

/** Walks to the 200th page, keeping what the pages show to search for. */
async function walkPages(server: Server): Promise<{ seen: Row[]; page200: string }> {
  const seen: Row[] = [];
  let page = await getJson<Page>('the first 200 pages', server.url + LIST);
  let page200 = LIST;
  for (let n = 2; n <= 200; n++) {
    seen.push(...page.data);
    page200 = `${LIST}?cursor=${encodeURIComponent(page.nextCursor!)}`;
    page = await getJson<Page>('the first 200 pages', server.url + page200);
  }
  await server.takeTimes(200);
  return { seen, page200 };
}

/** The business day a week ago, as the history's `from` takes it. */
const weekAgo = () => new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);

/** A phone number written four ways, as people type it. */
function spaced(phone: string, i: number): string {
  return [
    `0${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`,
    `+${phone}`,
    `${phone.slice(0, 3)}-${phone.slice(3)}`,
    `0${phone.slice(3)}`,
  ][i % 4]!;
}

async function measureScenarios(server: Server) {
  const { seen, page200 } = await walkPages(server);
  // Payments by prompt only: a till or paybill payment shows its payer's number masked
  // (`2547 ***** 126`), which is no number to search for.
  const phones = [...new Set(seen.map((row) => row.phoneNumber))]
    .filter((phone) => /^254\d{9}$/.test(phone))
    .slice(0, SAMPLES);
  const receipts = seen.flatMap((row) => row.mpesaReceiptNumber ?? []).slice(0, SAMPLES);
  const references = [...new Set(seen.map((row) => row.reference))].filter((r) =>
    r.startsWith('INV-'),
  );
  return [
    await measure(server, 'first page', [LIST]),
    await measure(server, '200th page by cursor', [page200]),
    await measure(server, 'status page (failed)', [`${LIST}?status=failed`]),
    await measure(server, 'status page (failed, cancelled)', [`${LIST}?status=failed,cancelled`]),
    await measure(server, 'status page (refunded)', [`${LIST}?status=refunded`]),
    await measure(server, 'channel page (till)', [`${LIST}?channel=till`]),
    await measure(server, 'channel page (till, paybill)', [`${LIST}?channel=till,paybill`]),
    await measure(server, 'channel and status (till, success)', [
      `${LIST}?channel=till&status=success`,
    ]),
    // No till payment fails (M-PESA confirms only paid ones): the worst case, read to the end.
    await measure(server, 'channel and status, no match (till, failed)', [
      `${LIST}?channel=till&status=failed`,
    ]),
    await measure(
      server,
      'phone search',
      phones.map((phone, i) => `${LIST}?q=${encodeURIComponent(spaced(phone, i))}`),
    ),
    // The end of a number, as a shop owner reads it off a receipt or a customer says it.
    await measure(
      server,
      'phone search (last 4 digits)',
      phones.map((phone) => `${LIST}?q=${phone.slice(-4)}`),
    ),
    await measure(
      server,
      'receipt search',
      receipts.map((receipt) => `${LIST}?q=${encodeURIComponent(receipt.toLowerCase())}`),
    ),
    await measure(
      server,
      'reference search (whole)',
      references.map((reference) => `${LIST}?q=${encodeURIComponent(reference)}`),
    ),
    await measure(
      server,
      'reference search (prefix)',
      references.map((reference) => `${LIST}?q=${encodeURIComponent(reference.slice(0, -2))}`),
    ),
    await measure(
      server,
      'reference search (prefix, lower case)',
      references.map(
        (reference) => `${LIST}?q=${encodeURIComponent(reference.slice(0, -2).toLowerCase())}`,
      ),
    ),
    // One payment in ten is "Payment" (the default): a word that common, typed in lower case.
    await measure(server, 'reference search (common word: payment)', [`${LIST}?q=payment`]),
    await measure(
      server,
      'reference search (old invoices: INV-1…INV-99)',
      Array.from({ length: 99 }, (_, i) => `${LIST}?q=INV-${i + 1}`),
    ),
    await measure(server, 'summary', ['/api/mpesa/summary'], 60),
    // What a filtered selection adds up to (under the list): the whole selection, not a page.
    await measure(server, 'totals (last 7 days)', [`${LIST}/totals?from=${weekAgo()}`], 20),
    await measure(server, 'totals (status failed)', [`${LIST}/totals?status=failed`], 20),
    await measure(
      server,
      'totals (last 4 digits)',
      phones.slice(0, 20).map((phone) => `${LIST}/totals?q=${phone.slice(-4)}`),
      20,
    ),
    await measure(server, 'totals (common word: payment)', [`${LIST}/totals?q=payment`], 20),
  ];
}

function printFigures(figures: readonly Figures[]): void {
  for (const row of figures) {
    console.log(
      `  ${row.scenario.padEnd(46)} p50 ${row.p50Ms.toFixed(2).padStart(7)} ms  p99 ${row.p99Ms
        .toFixed(2)
        .padStart(7)} ms  max ${row.maxMs.toFixed(2).padStart(7)} ms  ${row.vsHealth
        .toFixed(1)
        .padStart(5)}× health${row.met === null ? '' : row.met ? '  met' : '  MISSED'}`,
    );
  }
}

/**
 * One export of the last 30 days warms the server up, as every scenario is warmed up. Were the
 * export to hold its rows, the million that follow would grow the process by about a kilobyte a row.
 */
async function measureExports(server: Server, scale: number): Promise<ExportFigures[]> {
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const exports: ExportFigures[] = [
    await measureExport(server, 'the last 30 days (warm-up)', `?from=${monthAgo}`, null),
  ];
  exports.push(
    await measureExport(server, 'every payment', '', COUNT, scale),
    await measureExport(server, 'every payment, again', '', COUNT, scale),
  );
  for (const row of exports) {
    console.log(
      `  CSV export, ${row.label.padEnd(27)} ${row.rows.toLocaleString('en-US').padStart(9)} rows in ${row.seconds.toFixed(1)} s = ${Math.round(row.rowsPerS).toLocaleString('en-US')} rows/s, RSS ${row.rssBeforeMb.toFixed(0)} → ${row.rssPeakMb.toFixed(0)} MB (+${row.rssGrowthMb.toFixed(1)})${row.met === null ? '' : row.met ? '  met' : '  MISSED'}`,
    );
  }
  return exports;
}

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  console.log(`\n${dialect}: ${COUNT.toLocaleString('en-US')} payments`);
  const database = await seededPayments(dialect, COUNT, values.keep ?? false);
  // Measured just before the scenarios and again after them, with nothing else of ours running;
  // the faster of the two sets the scale, so a busy moment cannot loosen the targets.
  const before = await machinePace();
  const server = await Server.start(database.env);
  try {
    const health = await measure(server, 'GET /api/health (baseline)', ['/api/health']);
    const measured = await measureScenarios(server);
    const after = await machinePace();
    const pace = after.rate > before.rate ? after : before;
    console.log(
      `  bare Fastify ${[before, after].map((each) => Math.round(each.rate).toLocaleString('en-US')).join(' and ')} requests/s (${REFERENCE_RATE.toLocaleString('en-US')} when the targets were set): targets × ${pace.scale.toFixed(2)}`,
    );
    const figures: Figures[] = [health, ...measured].map((row) => {
      const target = TARGETS[row.scenario];
      return {
        ...row,
        vsHealth: row.p99Ms / health.p99Ms,
        met: target
          ? (target.p99Ms === undefined || row.p99Ms < target.p99Ms * pace.scale) &&
            (target.maxMs === undefined || row.maxMs < target.maxMs * pace.scale)
          : null,
      };
    });
    printFigures(figures);
    // The export is held at the same scale: it follows the scenarios.
    const exports = await measureExports(server, pace.scale);
    return { dialect, pace, figures, exports };
  } finally {
    await server.stop();
    await database.cleanUp();
  }
}

type Result = Awaited<ReturnType<typeof benchDialect>>;

/** The table for docs/performance.md. */
function markdownTable(results: readonly Result[]): string[] {
  const ms = (value: number) => value.toFixed(2);
  const header = results.map((result) => (result.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'));
  const labels = [...new Set(results.flatMap((result) => result.exports.map((row) => row.label)))];
  // The targets at the slower database's pace: each database is held to its own.
  const scale = Math.max(...results.map((result) => result.pace.scale));
  return [
    `| Server time, ms (p50 / p99; max for the summary) | ${header.join(' | ')} | Target (× ${scale.toFixed(2)}) |`,
    `| --- | ${header.map(() => '---').join(' | ')} | --- |`,
    `| bare Fastify, requests/s (the machine's pace) | ${results.map((result) => Math.round(result.pace.rate).toLocaleString('en-US')).join(' | ')} | ${REFERENCE_RATE.toLocaleString('en-US')} = × 1 |`,
    ...results[0]!.figures.map((row, index) => {
      const cells = results.map((result) => {
        const figure = result.figures[index]!;
        const times =
          figure.scenario === 'summary'
            ? `${ms(figure.p50Ms)} / max ${ms(figure.maxMs)}`
            : `${ms(figure.p50Ms)} / ${ms(figure.p99Ms)}`;
        return `${times} (${figure.vsHealth.toFixed(1)}× health)`;
      });
      return `| ${row.scenario} | ${cells.join(' | ')} | ${goalOf(TARGETS[row.scenario], scale)} |`;
    }),
    ...labels.map((label) => {
      const cells = results.map((result) => {
        const figure = result.exports.find((row) => row.label === label);
        return figure
          ? `${Math.round(figure.rowsPerS).toLocaleString('en-US')} rows/s, RSS +${figure.rssGrowthMb.toFixed(1)} MB`
          : '';
      });
      const goal =
        label === 'every payment'
          ? `≥ ${Math.round(100_000 / scale).toLocaleString('en-US')} rows/s, RSS < +64 MB`
          : '';
      return `| CSV export, ${label} | ${cells.join(' | ')} | ${goal} |`;
    }),
  ];
}

const dialects: ('sqlite' | 'postgres')[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const results: Result[] = [];
try {
  for (const dialect of dialects) results.push(await benchDialect(dialect));
} catch (error) {
  stopOnFailedRequests(error);
  process.exit();
}
if (!TEST_DATABASE_URL) console.log('\n(PostgreSQL skipped: set TEST_DATABASE_URL to include it.)');

const date = new Date().toISOString().slice(0, 10);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
const file = path.join(ROOT, `bench/results/history-${date}.json`);
writeFileSync(file, `${JSON.stringify({ date, machine, count: COUNT, results }, null, 2)}\n`);
console.log(`\n${machine}\nWritten to ${path.relative(ROOT, file)}`);
console.log(`\n${markdownTable(results).join('\n')}`);

const missed = results.some(
  (result) =>
    result.figures.some((row) => row.met === false) ||
    result.exports.some((row) => row.met === false),
);
if (missed) process.exitCode = 1;
