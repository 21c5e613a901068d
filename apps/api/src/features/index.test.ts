/**
 * The features' list gives every kind of callback one route and one handler: a kind two features
 * name, or two kinds on one route, stop the app at start-up instead of M-PESA's callbacks reaching
 * the wrong handler.
 */
import { describe, expect, it } from 'vitest';
import type { CallbackHandler } from '../callbacks/callback.routes.ts';
import { c2bRoute, resultRoute } from '../callbacks/callback-paths.ts';
import type { ApiFeature } from './feature.ts';
import {
  CALLBACK_ROUTES,
  FEATURES,
  callbackRoutesOf,
  featureCallbacks,
  type FeatureContext,
} from './index.ts';

const handler: CallbackHandler = { schema: {}, handle: async (_callback, reply) => reply };
const feature = (
  kinds: Record<string, ReturnType<typeof resultRoute>>,
): ApiFeature<unknown, unknown, string> => ({
  callbacks: Object.fromEntries(
    Object.entries(kinds).map(([kind, route]) => [kind, { route, handler: () => handler }]),
  ),
});

/** Enough of a context for the features' handlers to be made (they only close over it). */
const context = {
  config: { c2b: undefined },
  database: { db: {}, dialect: 'sqlite' },
  now: () => new Date(),
  payments: {},
  refunds: {},
} as unknown as FeatureContext;

describe('the callbacks the features handle', () => {
  it('gives each kind a handler, and each handled kind a route', () => {
    const kinds = featureCallbacks(context).map(({ kind }) => kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    // The features' kinds, and the queue-timeout callbacks/ handles itself.
    expect(kinds.sort()).toEqual(Object.keys(CALLBACK_ROUTES).sort());
    expect(kinds).toContain('queue-timeout');
  });

  it('takes a new kind from the feature that names it, and no edit elsewhere', () => {
    const routes = callbackRoutesOf([
      ...FEATURES,
      feature({ 'pull-results': resultRoute('/pull') }),
    ]);
    expect(routes['pull-results']).toEqual(resultRoute('/pull'));
  });

  it('refuses to start with a kind two features name', () => {
    expect(() =>
      callbackRoutesOf([...FEATURES, feature({ reversal: resultRoute('/r2') })]),
    ).toThrow('Two handlers for the reversal callback');
    expect(() =>
      callbackRoutesOf([...FEATURES, feature({ 'queue-timeout': resultRoute('/q2') })]),
    ).toThrow('Two handlers for the queue-timeout callback');
  });

  it('refuses to start with two kinds on one route', () => {
    expect(() =>
      callbackRoutesOf([...FEATURES, feature({ 'c2b-other': c2bRoute('/validation') })]),
    ).toThrow('The c2b-other and c2b-validation callbacks share the route /c2b/:secret/validation');
  });

  it('refuses to start with a kind its column cannot hold', () => {
    expect(() =>
      callbackRoutesOf([feature({ 'seventeen-letters': resultRoute('/seventeen') })]),
    ).toThrow('The seventeen-letters callback’s kind is over 16 characters');
  });
});
