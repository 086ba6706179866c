// `nearcast prune --older-than N d`: delivery rows of broadcasts finished long ago go; their totals, every other
// broadcast's rows and every consent record stay.
import { afterAll, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { engagementCounts, insertBroadcastLink, insertClickedLink } from "../helpers/engagement-rows.ts";
import { broadcastIn, shopWithSubscribers } from "../helpers/worlds.ts";

const dirs = tempDataDirs("nearcast-cli-prune");
afterAll(dirs.removeAll);
const DAY = 86_400_000;

test("only the rows of broadcasts completed before the cut-off go; their totals stay; consent records never go", async () => {
  const dir = dirs.make();
  const ids = await (async () => {
    const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
    try {
      const businessId = shopWithSubscribers(ctx, 3).business.id;
      const publish = async (text: string) => (await broadcastIn(ctx, "queued", { businessId, text })).id;
      const old = await publish("Old news");
      const recent = await publish("Recent news");
      const open = await publish("Still sending");
      const sql = ctx.db.$client;
      sql.run("UPDATE deliveries SET status = 'Delivered' WHERE broadcast_id IN (?1, ?2)", [old, recent]);
      sql.run("UPDATE broadcasts SET completed_at = ?2 WHERE id = ?1", [old, Date.now() - 500 * DAY]);
      sql.run("UPDATE broadcasts SET completed_at = ?2 WHERE id = ?1", [recent, Date.now() - 10 * DAY]);
      return { old, recent, open };
    } finally {
      ctx.close();
    }
  })();
  const consentBefore = withDataDir(dir, (ctx) => (ctx.db.$client.query("SELECT COUNT(*) AS n FROM consent_events").get() as { n: number }).n);
  expect(consentBefore).toBeGreaterThan(0);

  const run = json(nearcast(["prune", "--older-than", "400d", "--json"], dir));
  expect(run).toMatchObject({ broadcasts: [ids.old], deliveriesRemoved: 3, consentEventsRemoved: 0 });
  withDataDir(dir, (ctx) => {
    const rows = (id: number) => ctx.repos.deliveries.listByBroadcast(id).length;
    expect([rows(ids.old), rows(ids.recent), rows(ids.open)]).toEqual([0, 3, 3]);
    // The history still says what the old broadcast did.
    expect(ctx.services.broadcasts.status(OPERATOR, ids.old)).toMatchObject({ total: 3, delivered: 3, queued: 0 });
    expect((ctx.db.$client.query("SELECT COUNT(*) AS n FROM consent_events").get() as { n: number }).n).toBe(consentBefore);
  });
  // Again: nothing left to remove.
  expect(nearcast(["prune", "--older-than", "400d"], dir).stdout).toStartWith("Removed 0 delivery row(s) of 0 broadcast(s) completed before ");
});

test("--older-than must be whole days, at least 30: exit 2, one line, nothing removed", () => {
  const dir = dirs.make();
  for (const bad of ["10d", "400", "a year"]) {
    const run = nearcast(["prune", "--older-than", bad], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`nearcast: --older-than must be a number of days, at least 30, such as 400d (got "${bad}")\n`);
  }
  expect(nearcast(["prune"], dir).code).toBe(2);
});

test("a broadcast with links or coupons keeps its rows 90 days: a shorter age prunes the others, lists it and exits 3", async () => {
  const dir = dirs.make();
  const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
  const ids = await (async () => {
    const businessId = shopWithSubscribers(ctx, 2).business.id;
    const plain = (await broadcastIn(ctx, "completed", { businessId, text: "Plain news" })).id;
    const tracked = (await broadcastIn(ctx, "completed", { businessId, text: "Menu: https://bakery.example/menu" })).id;
    const sql = ctx.db.$client;
    sql.run("UPDATE broadcasts SET completed_at = ?1", [Date.now() - 40 * DAY]);
    sql.run("UPDATE broadcasts SET track_links = 1 WHERE id = ?1", [tracked]);
    const delivery = ctx.repos.deliveries.listByBroadcast(tracked)[0]!;
    insertClickedLink(ctx, delivery, insertBroadcastLink(ctx, tracked), 2);
    return { plain, tracked };
  })().finally(() => ctx.close());
  const rows = () => withDataDir(dir, (ctx) => [ids.plain, ids.tracked].map((id) => ctx.repos.deliveries.listByBroadcast(id).length));
  const clicks = () => withDataDir(dir, (ctx) => engagementCounts(ctx).clicks);

  const run = nearcast(["prune", "--older-than", "30d"], dir);
  expect(run.code).toBe(3);
  expect(run.stdout).toStartWith("Removed 2 delivery row(s) of 1 broadcast(s) completed before ");
  expect(run.stdout).toMatch(
    new RegExp(`\\nKept the rows of 1 broadcast\\(s\\) with links or coupons completed after \\S+ \\(#${ids.tracked}\\): who clicked and who redeemed is kept at least 90 days; a later prune removes them\\.\\n`),
  );
  expect([rows(), clicks()]).toEqual([[0, 2], 2]);

  const again = nearcast(["prune", "--older-than", "30d", "--json"], dir);
  expect(again.code).toBe(3);
  expect(JSON.parse(again.stdout)).toMatchObject({ broadcasts: [], deliveriesRemoved: 0, keptWithLinksOrCoupons: { broadcasts: [ids.tracked] } });
  // 90 days or more: nothing is kept back, exit 0.
  expect(nearcast(["prune", "--older-than", "90d"], dir).code).toBe(0);

  // Once it is 90 days old, the same 30d prune takes its rows and its clicks, and says nothing kept.
  withDataDir(dir, (ctx) => ctx.db.$client.run("UPDATE broadcasts SET completed_at = ?2 WHERE id = ?1", [ids.tracked, Date.now() - 91 * DAY]));
  const later = nearcast(["prune", "--older-than", "30d"], dir);
  expect(later.code).toBe(0);
  expect(later.stdout).toStartWith("Removed 2 delivery row(s) of 1 broadcast(s) completed before ");
  expect(later.stdout).not.toContain("Kept the rows");
  expect([rows(), clicks()]).toEqual([[0, 0], 0]);
});
