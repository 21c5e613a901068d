import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimClock } from './clock.ts';
import { PromptBook } from './operations/stk/prompt-book.ts';
import { TokenStore } from './tokens.ts';
import { loadSimulatorConfig } from './config.ts';

describe('the simulator’s clock', () => {
  it('runs the timers due when it is moved forward, in the order they fall due, and no others', () => {
    const clock = new SimClock();
    const ran: string[] = [];
    clock.setTimeout(() => ran.push('60 s'), 60_000);
    clock.setTimeout(() => ran.push('10 s'), 10_000);
    const later = clock.setTimeout(() => ran.push('2 h'), 7_200_000);
    const before = clock.nowMs();
    expect(clock.advance(60_000)).toBe(2);
    expect(ran).toEqual(['10 s', '60 s']);
    expect(clock.nowMs() - before).toBeGreaterThanOrEqual(60_000);
    clock.clearTimeout(later);
    expect(clock.advance(7_200_000)).toBe(0);
    expect(ran).toEqual(['10 s', '60 s']);
  });

  describe('in real time', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('runs a timer not yet due after a move when the time left has passed, not the whole wait', () => {
      vi.useFakeTimers();
      const clock = new SimClock();
      let ran = false;
      clock.setTimeout(() => (ran = true), 20_000);
      expect(clock.advance(15_000)).toBe(0);
      vi.advanceTimersByTime(4_900);
      expect(ran).toBe(false);
      vi.advanceTimersByTime(200);
      expect(ran).toBe(true);
    });

    it('waits longer than Node’s longest timer (about 24.8 days) without firing at once', () => {
      vi.useFakeTimers();
      const clock = new SimClock();
      let ran = false;
      clock.setTimeout(() => (ran = true), 30 * 86_400_000);
      vi.advanceTimersByTime(1_000);
      expect(ran).toBe(false);
      vi.advanceTimersByTime(29 * 86_400_000);
      expect(ran).toBe(false);
      vi.advanceTimersByTime(86_400_000);
      expect(ran).toBe(true);
    });
  });

  it('is exactly as far ahead as it was moved, whatever the timers took', () => {
    const clock = new SimClock();
    clock.setTimeout(() => {
      const until = Date.now() + 20;
      while (Date.now() < until); // a timer that takes real time to run
    }, 1_000);
    clock.advance(15_000);
    clock.advance(1_000);
    expect(clock.offsetMs).toBe(16_000);
  });

  it('runs a timer set by another within the same move', () => {
    const clock = new SimClock();
    const ran: string[] = [];
    clock.setTimeout(() => {
      ran.push('first');
      // Real time passes while it runs (a busy machine): the clock stands still during a move.
      const until = Date.now() + 20;
      while (Date.now() < until);
      clock.setTimeout(() => ran.push('second'), 5_000);
    }, 5_000);
    clock.advance(10_000);
    expect(ran).toEqual(['first', 'second']);
  });

  it('ends a sleep when moved past it', async () => {
    const clock = new SimClock();
    let woke = false;
    const sleeping = clock.sleep(3_600_000).then(() => (woke = true));
    clock.advance(3_600_000);
    await sleeping;
    expect(woke).toBe(true);
  });

  it('times a prompt out (1037) and expires tokens at once, with no real wait', () => {
    const clock = new SimClock();
    const config = loadSimulatorConfig({ SIM_AUTO_APPROVE_S: '0', SIM_PROMPT_TIMEOUT_S: '60' });
    const prompts = new PromptBook(config, clock);
    const tokens = new TokenStore(3600, clock);
    const { token } = tokens.issue();
    const prompt = prompts.create({
      businessShortCode: '174379',
      transactionType: 'CustomerPayBillOnline',
      amount: 10,
      partyA: '254708374149',
      partyB: '174379',
      phoneNumber: '254708374149',
      // Nothing listens here: the callback's delivery fails, which this test does not look at.
      callbackUrl: 'http://127.0.0.1:9/callback',
      accountReference: 'INV-1',
      transactionDesc: 'Test',
    });
    clock.advance(59_000);
    expect(prompts.get(prompt.checkoutRequestId)?.state).toBe('open');
    clock.advance(1_000);
    expect(prompts.get(prompt.checkoutRequestId)).toMatchObject({
      state: 'completed',
      resultCode: '1037',
    });
    expect(tokens.isValid(token)).toBe(true);
    clock.advance(3_600_000);
    expect(tokens.isValid(token)).toBe(false);
    prompts.reset();
  });
});
