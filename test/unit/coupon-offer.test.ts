// A coupon's last day in the business's time zone (DST included), and a code as typed at the counter.
import { expect, test } from "bun:test";
import { ValidationError } from "../../src/errors.ts";
import { COUPON_EXPIRES_PAST, COUPON_EXPIRES_TOO_FAR, typedCode } from "../../src/schemas/coupons.ts";
import { expiryOf } from "../../src/services/coupons/offer.ts";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof ValidationError) return e.fields;
  }
  throw new Error("not refused");
};

test("the end of the day, in the zone, across the DST changes", () => {
  // New York springs forward on 2026-03-08: that day ends at 04:00Z (EDT); the day before at 05:00Z (EST).
  expect(new Date(expiryOf("2026-03-07", "America/New_York", NOW)).toISOString()).toBe("2026-03-08T04:59:59.999Z");
  expect(new Date(expiryOf("2026-03-08", "America/New_York", NOW)).toISOString()).toBe("2026-03-09T03:59:59.999Z");
  expect(new Date(expiryOf("2026-03-01", "Asia/Kolkata", NOW)).toISOString()).toBe("2026-03-01T18:29:59.999Z");
  expect(new Date(expiryOf("2026-03-01", "UTC", NOW)).toISOString()).toBe("2026-03-01T23:59:59.999Z");
});

test("today is the earliest (where the business is), 366 days ahead the latest", () => {
  // At 12:00Z on March 1st it is already March 2nd in Kiritimati (UTC+14).
  expect(refusal(() => expiryOf("2026-03-01", "Pacific/Kiritimati", NOW))).toEqual({ CouponExpires: COUPON_EXPIRES_PAST });
  expect(refusal(() => expiryOf("2026-02-28", "UTC", NOW))).toEqual({ CouponExpires: COUPON_EXPIRES_PAST });
  expect(expiryOf("2027-03-02", "UTC", NOW)).toBe(Date.parse("2027-03-02T23:59:59.999Z"));
  expect(refusal(() => expiryOf("2027-03-03", "UTC", NOW))).toEqual({ CouponExpires: COUPON_EXPIRES_TOO_FAR });
});

test("a typed code: upper case, spaces anywhere dropped, dashes kept", () => {
  expect(typedCode(" ab3k 9qpm\t")).toBe("AB3K9QPM");
  expect(typedCode("spring-10")).toBe("SPRING-10");
});
