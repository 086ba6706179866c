// The coupons a redemption test needs, on any context (in memory, or a CLI's data dir): owner A's bakery with a
// unique code sent to Ana, a shared SAVE10, an expired OLD5, two SAVE20 (the newer expired); owner B's gym with its own
// SAVE10 and a unique code. Unique codes are written as the dispatcher will write them (repos.coupons.insertUnique).
import type { AppContext } from "../../src/context.ts";
import { couponRedemptions } from "../../src/db/engagement-schema.ts";
import { insertSubscriber } from "./customer-factories.ts";
import { insertBroadcast, insertDelivery } from "./delivery-factories.ts";
import { insertBusiness } from "./factories.ts";

type Ctx = Pick<AppContext, "db" | "repos" | "clock">;

export const ANA = "+14155550101";
export const BEN = "+14155550102";
export const GYM_MEMBER = "+14155550199";
/** Owner A's codes. */
export const UNIQUE = "AB3K9QPM";
export const EXPIRED_UNIQUE = "ZZ7K9QPM";
/** Owner B's unique code. */
export const GYM_UNIQUE = "GG7K9QPM";
/** The end of January (UTC): the live offers' expiry. The test clock is at 2026-01-15T12:00Z. */
export const END_OF_JANUARY = new Date("2026-01-31T23:59:59.999Z");
export const EXPIRED_AT = new Date("2026-01-10T23:59:59.999Z");

/** Owner A's bakery and owner B's gym (the owners exist already), with the coupons above. */
export function couponShops(ctx: Ctx, ownerA: number, ownerB: number) {
  const bakery = insertBusiness(ctx, { ownerId: ownerA, name: "A Bakery" });
  const gym = insertBusiness(ctx, { ownerId: ownerB, name: "B Gym" });
  const ana = insertSubscriber(ctx, bakery.id, { phone: ANA }).customer;
  const ben = insertSubscriber(ctx, bakery.id, { phone: BEN }).customer;
  const member = insertSubscriber(ctx, gym.id, { phone: GYM_MEMBER }).customer;
  const at = (iso: string) => new Date(iso);

  const offer = (businessId: number, createdAt: string, fields: Parameters<typeof insertBroadcast>[1]) =>
    insertBroadcast(ctx, { businessId, createdAt: at(createdAt), startedAt: at(createdAt), ...fields });
  const unique = offer(bakery.id, "2026-01-12T10:00:00Z", { messageText: "Your code {code}", uniqueCoupons: true, couponExpiresAt: END_OF_JANUARY });
  const anaDelivery = insertDelivery(ctx, unique, ana, { status: "Sent" });
  const benDelivery = insertDelivery(ctx, unique, ben, { status: "Sent" });
  ctx.repos.coupons.insertUnique({ broadcastId: unique.id, businessId: bakery.id, deliveryId: anaDelivery.id, code: UNIQUE });
  const expiredUnique = offer(bakery.id, "2026-01-05T10:00:00Z", { messageText: "Old {code}", uniqueCoupons: true, couponExpiresAt: EXPIRED_AT });
  const oldDelivery = insertDelivery(ctx, expiredUnique, ben, { status: "Sent" });
  ctx.repos.coupons.insertUnique({ broadcastId: expiredUnique.id, businessId: bakery.id, deliveryId: oldDelivery.id, code: EXPIRED_UNIQUE });

  const shared = (businessId: number, code: string, createdAt: string, couponExpiresAt: Date | null) => {
    const b = offer(businessId, createdAt, { messageText: `Say ${code}`, couponCode: code, couponExpiresAt });
    ctx.repos.coupons.insertShared({ broadcastId: b.id, businessId, code });
    return b.id;
  };
  const save10 = shared(bakery.id, "SAVE10", "2026-01-13T10:00:00Z", null);
  const old5 = shared(bakery.id, "OLD5", "2026-01-02T10:00:00Z", EXPIRED_AT);
  const save20Live = shared(bakery.id, "SAVE20", "2026-01-03T10:00:00Z", END_OF_JANUARY);
  const save20Expired = shared(bakery.id, "SAVE20", "2026-01-04T10:00:00Z", EXPIRED_AT);
  const gymSave10 = shared(gym.id, "SAVE10", "2026-01-14T10:00:00Z", null);
  const gymUnique = offer(gym.id, "2026-01-12T11:00:00Z", { messageText: "Gym {code}", uniqueCoupons: true });
  const gymDelivery = insertDelivery(ctx, gymUnique, member, { status: "Sent" });
  ctx.repos.coupons.insertUnique({ broadcastId: gymUnique.id, businessId: gym.id, deliveryId: gymDelivery.id, code: GYM_UNIQUE });

  return {
    bakery, gym, ana, ben, member, benDelivery,
    broadcasts: { unique: unique.id, expiredUnique: expiredUnique.id, save10, old5, save20Live, save20Expired, gymSave10, gymUnique: gymUnique.id },
  };
}

export type CouponShops = ReturnType<typeof couponShops>;

/** Every redemption, oldest first. */
export const redemptions = (ctx: Pick<AppContext, "db">) => ctx.db.select().from(couponRedemptions).orderBy(couponRedemptions.id).all();
