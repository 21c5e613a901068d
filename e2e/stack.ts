/** The product this test file runs against: its worker's own (global-setup.ts starts one per worker). */
import { inject } from 'vitest';
import type { Stack } from './global-setup.ts';

export function stack(): Stack {
  const stacks = inject('stacks');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return stacks[(worker - 1) % stacks.length]!;
}
