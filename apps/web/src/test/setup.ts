import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { LANGUAGE_KEY } from '../i18n/language';
import { setLanguage } from '../i18n/words';

// findBy… and waitFor wait up to 5 s, not Testing Library's 1: on a busy machine (the browser tests
// beside these) a screen's next render has come later than that.
configure({ asyncUtilTimeout: 5000 });

// A test fails if it logs an unexpected console.error: React warnings and failed renders are bugs.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`Unexpected console.error: ${args.map(String).join(' ')}`);
  });
});

afterEach(() => {
  cleanup();
  // What a tab keeps for itself (the numbers typed for "Try again") ends with each test.
  globalThis.sessionStorage?.clear();
  // Files share their modules (vite.config.ts): the next test starts in English, whatever this
  // one chose (a file run in Node has no page, and no language to put back).
  if (typeof document === 'undefined') return;
  setLanguage('en');
  localStorage.removeItem(LANGUAGE_KEY);
});
