import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** The "View GitHub Repository" link points at the repository named in the root package.json. */
const rootPackage = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { repository?: string | { url?: string } };
const repository =
  typeof rootPackage.repository === 'string' ? rootPackage.repository : rootPackage.repository?.url;
const repositoryUrl = (repository ?? '').replace(/^git\+/, '').replace(/\.git$/, '');

export default defineConfig({
  plugins: [react()],
  define: {
    __REPOSITORY_URL__: JSON.stringify(repositoryUrl),
  },
  server: {
    // `npm run dev -w apps/web` talks to the API started by `npm start`.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    target: 'es2022',
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
  },
});
