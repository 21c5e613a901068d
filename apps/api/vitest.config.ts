import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that replace a module for themselves (vi.mock): they run in a project of their own, with
 * fresh modules (the root vitest.config.ts), since this one shares its modules between files.
 */
export const OWN_MODULES = ['src/features/system/openapi.test.ts'];

/** What every api test needs, shared modules or not. */
export const testBase = {
  environment: 'node' as const,
  // The limits catch a hang, not slowness: beside the browser tests on a busy two-core machine, a
  // test that takes 0.3 s alone has taken 16 (PostgreSQL resetting its copy of the database).
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // expect.poll waits here for the simulator's callbacks and the API's workers, whose turn comes
  // late on a busy machine: Vitest's 1 s default was missed.
  expect: { poll: { timeout: 15_000 } },
  globalSetup: ['./src/test/global-setup.ts'],
};

export default defineConfig({
  test: {
    ...testBase,
    name: 'api',
    // A worker imports the app once for all its files, not once per file: each file builds its own
    // apps and databases, and no test file changes a module's state for another.
    isolate: false,
    exclude: [...configDefaults.exclude, ...OWN_MODULES],
  },
});
