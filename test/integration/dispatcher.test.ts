// The dispatcher through the Twilio adapter against the fake Twilio on loopback (TWILIO_API_BASE), on a fake
// clock moved by a virtual scheduler: pacing, 429 + Retry-After, 21610 opt-outs, lost answers reconciled (never
// resent blindly), restart after a crash, STOP mid-broadcast, graceful stop, and the one-dispatcher lock.
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { deliveries, subscriptions } from "../../src/db/schema.ts";
import { isLocked, tryLock } from "../../src/db/lock.ts";
import { COLLECT_EVERY_SENDS, type Dispatcher, type DispatcherOptions } from "../../src/dispatch/dispatcher.ts";
import { Pacer } from "../../src/dispatch/pacer.ts";
import { backoffMs } from "../../src/dispatch/retry-policy.ts";
import { statusCallbackPath } from "../../src/messaging/messenger.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import type { Messenger, OutboundMessage } from "../../src/messaging/messenger.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { PUBLIC_URL } from "../helpers/api.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { FAKE_SMS_FROM as SMS_FROM, FAKE_WHATSAPP_FROM as WA_FROM } from "../helpers/fake-twilio.ts";
import { testDispatcher } from "../helpers/dispatch-run.ts";
import { until, VirtualScheduler } from "../helpers/virtual-scheduler.ts";
import { contextOnFake, fakeTwilioForFile, queuedBroadcast, stopDispatchers } from "../helpers/worlds.ts";


const fake = fakeTwilioForFile();
let ctx: TestContext;
let sched: VirtualScheduler;
const running: Dispatcher[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

beforeEach(() => {
  ctx = contextOnFake(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL });
  sched = new VirtualScheduler(ctx.clock);
});

afterEach(async () => {
  await stopDispatchers(running);
  ctx.close();
});

/** The real Twilio messenger, recording the (fake) time of every send() call. */
function recordingMessenger(timeoutMs = 2000): Messenger & { calls: Array<{ at: number; msg: OutboundMessage }> } {
  const real = createMessenger(ctx.services.settings.messaging(), { clock: ctx.clock, twilioTimeoutMs: timeoutMs });
  expect(real.name).toBe("twilio");
  const calls: Array<{ at: number; msg: OutboundMessage }> = [];
  return Object.assign(Object.create(real) as Messenger, {
    name: real.name,
    calls,
    send(msg: OutboundMessage) {
      calls.push({ at: sched.now(), msg });
      return real.send(msg);
    },
    lookup: real.lookup.bind(real),
    findRecent: real.findRecent.bind(real),
    close: real.close.bind(real),
  });
}

function dispatcher(messenger: Messenger, opts: Partial<DispatcherOptions> = {}): Dispatcher {
  const d = testDispatcher(ctx, {
    messenger,
    scheduler: sched,
    onOptedOut: (customerId, at) => void ctx.services.optOuts.optOutCustomer(customerId, { source: "twilio-21610", at }),
    ...opts,
  });
  running.push(d);
  return d;
}

/** A business with n active subscribers and a queued broadcast to them. */
const seed = (n: number, text?: string, whatsapp = 0) => queuedBroadcast(ctx, n, { text, whatsapp });

const rowsOf = (broadcastId: number) => ctx.repos.deliveries.listByBroadcast(broadcastId);
const completed = (broadcastId: number) => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null;
const storedTo = (phone: string) => [...fake.messages.values()].filter((m) => m.to === phone || m.to === `whatsapp:${phone}`);
const sendsTo = (phone: string) => fake.sends().filter((r) => r.form.To === phone || r.form.To === `whatsapp:${phone}`);

/** Counts starts in every 1-second window [t, t + 1000) that begins at a start. */
function maxPerWindow(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + 1000) j++;
    max = Math.max(max, j - i);
  }
  return max;
}

