// Redeeming a coupon at the counter (issue 25 item 2): POST /api/coupon/Redeem, `nearcast coupons redeem` and the
// Redeem screen. A unique code redeems once; a shared code is counted each time, and once per customer when the
// phone is given. Codes belong to their owner: another owner's code is unknown, like one that does not exist.
import type { Clock } from "../../clock.ts";
import { AppError, NotFoundError, TooManyRequestsError } from "../../errors.ts";
import { RateLimiter } from "../../lib/rate-limiter.ts";
import { lastDigits } from "../../schemas/masked-phone.ts";
import type { CouponMatch } from "../../repos/coupons.ts";
import type { Repos } from "../../repos/index.ts";
import {
  COUPON_EXPIRED,
  COUPON_GUESSES_PER_MINUTE,
  COUPON_NO_SUBSCRIBER,
  COUPON_TOO_MANY_TRIES,
  COUPON_UNKNOWN,
  COUPON_USED,
  type CouponRedeemed,
  type RedeemOutcome,
  redeemSchema,
} from "../../schemas/coupons.ts";
import { e164OrThrow } from "../number-rules.ts";
import { type Principal, actingUserId, isOperator, ownerScope } from "../principal.ts";
import { validate } from "../validate.ts";

export interface CouponsDeps {
  repos: Repos;
  clock: Clock;
  /** Where a phone typed without its country code is read (NEARCAST_DEFAULT_COUNTRY). */
  defaultCountry: string;
}

type Customer = { id: number; phone: string };

/** Of the coupons a code names: a unique code (it names one person), else the newest unexpired shared one, else the
 * newest (which is then expired). */
function pick(matches: CouponMatch[], now: number): CouponMatch {
  const live = (m: CouponMatch) => m.expiresAt === null || m.expiresAt.getTime() >= now;
  return matches.find((m) => m.deliveryId !== null) ?? matches.find(live) ?? matches[0]!;
}

export function createCouponsService({ repos, clock, defaultCountry }: CouponsDeps) {
  // Per account, and only unknown codes: an owner finds only their own codes, so a code that works is no secret
  // learnt; the limit is on trying codes at random (10 a minute against 31^8 unique codes is hopeless).
  const guesses = new RateLimiter(clock, COUPON_GUESSES_PER_MINUTE, 60_000);

  function unknown(actor: Principal): never {
    const key = isOperator(actor) ? "operator" : `user:${actor.id}`;
    const wait = guesses.retryAfter(key);
    if (wait > 0) throw new TooManyRequestsError(COUPON_TOO_MANY_TRIES, wait);
    guesses.record(key);
    throw new NotFoundError(COUPON_UNKNOWN);
  }

  /** The customer a shared code is redeemed for: a subscriber of its business with that phone (any status: someone
   * who unsubscribed since still holds the text). A 404 naming `phone` otherwise. */
  function customerByPhone(raw: string, businessId: number): Customer {
    const phone = e164OrThrow(raw, defaultCountry);
    const customer = repos.customers.findByPhone(phone);
    if (!customer || !repos.subscriptions.find(customer.id, businessId)) {
      throw new AppError(404, "not_found", COUPON_NO_SUBSCRIBER, { phone: COUPON_NO_SUBSCRIBER });
    }
    return { id: customer.id, phone: customer.phone };
  }

  return {
    /**
     * 200 redeemed now; 409 used (a unique code, or a shared one by this phone) with the first time; 410 expired;
     * 404 unknown (or another owner's); 429 after COUPON_GUESSES_PER_MINUTE unknown codes in a minute; 400 bad input.
     */
    redeem(actor: Principal, body: unknown): RedeemOutcome {
      const { code, phone } = validate(redeemSchema, body);
      const now = clock.now().getTime();
      const matches = repos.coupons.matching(code, ownerScope(actor));
      if (matches.length === 0) unknown(actor);
      const coupon = pick(matches, now);
      const unique = coupon.deliveryId !== null;
      // A unique code names its person; a phone given with it changes nothing.
      const customer: Customer | null = unique
        ? coupon.customerId === null ? null : { id: coupon.customerId, phone: coupon.customerPhone ?? "" }
        : phone === null ? null : customerByPhone(phone, coupon.businessId);
      // One write transaction (BEGIN IMMEDIATE): of two tills redeeming the same unique code at once, the second
      // sees the first's row.
      return repos.transaction((): RedeemOutcome => {
        const earlier = unique ? repos.coupons.firstRedemption(coupon.couponId, null) : customer ? repos.coupons.firstRedemption(coupon.couponId, customer.id) : undefined;
        if (earlier) {
          return { status: 409, body: { error: COUPON_USED, code: "coupon_used", fields: { code: COUPON_USED }, redeemedAt: earlier.redeemedAt.toISOString() } };
        }
        if (coupon.expiresAt !== null && coupon.expiresAt.getTime() < now) {
          return { status: 410, body: { error: COUPON_EXPIRED, code: "coupon_expired", fields: { code: COUPON_EXPIRED }, expiredAt: coupon.expiresAt.toISOString() } };
        }
        const redeemedAt = new Date(now);
        repos.coupons.insertRedemption({ couponId: coupon.couponId, broadcastId: coupon.broadcastId, customerId: customer?.id ?? null, redeemedBy: actingUserId(actor), redeemedAt });
        const answer: CouponRedeemed = {
          status: "redeemed",
          redeemedAt: redeemedAt.toISOString(),
          code: coupon.code,
          kind: unique ? "unique" : "shared",
          broadcastId: coupon.broadcastId,
          businessName: coupon.businessName,
          expiresAt: coupon.expiresAt?.toISOString() ?? null,
        };
        return { status: 200, body: customer ? { ...answer, customer: { id: customer.id, phoneMasked: lastDigits(customer.phone) } } : answer };
      });
    },
  };
}

export type CouponsService = ReturnType<typeof createCouponsService>;
