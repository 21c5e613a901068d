import { defineConfig } from 'vitest/config';

/** The project's own lint rules (tooling/eslint), tested by running ESLint as `npm run lint` does. */
export default defineConfig({
  test: { name: 'tooling', environment: 'node', testTimeout: 30_000 },
});
