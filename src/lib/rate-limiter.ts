import type { Clock } from "../clock.ts";

/**
 * Counts events per key in a sliding window (kept as timestamps; windows are small).
 * In memory on purpose: one process serves a shop, and a restart forgiving counts is harmless.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {}

  private live(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  /** Seconds until the key may act again, or 0 when it is under the limit. */
  retryAfter(key: string): number {
    if (this.limit <= 0) return 0;
    const now = this.clock.now().getTime();
    const list = this.live(key, now);
    if (list.length < this.limit) return 0;
    const oldest = list[list.length - this.limit] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  record(key: string): void {
    if (this.limit <= 0) return;
    const now = this.clock.now().getTime();
    if (!this.hits.has(key) && this.hits.size >= this.maxKeys) this.sweep(now);
    const list = this.live(key, now);
    list.push(now);
    // Only the newest `limit` hits decide anything (see retryAfter): keep no more, so a flood cannot grow a list.
    if (list.length > this.limit) list.splice(0, list.length - this.limit);
    this.hits.set(key, list);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now: number): void {
    for (const key of this.hits.keys()) this.live(key, now);
    // Still (nearly) full: drop the oldest keys rather than grow without bound. Down to 90%, so that a stream of new
    // keys sweeps once per maxKeys/10 of them instead of on every single one.
    const target = Math.floor(this.maxKeys * 0.9);
    for (const key of this.hits.keys()) {
      if (this.hits.size <= target) break;
      this.hits.delete(key);
    }
  }
}
