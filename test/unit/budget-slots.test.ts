// The slot rule of the text budgets (src/lib/budget-slots.ts): whatever order texts come in and whatever keys they
// share, no window of any key ever holds more than its limit, and a text waits no longer than it must.
import { describe, expect, test } from "bun:test";
import { SlotKey, slotFor, takeSlot } from "../../src/lib/budget-slots.ts";
import { busiest } from "../helpers/busiest-window.ts";

const HOUR = 3_600_000;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe("SlotKey", () => {
  test("the first `limit` texts go now; the next waits an hour after the limit-th newest", () => {
    const key = new SlotKey(3, HOUR);
    expect([0, 1, 2].map((t) => takeSlot(t * 1000, [key]))).toEqual([0, 1000, 2000]);
    expect(slotFor(5000, [key])).toBe(HOUR);
    expect(takeSlot(5000, [key])).toBe(HOUR);
    expect(takeSlot(6000, [key])).toBe(HOUR + 1000);
    // Once the window has passed, texts go at once again.
    expect(slotFor(3 * HOUR, [key])).toBe(3 * HOUR);
  });

  test("slots already given (read from the database) count like new ones; only those inside the window matter", () => {
    expect(slotFor(10 * HOUR, [new SlotKey(2, HOUR, [10 * HOUR - 10, 10 * HOUR - 5, 5 * HOUR])])).toBe(11 * HOUR - 10);
    expect(new SlotKey(2, HOUR, [10 * HOUR - 10]).leftAt(10 * HOUR)).toBe(1);
    expect(new SlotKey(2, HOUR, [8 * HOUR]).leftAt(10 * HOUR)).toBe(2);
    expect(new SlotKey(2, HOUR, [10 * HOUR + 5, 12 * HOUR]).leftAt(10 * HOUR)).toBe(0);
  });

  test("many keys at random: no window of any key ever holds more than its limit", () => {
    const next = random(42);
    const install = new SlotKey(20, HOUR);
    const owners = [0, 1, 2, 3, 4].map(() => new SlotKey(8, HOUR));
    const numbers = [0, 1, 2, 3].map(() => new SlotKey(3, 24 * HOUR));
    const given = { install: [] as number[], owners: owners.map(() => [] as number[]), numbers: numbers.map(() => [] as number[]) };
    let now = 0;
    let waited = 0;
    for (let i = 0; i < 400; i++) {
      now += Math.floor(next() * 20_000);
      const o = Math.floor(next() * owners.length);
      const n = Math.floor(next() * numbers.length);
      // Half of them are confirmations (with the number's 24-hour key), half tests (hour keys only).
      const keys = next() < 0.5 ? [owners[o]!, install, numbers[n]!] : [owners[o]!, install];
      const slot = takeSlot(now, keys);
      expect(slot).toBeGreaterThanOrEqual(now);
      if (slot > now) waited++;
      given.install.push(slot);
      given.owners[o]!.push(slot);
      if (keys.length === 3) given.numbers[n]!.push(slot);
    }
    expect(busiest(given.install, HOUR)).toBeLessThanOrEqual(20);
    for (const s of given.owners) expect(busiest(s, HOUR)).toBeLessThanOrEqual(8);
    for (const s of given.numbers) expect(busiest(s, 24 * HOUR)).toBeLessThanOrEqual(3);
    // The budgets were really in the way (the test is not trivially true): many texts waited.
    expect(waited).toBeGreaterThan(100);
  });
});
