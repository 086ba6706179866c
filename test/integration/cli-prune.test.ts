// `nearcast prune --older-than N d`: delivery rows of broadcasts finished long ago go; their totals, every other
// broadcast's rows and every consent record stay.
import { afterAll, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { json, nearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
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