describe("pacing to NEARCAST_SEND_RATE", () => {
  for (const rate of [5, 3, 20]) {
    test(`rate ${rate}/s: no 1-s window holds more than ${rate} sends; the average is within 1%`, async () => {
      const n = rate * 8 + 1;
      const { broadcastId, subs } = await seed(n);
      const m = recordingMessenger();
      dispatcher(m, { rate }).start();
      await until(() => completed(broadcastId), 10_000, "broadcast completed");
      const times = m.calls.map((c) => c.at);
      expect(times).toHaveLength(n);
      expect(maxPerWindow(times)).toBeLessThanOrEqual(rate);
      const average = ((n - 1) * 1000) / (Math.max(...times) - Math.min(...times));
      expect(Math.abs(average - rate) / rate).toBeLessThan(0.01);
      // every subscriber got exactly one message, through the real client, with its status callback
      for (const s of subs) expect(sendsTo(s.customer.phone)).toHaveLength(1);
      const rows = rowsOf(broadcastId);
      expect(rows.every((r) => r.status === "Sent" && r.providerId?.startsWith("SM"))).toBe(true);
      const first = sendsTo(rows[0]!.toPhone)[0]!;
      expect(first.form.StatusCallback).toBe(`${PUBLIC_URL}${statusCallbackPath(rows[0]!.id)}`);
      expect(first.form.StatusCallback).toBe(`${PUBLIC_URL}/api/webhooks/twilio/status?delivery=${rows[0]!.id}`);
      expect(first.form.From).toBe(SMS_FROM);
    });
  }

  test("the Pacer alone: a backlog at 7/s over 100 starts, and after an idle gap it does not burst", () => {
    const p = new Pacer(7);
    const times: number[] = [];
    let now = 1_000_000;
    for (let i = 0; i < 100; i++) {
      const t = p.take(now);
      times.push(t);
      now = t;
    }
    expect(maxPerWindow(times)).toBe(7);
    expect(Math.abs((99 * 1000) / (times[99]! - times[0]!) - 7)).toBeLessThan(0.07);
    // idle for 10 s, then a new backlog: still never more than 7 in a window
    now += 10_000;
    for (let i = 0; i < 30; i++) {
      const t = p.take(now);
      times.push(t);
      now = t;
    }
    expect(maxPerWindow(times)).toBe(7);
    expect(new Pacer(Number.POSITIVE_INFINITY).take(5)).toBe(5);
  });

  test("WhatsApp subscribers get whatsapp: numbers from TWILIO_WHATSAPP_FROM; an image goes as MediaUrl", async () => {
    const { PNG } = await import("../helpers/images.ts");
    const dir = mkdtempSync(join(tmpdir(), "nearcast-dispatch-img-"));
    dirs.push(dir);
    ctx.close();
    ctx = testContext({ NEARCAST_PUBLIC_URL: PUBLIC_URL, ...fake.settings() }, { dataDir: dir });
    fake.follow(ctx.clock);
    sched = new VirtualScheduler(ctx.clock);
    const b2 = insertBusiness(ctx);
    const w = insertSubscriber(ctx, b2.id, { contactPreference: "WhatsApp" });
    // Inside the 24-hour window (they wrote an hour ago): free-form Body + MediaUrl.
    ctx.repos.customerInbound.record(w.customer.id, "WhatsApp", ctx.clock.now().getTime() - 3_600_000);
    const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(b2.id), messageText: "Look!", image: PNG });
    const id = (res as { broadcastId: number }).broadcastId;
    dispatcher(recordingMessenger()).start();
    await until(() => completed(id));
    const [req] = sendsTo(w.customer.phone);
    expect(req!.form.To).toBe(`whatsapp:${w.customer.phone}`);
    expect(req!.form.From).toBe(`whatsapp:${WA_FROM}`);
    expect(req!.form.MediaUrl).toMatch(new RegExp(`^${PUBLIC_URL}/uploads/[0-9a-f]{32}\\.png$`));
  });
});

