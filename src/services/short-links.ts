// Following a short link (issue 25): `GET /l/<code>` answers where the code leads and records the click of a person.
// A person's repeat clicks from the same address within a day count once; the address is kept only as a hash, in
// memory, for that day (never in the database: clicks are stored without it). The hash is a fast one held as a number:
// a burst of clicks must not fill the heap with strings (bench/redirect.ts), and any hash of an IPv4 address can be
// reversed by trying them all, so a cryptographic one would protect nothing more.
import type { Clock } from "../clock.ts";
import { sweepBoundedMap } from "../lib/bounded-map.ts";
import type { Logger } from "../lib/logger.ts";
import type { Repos } from "../repos/index.ts";
import type { ShortLinkClick } from "../repos/sql/short-links.ts";
import { SHORT_CODE_ALPHABET } from "../schemas/tracked-text.ts";

/** How long a click from one address on one code counts once. */
export const CLICK_DEDUPE_MS = 24 * 60 * 60 * 1000;
/** At most this many (code, address) pairs remembered; past it the oldest go (a flood must not grow memory). */
const MAX_REMEMBERED = 200_000;
/** A code as short links are made (src/schemas/tracked-text.ts), with room for a longer one later. */
const CODE_SHAPE = new RegExp(`^[${SHORT_CODE_ALPHABET}]{6,32}$`);

export function createShortLinksService({ repos, clock, logger }: { repos: Pick<Repos, "shortLinks" | "transaction">; clock: Clock; logger: Logger }) {
  /** Hash of (code, address) -> until when a click from there is not counted again. */
  const seen = new Map<number, number>();
  /** Clicks answered in this turn of the event loop, written together at the next (flush). */
  let pending: ShortLinkClick[] = [];

  /**
   * Writes the waiting clicks in one transaction. A commit costs about 80 µs of the 100 a click takes alone; a burst
   * after a big broadcast answers many clicks a turn, so one commit for them all is what keeps the redirect fast
   * (bench/redirect.ts). The person has their redirect either way: a crash loses at most one turn's clicks.
   */
  function flush(): void {
    const clicks = pending;
    pending = [];
    if (clicks.length === 0) return;
    try {
      repos.transaction(() => repos.shortLinks.recordClicks(clicks));
    } catch (e) {
      logger.error(`short links: ${clicks.length} click(s) not recorded: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** True the first time in a day this address follows this code (and remembers it). */
  function firstToday(code: string, address: string, now: number): boolean {
    // 53 bits of the 64-bit hash: a safe integer; two of 200,000 pairs share one about once in 450,000 full maps.
    const key = Number(Bun.hash(`${code}\n${address}`) & 0x1f_ffff_ffff_ffffn);
    const until = seen.get(key);
    if (until !== undefined && until > now) return false;
    if (seen.size >= MAX_REMEMBERED) sweepBoundedMap(seen, MAX_REMEMBERED, (k) => seen.get(k)! <= now && seen.delete(k));
    seen.delete(key); // re-inserted last: the map stays in expiry order for the sweep
    seen.set(key, now + CLICK_DEDUPE_MS);
    return true;
  }

  return {
    /**
     * Where `code` leads (null: no such link). The click is recorded when `person` gives the address of someone
     * following it (not a link preview or a HEAD), the first time in a day from that address.
     */
    follow(code: string, person: { address: string } | null): string | null {
      if (!CODE_SHAPE.test(code)) return null;
      const target = repos.shortLinks.target(code);
      if (!target) return null;
      const now = clock.now().getTime();
      if (person && firstToday(code, person.address, now)) {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ code, target, at: now });
      }
      return target.url;
    },
    /** Writes the clicks answered so far now (they are otherwise written at the next turn of the event loop). */
    flush,
  };
}

export type ShortLinksService = ReturnType<typeof createShortLinksService>;
