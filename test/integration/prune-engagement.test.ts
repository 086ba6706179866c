// `prune` and what a broadcast brought in (issue 25): broadcasts with links or coupons keep their rows at least 90 days
// whatever --older-than says; pruning a broadcast's delivery rows takes its short links, clicks, coupons (unique and
// shared) and their redemptions along, and leaves every other broadcast's rows alone.
import { afterEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { broadcasts } from "../../src/db/schema.ts";
import { ValidationError } from "../../src/errors.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { type BroadcastRow, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { engagementCounts, insertBroadcastLink, insertClickedLink, insertRedemption, insertSharedCoupon, insertUniqueCoupon } from "../helpers/engagement-rows.ts";
import { shopWithSubscribers } from "../helpers/worlds.ts";

const DAY = 86_400_000;
let ctx: TestContext;
afterEach(() => ctx.close());

/** A shop of 2 subscribers and one broadcast to them per entry, completed `daysAgo` days ago with delivered rows. */
function shopWithHistory(entries: Record<string, { daysAgo: number; fields?: Partial<typeof broadcasts.$inferInsert> }>) {
  ctx = testContext();
  const shop = shopWithSubscribers(ctx, 2);
  const now = ctx.clock.now().getTime();
  const made: Record<string, { broadcast: BroadcastRow; deliveries: ReturnType<typeof insertDelivery>[] }> = {};
  for (const [name, { daysAgo, fields }] of Object.entries(entries)) {
    const broadcast = insertBroadcast(ctx, { businessId: shop.business.id, total: 2, completedAt: new Date(now - daysAgo * DAY), ...fields });
    const deliveries = shop.subs.map((s) => insertDelivery(ctx, broadcast, s.customer, { status: "Delivered" }));
    made[name] = { broadcast, deliveries };
  }
  return { shop, made, now };
}

function pruneAll(ids: number[]): number {
  let removed = 0;
  for (const id of ids) for (let n = ctx.operator.pruneDeliveries(id, 1); n > 0; n = ctx.operator.pruneDeliveries(id, 1)) removed += n;
  return removed;
}

const sql = () => ctx.db.$client;
const rowsOf = (table: string, broadcastId: number) =>
  (sql().query(`SELECT COUNT(*) AS n FROM ${table} WHERE broadcast_id = ?1`).get(broadcastId) as { n: number }).n;

test("--older-than 30d: plain broadcasts past 30 days go; those with links or coupons only past 90 days, the others are listed as kept", () => {
  const { made, now } = shopWithHistory({
    plain: { daysAgo: 40 },
    plainRecent: { daysAgo: 20 },
    tracked: { daysAgo: 40, fields: { trackLinks: true } },
    shared: { daysAgo: 40, fields: { couponCode: "SAVE10" } },
    unique: { daysAgo: 60, fields: { uniqueCoupons: true } },
    // No flag set, but a link row or a coupon row: still a broadcast that says who clicked or redeemed.
    linkRowOnly: { daysAgo: 50 },
    couponRowOnly: { daysAgo: 50 },
    trackedOld: { daysAgo: 91, fields: { trackLinks: true } },
  });
  insertBroadcastLink(ctx, made.linkRowOnly!.broadcast.id);
  insertSharedCoupon(ctx, made.couponRowOnly!.broadcast);
  const id = (name: string) => made[name]!.broadcast.id;

  const scope = ctx.operator.pruneScope(30, now);
  expect(scope.broadcasts).toEqual([id("plain"), id("trackedOld")]);
  expect(scope.keptTracked).toEqual([id("tracked"), id("shared"), id("unique"), id("linkRowOnly"), id("couponRowOnly")]);
  expect(scope.completedBefore).toBe(now - 30 * DAY);
  expect(scope.trackedBefore).toBe(now - 90 * DAY);
  expect(pruneAll(scope.broadcasts)).toBe(4);
  const left = (name: string) => rowsOf("deliveries", id(name));
  expect(["plain", "plainRecent", "tracked", "shared", "unique", "trackedOld"].map(left)).toEqual([0, 2, 2, 2, 2, 0]);

  // Past 90 days the age asked for is the rule again; an older one leaves them all (nothing listed as kept).
  expect(ctx.operator.pruneScope(120, now)).toMatchObject({ broadcasts: [], keptTracked: [], trackedBefore: now - 120 * DAY });
  const at45 = ctx.operator.pruneScope(45, now);
  expect([at45.broadcasts, at45.keptTracked]).toEqual([[], [id("unique"), id("linkRowOnly"), id("couponRowOnly")]]);
});

test("an age under 30 days is refused by the service too, whatever the caller", () => {
  ctx = testContext();
  expect(() => ctx.operator.pruneScope(29, ctx.clock.now().getTime())).toThrow(ValidationError);
});

test("pruning takes short links, clicks, unique and shared coupons and every redemption along; totals and other broadcasts stay", () => {
  const { shop, made, now } = shopWithHistory({ old: { daysAgo: 100, fields: { trackLinks: true, uniqueCoupons: true, couponCode: "SPRING" } }, newer: { daysAgo: 100, fields: { trackLinks: true } } });
  const [old, newer] = [made.old!, made.newer!];
  // The old broadcast: each person clicked (3 and 1 times) and redeemed their unique code; the shared code was
  // redeemed by the first person and once by someone who gave no phone.
  const oldLink = insertBroadcastLink(ctx, old.broadcast.id);
  insertClickedLink(ctx, old.deliveries[0]!, oldLink, 3);
  insertClickedLink(ctx, old.deliveries[1]!, oldLink, 1);
  for (const d of old.deliveries) insertUniqueCoupon(ctx, d, 1);
  const shared = insertSharedCoupon(ctx, old.broadcast, "SPRING");
  insertRedemption(ctx, shared, shop.subs[0]!.customer.id);
  insertRedemption(ctx, shared, null);
  // Another broadcast, not pruned: its rows stay.
  const newerLink = insertBroadcastLink(ctx, newer.broadcast.id);
  insertClickedLink(ctx, newer.deliveries[0]!, newerLink, 2);
  expect(engagementCounts(ctx)).toEqual({ links: 2, shortLinks: 3, clicks: 6, coupons: 3, redemptions: 4 });

  expect(pruneAll([old.broadcast.id])).toBe(2);
  const tables = ["short_links", "link_clicks", "coupons", "coupon_redemptions", "deliveries"];
  expect(tables.map((t) => rowsOf(t, old.broadcast.id))).toEqual([0, 0, 0, 0, 0]);
  expect(tables.map((t) => rowsOf(t, newer.broadcast.id))).toEqual([1, 2, 0, 0, 2]);
  // The broadcast itself stays, with its text's links (the owner's own words, nobody's data) and its totals.
  expect(rowsOf("broadcast_links", old.broadcast.id)).toBe(1);
  expect(ctx.db.select().from(broadcasts).where(eq(broadcasts.id, old.broadcast.id)).get()?.couponCode).toBe("SPRING");
  expect(engagementCounts(ctx)).toEqual({ links: 2, shortLinks: 1, clicks: 2, coupons: 0, redemptions: 0 });
  expect(ctx.services.broadcasts.status(OPERATOR, old.broadcast.id)).toMatchObject({ total: 2, delivered: 2 });
  // Nothing left to prune for it: it no longer shows as prunable.
  expect(ctx.operator.pruneScope(90, now).broadcasts).toEqual([newer.broadcast.id]);
});

test("a shared coupon outliving its deliveries (every recipient forgotten) is still pruned with its redemptions", () => {
  const { made, now } = shopWithHistory({ offer: { daysAgo: 100, fields: { couponCode: "SAVE10" } } });
  const offer = made.offer!.broadcast;
  insertRedemption(ctx, insertSharedCoupon(ctx, offer), null);
  sql().run("DELETE FROM deliveries WHERE broadcast_id = ?1", [offer.id]);
  expect(ctx.operator.pruneScope(90, now).broadcasts).toEqual([offer.id]);
  expect(pruneAll([offer.id])).toBe(0);
  expect([rowsOf("coupons", offer.id), rowsOf("coupon_redemptions", offer.id)]).toEqual([0, 0]);
  expect(ctx.operator.pruneScope(90, now).broadcasts).toEqual([]);
});
