/**
 * `npm run bench`: our API against the usual baselines, over real HTTP on 127.0.0.1.
 *
 * In one run, on one Node, it starts two reference servers (a bare Fastify 5 JSON hello-world and
 * a bare Express 5 hello-world, the original demo's stack) and our API as the real server process
 * (`apps/api/src/server.ts` with API_NODE_FLAGS, default settings), on SQLite and, when
 * TEST_DATABASE_URL is set, on PostgreSQL; then loads each with autocannon (50 connections, a
 * warm-up, and the rounds interleaved so that the machine's noise hits all alike):
 *
 * - one transaction by id, and the history's first page, of a shop with five payments;
 * - the first page and a phone search among 1,000,000 payments (seeded as `npm run bench:history
 *   -- --keep` seeds them, and kept for the next run);
 * - callback ingestion: distinct pending payments settled, then one callback delivered again;
 * - payment initiation end to end through the Daraja simulator (its own process).
 *
 * For each: requests/s, p50 and p99, the server's CPU microseconds per request (from
 * /proc/<pid>/stat), its peak RSS, and the ratio to the bare Fastify hello-world of the same run.
 * Results go to bench/results/<date>.json and a table for docs/performance.md. Exits 1 when a
 * target is missed, and at once, writing nothing, when any request of any scenario (warm-up
 * included) got another answer than the scenario expects, or none (lib.ts
 * `requireExpectedAnswers`). BENCH_DURATION_S sets each round's length (default 5).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../apps/api/src/test/ports.ts';
import { TEST_DATABASE_URL } from '../apps/api/src/test/test-db.ts';
import {
  ROOT,
  ServerProcess,
  stopOnFailedRequests,
  requireExpectedAnswers,
  type Dialect,
} from './lib.ts';
import { scenariosFor } from './run-scenarios.ts';
import { get, type Scenario } from './scenario.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = 2;
/**
 * While working on one figure: BENCH_ONLY (a regular expression) keeps only our scenarios whose
 * name it matches, and BENCH_DATABASE (sqlite or postgres) one database; the baselines always run.
 */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const ONLY_DATABASE = process.env.BENCH_DATABASE;
const CONNECTIONS = 50;

interface Round {
  requestsPerS: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
}

/**
 * Loads the scenario's server (its connections split among its instances, if several). Throws
 * when a request got another answer than the scenario expects, or none.
 */
async function load(scenario: Scenario, seconds: number): Promise<Round> {
  const servers = [scenario.server, ...(scenario.alsoServers ?? [])];
  const cpuOf = () => servers.reduce((sum, server) => sum + server.cpuMicros(), 0);
  const cpuBefore = cpuOf();
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: server.url,
        connections: CONNECTIONS / servers.length,
        duration: seconds,
        requests: [{ setupRequest: (request) => ({ ...request, ...scenario.request() }) }],
      }),
    ),
  );
  const cpu = cpuOf() - cpuBefore;
  requireExpectedAnswers(
    `${scenario.name}${scenario.dialect ? ` (${scenario.dialect})` : ''}`,
    results,
    scenario.expectStatus,
  );
  const total = results.reduce((sum, result) => sum + result.requests.total, 0);
  return {
    requestsPerS: total / seconds,
    // Of several instances': the slower one's.
    p50Ms: Math.max(...results.map((result) => result.latency.p50)),
    p99Ms: Math.max(...results.map((result) => result.latency.p99)),
    cpuMicrosPerRequest: cpu / Math.max(1, total),
  };
}

const SELECT_ONE = 'bare Fastify, SELECT 1 on PostgreSQL';

/** The bare `SELECT 1` route (bench/servers/fastify-pg.ts) on PostgreSQL at `url`. */
async function startSelectOne(url: string) {
  const port = await freePort();
  return ServerProcess.start(
    'bare Fastify with SELECT 1',
    [path.join(ROOT, 'bench/servers/fastify-pg.ts'), String(port), url],
    port,
    { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE ?? '' },
  );
}

