/**
 * The simulator's time: the real clock, plus whatever `advance` has added. Every wait the simulator
 * makes (a prompt's timeout, an auto-approval, a delayed callback, a retry) is a timer of this
 * clock, and every time it reads (a token's expiry, a prompt's timestamps, the repeat rule) comes
 * from it, so that moving it forward makes all of them happen at once: a test of a 60-second
 * timeout takes milliseconds (POST /_sim/clock/advance).
 */
export interface ClockTimer {
  readonly dueMs: number;
}

interface Pending extends ClockTimer {
  run: () => void;
  handle: NodeJS.Timeout | undefined;
}

/** The longest wait Node's setTimeout keeps (2^31 - 1 ms, about 24.8 days). */
const MAX_REAL_WAIT_MS = 2 ** 31 - 1;

export class SimClock {
  #offsetMs = 0;
  readonly #pending = new Set<Pending>();
  /** While a move runs its timers, the time it has reached: real time spent running them is not counted. */
  #movingAt: number | undefined;

  nowMs(): number {
    return this.#movingAt ?? Date.now() + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** How far the clock has been moved ahead of the real one. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  setTimeout(run: () => void, ms: number): ClockTimer {
    return this.setTimeoutAt(run, this.nowMs() + Math.max(0, ms));
  }

  /** Runs `run` when the clock reaches `dueMs` (at once if it has already). */
  setTimeoutAt(run: () => void, dueMs: number): ClockTimer {
    const timer: Pending = { dueMs, run, handle: undefined };
    this.#pending.add(timer);
    this.#arm(timer);
    return timer;
  }

  /**
   * Sets the real timer that wakes a pending one: at its due time as the clock now runs, in steps
   * of at most MAX_REAL_WAIT_MS (Node fires a longer wait at once, with a warning).
   */
  #arm(timer: Pending): void {
    clearTimeout(timer.handle);
    const remaining = Math.max(0, timer.dueMs - this.nowMs());
    timer.handle = setTimeout(
      () => {
        if (timer.dueMs > this.nowMs()) this.#arm(timer);
        else this.#fire(timer);
      },
      Math.min(remaining, MAX_REAL_WAIT_MS),
    );
  }

  clearTimeout(timer: ClockTimer): void {
    const pending = timer as Pending;
    clearTimeout(pending.handle);
    this.#pending.delete(pending);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /**
   * Moves the clock forward and runs, in the order they fall due, the timers due by then (a timer
   * such a run sets is run too, if it falls due within the move). Returns how many ran.
   */
  advance(ms: number): number {
    const aheadAfter = this.#offsetMs + Math.max(0, ms);
    const target = this.nowMs() + Math.max(0, ms);
    let ran = 0;
    // The clock stands still in real time while the move runs its timers: each runs at its own
    // time, so that what it sets falls due from then, however long the ones before it took (on a
    // busy machine a timer set 5 s after one due at the move's end fell just past it).
    this.#movingAt = this.nowMs();
    try {
      for (;;) {
        const due = [...this.#pending]
          .filter((timer) => timer.dueMs <= target)
          .sort((a, b) => a.dueMs - b.dueMs)[0];
        if (!due) break;
        this.#movingAt = Math.max(this.#movingAt, due.dueMs);
        this.#fire(due);
        ran++;
      }
    } finally {
      this.#movingAt = undefined;
    }
    // Exactly as far ahead as asked, whatever real time the timers took to run.
    this.#offsetMs = Math.max(this.#offsetMs, aheadAfter);
    // What is not due yet is now nearer: its real timer is set again for the time left.
    for (const timer of this.#pending) this.#arm(timer);
    this.onAdvance?.();
    return ran;
  }

  /** Called after each move forward (SIM_STATE keeps how far ahead the clock is). */
  onAdvance: (() => void) | undefined;

  /**
   * Puts the clock as far ahead of the real one as it was (a state restored after a restart).
   */
  restoreOffset(offsetMs: number): void {
    this.#offsetMs = Math.max(0, offsetMs);
    for (const timer of this.#pending) this.#arm(timer);
  }

  /** Forgets every timer (the simulator's reset). */
  clearAll(): void {
    for (const timer of this.#pending) clearTimeout(timer.handle);
    this.#pending.clear();
  }

  #fire(timer: Pending): void {
    if (!this.#pending.delete(timer)) return;
    clearTimeout(timer.handle);
    timer.run();
  }
}
