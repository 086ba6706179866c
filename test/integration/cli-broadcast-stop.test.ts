// Issue 23 item 8 in the CLI: `broadcast status` counts skipped and cancelled apart from failed and says why each
// did not go, `broadcast report` prints the CSV, and `broadcast cancel` stops a broadcast that is sending.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { deliveries } from "../../src/db/schema.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { stoppedMessage } from "../../src/services/broadcasts/stop.ts";
import { nearcast as runNearcast, sandboxEnv, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { cliShop } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // every test starts real processes

const dirs = tempDataDirs("cli-broadcast-stop");
afterAll(() => dirs.removeAll());
const nearcast = (args: string[], dir: string) => runNearcast(args, dir, sandboxEnv());

/** Ana's Bakery with 4 subscribers and a broadcast to them: one Sent, one Skipped (number rule), one Failed, one Queued. */
function shopWithBroadcast() {
  const shop = cliShop(dirs, 4);
  const sent = nearcast(["broadcast", "send", "--yes", "--business", String(shop.businessId), "--message", "Bagels", "--no-wait"], shop.dir);
  if (sent.code !== 0) throw new Error(sent.stderr);
  const id = withDataDir(shop.dir, (ctx) => {
    const { id: broadcastId } = ctx.services.broadcasts.list(OPERATOR, shop.businessId)[0]!;
    const rows = ctx.db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.broadcastId, broadcastId)).all();
    const set = (i: number, fields: Partial<typeof deliveries.$inferInsert>) => ctx.db.update(deliveries).set(fields).where(eq(deliveries.id, rows[i]!.id)).run();
    set(0, { status: "Sent", sentAt: new Date(), providerId: `SM${"1".repeat(32)}` });
    set(1, { status: "Skipped", errorMessage: "Not sent: this number is a landline." });
    set(2, { status: "Failed", errorCode: 30006 });
    return broadcastId;
  });
  return { ...shop, id };
}

describe("broadcast status, report and cancel", () => {
  test("status counts Skipped and Cancelled apart from Failed and gives each reason; report is the CSV; cancel stops it", async () => {
    const { dir, id } = shopWithBroadcast();
    const status = nearcast(["broadcast", "status", String(id)], dir);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("Failed:     1\n");
    expect(status.stdout).toContain("Skipped:    1\n");
    expect(status.stdout).toContain("Cancelled:  0\n");
    expect(status.stdout).toContain("Why not sent:\n");
    expect(status.stdout).toContain("  Skipped   1  Not sent: this number is a landline.\n");
    expect(status.stdout).toContain("  Failed    1  Twilio error 30006: Landline or unreachable carrier\n");

    const stop = nearcast(["broadcast", "cancel", String(id)], dir);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(`${stoppedMessage(1)} (broadcast ${id})\n`);
    const after = nearcast(["broadcast", "status", String(id), "--json"], dir);
    expect(JSON.parse(after.stdout)).toMatchObject({ state: "cancelled", total: 4, sent: 1, failed: 1, skipped: 1, cancelled: 1, queued: 0 });
    expect(nearcast(["broadcast", "cancel", String(id)], dir).code).not.toBe(0);

    const report = nearcast(["broadcast", "report", String(id)], dir);
    expect(report.code).toBe(0);
    const lines = report.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe("phone,channel,status,reason,sent_at");
    expect(lines.slice(1).map((l) => l.split(",")[2])).toEqual(["Sent", "Skipped", "Failed", "Cancelled"]);
    expect(lines[4]).toContain(",Cancelled,Not sent: the broadcast was stopped.,");
  });
});
