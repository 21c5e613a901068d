/**
 * `npm run bench:history`: the merchant's history at 1,000,000 payments (issue 9), on SQLite and,
 * when TEST_DATABASE_URL is set, on PostgreSQL.
 *
 * For each database it seeds the payments (`npm run db:seed`), starts the API as its own process on
 * 127.0.0.1, and asks it, one request at a time, for: the first page, the 200th page by cursor, a
 * status page, a phone search, a receipt search, a reference search, the summary, and the CSV export
 * of every payment. Times are the server's own (Fastify's `responseTime` in its request log), so
 * they hold the route's work and not the client's; GET /api/health, asked the same way in the same
 * run, is the baseline each is compared with. The export's RSS is the server process's, read from
 * /proc while it streams.
 *
 * Options: --count <n> (default 1,000,000); --keep keeps the seeded databases (in
 * /tmp/mpesa-bench-history and the PostgreSQL schema bench_history) and reuses them on the next
 * run when they hold exactly that many payments. Exits 1 when a target is missed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { TEST_DATABASE_URL } from '../apps/api/src/test/test-db.ts';
import { ROOT, seededPayments, startApi, type ServerProcess } from './lib.ts';

const { values } = parseArgs({
  options: { count: { type: 'string', default: '1000000' }, keep: { type: 'boolean' } },
});
const COUNT = Number(values.count);
if (!Number.isInteger(COUNT) || COUNT < 20_000) throw new Error('--count must be 20000 or more');

/** Requests per scenario after the warm-up (the export is run twice). */
const SAMPLES = 400;
const WARM_UP = 30;

interface Target {
  /** The server-side p99 (or, for the summary, every answer) must be under this, in ms. */
  p99Ms?: number;
  maxMs?: number;
}

const TARGETS: Record<string, Target> = {
  'first page': { p99Ms: 10 },
  '200th page by cursor': { p99Ms: 10 },
  'status page (failed)': { p99Ms: 10 },
  'phone search': { p99Ms: 10 },
  'receipt search': { p99Ms: 10 },
  summary: { maxMs: 50 },
};
const EXPORT_ROWS_PER_S = 100_000;
const EXPORT_RSS_GROWTH_MB = 64;

interface Figures {
  scenario: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The p99 as a multiple of GET /api/health's p99 in the same run. */
  vsHealth: number;
  /** The client's p50, over loopback HTTP, for context. */
  clientP50Ms: number;
  met: boolean | null;
}

