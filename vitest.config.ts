import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { useCompileCache } from './scripts/lib.ts';
import {
  OWN_MODULES as API_OWN_MODULES,
  testBase as apiTestBase,
} from './apps/api/vitest.config.ts';
import {
  OWN_MODULES as SIMULATOR_OWN_MODULES,
  testBase as simulatorTestBase,
} from './apps/simulator/vitest.config.ts';
import { OWN_MODULES as WEB_OWN_MODULES, testBase as webTestBase } from './apps/web/vite.config.ts';

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
      // The api's files that replace a module for themselves, with fresh modules for each file.
      {
        test: {
          ...apiTestBase,
          name: 'api (own modules)',
          root: 'apps/api',
          include: API_OWN_MODULES,
        },
      },
      'apps/simulator',
      {
        test: {
          ...simulatorTestBase,
          name: 'simulator (own modules)',
          root: 'apps/simulator',
          include: SIMULATOR_OWN_MODULES,
        },
      },
      'apps/web/vite.config.ts',
      {
        ...webTestBase,
        test: {
          ...webTestBase.test,
          name: 'web (own modules)',
          root: 'apps/web',
          include: WEB_OWN_MODULES,
        },
      },
      'tooling',
    ],
  },
});
