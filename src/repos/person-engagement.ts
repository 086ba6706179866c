// What one person did with the broadcasts they received (migrations/0023): the clicks on their short links and the
// coupons redeemed by or for them. Counted for `customers forget`, which erases them with the person (they cascade
// from the person's deliveries and customer row).
import { count, eq, inArray, or } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { couponRedemptions, coupons, deliveries, linkClicks } from "../db/schema.ts";

export function personEngagementRepo(db: Db) {
  return {
    /** How many clicks and redemptions are the person's: their own unique code's, and shared codes given with their phone. */
    countByCustomer(customerId: number): { linkClicks: number; couponRedemptions: number } {
      const clicks = db
        .select({ n: count() })
        .from(linkClicks)
        .innerJoin(deliveries, eq(deliveries.id, linkClicks.deliveryId))
        .where(eq(deliveries.customerId, customerId))
        .get();
      const theirCodes = db
        .select({ id: coupons.id })
        .from(coupons)
        .innerJoin(deliveries, eq(deliveries.id, coupons.deliveryId))
        .where(eq(deliveries.customerId, customerId));
      const redemptions = db
        .select({ n: count() })
        .from(couponRedemptions)
        .where(or(eq(couponRedemptions.customerId, customerId), inArray(couponRedemptions.couponId, theirCodes)))
        .get();
      return { linkClicks: clicks?.n ?? 0, couponRedemptions: redemptions?.n ?? 0 };
    },
  };
}
