// Issue 23 item 2: account-wide problems pause sending; they never fail people. Against the fake Twilio speaking
// Twilio's real answers (401/20003 after a token rotation, 400/21606), the server's own dispatcher (rebuilt when the
// Twilio settings change), the admin's API and a real SMTP sink. The 30034 cases: sending-pause-30034.test.ts.
// Not the scenario runner: each test follows a broadcast through the dispatcher and counts at the fake Twilio.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { allDeliveries } from "../helpers/delivery-factories.ts";
import { FAKE_SMS_FROM, FAKE_WHATSAPP_FROM } from "../helpers/fake-twilio.ts";
import { closing, startServerDispatcher, usePauseWorld, withDispatcher } from "../helpers/pause-world.ts";
import { until } from "../helpers/until.ts";
import { queuedBroadcast, shopWithSubscribers } from "../helpers/worlds.ts";

setDefaultTimeout(30_000);

const SETTINGS = "/api/settings";
const NEW_TOKEN = "rotated-token-9a8b7c6d5e4f3a2b";

const { fake, world, acceptedPerNumber, mailsToAdmin } = usePauseWorld();

describe("a rotated auth token mid-broadcast", () => {
  test("the broadcast pauses with the reason (API, checklist, one email); the new token saved, every recipient gets exactly one message, none Failed", async () => {
    const { ctx, api, admin } = world({ twilioFrom: FAKE_SMS_FROM });
    await closing(ctx, async () => {
      await startServerDispatcher(ctx);
      const { broadcastId, phones } = await queuedBroadcast(ctx, 30);
      const oldToken = fake.authToken;
      await until(() => fake.messages.size >= 10, 10_000, "a third of the broadcast sent");
      fake.rotateAuthToken(NEW_TOKEN); // the admin made a new primary token in the Twilio console

      const status = async () => (await api.get(`/api/business/GetBroadcastStatus?id=${broadcastId}`, { token: admin.token })).body;
      await until(async () => (await status()).paused !== undefined, 10_000, "the broadcast to pause");
      const paused = await status();
      expect(paused.paused).toBe("Paused: Twilio refused the credentials (the auth token was changed or revoked) (Twilio: Authenticate)");
      expect(paused.failed).toBe(0);
      expect(paused.state).toBe("sending");
      expect(paused.completedAt).toBeNull();
      // Every 401 is a held message, not a failure, and no attempt is spent on it.
      const refused = fake.sends().filter((s) => s.auth?.password === oldToken).length - fake.messages.size;
      expect(refused).toBeGreaterThanOrEqual(1);
      expect(fake.messages.size).toBeLessThan(30);
      expect(allDeliveries(ctx).filter((d) => d.status === "Failed")).toEqual([]);

      const checklist = await ctx.services.checklist.items(OPERATOR);
      const line = checklist.find((i) => i.id === "sendingPaused");
      expect(line).toMatchObject({ status: "red", title: "SMS sending paused" });
      expect(line!.detail).toContain("Twilio refused the credentials");
      expect(line!.detail).toContain("Save the account's current auth token");

      const mails = await mailsToAdmin(ctx);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe("Nearcast: SMS sending is paused");
      expect(mails[0]!.text).toContain("Twilio refused the credentials");
      expect(mails[0]!.text).not.toContain(NEW_TOKEN);
      expect(mails[0]!.text).toContain("Save the account's current auth token");

      // The admin saves the new token: the dispatcher is rebuilt, the pause lifts, the rest goes.
      expect((await api.put(SETTINGS, { twilioAuthToken: NEW_TOKEN }, { token: admin.token })).status).toBe(200);
      await until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 15_000, "the broadcast to complete");
      const per = acceptedPerNumber();
      expect(per.size).toBe(30);
      for (const phone of phones) expect(per.get(phone)).toBe(1);
      const done = await status();
      expect(done).toMatchObject({ total: 30, sent: 30, failed: 0, queued: 0, state: "completed" });
      expect(done.paused).toBeUndefined();
      expect((await ctx.services.checklist.items(OPERATOR)).some((i) => i.id === "sendingPaused")).toBe(false);
      // Still one email: one per pause.
      expect(await mailsToAdmin(ctx)).toHaveLength(1);
    });
  });

  test("a probe that meets the same problem keeps the pause; the token back on Twilio's side resumes without a save", async () => {
    const { ctx } = world({ twilioFrom: FAKE_SMS_FROM });
    await closing(ctx, async () => {
      const { broadcastId, phones } = await queuedBroadcast(ctx, 5);
      const oldToken = fake.authToken;
      fake.rotateAuthToken(NEW_TOKEN);
      await withDispatcher(ctx, { probeEveryMs: 150 }, async () => {
        await until(() => ctx.services.sendingPause.list().length === 1, 10_000, "the pause");
        const refusedAt = fake.sends().length;
        // Each probe is one request: a few probes later, still nothing accepted, nobody failed.
        await until(() => fake.sends().length >= refusedAt + 2, 10_000, "two probes");
        expect(fake.messages.size).toBe(0);
        expect(allDeliveries(ctx).filter((r) => r.status !== "Queued" && r.status !== "Sending")).toEqual([]);
        expect(fake.sends().length - refusedAt).toBeLessThanOrEqual(3);

        fake.rotateAuthToken(oldToken); // the old token is made primary again, in the console
        await until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 10_000, "the broadcast to complete");
        for (const phone of phones) expect(acceptedPerNumber().get(phone)).toBe(1);
        expect(ctx.services.sendingPause.list()).toEqual([]);
      });
    });
  });
});