describe("provider answers", () => {
  test("429 with Retry-After: back to Queued until then, every start waits too; then sent once", async () => {
    const { broadcastId, subs } = await seed(3);
    const phone = subs[0]!.customer.phone;
    fake.scriptFor(phone, { reply: "rate_limited", retryAfter: "7" });
    const m = recordingMessenger();
    sched.auto = false; // time moves only when the test says, so the 429 is recorded before the next slot
    dispatcher(m, { rate: 1 }).start();
    const first = () => rowsOf(broadcastId).find((r) => r.toPhone === phone)!;
    await until(() => first().status === "Queued" && first().attempts === 1, 5000, "the 429 recorded");
    expect(first().nextAttemptAt).toBe(m.calls[0]!.at + 7000);
    expect(first().errorMessage).toContain("Rate limited by the provider");
    // The clock moves a quarter second each time the dispatcher waits on it, until the broadcast is done.
    for (let i = 0; i < 200 && !completed(broadcastId); i++) {
      await until(() => completed(broadcastId) || sched.sleeping > 0, 5000, "the dispatcher waiting on the clock");
      sched.advance(250);
    }
    await until(() => completed(broadcastId));
    const attempts = m.calls.filter((c) => c.msg.to === phone).map((c) => c.at);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(7000);
    // at 1/s the next subscriber was due 1 s after the first; the pause held it until Retry-After passed
    const others = m.calls.filter((c) => c.msg.to !== phone).map((c) => c.at);
    expect(Math.min(...others)).toBeGreaterThanOrEqual(attempts[0]! + 7000);
    const row = rowsOf(broadcastId).find((r) => r.toPhone === phone)!;
    expect(row.status).toBe("Sent");
    expect(row.attempts).toBe(2);
    expect(row.errorMessage).toBeNull();
    expect(storedTo(phone)).toHaveLength(1);
  });

  test("429 without Retry-After: exponential backoff (1 s after the first attempt, 2 s after the second)", async () => {
    const { broadcastId, subs } = await seed(1);
    const phone = subs[0]!.customer.phone;
    fake.scriptFor(phone, "rate_limited", "rate_limited");
    const m = recordingMessenger();
    dispatcher(m, { rate: 100 }).start();
    await until(() => completed(broadcastId));
    const at = m.calls.map((c) => c.at);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(1000);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(2000);
    expect(rowsOf(broadcastId)[0]!.status).toBe("Sent");
  });

  test("21610: Failed with code 21610, the customer opted out everywhere, never retried (not even by RetryFailedDeliveries)", async () => {
    const { broadcastId, subs } = await seed(3);
    const target = subs[1]!;
    // the same person also follows another business, with a broadcast still queued; the shops take turns, so the
    // person is that shop's third (their text there comes long after the 21610 of the first shop's second)
    const other = insertBusiness(ctx);
    for (let i = 0; i < 2; i++) insertSubscriber(ctx, other.id);
    insertSubscriber(ctx, other.id, { phone: target.customer.phone });
    const second = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(other.id), messageText: "Other shop" });
    fake.scriptFor(target.customer.phone, "opted_out");
    dispatcher(recordingMessenger(), { rate: 1, concurrency: 1 }).start();
    await until(() => completed(broadcastId) && completed((second as { broadcastId: number }).broadcastId));
    const row = rowsOf(broadcastId).find((r) => r.customerId === target.customer.id)!;
    expect(row.status).toBe("Failed");
    expect(row.errorCode).toBe(21610);
    const subsNow = ctx.db.select().from(subscriptions).where(eq(subscriptions.customerId, target.customer.id)).all();
    expect(subsNow.map((s) => s.status)).toEqual(["unsubscribed", "unsubscribed"]);
    const otherRow = rowsOf((second as { broadcastId: number }).broadcastId).find((r) => r.customerId === target.customer.id)!;
    expect(otherRow.status).toBe("Skipped");
    expect(sendsTo(target.customer.phone)).toHaveLength(1);
    expect(ctx.repos.deliveries.retryFailed(broadcastId, sched.now())).toBe(0);
  });

  test("unavailable (never reached Twilio): back to Queued with backoff, then sent once; every start waits too", async () => {
    const { broadcastId, subs } = await seed(2);
    const phone = subs[0]!.customer.phone;
    const m = recordingMessenger();
    const real = m.send.bind(m);
    let refused = 0;
    m.send = (msg: OutboundMessage) => {
      if (msg.to === phone && refused < 2) {
        refused++;
        m.calls.push({ at: sched.now(), msg });
        return Promise.resolve({ kind: "unavailable" as const, message: "Twilio unreachable: ConnectionRefused" });
      }
      return real(msg);
    };
    dispatcher(m, { rate: 100, concurrency: 1 }).start();
    await until(() => completed(broadcastId));
    const at = m.calls.filter((c) => c.msg.to === phone).map((c) => c.at);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(backoffMs(1));
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(backoffMs(2));
    const row = rowsOf(broadcastId).find((r) => r.toPhone === phone)!;
    expect(row).toMatchObject({ status: "Sent", attempts: 3, errorMessage: null });
    expect(sendsTo(phone)).toHaveLength(1);
    const other = m.calls.find((c) => c.msg.to !== phone)!;
    expect(other.at).toBeGreaterThanOrEqual(at[0]! + 1000);
    expect([backoffMs(1), backoffMs(2), backoffMs(3), backoffMs(40)]).toEqual([1000, 2000, 4000, 600_000]);
  });

  test("a permanent error (21211): Failed with the provider's code and message", async () => {
    const { broadcastId, subs } = await seed(2);
    fake.scriptFor(subs[0]!.customer.phone, "invalid_number");
    dispatcher(recordingMessenger()).start();
    await until(() => completed(broadcastId));
    const row = rowsOf(broadcastId)[0]!;
    expect(row.status).toBe("Failed");
    expect(row.errorCode).toBe(21211);
    expect(row.errorMessage).toBe("Invalid 'To' Phone Number");
    expect(rowsOf(broadcastId)[1]!.status).toBe("Sent");
  });
});

