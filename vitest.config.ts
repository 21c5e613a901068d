import { defineConfig } from 'vitest/config';

/** `npm run test:unit`: every workspace's unit, integration and component tests. Browser tests live in e2e/. */
export default defineConfig({
  test: {
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
