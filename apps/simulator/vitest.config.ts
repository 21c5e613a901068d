import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that replace a module for themselves (vi.mock): they run in a project of their own, with
 * fresh modules (the root vitest.config.ts), since this one shares its modules between files.
 */
export const OWN_MODULES = ['src/openapi.test.ts'];

/**
 * What every simulator test needs, shared modules or not. The time limits catch a hang, not
 * slowness: beside the browser tests on a busy two-core machine, tests and their set-ups (which
 * start simulators) take many times longer.
 */
export const testBase = {
  environment: 'node' as const,
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // expect.poll waits for a callback or a process's output: Vitest's 1 s default is missed there.
  expect: { poll: { timeout: 15_000 } },
};

export default defineConfig({
  test: {
    ...testBase,
    name: 'simulator',
    // A worker imports the simulator once for all its files, not once per file: each file starts
    // its own simulators.
    isolate: false,
    exclude: [...configDefaults.exclude, ...OWN_MODULES],
  },
});
