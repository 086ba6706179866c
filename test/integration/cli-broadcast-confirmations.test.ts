// Opt-in confirmations share the broadcasts' ids (issue 23, item 12): `nearcast broadcast list` lists only real
// broadcasts, and `nearcast broadcast status` of a confirmation's id says it is not one and exits 2 (not found),
// so a script never reads a confirmation as a broadcast. Real processes on a real data directory, in the sandbox.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { broadcasts } from "../../src/db/schema.ts";
import { notABroadcast } from "../../src/services/broadcasts/reports.ts";
import { EXIT_USAGE } from "../../cli/exit-codes.ts";
import { nearcast as runNearcast, sandboxEnv, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { cliShop } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // real processes

const dirs = tempDataDirs("nearcast-cli-confirmations");
afterAll(() => dirs.removeAll());
const env = sandboxEnv({ NEARCAST_OWNER_SIGNUP: "open" });
const nearcast = (args: string[], dir: string) => runNearcast(args, dir, env);

/** A shop with one broadcast, then a new subscriber whose confirmation takes the next id. */
function shopWithConfirmation() {
  const w = cliShop(dirs, 2);
  expect(nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Fresh bread at 7", "--no-wait"], w.dir).code).toBe(0);
  const rows = withDataDir(w.dir, (ctx) => {
    ctx.services.subscriptions.subscribe({ businessId: w.businessId, phone: "+14155550177", contactPreference: "SMS" }, { ip: null, userAgent: null });
    return ctx.db.select({ id: broadcasts.id, kind: broadcasts.kind }).from(broadcasts).all();
  });
  const promotion = rows.find((r) => r.kind === "promotion")!.id;
  const confirmation = rows.find((r) => r.kind === "confirmation")?.id;
  expect(confirmation).toBeDefined();
  return { ...w, promotion, confirmation: confirmation! };
}

describe("confirmations are not broadcasts to the CLI", () => {
  test("status of a confirmation's id: exit 2 and a sentence saying what it is; a broadcast's id still works", () => {
    const w = shopWithConfirmation();
    for (const args of [["broadcast", "status", String(w.confirmation)], ["broadcast", "status", String(w.confirmation), "--json"]]) {
      const r = nearcast(args, w.dir);
      expect(r.code).toBe(EXIT_USAGE);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(`nearcast: ${notABroadcast(w.confirmation)}\n`);
    }
    const real = nearcast(["broadcast", "status", String(w.promotion), "--json"], w.dir);
    expect(real.code).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ id: w.promotion, messageText: "Fresh bread at 7" });
  });

  test("list (text and --json) shows the broadcast only, never the confirmation", () => {
    const w = shopWithConfirmation();
    const json = nearcast(["broadcast", "list", "--business", String(w.businessId), "--json"], w.dir);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { id: number }[]).map((b) => b.id)).toEqual([w.promotion]);
    const text = nearcast(["broadcast", "list", "--business", String(w.businessId)], w.dir);
    expect(text.stdout).toContain("Fresh bread at 7");
    expect(text.stdout.split("\n").filter((l) => /^\s*\d+\s/.test(l)).map((l) => Number(l.trim().split(/\s+/)[0]))).toEqual([w.promotion]);
  });
});
