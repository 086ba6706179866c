// The sends and provider look-ups under way: the loop waits for a free slot, and stop() waits for them to finish.
import type { Logger } from "../lib/logger.ts";

export class InFlight {
  private readonly tasks = new Set<Promise<void>>();
  private waiters: Array<() => void> = [];

  constructor(private readonly logger: Logger) {}

  get size(): number {
    return this.tasks.size;
  }

  /** Runs `task` in the background; its error is logged (a task records its own outcome). */
  track(task: Promise<void>): void {
    const t = task
      .catch((e) => this.logger.error(`dispatcher: ${e instanceof Error ? e.message : String(e)}`))
      .finally(() => {
        this.tasks.delete(t);
        this.wake();
      });
    this.tasks.add(t);
  }

  /** Resolves when a task ends (or wake() is called). */
  waitForSlot(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits up to `graceMs` for every task; answers how many are still running. */
  async settle(graceMs: number): Promise<number> {
    if (this.tasks.size === 0) return 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.allSettled([...this.tasks]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    return this.tasks.size;
  }
}
