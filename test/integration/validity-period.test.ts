// Issue 23, item 5: nothing arrives after quiet hours begin. Each marketing message goes to Twilio with ValidityPeriod
// = the seconds left before the recipient's quiet hours (at most 36,000; under a minute: held to the next window); a
// message Twilio then drops (30036, in its status callback) is Expired ("Expired before quiet hours"), counted apart
// from failures, never over a Delivered, and Retry sends it in the next window. The dispatcher runs against the fake
// Twilio on loopback on a fake clock; the callbacks come over a real socket to the server on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { deliveries } from "../../src/db/schema.ts";
import type { Dispatcher } from "../../src/dispatch/dispatcher.ts";
import { outboxStore } from "../../src/dispatch/outbox-store.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import type { Messenger } from "../../src/messaging/messenger.ts";
import { EXPIRED_BEFORE_QUIET_HOURS } from "../../src/schemas/broadcasts.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { startServer } from "../../src/server.ts";
import { apiClient } from "../helpers/api.ts";
import type { TestContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { deliveryById, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { postStatusCallback } from "../helpers/fake-twilio-callbacks.ts";
import { testDispatcher } from "../helpers/dispatch-run.ts";
import { until, VirtualScheduler } from "../helpers/virtual-scheduler.ts";
import { broadcastIn, contextOnFake, fakeTwilioForFile, member, shopWithSubscribers, stopDispatchers } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile();
let ctx: TestContext;
const running: Dispatcher[] = [];
const closers: Array<() => void> = [];

beforeEach(() => {
  ctx = contextOnFake(fake, { NEARCAST_QUIET_HOURS: "20:00-08:00" });
});

afterEach(async () => {
  await stopDispatchers(running);
  for (const close of closers.splice(0)) close();
  ctx.close();
});

/** Moves the fake clock (which starts at 2026-01-15T12:00Z) to `iso`. */
function setClock(iso: string): number {
  ctx.clock.advance(Date.parse(iso) - ctx.clock.now().getTime());
  return ctx.clock.now().getTime();
}

/** The server on 127.0.0.1 (its address saved as the public URL: the fake Twilio is on loopback too, so it may be
 * given it) and the app's dispatcher with the deferral policy of the settings, on the fake clock. */
function serveAndDispatch(): void {
  const server = startServer({ ...ctx, config: { ...ctx.config, port: 0, host: "127.0.0.1" } }, {});
  closers.push(() => server.stop());
  ctx.services.settings.update(OPERATOR, { publicUrl: server.url.replace("localhost", "127.0.0.1").replace(/\/$/, "") });
  const messenger: Messenger = createMessenger(ctx.services.settings.messaging(), { clock: ctx.clock, twilioTimeoutMs: 2000 });
  closers.push(() => messenger.close());
  const d = testDispatcher(ctx, { store: outboxStore(ctx.repos, () => ctx.services.settings.deferralPolicy()), messenger, scheduler: new VirtualScheduler(ctx.clock) });
  running.push(d);
  d.start();
}

const rowsOf = (broadcastId: number) => ctx.db.select().from(deliveries).where(eq(deliveries.broadcastId, broadcastId)).orderBy(deliveries.id).all();
const NY_EVENING = Date.parse("2026-01-16T01:00:00Z"); // 20:00 in New York, 15 January

describe("ValidityPeriod on each message", () => {
  test("17:00 in New York: sent with the seconds left until 20:00 there; a 30036 callback makes it Expired, counted apart, and Retry sends it in the next window", async () => {
    setClock("2026-01-15T22:00:00Z");
    const owner = member(ctx, { role: "owner" });
    const { business } = shopWithSubscribers(ctx, [{ phone: "+12125550101" }, { phone: "+12125550102" }, { phone: "+12125550103" }], { business: { ownerId: owner.id } });
    const { id } = await broadcastIn(ctx, "queued", { businessId: business.id, text: "Late-night bagels" });
    serveAndDispatch();
    await until(() => rowsOf(id).every((r) => r.status === "Sent"));

    const sends = fake.sends();
    expect(sends.length).toBe(3);
    for (const row of rowsOf(id)) {
      const sent = sends.find((s) => s.form.To === row.toPhone)!;
      expect(sent.form.ValidityPeriod).toBe(String(Math.floor((NY_EVENING - row.claimedAt!.getTime()) / 1000)));
      expect(Number(sent.form.ValidityPeriod)).toBeGreaterThan(3 * 3600 - 60);
      expect(Number(sent.form.ValidityPeriod)).toBeLessThanOrEqual(3 * 3600);
    }

    // Twilio could not hand two of them over before 20:00: they expire. The third was delivered; a late 30036 about it
    // (Twilio does not send one, but nothing may move a Delivered back) changes nothing.
    const [a, b, c] = rowsOf(id);
    expect(await postStatusCallback(fake, a!.providerId!, "failed", 30036)).toBe(200);
    expect(await postStatusCallback(fake, b!.providerId!, "undelivered", 30036)).toBe(200);
    expect(await postStatusCallback(fake, c!.providerId!, "delivered")).toBe(200);
    expect(await postStatusCallback(fake, c!.providerId!, "undelivered", 30036)).toBe(200);
    expect(rowsOf(id).map((r) => [r.status, r.errorCode, r.errorMessage])).toEqual([
      ["Expired", 30036, EXPIRED_BEFORE_QUIET_HOURS],
      ["Expired", 30036, EXPIRED_BEFORE_QUIET_HOURS],
      ["Delivered", null, null],
    ]);

    const api = apiClient(ctx);
    const status = await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token: owner.token });
    expect(status.body).toMatchObject({ total: 3, queued: 0, sent: 0, delivered: 1, failed: 0, expired: 2 });
    // The customer's messages say why it never arrived.
    const messages = await api.get(`/api/customer/GetCustomerMessages?customerId=${a!.customerId}`, { token: owner.token });
    expect(messages.status).toBe(200);
    const list = Array.isArray(messages.body) ? messages.body : messages.body.items;
    expect(list[0]).toMatchObject({ status: "Failed", errorMessage: EXPIRED_BEFORE_QUIET_HOURS, messageText: "Late-night bagels" });

    // Retry at 21:00 New York time: both wait for 08:00 there, as the quiet hours hold any message.
    await stopDispatchers(running);
    setClock("2026-01-16T02:00:00Z");
    const retry = await api.post(`/api/business/RetryFailedDeliveries?broadcastId=${id}`, undefined, { token: owner.token });
    expect(retry.status).toBe(200);
    expect(retry.body.requeued).toBe(2);
    expect(ctx.repos.deliveries.claim(ctx.clock.now().getTime(), 10, ctx.services.settings.deferralPolicy())).toEqual([]);
    for (const row of rowsOf(id).slice(0, 2)) {
      expect(row).toMatchObject({ status: "Queued", deferredReason: "quiet_hours", errorCode: null });
      expect(row.nextAttemptAt.toISOString()).toBe("2026-01-16T13:00:00.000Z");
    }
    const after = await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token: owner.token });
    expect(after.body).toMatchObject({ queued: 2, delivered: 1, failed: 0, expired: 0, waiting: { quietHours: 2, dailyLimit: 0 } });
  });
});

