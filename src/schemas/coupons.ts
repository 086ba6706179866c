// Coupons (issue 25 item 2): a broadcast's offer as the owner gives it (CouponCode, UniqueCoupons, CouponExpires in
// broadcast-input.ts) and its redemption at the counter (POST /api/coupon/Redeem, `nearcast coupons redeem`, the
// Redeem screen), with the texts they share. Pure, so the browser checks and shows the same.
import * as v from "valibot";
import { COUPON_PLACEHOLDER } from "./tracked-text.ts";

/** A shared code as the owner types it: read aloud and typed at a till, so short, upper case, no spaces. */
export const SHARED_COUPON_PATTERN = /^[A-Z0-9-]{3,20}$/;
/** An expiry may be set at most this many days ahead (a year and a day: "until this day next year"). */
export const MAX_COUPON_DAYS = 366;

export const COUPON_CODE_INVALID = "CouponCode must be 3 to 20 letters, digits or dashes, e.g. SAVE10.";
export const COUPON_BOTH = "Give either CouponCode (one code for everyone) or UniqueCoupons (a code per person), not both.";
export const UNIQUE_COUPONS_INVALID = "UniqueCoupons must be true or false.";
export const UNIQUE_NEEDS_PLACEHOLDER = `Put ${COUPON_PLACEHOLDER} in MessageText where each person's code goes.`;
export const PLACEHOLDER_WITHOUT_UNIQUE = `MessageText has ${COUPON_PLACEHOLDER} but UniqueCoupons is not true: people would receive "${COUPON_PLACEHOLDER}" as it is.`;
export const COUPON_EXPIRES_INVALID = "CouponExpires must be a date such as 2026-12-31.";
export const COUPON_EXPIRES_PAST = "CouponExpires must be today or later.";
export const COUPON_EXPIRES_TOO_FAR = `CouponExpires must be at most ${MAX_COUPON_DAYS} days ahead.`;
export const COUPON_EXPIRES_WITHOUT_OFFER = "CouponExpires needs a CouponCode or UniqueCoupons.";
export const COUPON_EXPIRES_BEFORE_SEND = "CouponExpires must not be before the broadcast is sent (ScheduledFor).";

/** A shared code as stored: trimmed and upper case; "" or absent is none. */
export const normalCouponCode = (raw: string): string => raw.trim().toUpperCase();

/** "YYYY-MM-DD" as a real calendar date -> [year, month (1-12), day]; null otherwise. */
export function calendarDate(text: string): [number, number, number] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d ? [y, mo, d] : null;
}

// --- Redemption -------------------------------------------------------------------------------------------------

export const REDEEM_CODE_REQUIRED = "Type the code.";
export const REDEEM_CODE_INVALID = "A code is letters, digits and dashes.";
export const COUPON_UNKNOWN = "Unknown code.";
export const COUPON_USED = "This code was already used.";
export const COUPON_EXPIRED = "This code has expired.";
export const COUPON_NO_SUBSCRIBER = "No subscriber of this business has that phone number.";
export const COUPON_GUESSES_PER_MINUTE = 10;
export const COUPON_TOO_MANY_TRIES = "Too many unknown codes. Please wait a minute.";

/**
 * A code as typed at the counter: trimmed, upper case, and without the spaces people put in when they read a code
 * out in groups ("AB3K 9QPM"). Dashes stay: a shared code may have them ("SPRING-10"), and "SPRING10" is another.
 */
export const typedCode = (raw: string): string => raw.replace(/\s+/g, "").toUpperCase();

/** POST /api/coupon/Redeem and `nearcast coupons redeem`: the code, and the customer's phone for a shared code. */
export const redeemSchema = v.object({
  code: v.pipe(
    v.optional(v.string(REDEEM_CODE_REQUIRED), ""),
    v.transform(typedCode),
    v.nonEmpty(REDEEM_CODE_REQUIRED),
    v.regex(/^[A-Z0-9-]{1,40}$/, REDEEM_CODE_INVALID),
  ),
  /** Blank is none. Parsed with the house rules (toE164) by the service, which knows the default country. */
  phone: v.pipe(
    v.optional(v.nullable(v.string()), null),
    v.transform((raw) => (raw?.trim() ? raw.trim() : null)),
  ),
});
export type RedeemBody = v.InferInput<typeof redeemSchema>;

/** 200: redeemed now. `kind`: a unique code (one person, once) or a shared one (counted at each redemption). */
export interface CouponRedeemed {
  status: "redeemed";
  redeemedAt: string;
  code: string;
  kind: "unique" | "shared";
  broadcastId: number;
  businessName: string;
  /** The end of the expiry day in the business's time zone; null: no expiry. */
  expiresAt: string | null;
  /** Whose redemption it is: the unique code's person, or the phone given with a shared code. */
  customer?: { id: number; phoneMasked: string };
}

/** 409: a unique code used already, or a shared code this phone already redeemed; `redeemedAt` is the first time. */
export interface CouponUsedAnswer {
  error: string;
  code: "coupon_used";
  fields: { code: string };
  redeemedAt: string;
}

/** 410: past its expiry (`expiredAt`, the end of its last day). */
export interface CouponExpiredAnswer {
  error: string;
  code: "coupon_expired";
  fields: { code: string };
  expiredAt: string;
}

/** What a redemption comes to, short of unknown (404) and too many guesses (429), which are errors. */
export type RedeemOutcome =
  | { status: 200; body: CouponRedeemed }
  | { status: 409; body: CouponUsedAnswer }
  | { status: 410; body: CouponExpiredAnswer };

