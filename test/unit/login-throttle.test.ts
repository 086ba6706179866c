// Issue 21, item 5: a browser with a device cookie for an account is never held by the per-address throttle that
// other accounts' failures raised (a shop's NAT); everyone else there waits seconds, not minutes; the pair and account
// throttles still apply, and a cookie for one account does nothing for another. On the fake clock.
import { describe, expect, test } from "bun:test";
import { FakeClock } from "../../src/clock.ts";
import { createDeviceCookies, DEVICE_COOKIE_TTL_S, DEVICE_KEY_SETTING } from "../../src/services/device-cookies.ts";
import { createLoginThrottle, LOGIN_THROTTLE } from "../../src/services/login-throttle.ts";
import { testContext } from "../helpers/context.ts";

const NAT = "198.51.100.77";
const DAY = 24 * 3600_000;

/** Stuffing from the NAT: `n` different accounts fail there, each as soon as the address may try again. */
function stuff(clock: FakeClock, throttle: ReturnType<typeof createLoginThrottle>, n: number): number[] {
  const waits: number[] = [];
  for (let i = 0; i < n; i++) {
    const wait = throttle.retryAfter(`victim${i}@example.com`, NAT);
    if (wait > 0) {
      waits.push(wait);
      clock.advance(wait * 1000);
    }
    throttle.failed(`victim${i}@example.com`, NAT);
  }
  return waits;
}

describe("the login throttle and known devices", () => {
  test("the per-address delay is capped at a few seconds, however long the stuffing goes on", () => {
    const clock = new FakeClock();
    const throttle = createLoginThrottle(clock, 30 * DAY);
    const waits = stuff(clock, throttle, 200);
    expect(waits.slice(0, 4)).toEqual([1, 2, 4, 5]);
    expect(Math.max(...waits)).toBe(5);
    expect(LOGIN_THROTTLE.address.maxDelayMs).toBeLessThanOrEqual(5000);
    // A newcomer behind the NAT: seconds.
    expect(throttle.retryAfter("newcomer@example.com", NAT)).toBe(5);
  });

  test("a known device for the account is not held by the address at all; without it the same login waits", () => {
    const clock = new FakeClock();
    const throttle = createLoginThrottle(clock, 30 * DAY);
    stuff(clock, throttle, 40);
    expect(throttle.retryAfter("regular@example.com", NAT, true)).toBe(0);
    expect(throttle.retryAfter("regular@example.com", NAT, false)).toBe(5);
  });

  test("the pair throttle still holds a known device (guesses at one account from one place)", () => {
    const clock = new FakeClock();
    const throttle = createLoginThrottle(clock, 30 * DAY);
    for (let i = 0; i < 8; i++) {
      clock.advance(throttle.retryAfter("ada@example.com", NAT, true) * 1000);
      throttle.failed("ada@example.com", NAT);
    }
    // Five free, then 1, 2, 4 s: the eighth failure costs 4 s, device cookie or not.
    expect(throttle.retryAfter("ada@example.com", NAT, true)).toBe(4);
  });

  test("the account throttle still holds a known device on an address it never signed in from", () => {
    const clock = new FakeClock();
    const throttle = createLoginThrottle(clock, 30 * DAY);
    // A botnet: 101 failures at Ada from 101 addresses.
    for (let i = 0; i <= LOGIN_THROTTLE.account.free; i++) throttle.failed("ada@example.com", `192.0.2.${i % 250}-${i}`);
    expect(throttle.retryAfter("ada@example.com", "203.0.113.9", true)).toBe(1);
    // The address where Ada signed in before is spared, as it always was.
    clock.advance(1000);
    throttle.succeeded("ada@example.com", "203.0.113.10");
    throttle.failed("ada@example.com", "192.0.2.200");
    expect(throttle.retryAfter("ada@example.com", "203.0.113.10")).toBe(0);
  });
});

describe("device cookies", () => {
  test("a cookie names the account it signed in to; tampered, expired or another install's: nothing", () => {
    const ctx = testContext();
    try {
      const devices = createDeviceCookies({ repos: ctx.repos, clock: ctx.clock });
      const value = devices.issue(7);
      expect(value).toMatch(/^7\.\d+\.[A-Za-z0-9_-]{43}$/);
      expect(devices.accountOf(value)).toBe(7);
      // The key was made once and stored; a second service on the same database reads the same key.
      expect(ctx.repos.settings.get(DEVICE_KEY_SETTING)).toHaveLength(43);
      expect(createDeviceCookies({ repos: ctx.repos, clock: ctx.clock }).accountOf(value)).toBe(7);
      // Another account's number with this signature, a changed signature, junk, nothing.
      expect(devices.accountOf(value.replace(/^7\./, "8."))).toBeNull();
      const sig = value.split(".")[2]!;
      expect(devices.accountOf(value.replace(sig, `${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`))).toBeNull();
      expect(devices.accountOf("7")).toBeNull();
      expect(devices.accountOf(undefined)).toBeNull();
      expect(devices.accountOf(`${value}x`.repeat(50))).toBeNull();
      // Another install (another key) cannot vouch for accounts here.
      const other = testContext();
      try {
        expect(createDeviceCookies({ repos: other.repos, clock: ctx.clock }).accountOf(value)).toBeNull();
      } finally {
        other.close();
      }
      // Past its lifetime it is nothing.
      ctx.clock.advance(DEVICE_COOKIE_TTL_S * 1000 + 1000);
      expect(devices.accountOf(value)).toBeNull();
    } finally {
      ctx.close();
    }
  });
});
