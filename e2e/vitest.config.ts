import { defineConfig } from 'vitest/config';
import { useCompileCache } from '../scripts/lib.ts';
import { SlowestFirst } from './sequencer.ts';

// The stacks global-setup.ts starts inherit it.
useCompileCache();

/**
 * Browser tests: web → API → simulator, in Debian's Chromium driven by playwright-core. Files run
 * three at a time, each worker on a stack of its own (global-setup.ts); E2E_WORKERS changes how
 * many. They wait on pages, a slow network's emulation and the apps more than they compute (alone,
 * two at a time kept 1.4 of 2 cores busy), so a third overlaps those waits; beside the unit tests
 * in `npm test` it also gives them their share of the CPU, where they were the last to end.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    maxWorkers: Number(process.env.E2E_WORKERS ?? 3),
    // A worker imports the helpers (Playwright, the API's command line) once for all its files,
    // and its files share one Chromium (browser.ts, workerBrowser): each file starts its own apps
    // and opens its own contexts, and none changes a module's state for another.
    isolate: false,
    // The slowest files first, on a fresh clone too (sequencer.ts).
    sequence: { sequencer: SlowestFirst },
    // expect.poll waits here for a page to come to a state, as a locator's waitFor does: Vitest's
    // 1 s default is missed by a page still loading on a busy machine.
    expect: { poll: { timeout: 10_000 } },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