describe("no SMS sender set", () => {
  test("people who subscribe meanwhile are not failed; their confirmation goes once a sender is saved", async () => {
    const { ctx, api, admin } = world({ twilioWhatsAppFrom: FAKE_WHATSAPP_FROM });
    await closing(ctx, async () => {
      const { business } = shopWithSubscribers(ctx, 0);
      await startServerDispatcher(ctx);
      const phones = ["+14155550101", "+14155550102", "+14155550103"];
      for (const phone of phones) {
        expect((await api.post("/api/subscription/Subscribe", { businessId: business.id, phone, contactPreference: "SMS" })).status).toBe(200);
      }
      await until(() => allDeliveries(ctx).filter((d) => d.deferredReason === "channel_paused").length === 3, 10_000, "the confirmations held");
      expect(ctx.services.sendingPause.list()).toMatchObject([{ channel: "SMS", code: null, reason: "No SMS sender is set" }]);
      expect(allDeliveries(ctx).every((d) => d.status === "Queued" && d.errorMessage === "Paused: No SMS sender is set")).toBe(true);
      expect(fake.sends()).toHaveLength(0);

      expect((await api.put(SETTINGS, { twilioFrom: FAKE_SMS_FROM }, { token: admin.token })).status).toBe(200);
      await until(() => fake.messages.size === 3, 10_000, "the three confirmations");
      await until(() => allDeliveries(ctx).every((d) => d.status === "Sent"), 10_000, "the confirmations recorded");
      const per = acceptedPerNumber();
      for (const phone of phones) expect(per.get(phone)).toBe(1);
      expect([...fake.messages.values()].every((m) => m.from === FAKE_SMS_FROM && m.body.includes("subscribed"))).toBe(true);
    });
  });
});

describe("a sender that cannot send (400, 21606)", () => {
  test("the first refusal pauses SMS: the recipient is held, not failed; a new broadcast waits too", async () => {
    const { ctx, api, admin } = world({ twilioFrom: FAKE_SMS_FROM });
    await closing(ctx, async () => {
      const first = await queuedBroadcast(ctx, 3);
      // Twilio refuses every send from this sender (sends already under way meet it too); per number, so a refusal
      // never used is left to numbers no other test has.
      for (const phone of first.phones) fake.scriptFor(phone, "sender_not_capable");
      await withDispatcher(ctx, {}, async () => {
        await until(() => ctx.services.sendingPause.list().length === 1, 10_000, "the pause");
        expect(ctx.services.sendingPause.list()[0]).toMatchObject({ channel: "SMS", code: 21606 });
        await until(() => allDeliveries(ctx).every((r) => r.status === "Queued" && r.deferredReason === "channel_paused"), 10_000, "all held");
        const refused = fake.sends().length;
        expect(refused).toBeGreaterThanOrEqual(1);
        expect(fake.messages.size).toBe(0);
        expect(allDeliveries(ctx).every((r) => r.attempts === 0)).toBe(true);
        const later = await queuedBroadcast(ctx, 2);
        await until(() => allDeliveries(ctx).filter((r) => r.broadcastId === later.broadcastId).every((r) => r.deferredReason === "channel_paused"), 10_000, "the new one held");
        expect(fake.sends()).toHaveLength(refused);
        const s = (await api.get(`/api/business/GetBroadcastStatus?id=${first.broadcastId}`, { token: admin.token })).body;
        expect(s.paused).toStartWith("Paused: Twilio says the sender number cannot send messages");
      });
    });
  });
});
