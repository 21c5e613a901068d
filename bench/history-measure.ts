/**
 * bench/history.ts's measuring: the API as its own process with its request log read for the
 * server's own times, a scenario asked one request at a time, and the CSV export with the server's
 * RSS read while it streams.
 */
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { requireExpectedAnswer, startApi, type ServerProcess } from './lib.ts';

/** Requests per scenario after the warm-up (the export is run twice). */
export const SAMPLES = 400;
const WARM_UP = 30;
/** The export's target at the machine's reference pace (machine-pace.ts): divided by its scale. */
const EXPORT_ROWS_PER_S = 100_000;
const EXPORT_RSS_GROWTH_MB = 64;
export interface Figures {
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

export interface ExportFigures {
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
export class Server {
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

/** The answer to a GET, as JSON; any answer but a 2xx fails the scenario (lib.ts). */
export async function getJson<T>(scenario: string, url: string): Promise<T> {
  const response = await fetch(url);
  const text = await response.text();
  requireExpectedAnswer(scenario, `GET ${new URL(url).pathname}`, response.status, text);
  return JSON.parse(text) as T;
}

export interface Row {
  _id: string;
  phoneNumber: string;
  mpesaReceiptNumber?: string | null;
  reference: string;
}
export interface Page {
  data: Row[];
  nextCursor: string | null;
}

/** Asks each path in turn (the list is cycled), one request at a time. */
export async function measure(
  server: Server,
  scenario: string,
  paths: readonly string[],
  samples = SAMPLES,
): Promise<Omit<Figures, 'vsHealth' | 'met'>> {
  for (let i = 0; i < WARM_UP; i++) await getJson(scenario, server.url + paths[i % paths.length]!);
  await server.takeTimes(WARM_UP);
  const client: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await getJson(scenario, server.url + paths[i % paths.length]!);
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

/** The export of `query`, held (with `expectedRows`) to its targets at the machine's `scale`. */
export async function measureExport(
  server: Server,
  label: string,
  query: string,
  expectedRows: number | null,
  scale = 1,
): Promise<ExportFigures> {
  const rssBeforeMb = server.rssMb();
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, server.rssMb())), 20);
  const started = performance.now();
  const response = await fetch(`${server.url}/api/mpesa/transactions/export${query}`);
  if (!response.ok) {
    const scenario = `CSV export, ${label}`;
    requireExpectedAnswer(scenario, 'the export', response.status, await response.text());
  }
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
          rowsPerS >= EXPORT_ROWS_PER_S / scale &&
          rssGrowthMb < EXPORT_RSS_GROWTH_MB,
  };
}
