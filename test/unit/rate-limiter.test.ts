import { describe, expect, test } from "bun:test";
import { FakeClock } from "../../src/clock.ts";
import { ipKey, RateLimiter } from "../../src/lib/rate-limiter.ts";

const MIN = 60_000;

describe("RateLimiter", () => {
  test("under the limit a key may act; at the limit it must wait", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 3, 15 * MIN);
    for (let i = 0; i < 2; i++) rl.record("ip");
    expect(rl.retryAfter("ip")).toBe(0);
    rl.record("ip");
    expect(rl.retryAfter("ip")).toBe(15 * 60);
  });

  test("keys are independent", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 1, MIN);
    rl.record("a");
    expect(rl.retryAfter("a")).toBeGreaterThan(0);
    expect(rl.retryAfter("b")).toBe(0);
  });

  test("the window slides: the wait is until the oldest counted hit expires", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 2, 10 * MIN);
    rl.record("k"); // t = 0
    clock.advance(4 * MIN);
    rl.record("k"); // t = 4 min
    expect(rl.retryAfter("k")).toBe(6 * 60);
    clock.advance(6 * MIN - 1000);
    expect(rl.retryAfter("k")).toBe(1);
    clock.advance(1000); // the first hit is now exactly one window old: out
    expect(rl.retryAfter("k")).toBe(0);
    rl.record("k");
    // Two hits live again (4 min and 10 min): blocked until the 4-minute one expires.
    expect(rl.retryAfter("k")).toBe(4 * 60);
  });

  test("after the window everything is forgiven (no permanent lockout)", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 5, 15 * MIN);
    for (let i = 0; i < 50; i++) rl.record("x");
    expect(rl.retryAfter("x")).toBeGreaterThan(0);
    clock.advance(15 * MIN);
    expect(rl.retryAfter("x")).toBe(0);
  });

  test("a flood keeps counting from the newest hits, not from the first", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 2, 10 * MIN);
    rl.record("k");
    clock.advance(5 * MIN);
    rl.record("k");
    rl.record("k");
    rl.record("k");
    // The newest two hits are at 5 minutes: wait the full window from there.
    expect(rl.retryAfter("k")).toBe(10 * 60);
  });

  test("the wait rounds up to at least one second", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 1, 1500);
    rl.record("k");
    clock.advance(1400);
    expect(rl.retryAfter("k")).toBe(1);
  });

  test("reset forgets a key", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 1, MIN);
    rl.record("k");
    expect(rl.retryAfter("k")).toBeGreaterThan(0);
    rl.reset("k");
    expect(rl.retryAfter("k")).toBe(0);
  });

  test("a limit of 0 disables limiting", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 0, MIN);
    for (let i = 0; i < 100; i++) rl.record("k");
    expect(rl.retryAfter("k")).toBe(0);
  });

  test("memory stays bounded: per key to the limit, and in the number of keys", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 3, MIN, 100);
    for (let i = 0; i < 10_000; i++) rl.record("hot");
    const hits = (rl as unknown as { hits: Map<string, number[]> }).hits;
    expect(hits.get("hot")?.length).toBe(3);
    for (let i = 0; i < 1000; i++) rl.record(`key${i}`);
    expect(hits.size).toBeLessThanOrEqual(100);
    // The newest key survives a sweep and is still counted.
    expect(rl.retryAfter("key999")).toBe(0);
    expect(hits.has("key999")).toBe(true);
  });

  test("expired keys are swept before live ones are dropped", () => {
    const clock = new FakeClock();
    const rl = new RateLimiter(clock, 1, MIN, 10);
    for (let i = 0; i < 9; i++) rl.record(`old${i}`);
    clock.advance(MIN / 2);
    rl.record("live");
    clock.advance(MIN / 2); // the old keys have expired; "live" has not
    rl.record("new");
    expect(rl.retryAfter("live")).toBeGreaterThan(0);
    expect(rl.retryAfter("new")).toBeGreaterThan(0);
  });
});

describe("ipKey", () => {
  const cases: [string, string][] = [
    ["203.0.113.9", "203.0.113.9"],
    [" 203.0.113.9 ", "203.0.113.9"],
    ["2001:db8:1:2::a", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:0:0:1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["[2001:db8:1:2::5]", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["0:0:0:0:0:ffff:198.51.100.4", "198.51.100.4"],
    ["unknown", "unknown"],
    ["not::an::address", "not::an::address"],
    ["1:2:3:4:5:6:7", "1:2:3:4:5:6:7"],
  ];
  for (const [ip, key] of cases) {
    test(`${JSON.stringify(ip)} -> ${key}`, () => expect(ipKey(ip)).toBe(key));
  }

  test("every address of one /64 shares a key; the next /64 does not", () => {
    expect(ipKey("2001:db8:aa:bb:1::1")).toBe(ipKey("2001:db8:aa:bb:ffff:ffff:ffff:ffff"));
    expect(ipKey("2001:db8:aa:bb::1")).not.toBe(ipKey("2001:db8:aa:bc::1"));
  });
});