describe("lost answers are reconciled, never resent blindly", () => {
  test("5xx but created at Twilio: Uncertain, then found by findRecent -> Sent with Twilio's sid; sent once", async () => {
    const { broadcastId, subs } = await seed(3);
    const phone = subs[1]!.customer.phone;
    fake.scriptFor(phone, { reply: "server_error", created: true });
    const m = recordingMessenger();
    dispatcher(m, { rate: 10 }).start();
    await until(() => rowsOf(broadcastId).some((r) => r.status === "Uncertain"));
    await until(() => completed(broadcastId));
    const row = rowsOf(broadcastId).find((r) => r.toPhone === phone)!;
    const [stored] = storedTo(phone);
    expect(row.status).toBe("Sent");
    expect(row.providerId).toBe(stored!.sid);
    expect(sendsTo(phone)).toHaveLength(1);
    expect(m.calls.filter((c) => c.msg.to === phone)).toHaveLength(1);
    // the look-up happened after the grace period, with the list API
    const reads = fake.requests.filter((r) => r.method === "GET" && r.query.To === phone);
    expect(reads.length).toBeGreaterThanOrEqual(1);
  });

  test("5xx and NOT created: after the grace period the provider has no such message -> sent again, exactly one message", async () => {
    const { broadcastId, subs } = await seed(2);
    const phone = subs[0]!.customer.phone;
    fake.scriptFor(phone, { reply: "server_error", created: false });
    dispatcher(recordingMessenger()).start();
    await until(() => completed(broadcastId));
    expect(sendsTo(phone)).toHaveLength(2);
    expect(storedTo(phone)).toHaveLength(1);
    const row = rowsOf(broadcastId)[0]!;
    expect(row.status).toBe("Sent");
    expect(row.providerId).toBe(storedTo(phone)[0]!.sid);
  });

  test("a timeout (hung request that Twilio did create): reconciled, not resent", async () => {
    const { broadcastId, subs } = await seed(1);
    const phone = subs[0]!.customer.phone;
    fake.scriptFor(phone, { reply: "hang", created: true });
    dispatcher(recordingMessenger(150)).start();
    await until(() => completed(broadcastId));
    expect(sendsTo(phone)).toHaveLength(1);
    expect(rowsOf(broadcastId)[0]!.status).toBe("Sent");
  });

  test("the look-up itself fails (5xx): stays Uncertain and is asked again later", async () => {
    const { broadcastId, subs } = await seed(1);
    const phone = subs[0]!.customer.phone;
    fake.scriptFor(phone, { reply: "server_error", created: true });
    fake.scriptReads("server_error");
    dispatcher(recordingMessenger()).start();
    await until(() => completed(broadcastId));
    expect(sendsTo(phone)).toHaveLength(1);
    expect(rowsOf(broadcastId)[0]!.status).toBe("Sent");
    expect(fake.requests.filter((r) => r.method === "GET").length).toBeGreaterThanOrEqual(2);
  });

  test("a status callback that arrives first settles the Uncertain row; no look-up needed", async () => {
    const { broadcastId, subs } = await seed(1);
    const phone = subs[0]!.customer.phone;
    fake.scriptFor(phone, { reply: "server_error", created: true });
    const d = dispatcher(recordingMessenger(), { reconcileAfterMs: 3_600_000 });
    d.start();
    await until(() => rowsOf(broadcastId)[0]!.status === "Uncertain");
    const row = rowsOf(broadcastId)[0]!;
    const [stored] = storedTo(phone);
    const outcome = ctx.services.statusCallbacks.apply(
      { providerId: stored!.sid, status: "Delivered", providerStatus: "delivered", errorCode: null, errorMessage: null, at: ctx.clock.now(), deliveryId: row.id },
    );
    expect(outcome.kind).toBe("advanced");
    await until(() => completed(broadcastId));
    expect(rowsOf(broadcastId)[0]!.status).toBe("Delivered");
    expect(fake.requests.filter((r) => r.method === "GET")).toHaveLength(0);
  });
});

