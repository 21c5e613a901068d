/**
 * How fast this machine is right now, against the one the history's targets were set on.
 *
 * The history's targets are times (a page's p99 under 10 ms) set on 23 November 2026, when this
 * 2-core build machine ran a bare Fastify 5 JSON hello-world (bench/servers/fastify-hello.ts) at
 * 32,600 requests/s under autocannon's 50 connections (docs/performance.md). The same machine has
 * since run it at 9,000 to 15,000/s, and every figure with it. So each run measures that
 * hello-world in the same way, before and after the scenarios, and holds the times to their
 * targets scaled by how much slower the faster of the two was: a target is a ratio to a baseline of
 * the same run, never a time that only a fast day meets. A faster machine is held to the targets as
 * written.
 */
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from '../apps/api/src/test/ports.ts';
import { ROOT, ServerProcess, requireExpectedAnswers } from './lib.ts';

/** Bare Fastify's requests/s on 23 November 2026, when the targets were set and met. */
export const REFERENCE_RATE = 32_600;

export interface MachinePace {
  /** Bare Fastify's requests/s in this run. */
  rate: number;
  /** What the targets' times are multiplied by (and the export's rate divided by): 1 or more. */
  scale: number;
}

/** Runs bare Fastify for a second of warm-up and 5 s of 50 connections, as `npm run bench` does. */
export async function machinePace(): Promise<MachinePace> {
  const port = await freePort();
  const fastify = await ServerProcess.start(
    'bare Fastify',
    [path.join(ROOT, 'bench/servers/fastify-hello.ts'), String(port)],
    port,
    {},
  );
  try {
    await autocannon({ url: fastify.url, connections: 50, duration: 1 });
    const result = await autocannon({ url: fastify.url, connections: 50, duration: 5 });
    requireExpectedAnswers('bare Fastify (the machine’s pace)', [result]);
    const rate = result.requests.total / 5;
    return { rate, scale: Math.max(1, REFERENCE_RATE / rate) };
  } finally {
    await fastify.stop();
  }
}
