import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    globalSetup: ['./src/test/global-setup.ts'],
  },
});
