import type { Clock } from "../clock.ts";
import { sweepBoundedMap } from "./bounded-map.ts";

/**
 * Growing delays after failures, per key (OWASP's Authentication cheat sheet: throttle, never lock an account for
 * everyone). The first `free` failures cost nothing; from then on each failure makes the key wait base, 2×base,
 * 4×base... (capped at `maxDelayMs`) after it before the next attempt is heard. A key idle for `forgetMs` since its
 * last failure starts afresh. Attempts refused while waiting are not failures: they neither count nor extend the
 * wait, so hammering a throttled key buys nothing and costs nothing.
 * In memory on purpose, like RateLimiter: one process serves a shop, and a restart forgiving counts is harmless.
 */
export interface BackoffOptions {
  free: number;
  baseDelayMs: number;
  maxDelayMs: number;
  forgetMs: number;
  maxKeys?: number;
}

interface Entry {
  failures: number;
  lastAt: number;
  /** For distinct-subject counting (see recordDistinct): small hashes of the subjects already counted. */
  subjects?: Set<number>;
}

/** More subjects than this per key are all counted as new: the delay is at its cap long before (free + about a dozen
 * doublings), and a key's memory stays small (a few hundred bytes) whatever a flood sends. */
const MAX_SUBJECTS = 64;

export class Backoff {
  private readonly entries = new Map<string, Entry>();
  readonly maxKeys: number;

  constructor(
    private readonly clock: Clock,
    readonly options: BackoffOptions,
  ) {
    this.maxKeys = options.maxKeys ?? 100_000;
  }

  /** The delay the key owes after `failures` failures: 0 while free, then doubling up to the cap. */
  delayAfter(failures: number): number {
    const { free, baseDelayMs, maxDelayMs } = this.options;
    const over = failures - free;
    if (over <= 0) return 0;
    // 2^(over-1), without overflowing for huge counts: past ~40 doublings every sane cap is reached anyway.
    return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(over - 1, 40));
  }

  private live(key: string, now: number): Entry | undefined {
    const e = this.entries.get(key);
    if (e && now - e.lastAt >= this.options.forgetMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  /** Seconds the key must still wait before its next attempt is heard; 0 when it may try now. */
  retryAfter(key: string): number {
    const now = this.clock.now().getTime();
    const e = this.live(key, now);
    if (!e) return 0;
    const until = e.lastAt + this.delayAfter(e.failures);
    return until > now ? Math.max(1, Math.ceil((until - now) / 1000)) : 0;
  }

  /** Counts one failure of the key. */
  record(key: string): void {
    const now = this.clock.now().getTime();
    const e = this.entryFor(key, now);
    e.failures += 1;
    e.lastAt = now;
  }

  /**
   * Counts a failure only when `subject` is new for this key within its memory: the per-address count of credential
   * stuffing is how many different accounts failed from there, so one person's typos behind a shop's NAT (the same
   * account again and again, already throttled per account and address) do not slow their colleagues down.
   * A repeated subject still refreshes the key's memory.
   */
  recordDistinct(key: string, subject: string): void {
    const now = this.clock.now().getTime();
    const e = this.entryFor(key, now);
    e.subjects ??= new Set();
    const h = Bun.hash.wyhash(subject) & 0xffffffffn;
    const id = Number(h);
    if (e.subjects.size >= MAX_SUBJECTS || !e.subjects.has(id)) {
      e.failures += 1;
      if (e.subjects.size < MAX_SUBJECTS) e.subjects.add(id);
    }
    e.lastAt = now;
  }

  /** How many failures the key has on record now (0 when forgotten). */
  failures(key: string): number {
    return this.live(key, this.clock.now().getTime())?.failures ?? 0;
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  /** Keys held now (for tests of the memory bound). */
  get size(): number {
    return this.entries.size;
  }

  private entryFor(key: string, now: number): Entry {
    let e = this.live(key, now);
    if (!e) {
      if (this.entries.size >= this.maxKeys) this.sweep(now);
      e = { failures: 0, lastAt: now };
      this.entries.set(key, e);
    }
    return e;
  }

  private sweep(now: number): void {
    sweepBoundedMap(this.entries, this.maxKeys, (key) => this.live(key, now));
  }
}

/**
 * Keys seen recently (here: account and address pairs that logged in successfully), each for `ttlMs` after it was
 * last marked; bounded like the limiters, oldest first.
 */
export class RecentKeys {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    readonly ttlMs: number,
    readonly maxKeys = 100_000,
  ) {}

  has(key: string): boolean {
    const at = this.seen.get(key);
    if (at === undefined) return false;
    if (this.clock.now().getTime() - at >= this.ttlMs) {
      this.seen.delete(key);
      return false;
    }
    return true;
  }

  mark(key: string): void {
    const now = this.clock.now().getTime();
    // Re-inserted, so the Map's order stays oldest-marked first for the sweep below.
    this.seen.delete(key);
    if (this.seen.size >= this.maxKeys) {
      const target = Math.floor(this.maxKeys * 0.9);
      for (const [k, at] of this.seen) {
        if (this.seen.size <= target && now - at < this.ttlMs) break;
        this.seen.delete(k);
      }
    }
    this.seen.set(key, now);
  }

  get size(): number {
    return this.seen.size;
  }
}
