import { describe, expect, it } from 'vitest';
import { TRANSACTION_STATUSES } from './constants.ts';
import { canTryAgain } from './payer-outcomes.ts';

// The payer's sentences moved, with their tests, to the web app's outcome table
// (apps/web/src/features/transactions/outcomes.test.ts).

describe('canTryAgain', () => {
  it('offers another try only where no money moved', () => {
    expect(TRANSACTION_STATUSES.filter(canTryAgain)).toEqual(['failed', 'cancelled', 'timeout']);
  });
});
