import { describe, expect, it } from 'vitest';
import { callbackFault } from './callbacks.ts';
import { faultsSchema } from './fault-rules.ts';
import { FaultPlan, LATE_CALLBACK_MS } from './faults.ts';

const issueOf = (input: unknown) => {
  const parsed = faultsSchema.safeParse(input);
  if (parsed.success) return null;
  const [issue] = parsed.error.issues;
  return `${issue!.path.join('.')}: ${issue!.message}`;
};

describe('fault rules', () => {
  it('takes the example of its documentation', () => {
    expect(
      issueOf({
        seed: 7,
        rules: [
          { operation: 'stkpush', probability: 0.2, error: 'spike-arrest', latencyMs: [100, 300] },
        ],
      }),
    ).toBeNull();
  });

  it.each([
    [
      { rules: [{ operation: 'b2pochi', probability: 1, error: 'busy' }] },
      /^rules\.0\.operation: must be one of oauth, stkpush, query, qrcode, c2bregister, c2bsimulate, b2c, b2b, transactionstatus, accountbalance, reversal, callback$/,
    ],
    [
      { rules: [{ operation: 'stkpush', probability: 0, error: 'busy' }] },
      /^rules\.0\.probability: must be more than 0/,
    ],
    [
      { rules: [{ operation: 'stkpush', probability: 1.5, error: 'busy' }] },
      /^rules\.0\.probability: must be at most 1/,
    ],
    [
      { rules: [{ operation: 'stkpush', probability: '0.5', error: 'busy' }] },
      /^rules\.0\.probability: must be a number from 0 to 1/,
    ],
    [
      { rules: [{ operation: 'stkpush', probability: 1 }] },
      /^rules\.0\.error: a rule needs an error, a latencyMs, or both$/,
    ],
    [
      { rules: [{ operation: 'stkpush', probability: 1, error: 'late' }] },
      /^rules\.0\.error: "late" is not an error for stkpush \(one of busy, spike-arrest, quota, internal-error, drop, lose-answer, gateway\)$/,
    ],
    [
      { rules: [{ operation: 'callback', probability: 1, error: 'busy' }] },
      /^rules\.0\.error: "busy" is not an error for callback \(one of drop, duplicate, late\)$/,
    ],
    [
      { rules: [{ operation: 'query', probability: 1, latencyMs: [300, 100] }] },
      /^rules\.0\.latencyMs: must be \[lowest, highest\]/,
    ],
    [{ rules: [{ operation: 'query', probability: 1, latencyMs: [100] }] }, /^rules\.0\.latencyMs/],
    [
      { rules: [{ operation: 'query', probability: 1, error: 'busy', typo: 1 }] },
      /^rules\.0: Unrecognized key/,
    ],
    [{ seed: -1, rules: [] }, /^seed: /],
    [{}, /^rules: /],
  ])('refuses %j, naming the field', (input, message) => {
    expect(issueOf(input)).toMatch(message);
  });

  it('applies a rule at about its probability, the same way for the same seed', () => {
    const run = (seed: number) => {
      const plan = new FaultPlan();
      plan.set({
        seed,
        rules: [{ operation: 'stkpush', probability: 0.2, error: 'spike-arrest' }],
      });
      return Array.from({ length: 1000 }, () => plan.decide('stkpush').error);
    };
    const first = run(7);
    expect(run(7)).toEqual(first);
    expect(run(8)).not.toEqual(first);
    const refused = first.filter((error) => error === 'spike-arrest').length;
    expect(refused).toBeGreaterThan(150);
    expect(refused).toBeLessThan(250);
  });

  it('adds latency within the range, only to its operation, and the first error wins', () => {
    const plan = new FaultPlan();
    plan.set({
      seed: 1,
      rules: [
        { operation: 'query', probability: 1, latencyMs: [100, 300] },
        { operation: 'query', probability: 1, error: 'busy', latencyMs: [50, 50] },
        { operation: 'query', probability: 1, error: 'quota' },
      ],
    });
    for (let i = 0; i < 100; i++) {
      const decision = plan.decide('query');
      expect(decision.error).toBe('busy');
      expect(decision.latencyMs).toBeGreaterThanOrEqual(150);
      expect(decision.latencyMs).toBeLessThanOrEqual(350);
    }
    expect(plan.decide('stkpush')).toEqual({ error: null, latencyMs: 0 });
  });

  it('lists its rules with the seed it draws from, chosen when none was given, and clears them', () => {
    const plan = new FaultPlan();
    plan.set({ rules: [{ operation: 'oauth', probability: 1, error: 'drop' }] });
    const { seed, rules } = plan.list();
    expect(Number.isInteger(seed)).toBe(true);
    expect(rules).toHaveLength(1);
    plan.clear();
    expect(plan.list().rules).toEqual([]);
    expect(plan.decide('oauth')).toEqual({ error: null, latencyMs: 0 });
  });

  it('makes a late callback LATE_CALLBACK_MS late unless its rule gives a latency', () => {
    const plan = new FaultPlan();
    plan.set({ seed: 1, rules: [{ operation: 'callback', probability: 1, error: 'late' }] });
    expect(plan.decide('callback')).toEqual({ error: 'late', latencyMs: LATE_CALLBACK_MS });
    plan.set({
      seed: 1,
      rules: [{ operation: 'callback', probability: 1, error: 'late', latencyMs: [5, 5] }],
    });
    expect(plan.decide('callback')).toEqual({ error: 'late', latencyMs: 5 });
  });
});

describe('a callback’s fault', () => {
  it('is the number’s and the rules’ together', () => {
    const own = { duplicates: 1, delayMs: 1000, retries: 2 };
    expect(callbackFault(own, { error: null, latencyMs: 0 })).toEqual(own);
    expect(callbackFault(own, { error: 'duplicate', latencyMs: 500 })).toEqual({
      duplicates: 2,
      delayMs: 1500,
      retries: 2,
    });
    expect(callbackFault({}, { error: 'drop', latencyMs: 0 })).toEqual({ drop: true });
    expect(callbackFault({ drop: true }, { error: 'late', latencyMs: 9 })).toEqual({
      drop: true,
      delayMs: 9,
    });
  });
});