interface ExportFigures {
  label: string;
  rows: number;
  seconds: number;
  rowsPerS: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssGrowthMb: number;
  met: boolean | null;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The API as its own process, with its request log read for the server's times. */
class Server {
  private times: number[] = [];
  private waiters: (() => void)[] = [];
  readonly process: ServerProcess;
  private constructor(process: ServerProcess) {
    this.process = process;
    createInterface({ input: process.child.stdout! }).on('line', (line) => {
      if (!line.includes('"request completed"')) return;
      this.times.push((JSON.parse(line) as { responseTime: number }).responseTime);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  get url(): string {
    return this.process.url;
  }

  static async start(env: Record<string, string>): Promise<Server> {
    const server = new Server(
      await startApi('the API', { LOG_LEVEL: 'info', ...env }, { readStdout: true }),
    );
    await server.takeTimes(1); // its health check
    return server;
  }

  /** The server's times of the next `count` requests it completes, waiting for their log lines. */
  async takeTimes(count: number): Promise<number[]> {
    const deadline = Date.now() + 30_000;
    while (this.times.length < count) {
      if (Date.now() > deadline) throw new Error('the API did not log its requests');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return this.times.splice(0, count);
  }

  rssMb(): number {
    return this.process.rssMb();
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

interface Row {
  _id: string;
  phoneNumber: string;
  mpesaReceiptNumber?: string | null;
  reference: string;
}
interface Page {
  data: Row[];
  nextCursor: string | null;
}

/** Asks each path in turn (the list is cycled), one request at a time. */
async function measure(
  server: Server,
  scenario: string,
  paths: readonly string[],
  samples = SAMPLES,
): Promise<Omit<Figures, 'vsHealth' | 'met'>> {
  for (let i = 0; i < WARM_UP; i++) await getJson(server.url + paths[i % paths.length]!);
  await server.takeTimes(WARM_UP);
  const client: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await getJson(server.url + paths[i % paths.length]!);
    client.push(performance.now() - started);
  }
  const times = (await server.takeTimes(samples)).sort((a, b) => a - b);
  client.sort((a, b) => a - b);
  return {
    scenario,
    requests: samples,
    p50Ms: percentile(times, 50),
    p99Ms: percentile(times, 99),
    maxMs: times.at(-1)!,
    clientP50Ms: percentile(client, 50),
  };
}

async function measureExport(
  server: Server,
  label: string,
  query: string,
  expectedRows: number | null,
): Promise<ExportFigures> {
  const rssBeforeMb = server.rssMb();
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, server.rssMb())), 20);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/mpesa/transactions/export${query}`);
  if (!response.ok) throw new Error(`the export answered ${response.status}`);
  let newlines = 0;
  for await (const chunk of response.body! as AsyncIterable<Uint8Array>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  rssPeakMb = Math.max(rssPeakMb, server.rssMb());
  await server.takeTimes(1);
  const rows = newlines - 1; // the header
  const rowsPerS = rows / seconds;
  const rssGrowthMb = rssPeakMb - rssBeforeMb;
  return {
    label,
    rows,
    seconds,
    rowsPerS,
    rssBeforeMb,
    rssPeakMb,
    rssGrowthMb,
    met:
      expectedRows === null
        ? null
        : rows === expectedRows &&
          rowsPerS >= EXPORT_ROWS_PER_S &&
          rssGrowthMb < EXPORT_RSS_GROWTH_MB,
  };
}

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  console.log(`\n${dialect}: ${COUNT.toLocaleString('en-US')} payments`);
  const database = await seededPayments(dialect, COUNT, values.keep ?? false);
  const server = await Server.start(database.env);
  try {
    const list = '/api/mpesa/transactions';
    const health = await measure(server, 'GET /api/health (baseline)', ['/api/health']);

    // Walk to the 200th page, keeping what it shows to search for.
    const seen: Row[] = [];
    let page = await getJson<Page>(server.url + list);
    let page200 = list;
    for (let n = 2; n <= 200; n++) {
      seen.push(...page.data);
      page200 = `${list}?cursor=${page.nextCursor}`;
      page = await getJson<Page>(server.url + page200);
    }
    await server.takeTimes(200);

    const phones = [...new Set(seen.map((row) => row.phoneNumber))].slice(0, SAMPLES);
    const receipts = seen.flatMap((row) => row.mpesaReceiptNumber ?? []).slice(0, SAMPLES);
    const references = [...new Set(seen.map((row) => row.reference))].filter((r) =>
      r.startsWith('INV-'),
    );
    const spaced = (phone: string, i: number) =>
      [
        `0${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`,
        `+${phone}`,
        `${phone.slice(0, 3)}-${phone.slice(3)}`,
        `0${phone.slice(3)}`,
      ][i % 4]!;
    const measured = [
      await measure(server, 'first page', [list]),
      await measure(server, '200th page by cursor', [page200]),
      await measure(server, 'status page (failed)', [`${list}?status=failed`]),
      await measure(server, 'status page (failed, cancelled)', [`${list}?status=failed,cancelled`]),
      await measure(
        server,
        'phone search',
        phones.map((phone, i) => `${list}?q=${encodeURIComponent(spaced(phone, i))}`),
      ),
      await measure(
        server,
        'receipt search',
        receipts.map((receipt) => `${list}?q=${receipt.toLowerCase()}`),
      ),
      await measure(
        server,
        'reference search (whole)',
        references.map((reference) => `${list}?q=${reference}`),
      ),
      await measure(
        server,
        'reference search (prefix)',
        references.map((reference) => `${list}?q=${reference.slice(0, -2)}`),
      ),
      await measure(
        server,
        'reference search (old invoices: INV-1…INV-99)',
        Array.from({ length: 99 }, (_, i) => `${list}?q=INV-${i + 1}`),
      ),
      await measure(server, 'summary', ['/api/mpesa/summary'], 60),
    ];
    const figures: Figures[] = [health, ...measured].map((row) => {
      const target = TARGETS[row.scenario];
      return {
        ...row,
        vsHealth: row.p99Ms / health.p99Ms,
        met: target
          ? (target.p99Ms === undefined || row.p99Ms < target.p99Ms) &&
            (target.maxMs === undefined || row.maxMs < target.maxMs)
          : null,
      };
    });
    for (const row of figures) {
      console.log(
        `  ${row.scenario.padEnd(46)} p50 ${row.p50Ms.toFixed(2).padStart(7)} ms  p99 ${row.p99Ms
          .toFixed(2)
          .padStart(7)} ms  max ${row.maxMs.toFixed(2).padStart(7)} ms  ${row.vsHealth
          .toFixed(1)
          .padStart(5)}× health${row.met === null ? '' : row.met ? '  met' : '  MISSED'}`,
      );
    }
    // One export of the last 30 days warms the server up, as every scenario above is warmed up.
    // Were the export to hold its rows, the million that follow would grow the process by about a
    // kilobyte a row.
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const exports: ExportFigures[] = [
      await measureExport(server, 'the last 30 days (warm-up)', `?from=${monthAgo}`, null),
    ];
    exports.push(
      await measureExport(server, 'every payment', '', COUNT),
      await measureExport(server, 'every payment, again', '', COUNT),
    );
    for (const row of exports) {
      console.log(
        `  CSV export, ${row.label.padEnd(27)} ${row.rows.toLocaleString('en-US').padStart(9)} rows in ${row.seconds.toFixed(1)} s = ${Math.round(row.rowsPerS).toLocaleString('en-US')} rows/s, RSS ${row.rssBeforeMb.toFixed(0)} → ${row.rssPeakMb.toFixed(0)} MB (+${row.rssGrowthMb.toFixed(1)})${row.met === null ? '' : row.met ? '  met' : '  MISSED'}`,
      );
    }
    return { dialect, figures, exports };
  } finally {
    await server.stop();
    await database.cleanUp();
  }
}

const dialects: ('sqlite' | 'postgres')[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const results: Awaited<ReturnType<typeof benchDialect>>[] = [];
for (const dialect of dialects) results.push(await benchDialect(dialect));
if (!TEST_DATABASE_URL) console.log('\n(PostgreSQL skipped: set TEST_DATABASE_URL to include it.)');

const date = new Date().toISOString().slice(0, 10);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
const file = path.join(ROOT, `bench/results/history-${date}.json`);
writeFileSync(file, `${JSON.stringify({ date, machine, count: COUNT, results }, null, 2)}\n`);
console.log(`\n${machine}\nWritten to ${path.relative(ROOT, file)}`);
// The table for docs/performance.md.
const ms = (value: number) => value.toFixed(2);
const header = results.map((result) => (result.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'));
const table = [
  `| Server time, ms (p50 / p99; max for the summary) | ${header.join(' | ')} | Target |`,
  `| --- | ${header.map(() => '---').join(' | ')} | --- |`,
  ...results[0]!.figures.map((row, index) => {
    const cells = results.map((result) => {
      const figure = result.figures[index]!;
      const times =
        figure.scenario === 'summary'
          ? `${ms(figure.p50Ms)} / max ${ms(figure.maxMs)}`
          : `${ms(figure.p50Ms)} / ${ms(figure.p99Ms)}`;
      return `${times} (${figure.vsHealth.toFixed(1)}× health)`;
    });
    const target = TARGETS[row.scenario];
    const goal = target?.p99Ms ? `p99 < ${target.p99Ms}` : target?.maxMs ? `< ${target.maxMs}` : '';
    return `| ${row.scenario} | ${cells.join(' | ')} | ${goal} |`;
  }),
  ...[...new Set(results.flatMap((result) => result.exports.map((row) => row.label)))].map(
    (label) => {
      const cells = results.map((result) => {
        const figure = result.exports.find((row) => row.label === label);
        return figure
          ? `${Math.round(figure.rowsPerS).toLocaleString('en-US')} rows/s, RSS +${figure.rssGrowthMb.toFixed(1)} MB`
          : '';
      });
      const goal = label === 'every payment' ? '≥ 100,000 rows/s, RSS < +64 MB' : '';
      return `| CSV export, ${label} | ${cells.join(' | ')} | ${goal} |`;
    },
  ),
];
console.log(`\n${table.join('\n')}`);

const missed = results.some(
  (result) =>
    result.figures.some((row) => row.met === false) ||
    result.exports.some((row) => row.met === false),
);
if (missed) process.exitCode = 1;
