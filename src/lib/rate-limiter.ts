import type { Clock } from "../clock.ts";
import { sweepBoundedMap } from "./bounded-map.ts";

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
    sweepBoundedMap(this.hits, this.maxKeys, (key) => this.live(key, now));
  }
}

/**
 * The key a client address is limited under. IPv4 addresses as they are; an IPv6 address by its /64 network, since
 * one home connection or VPS gets a whole /64 and could otherwise take a fresh address for every attempt.
 * IPv4-mapped IPv6 (::ffff:1.2.3.4) counts as the IPv4 address. Anything unparseable is used as it is.
 */
export function ipKey(ip: string): string {
  const addr = ip.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  if (!addr.includes(":")) return addr;
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?:?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(addr);
  if (mapped?.[1]) return mapped[1];
  const halves = addr.split("::");
  if (halves.length > 2) return addr;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return addr;
  const groups = [...head, ...Array<string>(missing).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return addr;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}
