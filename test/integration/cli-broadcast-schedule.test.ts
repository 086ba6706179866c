// `nearcast broadcast send --at`, `broadcast list` and `broadcast cancel` as a user runs them (real processes on a
// real data directory): the scheduled broadcast is stored waiting (nothing sent, no deliveries), the list shows it
// scheduled then cancelled, a bad --at is an input error naming ScheduledFor, and cancelling twice says why not.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { broadcasts, deliveries } from "../../src/db/schema.ts";
import { SCHEDULED_FOR_INVALID } from "../../src/schemas/broadcast-input.ts";
import { ALREADY_CANCELLED } from "../../src/services/broadcasts/schedule.ts";
import { nearcast as runNearcast, sandboxEnv, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { cliShop } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // real processes

const dirs = tempDataDirs("nearcast-cli-schedule");
afterAll(() => dirs.removeAll());

const env = sandboxEnv();
const nearcast = (args: string[], dir: string) => runNearcast(args, dir, env);

const world = () => cliShop(dirs, [{ phone: "+14157001001" }, { phone: "+14157001002" }]);

/** Tomorrow at 09:00 in New York's winter offset, as an owner would type it. */
function tomorrowAtNine(): string {
  const d = new Date(Date.now() + 86_400_000);
  return `${d.toISOString().slice(0, 10)}T09:00-05:00`;
}

describe("nearcast broadcast send --at / list / cancel", () => {
  test("schedules without sending, lists it, cancels it", () => {
    const w = world();
    const at = tomorrowAtNine();
    const sent = nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Doors open at 9", "--at", at], w.dir);
    expect(sent.stderr).toBe("");
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain(`Broadcast scheduled for ${at}.`);
    expect(sent.stdout).toContain("(broadcast 1)");
    const stored = withDataDir(w.dir, (ctx) => ({ b: ctx.db.select().from(broadcasts).all(), d: ctx.db.select().from(deliveries).all() }));
    expect(stored.d).toHaveLength(0);
    expect(stored.b).toHaveLength(1);
    expect(stored.b[0]!.scheduledFor?.getTime()).toBe(Date.parse(at.replace("-05:00", ":00-05:00")));
    expect(stored.b[0]!.startedAt).toBeNull();

    const list = nearcast(["broadcast", "list", "--business", String(w.businessId)], w.dir);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+STATE\s+WHEN\s+RECIPIENTS\s+MESSAGE\n1\s+scheduled\s+\S+Z\s+0\s+Doors open at 9\n$/);

    const cancel = nearcast(["broadcast", "cancel", "1"], w.dir);
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toBe("Scheduled broadcast cancelled; it will not be sent. (broadcast 1)\n");
    expect(nearcast(["broadcast", "list", "--business", String(w.businessId)], w.dir).stdout).toContain("1   cancelled");
    const status = nearcast(["broadcast", "status", "1"], w.dir);
    expect(status.stdout).toContain("State:      cancelled");

    const again = nearcast(["broadcast", "cancel", "1"], w.dir);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toBe(`nearcast: ${ALREADY_CANCELLED}\n`);
  });

  test("an --at without an offset: input error naming the rule, nothing stored", () => {
    const w = world();
    const res = nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Hi", "--at", "2030-01-01T09:00"], w.dir);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(SCHEDULED_FOR_INVALID);
    expect(withDataDir(w.dir, (ctx) => ctx.db.select().from(broadcasts).all())).toHaveLength(0);
  });
});
