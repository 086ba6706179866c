// Issue 23 item 2, the unregistered US number: 30034 comes after Twilio accepted the message, in a status callback or
// found by a look-up when the send's answer was lost. The person is not failed: the delivery waits with its paused
// channel and is sent once more when sending resumes. Against the fake Twilio, signed callbacks, the dispatcher.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { deliveries } from "../../src/db/schema.ts";
import { statusCallbackPath } from "../../src/messaging/messenger.ts";
import { allDeliveries } from "../helpers/delivery-factories.ts";
import { statusCallbackRequest } from "../helpers/fake-twilio-account.ts";
import { FAKE_SMS_FROM } from "../helpers/fake-twilio.ts";
import { closing, PAUSE_PUBLIC_URL, usePauseWorld, withDispatcher } from "../helpers/pause-world.ts";
import { until } from "../helpers/until.ts";
import { queuedBroadcast } from "../helpers/worlds.ts";

setDefaultTimeout(30_000);

const { fake, world, acceptedPerNumber } = usePauseWorld();

describe("30034 in a status callback, after Twilio accepted the message", () => {
  test("the delivery is not failed: it is queued again for when the pause lifts, and the channel pauses; a probe resumes it, sent once more", async () => {
    const { ctx, api, admin } = world({ twilioFrom: FAKE_SMS_FROM });
    await closing(ctx, async () => {
      const { broadcastId, phones } = await queuedBroadcast(ctx, 3);
      await withDispatcher(ctx, {}, () => until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 10_000, "the broadcast sent"));
      const [refused] = allDeliveries(ctx);
      const { body, headers } = statusCallbackRequest(fake.authToken, PAUSE_PUBLIC_URL, statusCallbackPath(refused!.id), {
        accountSid: fake.accountSid,
        messageSid: refused!.providerId!,
        status: "undelivered",
        from: FAKE_SMS_FROM,
        to: refused!.toPhone,
        errorCode: 30034,
      });
      const res = await api.call("POST", statusCallbackPath(refused!.id), { body, headers });
      expect(res.status).toBe(200);

      const row = ctx.repos.deliveries.findById(refused!.id)!;
      expect(row).toMatchObject({ status: "Queued", providerId: null, sentAt: null, errorCode: 30034 });
      expect(ctx.services.sendingPause.list()).toMatchObject([{ channel: "SMS", code: 30034 }]);
      const s = (await api.get(`/api/business/GetBroadcastStatus?id=${broadcastId}`, { token: admin.token })).body;
      expect(s).toMatchObject({ state: "sending", completedAt: null, failed: 0, queued: 1, sent: 2 });
      expect(s.paused).toBe("Paused: Carriers block the US sender number because it is not registered for A2P 10DLC");
      // The same callback again (Twilio retries) changes nothing.
      expect((await api.call("POST", statusCallbackPath(refused!.id), { body, headers })).status).toBe(200);
      expect(ctx.repos.deliveries.findById(refused!.id)!.status).toBe("Queued");

      // The number is registered meanwhile: a dispatcher starting probes at once, and the probe resumes sending.
      await withDispatcher(ctx, { probeEveryMs: 100 }, () => until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 10_000, "the broadcast done again"));
      const per = acceptedPerNumber();
      expect(per.get(refused!.toPhone)).toBe(2); // the undelivered one, and the one sent after the pause
      for (const phone of phones.filter((p) => p !== refused!.toPhone)) expect(per.get(phone)).toBe(1);
      expect(ctx.repos.deliveries.findById(refused!.id)).toMatchObject({ status: "Sent", errorCode: null });
      expect(ctx.repos.deliveries.findById(refused!.id)!.providerId).not.toBe(refused!.providerId);
      expect(ctx.services.sendingPause.list()).toEqual([]);
    });
  });
});

describe("30034 found by a look-up (the send's answer was lost)", () => {
  test("the Uncertain delivery is not failed: it waits with its paused channel, then goes once more", async () => {
    const { ctx } = world({ twilioFrom: FAKE_SMS_FROM });
    await closing(ctx, async () => {
      const { broadcastId, phones } = await queuedBroadcast(ctx, 1);
      // Twilio takes the message but the answer is lost (a 500); carriers then refuse it for the unregistered number.
      fake.script({ reply: "server_error", created: true });
      await withDispatcher(ctx, { reconcileAfterMs: 60_000 }, () => until(() => allDeliveries(ctx)[0]!.status === "Uncertain", 10_000, "the lost answer"));
      const [taken] = fake.messages.values();
      fake.setStatus(taken!.sid, "undelivered", { code: 30034, message: "Message from an Unregistered Number" });
      ctx.db.update(deliveries).set({ nextAttemptAt: ctx.clock.now() }).run(); // its look-up is due now

      await withDispatcher(ctx, { reconcileAfterMs: 0, probeEveryMs: 60_000 }, () =>
        until(() => allDeliveries(ctx)[0]!.deferredReason === "channel_paused", 10_000, "the delivery held"),
      );
      expect(allDeliveries(ctx)[0]).toMatchObject({ status: "Queued", errorCode: 30034, errorMessage: "Paused: Carriers block the US sender number because it is not registered for A2P 10DLC" });
      expect(ctx.services.sendingPause.list()).toMatchObject([{ channel: "SMS", code: 30034 }]);
      expect(fake.messages.size).toBe(1);

      // Registered meanwhile: the next dispatcher's probe goes through, and the person gets the message once more.
      await withDispatcher(ctx, { probeEveryMs: 60_000 }, () => until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 10_000, "the broadcast done"));
      expect(acceptedPerNumber().get(phones[0]!)).toBe(2);
      expect(allDeliveries(ctx)[0]).toMatchObject({ status: "Sent", errorCode: null });
    });
  });
});
