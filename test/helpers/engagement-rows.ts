// Rows of what a broadcast brought in (migrations/0023): its links and their clicks, its coupons and their
// redemptions, and opt-outs, inserted straight (no services: the send, /l/ and Redeem paths make them in the app), so
// the results, prune and forget tests hold real rows to count, see go or stay.
import { count } from "drizzle-orm";
import { broadcastLinks, consentEvents, couponRedemptions, coupons, linkClicks, shortLinks } from "../../src/db/schema.ts";
import type { DeliveryRow } from "./delivery-factories.ts";
import { counter, type Ctx } from "./factories.ts";

const next = counter();
type Delivery = Pick<DeliveryRow, "id" | "broadcastId" | "businessId" | "customerId">;
export type CouponRow = typeof coupons.$inferSelect;

/** One URL of a broadcast's text (what its short links redirect to); answers its id. */
export function insertBroadcastLink(ctx: Ctx, broadcastId: number, url = "https://bakery.example/menu", position = 0): number {
  return ctx.db.insert(broadcastLinks).values({ broadcastId, position, url }).returning().get().id;
}

/** The short link of a delivery to a link, followed `clicks` times; answers its code. */
export function insertClickedLink(ctx: Ctx, delivery: Delivery, linkId: number, clicks: number, at = new Date()): string {
  const code = `c${String(next()).padStart(7, "0")}`;
  ctx.db.insert(shortLinks).values({ code, deliveryId: delivery.id, linkId, broadcastId: delivery.broadcastId }).run();
  for (let i = 0; i < clicks; i++) {
    ctx.db.insert(linkClicks).values({ code, broadcastId: delivery.broadcastId, deliveryId: delivery.id, clickedAt: new Date(at.getTime() + i * 1000) }).run();
  }
  return code;
}

/** A delivery's unique coupon, redeemed `redemptions` times (at most once in the app; the rows are what matter here). */
export function insertUniqueCoupon(ctx: Ctx, delivery: Delivery, redemptions: number, at = new Date()): CouponRow {
  const coupon = ctx.db
    .insert(coupons)
    .values({ broadcastId: delivery.broadcastId, businessId: delivery.businessId, code: `U${String(next()).padStart(7, "0")}`, deliveryId: delivery.id })
    .returning()
    .get();
  for (let i = 0; i < redemptions; i++) insertRedemption(ctx, coupon, delivery.customerId, at);
  return coupon;
}

/** A broadcast's shared code (no delivery). */
export function insertSharedCoupon(ctx: Ctx, broadcast: { id: number; businessId: number }, code = "SAVE10"): CouponRow {
  return ctx.db.insert(coupons).values({ broadcastId: broadcast.id, businessId: broadcast.businessId, code }).returning().get();
}

/** A redemption of a coupon, by a customer or (a shared code typed without a phone) nobody known. */
export function insertRedemption(ctx: Ctx, coupon: Pick<CouponRow, "id" | "broadcastId">, customerId: number | null, at = new Date()): void {
  ctx.db.insert(couponRedemptions).values({ couponId: coupon.id, broadcastId: coupon.broadcastId, customerId, redeemedAt: at }).run();
}

/** How many rows each engagement table holds. */
export function engagementCounts(ctx: Ctx) {
  const n = (table: typeof broadcastLinks | typeof shortLinks | typeof linkClicks | typeof coupons | typeof couponRedemptions) =>
    ctx.db.select({ n: count() }).from(table).get()!.n;
  return { links: n(broadcastLinks), shortLinks: n(shortLinks), clicks: n(linkClicks), coupons: n(coupons), redemptions: n(couponRedemptions) };
}

/** A short link of the delivery (to its broadcast's first link, made if missing), clicked at each of `at`; its code. */
export function insertClicks(ctx: Ctx, delivery: Delivery, at: Date[]): string {
  const link =
    ctx.db.select().from(broadcastLinks).all().find((l) => l.broadcastId === delivery.broadcastId)?.id ??
    insertBroadcastLink(ctx, delivery.broadcastId, "https://shop.example/offer");
  const code = insertClickedLink(ctx, delivery, link, 0);
  for (const clickedAt of at) ctx.db.insert(linkClicks).values({ code, broadcastId: delivery.broadcastId, deliveryId: delivery.id, clickedAt }).run();
  return code;
}

/** The delivery's unique coupon (`code`), or a broadcast's shared one (delivery null). */
export function insertCoupon(ctx: Ctx, b: { broadcastId: number; businessId: number }, code: string, delivery: Delivery | null = null): CouponRow {
  return ctx.db.insert(coupons).values({ broadcastId: b.broadcastId, businessId: b.businessId, code, deliveryId: delivery?.id ?? null }).returning().get();
}

/** A consent event 'unsubscribed' of the customer: from one business, or from all (null). */
export function insertOptOut(ctx: Ctx, customerId: number, businessId: number | null, at: Date, source = "sms-stop", consentText: string | null = 'Replied "STOP"'): void {
  ctx.db.insert(consentEvents).values({ customerId, businessId, kind: "unsubscribed", source, consentText, at }).run();
}
