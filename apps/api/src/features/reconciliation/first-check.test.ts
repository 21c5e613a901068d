/**
 * Reconciliation's first query comes as soon as Daraja can answer it: just after an unanswered
 * prompt lapses (RECONCILE_FIRST_CHECK_S, 65 s; docs/daraja-protocol.md §4.3, §5), not after the
 * backoff's first step (RECONCILE_AFTER_S, 90 s), which the checks after it keep. On each database.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { DIALECTS } from '../../test/test-db.ts';
import { useApiWithSimulator } from '../../test/world.ts';
import { reconcileOnce } from '../../test/reconcile.ts';

describe('RECONCILE_FIRST_CHECK_S', () => {
  it('is 65 s by default, and never later than RECONCILE_AFTER_S', () => {
    expect(loadConfig({}).reconcile).toMatchObject({ firstCheckS: 65, afterS: 90 });
    expect(loadConfig({ RECONCILE_AFTER_S: '30' }).reconcile.firstCheckS).toBe(30);
    expect(loadConfig({ RECONCILE_FIRST_CHECK_S: '20' }).reconcile.firstCheckS).toBe(20);
  });
});

for (const dialect of DIALECTS) {
  describe(`the first query (${dialect})`, () => {
    let clock = Date.now();
    const world = useApiWithSimulator(dialect, { now: () => new Date(clock) });
    beforeEach(() => {
      clock = Date.now();
    });
    const reconcile = () =>
      reconcileOnce(world.database, { darajaUrl: world.simulator.url, now: () => new Date(clock) });
    const status = async (id: string) =>
      (await world.app.inject({ url: `/api/mpesa/transactions/${id}` })).json().data.status;

    it('finds a payer who paid (callback lost) 65 s after the push, then backs off from 90 s', async () => {
      const paid = (
        await world.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber: '0700009999', amount: 30 },
        })
      ).json().transactionId;
      await world.simulator.prompts.setNext('254711000009', { outcome: { kind: 'manual' } });
      const open = (
        await world.app.inject({
          method: 'POST',
          url: '/api/mpesa/stkpush',
          payload: { phoneNumber: '0711000009', amount: 5 },
        })
      ).json().transactionId;
      await new Promise((resolve) => setTimeout(resolve, 150)); // the simulator settles after 50 ms

      clock += 64_000;
      expect(await reconcile()).toBe(0);
      clock += 1_000;
      expect(await reconcile()).toBe(2);
      expect(await status(paid)).toBe('success');
      expect(await status(open)).toBe('pending');
      const { next_check_at } = await world.database.db
        .selectFrom('transactions')
        .select('next_check_at')
        .where('id', '=', open)
        .executeTakeFirstOrThrow();
      expect(Date.parse(next_check_at!) - clock).toBe(90_000);
    });
  });
}
