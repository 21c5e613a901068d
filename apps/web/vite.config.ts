import { readFileSync } from 'node:fs';
import { loadEnv, type Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { initialSizeReport, precompress } from './tooling/precompress.ts';

/** The "View GitHub Repository" link points at the repository named in the root package.json. */
const rootPackage = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { repository?: string | { url?: string } };
const repository =
  typeof rootPackage.repository === 'string' ? rootPackage.repository : rootPackage.repository?.url;
const repositoryUrl = (repository ?? '').replace(/^git\+/, '').replace(/\.git$/, '');

/**
 * index.html asks for /api/config while the script downloads: main.tsx waits for it before the
 * first paint, so that the simulator notice is there from the start instead of pushing the page
 * down when it arrives. The address is the one src/lib/api-client.ts asks (same default).
 */
function preloadConfig(apiBase: string): Plugin {
  return {
    name: 'mpesa:preload-config',
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: { rel: 'preload', href: `${apiBase}/config`, as: 'fetch', crossorigin: 'anonymous' },
        injectTo: 'head',
      },
    ],
  };
}

/**
 * Files that replace a module for themselves (vi.mock): they run in a project of their own, with
 * fresh modules (the root vitest.config.ts), since this one shares its modules between files.
 */
export const OWN_MODULES = ['src/i18n/language-failure.test.tsx'];

/** What the component tests need: JSX, the repository's address, jsdom and their set-up. */
export const testBase = {
  plugins: [react()],
  define: { __REPOSITORY_URL__: JSON.stringify(repositoryUrl) },
  test: {
    environment: 'jsdom' as const,
    setupFiles: ['./src/test/setup.ts'],
    // The limit catches a hang, not a busy machine (Vitest's default is 5 s).
    testTimeout: 20_000,
    restoreMocks: true,
  },
};

export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, import.meta.dirname, ['VITE_', 'PORT']);
  const apiBase = (env.VITE_API_BASE_URL ?? '/api').replace(/\/+$/, '');
  return {
    plugins: [react(), preloadConfig(apiBase), precompress(), initialSizeReport()],
    define: testBase.define,
    server: {
      // `npm run dev:web` talks to the API started by `npm start`, on the same PORT (3000 unless set).
      proxy: { '/api': `http://127.0.0.1:${env.PORT || '3000'}` },
    },
    build: {
      target: 'es2022',
      // No preloading of a lazy screen's shared chunks: the list of their file names, and the code
      // that preloads them, cost the first screen's download more than the budget had left
      // (docs/performance.md, "The web app"). A screen's shared chunk comes when the screen's own
      // code asks for it, and every screen's code is fetched once the first screen has loaded.
      modulePreload: false,
    },
    test: {
      ...testBase.test,
      name: 'web',
      // A worker imports the app once for all its files, not once per file: each test renders
      // its own app with its own query cache, and starts in English (src/test/setup.ts).
      isolate: false,
      exclude: [...configDefaults.exclude, ...OWN_MODULES],
    },
  };
});
