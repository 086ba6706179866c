// Issue 25 item 3 in the CLI: `nearcast broadcast results ID` prints the results page's numbers, --json the API's
// GetBroadcastResults answer, --csv its ExportBroadcastResults lines; a broadcast that is not there exits non-zero.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { json, nearcast as runNearcast, sandboxEnv, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertClicks, insertCoupon, insertOptOut, insertRedemption } from "../helpers/engagement-rows.ts";
import { cliShop } from "../helpers/worlds.ts";
import { customers } from "../../src/db/schema.ts";
import { OPERATOR } from "../../src/services/principal.ts";

setDefaultTimeout(30_000); // every test starts real processes

const dirs = tempDataDirs("cli-broadcast-results");
afterAll(() => dirs.removeAll());
const nearcast = (args: string[], dir: string) => runNearcast(args, dir, sandboxEnv());

/** Ana's Bakery, 3 subscribers; a broadcast started an hour ago: 2 delivered (one clicked twice, one redeemed), 1 failed. */
function shopWithResults() {
  const shop = cliShop(dirs, 3);
  const id = withDataDir(shop.dir, (ctx) => {
    const start = new Date(Date.now() - 3_600_000);
    const b = insertBroadcast(ctx, { businessId: shop.businessId, messageText: "Rye is back", total: 3, startedAt: start, couponCode: "RYE5" });
    const people = ctx.db.select().from(customers).all();
    const d = people.map((c, i) => insertDelivery(ctx, b, c, { status: i < 2 ? "Delivered" : "Failed", sentAt: start }));
    insertClicks(ctx, d[0]!, [new Date(start.getTime() + 60_000), new Date(start.getTime() + 120_000)]);
    insertRedemption(ctx, insertCoupon(ctx, { broadcastId: b.id, businessId: shop.businessId }, "RYE5"), people[1]!.id, new Date(start.getTime() + 600_000));
    insertOptOut(ctx, people[2]!.id, null, new Date(start.getTime() + 900_000));
    return b.id;
  });
  return { ...shop, id };
}

test("results: the summary, the API's JSON with --json, the API's CSV with --csv", () => {
  const { dir, id } = shopWithResults();
  const summary = nearcast(["broadcast", "results", String(id)], dir);
  expect(summary.code).toBe(0);
  expect(summary.stdout).toContain("Business:        Ana's Bakery");
  expect(summary.stdout).toContain("Delivered:       2\n");
  expect(summary.stdout).toContain("Failed:          1\n");
  expect(summary.stdout).toContain("Opt-outs (72 h): 1\n");
  expect(summary.stdout).toContain("Clicks:          2 by 1 person (50.0%)\n");
  expect(summary.stdout).toContain("Offer:           shared code RYE5\n");
  expect(summary.stdout).toContain("Redemptions:     1 by 1 person (50.0%)\n");
  expect(summary.stdout).toContain("Cost:            no cost in the sandbox\n");
  expect(summary.stdout).toMatch(/\n {2}•••• \d{4} {2}2 clicks from \d{4}-/);
  // Masked: no full phone in the summary.
  expect(summary.stdout).not.toMatch(/\+1\d{10}/);

  const fromCli = json(nearcast(["broadcast", "results", String(id), "--json"], dir));
  const fromApi = withDataDir(dir, (ctx) => ctx.services.broadcasts.results(OPERATOR, id));
  expect(fromCli).toEqual(JSON.parse(JSON.stringify(fromApi)));
  expect(fromCli).toMatchObject({ recipients: 3, delivered: 2, failed: 1, clicks: 2, uniqueClickers: 1, redemptions: 1, optOuts: 1 });

  const csv = nearcast(["broadcast", "results", String(id), "--csv"], dir);
  expect(csv.code).toBe(0);
  expect(csv.stdout).toBe(withDataDir(dir, (ctx) => ctx.services.broadcasts.resultsCsv(OPERATOR, id).csv));
  expect(csv.stdout.split("\r\n")[0]).toBe("phone,channel,status,reason,sent_at,clicks,first_click_at,coupon_code,redeemed_at");
});

test("results of a broadcast that is not there, or --json with --csv: exits non-zero and says why", () => {
  const { dir, id } = shopWithResults();
  const missing = nearcast(["broadcast", "results", "999"], dir);
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain("Broadcast not found.");
  const both = nearcast(["broadcast", "results", String(id), "--json", "--csv"], dir);
  expect(both.code).toBe(2);
  expect(both.stderr).toContain("cannot be used with option '--csv'");
});
