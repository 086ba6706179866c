// `nearcast customers forget` and what a broadcast brought in (issue 25): the person's clicks and coupon
// redemptions are erased with them (cascading from their deliveries and customer row) and counted in the report;
// everyone else's, and a shared code's redemptions by nobody known, stay.
import { afterAll, expect, test } from "bun:test";
import { nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { engagementCounts, insertBroadcastLink, insertClickedLink, insertRedemption, insertSharedCoupon, insertUniqueCoupon } from "../helpers/engagement-rows.ts";
import { insertBusiness } from "../helpers/factories.ts";

const dirs = tempDataDirs("nearcast-forget-engagement");
afterAll(dirs.removeAll);
const env = { PATH: process.env.PATH ?? "", NEARCAST_DEFAULT_COUNTRY: "US" };
const ANA = "+14155550134";
const BEN = "+14155550135";

/** Sunrise Bakery, Ana and Ben, and a broadcast to both with a link, unique codes and a shared code. */
function seeded() {
  const dir = dirs.make();
  const ids = withDataDir(dir, (ctx) => {
    const bakery = insertBusiness(ctx, { name: "Sunrise Bakery" });
    const [ana, ben] = [ANA, BEN].map((phone) => insertSubscriber(ctx, bakery.id, { phone }).customer);
    const broadcast = insertBroadcast(ctx, { businessId: bakery.id, total: 2, trackLinks: true, uniqueCoupons: true, couponCode: "SAVE10" });
    const [toAna, toBen] = [ana!, ben!].map((c) => insertDelivery(ctx, broadcast, c, { status: "Delivered" }));
    const link = insertBroadcastLink(ctx, broadcast.id);
    insertClickedLink(ctx, toAna!, link, 3);
    insertClickedLink(ctx, toBen!, link, 1);
    insertUniqueCoupon(ctx, toAna!, 1);
    insertUniqueCoupon(ctx, toBen!, 1);
    const shared = insertSharedCoupon(ctx, broadcast);
    insertRedemption(ctx, shared, ana!.id); // Ana gave her phone at the counter
    insertRedemption(ctx, shared, null); // someone who did not
    return { ana: ana!.id, ben: ben!.id, broadcast: broadcast.id };
  });
  return { dir, ...ids };
}

const rowsOf = (dir: string, customerId: number) =>
  withDataDir(dir, (ctx) => {
    const one = (sql: string) => (ctx.db.$client.query(sql).get(customerId) as { n: number }).n;
    return {
      clicks: one("SELECT COUNT(*) AS n FROM link_clicks k JOIN deliveries d ON d.id = k.delivery_id WHERE d.customer_id = ?1"),
      redemptions: one(
        "SELECT COUNT(*) AS n FROM coupon_redemptions r LEFT JOIN coupons c ON c.id = r.coupon_id LEFT JOIN deliveries d ON d.id = c.delivery_id WHERE r.customer_id = ?1 OR d.customer_id = ?1",
      ),
    };
  });

test("forget erases the person's clicks and redemptions (their unique code's and a shared code's) and counts them", () => {
  const s = seeded();
  expect(withDataDir(s.dir, engagementCounts)).toEqual({ links: 1, shortLinks: 2, clicks: 4, coupons: 3, redemptions: 4 });
  expect([rowsOf(s.dir, s.ana), rowsOf(s.dir, s.ben)]).toEqual([{ clicks: 3, redemptions: 2 }, { clicks: 1, redemptions: 1 }]);

  const run = nearcast(["customers", "forget", "(415) 555-0134"], s.dir, env);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(
    `Erased ${ANA} (customer ${s.ana}): the customer record, 1 subscription (Sunrise Bakery), 1 consent event, ` +
      "3 link clicks, 2 coupon redemptions and 0 stored replies.\n",
  );
  expect(rowsOf(s.dir, s.ana)).toEqual({ clicks: 0, redemptions: 0 });
  // Ben's click, code and redemption stay; so do the shared code and its redemption by nobody known.
  expect(rowsOf(s.dir, s.ben)).toEqual({ clicks: 1, redemptions: 1 });
  expect(withDataDir(s.dir, engagementCounts)).toEqual({ links: 1, shortLinks: 1, clicks: 1, coupons: 2, redemptions: 2 });
});

test("--json counts them too; forgetting the other person leaves only the shared code and its anonymous redemption", () => {
  const s = seeded();
  const run = nearcast(["customers", "forget", BEN, "--json"], s.dir, env);
  expect(JSON.parse(run.stdout)).toMatchObject({ phone: BEN, erased: true, customerId: s.ben, linkClicks: 1, couponRedemptions: 1 });
  expect(rowsOf(s.dir, s.ben)).toEqual({ clicks: 0, redemptions: 0 });
  const text = nearcast(["customers", "forget", ANA], s.dir, env);
  expect(text.stdout).toContain(", 3 link clicks, 2 coupon redemptions and 0 stored replies.\n");
  expect(withDataDir(s.dir, engagementCounts)).toEqual({ links: 1, shortLinks: 0, clicks: 0, coupons: 1, redemptions: 1 });
});

test("one click and one redemption: the report says so in the singular", () => {
  const s = seeded();
  withDataDir(s.dir, (ctx) => ctx.db.$client.run("DELETE FROM link_clicks WHERE id IN (SELECT id FROM link_clicks ORDER BY id LIMIT 2)"));
  withDataDir(s.dir, (ctx) => ctx.db.$client.run("DELETE FROM coupon_redemptions WHERE customer_id = ?1 AND coupon_id IN (SELECT id FROM coupons WHERE delivery_id IS NULL)", [s.ana]));
  const run = nearcast(["customers", "forget", ANA], s.dir, env);
  expect(run.stdout).toEndWith("1 consent event, 1 link click, 1 coupon redemption and 0 stored replies.\n");
});
