import { describe, expect, test } from "bun:test";
import { FakeClock } from "../../src/clock.ts";
import { Backoff, RecentKeys } from "../../src/lib/throttle.ts";

const MIN = 60_000;
const opts = { free: 3, baseDelayMs: 1000, maxDelayMs: 10_000, forgetMs: 60 * MIN };

describe("Backoff", () => {
  test("free failures cost nothing; then 1, 2, 4, 8 s, capped", () => {
    const clock = new FakeClock();
    const b = new Backoff(clock, opts);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      b.record("k");
      waits.push(b.retryAfter("k"));
    }
    expect(waits).toEqual([0, 0, 0, 1, 2, 4, 8, 10]);
    expect(b.delayAfter(10_000)).toBe(10_000);
  });

  test("the wait counts down from the last failure, and an idle key is forgotten", () => {
    const clock = new FakeClock();
    const b = new Backoff(clock, opts);
    for (let i = 0; i < 6; i++) b.record("k"); // owes 4 s
    clock.advance(1500);
    expect(b.retryAfter("k")).toBe(3);
    clock.advance(2500);
    expect(b.retryAfter("k")).toBe(0);
    expect(b.failures("k")).toBe(6);
    clock.advance(60 * MIN);
    expect(b.failures("k")).toBe(0);
    b.record("k");
    expect(b.retryAfter("k")).toBe(0);
  });

  test("recordDistinct counts each subject once per key", () => {
    const clock = new FakeClock();
    const b = new Backoff(clock, opts);
    for (let i = 0; i < 10; i++) b.recordDistinct("ip", "same@example.com");
    expect(b.failures("ip")).toBe(1);
    for (let i = 0; i < 4; i++) b.recordDistinct("ip", `other${i}@example.com`);
    expect(b.failures("ip")).toBe(5);
    expect(b.retryAfter("ip")).toBe(2);
  });

  test("memory stays bounded: past maxKeys the oldest keys go", () => {
    const clock = new FakeClock();
    const b = new Backoff(clock, { ...opts, maxKeys: 100 });
    for (let i = 0; i < 1000; i++) b.record(`k${i}`);
    expect(b.size).toBeLessThanOrEqual(100);
    expect(b.failures("k999")).toBe(1);
    expect(b.failures("k0")).toBe(0);
  });

  test("a flood of distinct subjects on one key keeps its set small", () => {
    const clock = new FakeClock();
    const b = new Backoff(clock, opts);
    for (let i = 0; i < 5000; i++) b.recordDistinct("ip", `s${i}`);
    expect(b.failures("ip")).toBe(5000);
    expect(b.retryAfter("ip")).toBe(10);
  });
});

describe("RecentKeys", () => {
  test("a key is remembered for its time to live after it was last marked", () => {
    const clock = new FakeClock();
    const r = new RecentKeys(clock, 10 * MIN);
    r.mark("a");
    clock.advance(9 * MIN);
    expect(r.has("a")).toBe(true);
    r.mark("a");
    clock.advance(9 * MIN);
    expect(r.has("a")).toBe(true);
    clock.advance(MIN);
    expect(r.has("a")).toBe(false);
    expect(r.has("b")).toBe(false);
  });

  test("bounded: past maxKeys the least recently marked go first", () => {
    const clock = new FakeClock();
    const r = new RecentKeys(clock, 10 * MIN, 50);
    r.mark("keep");
    for (let i = 0; i < 500; i++) {
      if (i % 20 === 0) r.mark("keep");
      r.mark(`k${i}`);
    }
    expect(r.size).toBeLessThanOrEqual(50);
    expect(r.has("keep")).toBe(true);
    expect(r.has("k0")).toBe(false);
    expect(r.has("k499")).toBe(true);
  });
});