describe("restart, STOP, graceful stop", () => {
  test("restart after a crash: rows left Sending are reconciled; every recipient gets exactly one message", async () => {
    const { broadcastId, subs, text } = await seed(10);
    // What a kill -9 leaves: 4 claimed rows; the requests of 2 of them had reached Twilio.
    const claimed = ctx.repos.deliveries.claim(sched.now(), 4);
    expect(claimed).toHaveLength(4);
    for (const c of claimed.slice(0, 2)) fake.addMessage({ to: c.toPhone, body: text, from: SMS_FROM, dateCreated: ctx.clock.now() });
    ctx.clock.advance(5_000);
    const d = dispatcher(recordingMessenger(), { rate: 100 });
    d.start();
    await until(() => completed(broadcastId));
    expect(d.stats.recovered).toBe(4);
    for (const s of subs) expect(storedTo(s.customer.phone)).toHaveLength(1);
    expect(fake.sends()).toHaveLength(8); // the 2 that reached Twilio were not sent again
    for (const c of claimed.slice(0, 2)) {
      const row = ctx.repos.deliveries.findById(c.id)!;
      expect(row.status).toBe("Sent");
      expect(row.providerId).toBe(storedTo(c.toPhone)[0]!.sid);
    }
    expect(ctx.logger.lines.some((l) => l.includes("4 message(s) were being sent when the previous dispatcher stopped"))).toBe(true);
  });

  test("STOP mid-broadcast: a recipient no longer subscribed when their turn comes is Skipped, not sent", async () => {
    const { broadcastId, subs } = await seed(6);
    const gone = subs[4]!;
    ctx.db.update(subscriptions).set({ status: "unsubscribed", unsubscribedAt: ctx.clock.now() }).where(eq(subscriptions.id, gone.subscription.id)).run();
    const d = dispatcher(recordingMessenger(), { rate: 10 });
    d.start();
    await until(() => completed(broadcastId));
    const row = rowsOf(broadcastId).find((r) => r.customerId === gone.customer.id)!;
    expect(row.status).toBe("Skipped");
    expect(row.errorMessage).toBe("Not sent: the customer unsubscribed before their turn.");
    expect(sendsTo(gone.customer.phone)).toHaveLength(0);
    expect(d.stats.skipped).toBe(1);
    const summary = ctx.services.broadcasts.status(OPERATOR, broadcastId);
    expect(summary).toMatchObject({ total: 6, sent: 5, failed: 0, skipped: 1, queued: 0 });
    expect(summary.completedAt).not.toBeNull();
  });

  test("graceful stop: no new claims; claimed rows not handed to Twilio go back to Queued (attempt not counted)", async () => {
    const { broadcastId } = await seed(8);
    sched.auto = false;
    const d = dispatcher(recordingMessenger(), { rate: 5, claimAheadMs: 1000 });
    d.start();
    await until(() => fake.sends().length === 1 && sched.sleeping > 0, 5000, "first send, then waiting for the next slot");
    await until(() => rowsOf(broadcastId)[0]!.status === "Sent");
    expect(rowsOf(broadcastId).filter((r) => r.status === "Sending")).toHaveLength(4);
    await d.stop();
    const rows = rowsOf(broadcastId);
    expect(rows.map((r) => r.status)).toEqual(["Sent", "Queued", "Queued", "Queued", "Queued", "Queued", "Queued", "Queued"]);
    expect(rows.slice(1).every((r) => r.attempts === 0 && r.claimedAt === null)).toBe(true);
    expect(fake.sends()).toHaveLength(1);
    expect(ctx.logger.lines.some((l) => l.includes("released 4 claimed message(s)"))).toBe(true);
  });

  test("graceful stop waits for a send in flight (up to the grace), then leaves it for the next start to reconcile", async () => {
    const { broadcastId, subs } = await seed(1);
    const phone = subs[0]!.customer.phone;
    fake.scriptFor(phone, { reply: "hang", created: false });
    const d = dispatcher(recordingMessenger(400), { stopGraceMs: 30 });
    d.start();
    await until(() => fake.sends().length === 1);
    await d.stop();
    expect(rowsOf(broadcastId)[0]!.status).toBe("Sending");
    expect(ctx.logger.lines.some((l) => l.includes("1 send(s) still unanswered at shutdown"))).toBe(true);
    // the next dispatcher finds it Sending: in flight at the stop -> checked, not found -> sent once
    const next = dispatcher(recordingMessenger());
    next.start();
    await until(() => completed(broadcastId));
    expect(next.stats.recovered).toBe(1);
    expect(storedTo(phone)).toHaveLength(1);
    expect(rowsOf(broadcastId)[0]!.status).toBe("Sent");
    // the first client's request times out and finds the row settled: nothing changes
    await until(() => d.stats.uncertain === 1, 5000, "the first send to time out");
    expect(rowsOf(broadcastId)[0]!.status).toBe("Sent");
  });
});

