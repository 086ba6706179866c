// The coupons a redemption test needs, on any context (in memory, or a CLI's data dir): owner A's bakery with a
// unique code sent to Ana, a shared SAVE10, an expired OLD5, two SAVE20 (the newer expired); owner B's gym with its own
// SAVE10 and a unique code. Unique codes are written straight, as the dispatcher's send writes them (engagement-rows.ts).
import type { AppContext } from "../../src/context.ts";
import { couponRedemptions } from "../../src/db/engagement-schema.ts";
import { insertSubscriber } from "./customer-factories.ts";
import { insertBroadcast, insertDelivery } from "./delivery-factories.ts";
import { insertBusiness } from "./factories.ts";
import { insertCoupon } from "./engagement-rows.ts";

type Ctx = Pick<AppContext, "db" | "repos" | "clock">;

export const ANA = "+14155550101";
export const BEN = "+14155550102";
export const GYM_MEMBER = "+14155550199";
/** Owner A's codes. */
export const UNIQUE = "AB3K9QPM";
export const EXPIRED_UNIQUE = "ZZ7K9QPM";
/** Owner B's unique code. */
export const GYM_UNIQUE = "GG7K9QPM";
const DAY = 86_400_000;

/** Owner A's bakery and owner B's gym (the owners exist already), with the coupons above; `live` offers end 16 days
 * after the context's clock, `expired` ones ended 5 days before it. */
export function couponShops(ctx: Ctx, ownerA: number, ownerB: number) {
  const bakery = insertBusiness(ctx, { ownerId: ownerA, name: "A Bakery" });
  const gym = insertBusiness(ctx, { ownerId: ownerB, name: "B Gym" });
  const ana = insertSubscriber(ctx, bakery.id, { phone: ANA }).customer;
  const ben = insertSubscriber(ctx, bakery.id, { phone: BEN }).customer;
  const member = insertSubscriber(ctx, gym.id, { phone: GYM_MEMBER }).customer;
  const now = ctx.clock.now().getTime();
  const live = new Date(now + 16 * DAY);
  const expired = new Date(now - 5 * DAY);
  /** `days` days before the clock. */
  const ago = (days: number) => new Date(now - days * DAY);

  const offer = (businessId: number, createdAt: Date, fields: Parameters<typeof insertBroadcast>[1]) =>
    insertBroadcast(ctx, { businessId, createdAt, startedAt: createdAt, ...fields });
  const unique = offer(bakery.id, ago(3), { messageText: "Your code {code}", uniqueCoupons: true, couponExpiresAt: live });
  const anaDelivery = insertDelivery(ctx, unique, ana, { status: "Sent" });
  const benDelivery = insertDelivery(ctx, unique, ben, { status: "Sent" });
  insertCoupon(ctx, { broadcastId: unique.id, businessId: bakery.id }, UNIQUE, anaDelivery);
  const expiredUnique = offer(bakery.id, ago(10), { messageText: "Old {code}", uniqueCoupons: true, couponExpiresAt: expired });
  const oldDelivery = insertDelivery(ctx, expiredUnique, ben, { status: "Sent" });
  insertCoupon(ctx, { broadcastId: expiredUnique.id, businessId: bakery.id }, EXPIRED_UNIQUE, oldDelivery);

  const shared = (businessId: number, code: string, createdAt: Date, couponExpiresAt: Date | null) => {
    const b = offer(businessId, createdAt, { messageText: `Say ${code}`, couponCode: code, couponExpiresAt });
    ctx.repos.coupons.insertShared({ broadcastId: b.id, businessId, code });
    return b.id;
  };
  const save10 = shared(bakery.id, "SAVE10", ago(2), null);
  const old5 = shared(bakery.id, "OLD5", ago(13), expired);
  const save20Live = shared(bakery.id, "SAVE20", ago(12), live);
  const save20Expired = shared(bakery.id, "SAVE20", ago(11), expired);
  const gymSave10 = shared(gym.id, "SAVE10", ago(1), null);
  const gymUnique = offer(gym.id, ago(2.9), { messageText: "Gym {code}", uniqueCoupons: true });
  const gymDelivery = insertDelivery(ctx, gymUnique, member, { status: "Sent" });
  insertCoupon(ctx, { broadcastId: gymUnique.id, businessId: gym.id }, GYM_UNIQUE, gymDelivery);

  return {
    live, expired, bakery, gym, ana, ben, member, benDelivery,
    broadcasts: { unique: unique.id, expiredUnique: expiredUnique.id, save10, old5, save20Live, save20Expired, gymSave10, gymUnique: gymUnique.id },
  };
}

export type CouponShops = ReturnType<typeof couponShops>;

/** Every redemption, oldest first. */
export const redemptions = (ctx: Pick<AppContext, "db">) => ctx.db.select().from(couponRedemptions).orderBy(couponRedemptions.id).all();
