// Rows of what a broadcast brought in (issue 25), inserted straight (the short links, clicks and redemptions are made
// by the send and the /l/ and Redeem paths in the app; a results test only needs them to exist).
import { broadcastLinks, couponRedemptions, coupons, linkClicks, shortLinks } from "../../src/db/engagement-schema.ts";
import { consentEvents } from "../../src/db/schema.ts";
import { counter, type Ctx } from "./factories.ts";
import type { DeliveryRow } from "./delivery-factories.ts";

const next = counter();

/** A short link of the delivery (and its broadcast's link 0), clicked at each of `at`. Returns the code. */
export function insertClicks(ctx: Ctx, delivery: DeliveryRow, at: Date[]): string {
  const link =
    ctx.db.select().from(broadcastLinks).all().find((l) => l.broadcastId === delivery.broadcastId) ??
    ctx.db.insert(broadcastLinks).values({ broadcastId: delivery.broadcastId, position: 0, url: "https://shop.example/offer" }).returning().get();
  const code = `c${String(next()).padStart(7, "0")}`;
  ctx.db.insert(shortLinks).values({ code, deliveryId: delivery.id, linkId: link.id, broadcastId: delivery.broadcastId }).run();
  for (const clickedAt of at) ctx.db.insert(linkClicks).values({ code, broadcastId: delivery.broadcastId, deliveryId: delivery.id, clickedAt }).run();
  return code;
}

/** The delivery's unique coupon (`code`), or a broadcast's shared one (delivery null). */
export function insertCoupon(ctx: Ctx, b: { broadcastId: number; businessId: number }, code: string, delivery: DeliveryRow | null = null) {
  return ctx.db.insert(coupons).values({ broadcastId: b.broadcastId, businessId: b.businessId, code, deliveryId: delivery?.id ?? null }).returning().get();
}

/** A redemption of `coupon` by `customerId` (null: a shared code typed without a phone). */
export function insertRedemption(ctx: Ctx, coupon: { id: number; broadcastId: number }, customerId: number | null, redeemedAt: Date): void {
  ctx.db.insert(couponRedemptions).values({ couponId: coupon.id, broadcastId: coupon.broadcastId, customerId, redeemedAt }).run();
}

/** A consent event 'unsubscribed' of the customer: from one business, or from all (null). */
export function insertOptOut(ctx: Ctx, customerId: number, businessId: number | null, at: Date, source = "sms-stop", consentText: string | null = 'Replied "STOP"'): void {
  ctx.db.insert(consentEvents).values({ customerId, businessId, kind: "unsubscribed", source, consentText, at }).run();
}