describe("one dispatcher per data directory", () => {
  test("a second dispatcher on the same lock stands by, and takes over when the first stops", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nearcast-lock-"));
    dirs.push(dir);
    const lockPath = join(dir, "dispatcher.lock");
    const { broadcastId } = await seed(3);
    const takeLock = () => tryLock(lockPath);
    const first = dispatcher(recordingMessenger(), { takeLock, rate: 0.001 });
    expect(first.start()).toBe("dispatching");
    expect(isLocked(lockPath)).toBe(true);
    const plain = dispatcher(recordingMessenger(), { takeLock });
    expect(plain.start()).toBe("standby");
    const second = dispatcher(recordingMessenger(), { takeLock, standby: true, lockRetryMs: 1000 });
    expect(second.start()).toBe("standby");
    expect(second.state).toBe("standby");
    expect(ctx.logger.lines.some((l) => l.includes("another process is sending messages for this data directory"))).toBe(true);
    await first.stop();
    await second.whenDispatching();
    expect(second.state).toBe("dispatching");
    await until(() => completed(broadcastId));
    await second.stop();
    expect(isLocked(lockPath)).toBe(false);
  });

  test("a disk with no room for the lock's file: the start waits for room (one log line), then sends; it never throws", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nearcast-lock-"));
    dirs.push(dir);
    const lockPath = join(dir, "dispatcher.lock");
    const { broadcastId } = await seed(2);
    let full = true;
    const takeLock = () => {
      if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      return tryLock(lockPath);
    };
    const d = dispatcher(recordingMessenger(), { takeLock });
    expect(d.start()).toBe("standby");
    expect(ctx.logger.lines.filter((l) => l.includes("the disk is full or read-only"))).toHaveLength(1);
    expect(ctx.logger.lines.some((l) => l.includes("another process is sending"))).toBe(false);
    full = false;
    await d.whenDispatching();
    expect(isLocked(lockPath)).toBe(true);
    await until(() => completed(broadcastId));
    await d.stop();
    expect(isLocked(lockPath)).toBe(false);
  });

  test("the lock is an OS file lock: another process holding it keeps us out; kill -9 frees it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nearcast-lock-"));
    dirs.push(dir);
    const lockPath = join(dir, "dispatcher.lock");
    const marker = join(dir, "child-has-it");
    const lockModule = JSON.stringify(join(import.meta.dir, "..", "..", "src", "db", "lock.ts"));
    const script = `import { writeFileSync } from "node:fs"; import { tryLock } from ${lockModule};
      const l = tryLock(${JSON.stringify(lockPath)}); writeFileSync(${JSON.stringify(marker)}, l ? "locked" : "busy");
      (globalThis as Record<string, unknown>).heldLock = l; // reachable: a collected connection would let go
      setInterval(() => {}, 1000);`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    try {
      // writeFileSync creates the file before it writes: wait for its word, not for the file.
      await until(() => existsSync(marker) && readFileSync(marker, "utf8") !== "", 10_000, "the child to take the lock");
      expect(readFileSync(marker, "utf8")).toBe("locked");
      expect(tryLock(lockPath)).toBeNull();
      expect(isLocked(lockPath)).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
    const mine = tryLock(lockPath);
    expect(mine).not.toBeNull();
    mine!.release();
  });
});

