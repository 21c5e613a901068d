import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { useCompileCache } from './scripts/lib.ts';

// The processes the tests start (the API, the command lines, the simulator) inherit it.
useCompileCache();

/** `npm run test:unit`: every workspace's unit, integration and component tests. Browser tests live in e2e/. */
export default defineConfig({
  test: {
    // Vitest's own default is a core less than the machine has: one file at a time on two cores,
    // which leaves a core idle while a test waits on a process, a socket or PostgreSQL.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      'packages/shared',
      'packages/openapi-page',
      'apps/api',
      'apps/simulator',
      'apps/web/vite.config.ts',
      'tooling',
    ],
  },
});
