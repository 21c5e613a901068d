/** What a scenario of bench/run.ts is, and the requests scenarios send. */
import type autocannon from 'autocannon';
import type { Dialect, ServerProcess } from './lib.ts';

/** Pending payments for the callbacks to settle: more than the rounds can use. */
export const CALLBACK_TARGETS = 150_000;
export const SECRET = 'bench-callback-secret-0123456789';

export interface Scenario {
  name: string;
  dialect: Dialect | null;
  server: ServerProcess;
  /** More instances of the same server, sharing its database: the load is split among them all. */
  alsoServers?: ServerProcess[];
  /**
   * Ratio to bare Fastify it must reach, whether it must also beat bare Express, and (on
   * PostgreSQL) its ratio to the bare `SELECT 1` route of the same run.
   */
  target?: { ratio?: number; perSecond?: number; aboveExpress?: boolean; selectOneRatio?: number };
  /**
   * The status every request must be answered with (a refusal the scenario measures, say); any
   * 2xx when not given. Any other answer, or none, fails the run (lib.ts).
   */
  expectStatus?: number;
  request: () => autocannon.Request;
}

export const get = (pathname: string) => () => ({ method: 'GET' as const, path: pathname });
export const post = (pathname: string, body: () => unknown) => () => ({
  method: 'POST' as const,
  path: pathname,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body()),
});