describe("without Twilio (sandbox)", () => {
  test("the sandbox messenger records the messages; the broadcast completes", async () => {
    ctx.close();
    ctx = testContext();
    fake.follow(ctx.clock);
    sched = new VirtualScheduler(ctx.clock);
    const { broadcastId } = await seed(4);
    const sandbox = createMessenger(ctx.services.settings.messaging(), { clock: ctx.clock });
    expect(sandbox.name).toBe("sandbox");
    dispatcher(sandbox).start();
    await until(() => completed(broadcastId));
    expect(rowsOf(broadcastId).every((r) => r.status === "Sent" && r.providerId?.startsWith("SMsandbox"))).toBe(true);
    sandbox.close();
    expect(ctx.db.select().from(deliveries).all()).toHaveLength(4);
  });
});

describe("memory", () => {
  test("with collectGarbage given (off by default): it runs every `collectEverySends` sends (default 5,000), between sends", async () => {
    expect(COLLECT_EVERY_SENDS).toBe(5000);
    const { broadcastId } = await seed(25);
    const m = recordingMessenger();
    const startsAtCollect: number[] = [];
    dispatcher(m, { rate: Number.POSITIVE_INFINITY, concurrency: 4, collectEverySends: 10, collectGarbage: () => startsAtCollect.push(m.calls.length) }).start();
    await until(() => completed(broadcastId));
    // After the 10th and the 20th start; the last 5 starts do not reach the next one.
    expect(startsAtCollect).toEqual([10, 20]);
    expect(fake.sends()).toHaveLength(25);
  });
});

describe("configuration", () => {
  test("NEARCAST_RECONCILE_AFTER: seconds before a lost answer is looked up (default 30)", () => {
    expect(loadConfig({}).reconcileAfterMs).toBe(30_000);
    expect(loadConfig({ NEARCAST_RECONCILE_AFTER: "2.5" }).reconcileAfterMs).toBe(2500);
    expect(() => loadConfig({ NEARCAST_RECONCILE_AFTER: "soon" })).toThrow(ConfigError);
  });
});
