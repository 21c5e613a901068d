/**
 * The features' list gives every kind of callback exactly one handler: a kind left without one, or
 * handled twice, stops the app at start-up instead of answering M-PESA 404 or the wrong handler.
 */
import { describe, expect, it } from 'vitest';
import { CALLBACK_KINDS } from '../db/callback-kinds.ts';
import type { CallbackHandler } from '../callbacks/callback.routes.ts';
import { callbackHandlers, type FeatureContext } from './index.ts';

const handler: CallbackHandler = { schema: {}, handle: async (_callback, reply) => reply };

/** Enough of a context for the features' handlers to be made (they only close over it). */
const context = {
  config: { c2b: undefined },
  database: { db: {}, dialect: 'sqlite' },
  now: () => new Date(),
  payments: {},
  refunds: {},
} as unknown as FeatureContext;

describe('the callbacks the features handle', () => {
  it('gives each kind one handler, with what callbacks/ handles itself', () => {
    const handlers = callbackHandlers(context, { 'queue-timeout': handler });
    expect(Object.keys(handlers).sort()).toEqual([...CALLBACK_KINDS].sort());
    expect(handlers['queue-timeout']).toBe(handler);
  });

  it('refuses to start with a kind that has no handler', () => {
    expect(() => callbackHandlers(context, {})).toThrow(
      'No handler for the queue-timeout callback',
    );
  });

  it('refuses to start with a kind handled twice', () => {
    expect(() =>
      callbackHandlers(context, { 'queue-timeout': handler, 'stk-push': handler }),
    ).toThrow('Two handlers for the stk-push callback');
  });
});