describe("the claim and the window's edge", () => {
  function queued(phone: string) {
    const businessId = insertBusiness(ctx).id;
    const { customer } = insertSubscriber(ctx, businessId, { phone });
    const broadcast = insertBroadcast(ctx, { businessId });
    return insertDelivery(ctx, broadcast, customer, { nextAttemptAt: ctx.clock.now() });
  }
  const claim = () => ctx.repos.deliveries.claim(ctx.clock.now().getTime(), 10, ctx.services.settings.deferralPolicy());

  test("a minute left: claimed with 60 s; less: held to 08:00 for quiet hours, not sent", () => {
    setClock("2026-01-16T00:59:00Z");
    const edge = queued("+12125550101");
    expect(claim()).toMatchObject([{ id: edge.id, validForSeconds: 60 }]);
    setClock("2026-01-16T00:59:30Z");
    const late = queued("+12125550102");
    expect(claim()).toEqual([]);
    expect(deliveryById(ctx, late.id)).toMatchObject({ status: "Queued", deferredReason: "quiet_hours", attempts: 0 });
    expect(deliveryById(ctx, late.id).nextAttemptAt.toISOString()).toBe("2026-01-16T13:00:00.000Z");
  });

  test("at most 36,000 s; quiet hours off: no ValidityPeriod at all", () => {
    setClock("2026-01-15T13:30:00Z"); // 08:30 in New York
    const morning = queued("+12125550101");
    expect(claim()).toMatchObject([{ id: morning.id, validForSeconds: 36_000 }]);
    const any = queued("+12125550102");
    const [row] = ctx.repos.deliveries.claim(ctx.clock.now().getTime(), 10, { ...ctx.services.settings.deferralPolicy(), quietHours: null });
    expect(row!.id).toBe(any.id);
    expect("validForSeconds" in row!).toBe(false);
  });
});
