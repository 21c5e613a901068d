import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

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
});
