// Issue 23 item 2 on the BUILT executable: a broadcast of 30 is in flight when the auth token is rotated in the
// Twilio console (the fake starts answering 401 with code 20003). The broadcast pauses, with the reason in the API,
// in `nearcast broadcast status` and in `nearcast doctor`; the admin saves the new token over HTTP; the server's
// dispatcher is rebuilt, the pause lifts, and every recipient gets exactly one message (counted at the fake), none
// Failed.
import { expect, setDefaultTimeout, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { sessionFor } from "../helpers/customer-factories.ts";
import { insertUser } from "../helpers/factories.ts";
import { FAKE_SMS_FROM } from "../helpers/fake-twilio.ts";
import { seedShop } from "../helpers/seed-shop.ts";
import { httpClient, startBinary } from "../helpers/server.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { until } from "../helpers/until.ts";

setDefaultTimeout(120_000);

const RECIPIENTS = 30;
const NEW_TOKEN = "rotated-token-1f2e3d4c5b6a7980";
const REASON = "Paused: Twilio refused the credentials (the auth token was changed or revoked) (Twilio: Authenticate)";

const w = useFakeTwilioBinary("nearcast-pause-");

/** A CLI command on the server's data dir, spawned (the fake Twilio answers from this process meanwhile). */
async function cli(args: string[]) {
  const p = Bun.spawn([w.bin, ...args, "--data-dir", w.dataDir], {
    cwd: w.work,
    env: { PATH: process.env.PATH ?? "", TWILIO_API_BASE: w.fake.url },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

test("token rotated mid-broadcast: paused with the reason (API, CLI, doctor), the new token saved, each of 30 gets one message", async () => {
  const { broadcastId, admin } = await seedShop(w.dataDir, { ownerEmail: "pause@example.com", businessName: "Pause Bakery", subscribers: RECIPIENTS, firstNumber: 5_000_000 }, async (ctx, businessId) => {
    // Saved in the database (not the environment), so the admin's save changes them.
    ctx.services.settings.update(OPERATOR, { twilioAccountSid: w.fake.accountSid, twilioAuthToken: w.fake.authToken, twilioFrom: FAKE_SMS_FROM, publicUrl: "https://deals.example.com" });
    const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(businessId), messageText: "Two loaves for one today" });
    if (!("broadcastId" in res)) throw new Error("nothing published");
    return { broadcastId: res.broadcastId, admin: sessionFor(ctx, insertUser(ctx, { role: "admin" })) };
  });
  const server = await startBinary({ TWILIO_API_BASE: w.fake.url, NEARCAST_SEND_RATE: "15" }, w.dataDir, { binary: w.bin, cwd: w.work });
  try {
    const call = httpClient(server.url);
    const status = async () => (await call("GET", `/api/business/GetBroadcastStatus?id=${broadcastId}`, undefined, admin)).body;

    await until(() => w.fake.messages.size >= 10, 20_000, "a third of the broadcast at Twilio");
    w.fake.rotateAuthToken(NEW_TOKEN);
    await until(async () => (await status()).paused !== undefined, 20_000, "the broadcast to pause");
    expect(await status()).toMatchObject({ paused: REASON, failed: 0, state: "sending" });
    const before = w.fake.messages.size;
    expect(before).toBeLessThan(RECIPIENTS);

    const shown = await cli(["broadcast", "status", String(broadcastId)]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`sending. ${REASON}`);
    const doctor = await cli(["doctor"]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/FAIL\s+SMS sending paused:\s+Since .* UTC: Twilio refused the credentials/);
    expect(doctor.stdout).toContain("Save the account's current auth token");

    // Nothing more reaches Twilio while paused (no probe before 5 minutes).
    expect(w.fake.messages.size).toBe(before);

    const saved = await call("PUT", "/api/settings", { twilioAuthToken: NEW_TOKEN }, admin);
    expect(saved.status).toBe(200);
    await until(async () => (await status()).completedAt !== null, 30_000, "the broadcast to complete");
    const done = await status();
    expect(done).toMatchObject({ total: RECIPIENTS, sent: RECIPIENTS, failed: 0, queued: 0, state: "completed" });
    expect(done.paused).toBeUndefined();

    const per = new Map<string, number>();
    for (const m of w.fake.messages.values()) per.set(m.to, (per.get(m.to) ?? 0) + 1);
    expect(per.size).toBe(RECIPIENTS);
    expect([...per.values()].every((n) => n === 1)).toBe(true);
    expect(server.log()).toContain("SMS sending resumed after a settings change");
    expect(server.log()).not.toContain(NEW_TOKEN);
  } finally {
    await server.stop();
  }
});
