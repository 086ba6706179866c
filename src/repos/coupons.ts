// Coupons and their redemptions (issue 25, tables in src/db/engagement-schema.ts): the shared code written with its
// broadcast, the unique codes the dispatcher writes per delivery, and what happens at the counter.
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { couponRedemptions, coupons } from "../db/engagement-schema.ts";
import { broadcasts, businesses, customers, deliveries } from "../db/schema.ts";

type CouponInsert = typeof coupons.$inferInsert;
type RedemptionRow = typeof couponRedemptions.$inferSelect;

/** A coupon a typed code names, with what the counter needs to answer. */
export interface CouponMatch {
  couponId: number;
  code: string;
  /** Set: a unique code, this delivery's person's. */
  deliveryId: number | null;
  broadcastId: number;
  businessId: number;
  businessName: string;
  ownerId: number;
  expiresAt: Date | null;
  /** The unique code's person (null for a shared code). */
  customerId: number | null;
  customerPhone: string | null;
}

export function couponsRepo(db: Db) {
  return {
    /** A broadcast's one shared code (delivery_id NULL); in the transaction that writes the broadcast. */
    insertShared(row: Pick<CouponInsert, "broadcastId" | "businessId" | "code">): number {
      return db.insert(coupons).values({ ...row, deliveryId: null }).returning({ id: coupons.id }).get().id;
    },
    /** The coupons with exactly this code, of one owner's businesses (null: anyone's), newest broadcast first. */
    matching(code: string, ownerId: number | null): CouponMatch[] {
      return db
        .select({
          couponId: coupons.id,
          code: coupons.code,
          deliveryId: coupons.deliveryId,
          broadcastId: coupons.broadcastId,
          businessId: coupons.businessId,
          businessName: businesses.name,
          ownerId: businesses.ownerId,
          expiresAt: broadcasts.couponExpiresAt,
          customerId: deliveries.customerId,
          customerPhone: customers.phone,
        })
        .from(coupons)
        .innerJoin(broadcasts, eq(broadcasts.id, coupons.broadcastId))
        .innerJoin(businesses, eq(businesses.id, coupons.businessId))
        .leftJoin(deliveries, eq(deliveries.id, coupons.deliveryId))
        .leftJoin(customers, eq(customers.id, deliveries.customerId))
        .where(and(eq(coupons.code, code), ownerId === null ? undefined : eq(businesses.ownerId, ownerId)))
        .orderBy(desc(broadcasts.createdAt), desc(coupons.id))
        .all();
    },
    /** The first redemption of a coupon (by this customer, when given; null: by anyone). */
    firstRedemption(couponId: number, customerId: number | null): RedemptionRow | undefined {
      return db
        .select()
        .from(couponRedemptions)
        .where(and(eq(couponRedemptions.couponId, couponId), customerId === null ? undefined : eq(couponRedemptions.customerId, customerId)))
        .orderBy(couponRedemptions.redeemedAt, couponRedemptions.id)
        .limit(1)
        .get();
    },
    insertRedemption(row: Omit<typeof couponRedemptions.$inferInsert, "id">): void {
      db.insert(couponRedemptions).values(row).run();
    },
    /** How many times a coupon was redeemed. */
    redemptionCount(couponId: number): number {
      return db.select({ n: count() }).from(couponRedemptions).where(eq(couponRedemptions.couponId, couponId)).get()!.n;
    },
    /** A broadcast's shared coupon, if it has one. */
    sharedOf(broadcastId: number) {
      return db.select().from(coupons).where(and(eq(coupons.broadcastId, broadcastId), isNull(coupons.deliveryId))).get();
    },
  };
}
