// Issue 23 item 2 in the terminal: while an account problem pauses SMS, `nearcast broadcast status` says "Paused:
// <reason>" (and --json carries it as the API does), and `nearcast doctor` prints a FAIL line with the fix and exits 1.
// A real process on a real data directory.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { json, nearcast, sandboxEnv, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";

setDefaultTimeout(30_000);

const dirs = tempDataDirs("cli-sending-pause");
afterAll(() => dirs.removeAll());

// No Twilio in the environment: the checklist does not ask Twilio, and nothing is sent.
const env = sandboxEnv();

const REASON = "Twilio refused the credentials (the auth token was changed or revoked) (Twilio: Authenticate)";

test("broadcast status and doctor name the pause, its reason and its fix", () => {
  const dir = dirs.make();
  const id = withDataDir(dir, (ctx) => {
    const owner = insertUser(ctx, { role: "owner" });
    const business = insertBusiness(ctx, { ownerId: owner.id, name: "Ana's Bakery" });
    const broadcast = insertBroadcast(ctx, { businessId: business.id, total: 2 });
    for (let i = 0; i < 2; i++) insertDelivery(ctx, broadcast, insertSubscriber(ctx, business.id).customer, { status: "Queued" });
    ctx.services.sendingPause.store.pause({ channel: "SMS", code: 20003, reason: REASON, fix: "Save the account's current auth token (Twilio console, Account info) in Settings.", since: Date.UTC(2026, 10, 26, 23, 58) });
    return broadcast.id;
  });

  const status = nearcast(["broadcast", "status", String(id)], dir, env);
  expect(status.code).toBe(0);
  expect(status.stdout).toMatch(new RegExp(`State:\\s+sending\\. Paused: ${REASON.replace(/[()]/g, "\\$&")}`));
  const asJson = json(nearcast(["broadcast", "status", String(id), "--json"], dir, env));
  expect(asJson).toMatchObject({ paused: `Paused: ${REASON}`, failed: 0, queued: 2 });

  const doctor = nearcast(["doctor"], dir, env);
  expect(doctor.code).toBe(1);
  expect(doctor.stdout).toContain(`FAIL  SMS sending paused:`);
  expect(doctor.stdout).toContain(`Since 2026-11-26 23:58 UTC: ${REASON}. Save the account's current auth token (Twilio console, Account info) in Settings.`);
  const asChecklist = nearcast(["doctor", "--json"], dir, env);
  expect(asChecklist.code).toBe(1);
  const items = JSON.parse(asChecklist.stdout) as { id: string; status: string }[];
  expect(items.filter((i) => i.id === "sendingPaused")).toEqual([expect.objectContaining({ status: "red", title: "SMS sending paused" })]);

  // Held deliveries stay Queued (held), never Failed.
  withDataDir(dir, (ctx) => {
    const rows = ctx.repos.deliveries.listByBroadcast(id);
    expect(rows.map((r) => [r.status, r.errorMessage])).toEqual([
      ["Queued", `Paused: ${REASON}`],
      ["Queued", `Paused: ${REASON}`],
    ]);
  });
});
