/**
 * The API's background work (reconciliation, refund recovery, webhook delivery, phone retention)
 * runs as rounds on a timer: a round that fails is logged (a database gone away at warn level, as
 * it is waited for; anything else as a fault) and tried again next round; `stop` waits for the
 * round under way, so that closing the app never cuts one in half.
 */
import type { FastifyBaseLogger } from 'fastify';
import { logFailure } from './unavailable.ts';

export interface BackgroundLoop {
  stop(): Promise<void>;
}

export interface LoopOptions {
  log: FastifyBaseLogger;
  /** The log lines of a failed round: the database gone away, anything else. */
  words: { unavailable: string; failed: string };
  /** Until the first round, and between the end of one and the start of the next. */
  firstMs: number;
  intervalMs: number;
  /** One round; `stopped()` turns true once `stop` is called. */
  round: (stopped: () => boolean) => Promise<void>;
}

export function startLoop({ log, words, firstMs, intervalMs, round }: LoopOptions): BackgroundLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      try {
        await round(() => stopped);
      } catch (error) {
        logFailure(log, error, words);
      }
      if (!stopped) timer = setTimeout(tick, intervalMs);
    })();
  };
  timer = setTimeout(tick, firstMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** Runs `batch` again at once while it comes back full (more may be due), until stopped. */
export async function whileFull(
  batch: () => Promise<number>,
  size: number,
  stopped: () => boolean,
): Promise<void> {
  while (!stopped() && (await batch()) === size);
}
