// A broadcast's offer as the publish checks and stores it (issue 25 item 2): CouponCode or UniqueCoupons (with
// {code} in the text), and CouponExpires, a date that holds to the end of that day in the business's time zone.
import { ValidationError } from "../../errors.ts";
import { instantOf, wall } from "../../lib/quiet-hours.ts";
import type { NewBroadcast } from "../../repos/broadcasts.ts";
import type { Repos } from "../../repos/index.ts";
import type { PublishInput } from "../../schemas/broadcast-input.ts";
import {
  calendarDate,
  COUPON_BOTH,
  COUPON_EXPIRES_BEFORE_SEND,
  COUPON_EXPIRES_PAST,
  COUPON_EXPIRES_TOO_FAR,
  COUPON_EXPIRES_WITHOUT_OFFER,
  MAX_COUPON_DAYS,
  PLACEHOLDER_WITHOUT_UNIQUE,
  UNIQUE_NEEDS_PLACEHOLDER,
} from "../../schemas/coupons.ts";
import { COUPON_PLACEHOLDER } from "../../schemas/tracked-text.ts";

const DAY = 86_400_000;

const refuse = (field: string, message: string): never => {
  throw new ValidationError(message, { [field]: message });
};

/** {code} goes with UniqueCoupons and only with it: nobody may receive a literal "{code}", nor a unique offer
 * without its code. A 400 naming MessageText otherwise. */
export function checkPlaceholder(messageText: string, uniqueCoupons: boolean): void {
  const has = messageText.includes(COUPON_PLACEHOLDER);
  if (uniqueCoupons && !has) refuse("MessageText", UNIQUE_NEEDS_PLACEHOLDER);
  if (!uniqueCoupons && has) refuse("MessageText", PLACEHOLDER_WITHOUT_UNIQUE);
}

/** The zone a business's days are counted in: its own, else the server's (as quiet hours fall back). */
export const businessZone = (timeZone: string | null | undefined): string => timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The last instant (ms) of `date` (YYYY-MM-DD) in `zone`: the offer holds through that whole local day. A 400 naming
 * CouponExpires when the day is already past there, or more than MAX_COUPON_DAYS ahead.
 */
export function expiryOf(date: string, zone: string, now: number): number {
  const [y, m, d] = calendarDate(date)!;
  const day = Date.UTC(y, m - 1, d);
  const todayWall = wall(now, zone);
  const today = todayWall - (todayWall % DAY);
  if (day < today) refuse("CouponExpires", COUPON_EXPIRES_PAST);
  if (day > today + MAX_COUPON_DAYS * DAY) refuse("CouponExpires", COUPON_EXPIRES_TOO_FAR);
  return instantOf(day + DAY, zone) - 1;
}

type OfferInput = Pick<PublishInput, "messageText" | "couponCode" | "uniqueCoupons" | "couponExpires">;

/**
 * The offer's expiry (ms, or null) once its fields agree: not both kinds, {code} where it belongs, an expiry only
 * with an offer, not past, and not before a scheduled send (`sendsAt`).
 */
export function checkedOffer(input: OfferInput, timeZone: string | null | undefined, now: number, sendsAt: number | null): number | null {
  if (input.couponCode !== null && input.uniqueCoupons) refuse("CouponCode", COUPON_BOTH);
  checkPlaceholder(input.messageText, input.uniqueCoupons);
  if (input.couponExpires === null) return null;
  if (input.couponCode === null && !input.uniqueCoupons) refuse("CouponExpires", COUPON_EXPIRES_WITHOUT_OFFER);
  const expiresAt = expiryOf(input.couponExpires, businessZone(timeZone), now);
  if (sendsAt !== null && expiresAt < sendsAt) refuse("CouponExpires", COUPON_EXPIRES_BEFORE_SEND);
  return expiresAt;
}

/** UpdateScheduledBroadcast keeps the offer as published: a new text still has {code} exactly when the codes are
 * unique, and a new time is not after the offer's end. */
export function checkOfferKept(row: { uniqueCoupons: boolean; couponExpiresAt: Date | null }, messageText: string | undefined, sendsAt: number | undefined): void {
  if (messageText !== undefined) checkPlaceholder(messageText, row.uniqueCoupons);
  if (sendsAt !== undefined && row.couponExpiresAt !== null && row.couponExpiresAt.getTime() < sendsAt) refuse("ScheduledFor", COUPON_EXPIRES_BEFORE_SEND);
}

/** Writes the broadcast and, for a shared code, its one coupons row; call inside the transaction that creates it. */
export function insertBroadcastWithOffer(repos: Repos, row: NewBroadcast): number {
  const id = repos.broadcasts.insert(row);
  if (row.couponCode) repos.coupons.insertShared({ broadcastId: id, businessId: row.businessId, code: row.couponCode });
  return id;
}