const cleanUps: (() => unknown)[] = [];
const started = Date.now();
try {
  const fastifyPort = await freePort();
  const fastify = await ServerProcess.start(
    'bare Fastify',
    [path.join(ROOT, 'bench/servers/fastify-hello.ts'), String(fastifyPort)],
    fastifyPort,
    {},
  );
  cleanUps.push(() => fastify.stop());
  const expressPort = await freePort();
  const express = await ServerProcess.start(
    'bare Express',
    [path.join(ROOT, 'bench/servers/express-hello.ts'), String(expressPort)],
    expressPort,
    {},
  );
  cleanUps.push(() => express.stop());
  // The fastest answer from PostgreSQL: what each of its figures is also a ratio to.
  const pgReference = TEST_DATABASE_URL ? await startSelectOne(TEST_DATABASE_URL) : undefined;
  if (pgReference) cleanUps.push(() => pgReference.stop());
  const simulatorPort = await freePort();
  const simulator = await ServerProcess.start(
    'the simulator',
    [path.join(ROOT, 'apps/simulator/src/server.ts')],
    simulatorPort,
    {
      SIMULATOR_PORT: String(simulatorPort),
      SIM_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // No callbacks during the bench: prompts wait, unanswered, for an hour.
      SIM_AUTO_APPROVE_S: '0',
      SIM_PROMPT_TIMEOUT_S: '3600',
    },
    { ready: '/_sim/info' },
  );
  cleanUps.push(() => simulator.stop());

  const references: Scenario[] = [
    { name: 'bare Fastify hello-world', dialect: null, server: fastify, request: get('/') },
    { name: 'bare Express hello-world', dialect: null, server: express, request: get('/') },
    ...(pgReference
      ? [{ name: SELECT_ONE, dialect: null, server: pgReference, request: get('/') }]
      : []),
  ];
  const available: Dialect[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const dialects = available.filter((dialect) => !ONLY_DATABASE || dialect === ONLY_DATABASE);
  const ours: Scenario[] = [];
  for (const dialect of dialects) ours.push(...(await scenariosFor(dialect, simulator, cleanUps)));
  const all = [...references, ...ours.filter((scenario) => !ONLY || ONLY.test(scenario.name))];

  console.log(`Warming up ${all.length} scenarios…`);
  for (const scenario of all) await load(scenario, 1);
  const rounds = new Map<Scenario, Round[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const scenario of all) {
      const figures = await load(scenario, DURATION_S);
      rounds.set(scenario, [...(rounds.get(scenario) ?? []), figures]);
      console.log(
        `round ${round}  ${(scenario.dialect ?? '').padEnd(8)} ${scenario.name.padEnd(40)} ${Math.round(figures.requestsPerS).toLocaleString('en-US').padStart(7)}/s  p50 ${figures.p50Ms} ms  p99 ${figures.p99Ms} ms  ${Math.round(figures.cpuMicrosPerRequest)} µs CPU`,
      );
    }
  }

  const mean = (scenario: Scenario, key: keyof Round) => {
    const values = rounds.get(scenario)!.map((round) => round[key]);
    return values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  const fastifyRate = mean(references[0]!, 'requestsPerS');
  const expressRate = mean(references[1]!, 'requestsPerS');
  const selectOne = references.find((scenario) => scenario.name === SELECT_ONE);
  const selectOneRate = selectOne ? mean(selectOne, 'requestsPerS') : undefined;
  const results = all.map((scenario) => {
    const perSecond = mean(scenario, 'requestsPerS');
    const ratio = perSecond / fastifyRate;
    const { target } = scenario;
    const spread = rounds.get(scenario)!.map((round) => round.requestsPerS);
    const met =
      target === undefined
        ? null
        : (target.ratio === undefined || ratio >= target.ratio) &&
          (!target.aboveExpress || perSecond > expressRate) &&
          (target.perSecond === undefined || perSecond >= target.perSecond) &&
          (target.selectOneRatio === undefined ||
            (selectOneRate !== undefined && perSecond / selectOneRate >= target.selectOneRatio));
    return {
      scenario: scenario.name,
      database: scenario.dialect,
      requestsPerS: Math.round(perSecond),
      rounds: spread.map(Math.round),
      p50Ms: mean(scenario, 'p50Ms'),
      p99Ms: mean(scenario, 'p99Ms'),
      cpuMicrosPerRequest: Math.round(mean(scenario, 'cpuMicrosPerRequest')),
      peakRssMb: Math.round(scenario.server.peakRssMb()),
      ratioToFastify: Number(ratio.toFixed(3)),
      ratioToSelectOne:
        scenario.dialect === 'postgres' && selectOneRate
          ? Number((perSecond / selectOneRate).toFixed(3))
          : null,
      target: target ?? null,
      met,
    };
  });

  const goal = (target: Scenario['target']) =>
    !target
      ? ''
      : [
          target.ratio !== undefined ? `≥ ${target.ratio}×` : '',
          target.aboveExpress ? '> Express' : '',
          target.perSecond !== undefined ? `≥ ${target.perSecond.toLocaleString('en-US')}/s` : '',
          target.selectOneRatio !== undefined ? `≥ ${target.selectOneRatio}× SELECT 1` : '',
        ]
          .filter(Boolean)
          .join(', ');
  const table = [
    '| Scenario | Database | Requests/s (rounds) | p50 / p99 ms | CPU µs/request | Peak RSS MB | × bare Fastify | × SELECT 1 | Target | |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...results.map(
      (row) =>
        `| ${row.scenario} | ${row.database ?? ''} | ${row.requestsPerS.toLocaleString('en-US')} (${row.rounds.map((n) => n.toLocaleString('en-US')).join(', ')}) | ${row.p50Ms.toFixed(1)} / ${row.p99Ms.toFixed(1)} | ${row.cpuMicrosPerRequest} | ${row.peakRssMb} | ${row.ratioToFastify.toFixed(2)} | ${row.ratioToSelectOne?.toFixed(2) ?? ''} | ${goal(row.target ?? undefined)} | ${row.met === null ? '' : row.met ? 'met' : 'MISSED'} |`,
    ),
  ];
  console.log(`\n${table.join('\n')}`);
  if (!TEST_DATABASE_URL)
    console.log('\n(PostgreSQL skipped: set TEST_DATABASE_URL to include it.)');

  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  const file = path.join(ROOT, `bench/results/${date}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ date, machine, durationS: DURATION_S, rounds: ROUNDS, connections: CONNECTIONS, results }, null, 2)}\n`,
  );
  console.log(
    `\n${machine}; ${Math.round((Date.now() - started) / 1000)} s in all.\nWritten to ${path.relative(ROOT, file)}`,
  );
  if (results.some((row) => row.met === false)) process.exitCode = 1;
} catch (error) {
  stopOnFailedRequests(error);
} finally {
  for (const cleanUp of cleanUps.reverse()) {
    try {
      await cleanUp();
    } catch (error) {
      console.error(`cleaning up: ${(error as Error).message}`);
    }
  }
}
