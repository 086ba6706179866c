// A Scheduler on a FakeClock for dispatcher tests: time moves only when the dispatcher sleeps (auto) or when the
// test says so (manual), so pacing and backoff are measured exactly, without waiting.
import type { FakeClock } from "../../src/clock.ts";
import type { Scheduler } from "../../src/dispatch/scheduler.ts";

interface Waiter {
  at: number;
  resolve: () => void;
}

export class VirtualScheduler implements Scheduler {
  private waiters: Waiter[] = [];
  /** Every sleep requested, in ms (for assertions). */
  readonly sleeps: number[] = [];

  /** auto: a sleep moves the clock forward by its length at once (then yields to I/O);
   * manual: a sleep waits until advance() passes its end. */
  constructor(
    readonly clock: FakeClock,
    public auto = true,
  ) {}

  now(): number {
    return this.clock.now().getTime();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.resolve();
    if (this.auto) {
      if (ms > 0) this.clock.advance(ms);
      return new Promise((resolve) => setTimeout(resolve, 0));
    }
    return new Promise((resolve) => {
      const w: Waiter = { at: this.now() + ms, resolve };
      this.waiters.push(w);
      signal?.addEventListener(
        "abort",
        () => {
          this.waiters = this.waiters.filter((x) => x !== w);
          resolve();
        },
        { once: true },
      );
    });
  }

  /** Manual mode: moves the clock and wakes the sleepers whose time has come. */
  advance(ms: number): void {
    this.clock.advance(ms);
    const now = this.now();
    const due = this.waiters.filter((w) => w.at <= now);
    this.waiters = this.waiters.filter((w) => w.at > now);
    for (const w of due) w.resolve();
  }

  /** Sleepers waiting (manual mode). */
  get sleeping(): number {
    return this.waiters.length;
  }
}

export { until } from "./until.ts";
