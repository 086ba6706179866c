// Issue 23, item 4: with no public URL Twilio can reach, messages go without a StatusCallback, and their outcome is
// looked up with the Messages API (1 min, 5 min, 30 min ... after the send) until it is final. The dispatcher runs
// against the fake Twilio on loopback on a fake clock (a virtual scheduler): what the fake received, when it was
// asked, and what the deliveries became.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { deliveries } from "../../src/db/schema.ts";
import type { Dispatcher } from "../../src/dispatch/dispatcher.ts";
import { nextStatusCheck, STATUS_CHECKS_AFTER_MS } from "../../src/dispatch/status-checks.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import type { Messenger } from "../../src/messaging/messenger.ts";
import type { TestContext } from "../helpers/context.ts";
import { testDispatcher } from "../helpers/dispatch-run.ts";
import { until, VirtualScheduler } from "../helpers/virtual-scheduler.ts";
import { contextOnFake, fakeTwilioForFile, queuedBroadcast, stopDispatchers } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile();
let ctx: TestContext;
let sched: VirtualScheduler;
let messenger: Messenger;
const running: Dispatcher[] = [];

beforeEach(() => {
  // No public URL saved: Twilio gets no callback address.
  ctx = contextOnFake(fake, { NEARCAST_QUIET_HOURS: "off" });
  sched = new VirtualScheduler(ctx.clock);
  messenger = createMessenger(ctx.services.settings.messaging(), { clock: ctx.clock, twilioTimeoutMs: 2000 });
});

afterEach(async () => {
  await stopDispatchers(running);
  messenger.close();
  ctx.close();
});

function start(): void {
  const d = testDispatcher(ctx, { messenger, scheduler: sched, onProviderStatus: (update) => void ctx.services.statusCallbacks.apply(update) });
  running.push(d);
  d.start();
}

const rows = (broadcastId: number) =>
  ctx.db.select({ id: deliveries.id, status: deliveries.status, providerId: deliveries.providerId, sentAt: deliveries.sentAt, checkAt: deliveries.statusCheckAt, errorCode: deliveries.errorCode })
    .from(deliveries).where(eq(deliveries.broadcastId, broadcastId)).orderBy(deliveries.id).all();
const lookupsOf = (sid: string) => fake.requests.filter((r) => r.method === "GET" && r.path.endsWith(`/Messages/${sid}.json`));
/** When each look-up of `sid` came, after the send, to the housekeeping's second (it runs once a second). */
const lookupTimes = (sid: string, sentAt: Date) => lookupsOf(sid).map((r) => Math.floor((r.at.getTime() - sentAt.getTime()) / 2000) * 2000);

test("no public URL: the request has no StatusCallback, and the outcome is looked up until final (Delivered, Failed)", async () => {
  const { broadcastId } = await queuedBroadcast(ctx, 3, { text: "Soup of the day: leek" });
  start();
  await until(() => rows(broadcastId).every((r) => r.status === "Sent"));
  for (const sent of fake.sends()) {
    expect(sent.form.Body).toBe("Soup of the day: leek");
    expect("StatusCallback" in sent.form).toBe(false);
    // Quiet hours are off here: no ValidityPeriod either (issue 23, item 5).
    expect("ValidityPeriod" in sent.form).toBe(false);
  }
  const [a, b, c] = rows(broadcastId);
  // Each is due for its first look-up a minute after its send.
  for (const r of [a!, b!, c!]) expect(r.checkAt!.getTime()).toBe(r.sentAt!.getTime() + 60_000);

  // At Twilio: the first delivered, the second undelivered (30003), the third still on its way at the first look-up.
  fake.setStatus(a!.providerId!, "delivered");
  fake.setStatus(b!.providerId!, "undelivered", { code: 30003, message: "Unreachable destination handset" });
  await until(() => rows(broadcastId)[0]!.status === "Delivered" && rows(broadcastId)[1]!.status === "Failed");
  expect(lookupTimes(a!.providerId!, a!.sentAt!)).toEqual([60_000]);
  const [a2, b2, c2] = rows(broadcastId);
  expect(a2).toMatchObject({ status: "Delivered", checkAt: null });
  expect(b2).toMatchObject({ status: "Failed", errorCode: 30003, checkAt: null });
  // The third was asked too, found still sent: next at 5 minutes after its send. (While its look-up is in flight the
  // row holds a one-minute lease, sent + 2 min here: wait for the answer's value, not for any later one.)
  await until(() => lookupsOf(c!.providerId!).length === 1 && rows(broadcastId)[2]!.checkAt?.getTime() === c!.sentAt!.getTime() + 5 * 60_000);
  expect(c2!.status).toBe("Sent");
  expect(rows(broadcastId)[2]!.checkAt!.getTime()).toBe(c!.sentAt!.getTime() + 5 * 60_000);

  fake.setStatus(c!.providerId!, "delivered");
  await until(() => rows(broadcastId)[2]!.status === "Delivered");
  expect(lookupTimes(c!.providerId!, c!.sentAt!)).toEqual([60_000, 5 * 60_000]);
  expect(rows(broadcastId)[2]!.checkAt).toBeNull();
  // Each settled message was asked no more.
  expect(lookupsOf(a!.providerId!).length).toBe(1);
  expect(lookupsOf(b!.providerId!).length).toBe(1);
});

test("with a public URL, StatusCallback goes out and nothing is looked up", async () => {
  const withUrl = contextOnFake(fake, { NEARCAST_QUIET_HOURS: "off", NEARCAST_PUBLIC_URL: "https://deals.example.com" });
  try {
    const m = createMessenger(withUrl.services.settings.messaging(), { clock: withUrl.clock, twilioTimeoutMs: 2000 });
    const { broadcastId } = await queuedBroadcast(withUrl, 1);
    const s = new VirtualScheduler(withUrl.clock);
    const d = testDispatcher(withUrl, { messenger: m, scheduler: s, onProviderStatus: (u) => void withUrl.services.statusCallbacks.apply(u) });
    running.push(d);
    d.start();
    const sent = () => withUrl.db.select().from(deliveries).where(eq(deliveries.broadcastId, broadcastId)).all();
    await until(() => sent()[0]?.status === "Sent");
    expect(fake.sends()[0]!.form.StatusCallback).toBe(`https://deals.example.com/api/webhooks/twilio/status?delivery=${sent()[0]!.id}`);
    expect(sent()[0]!.statusCheckAt).toBeNull();
    await d.stop();
    m.close();
  } finally {
    withUrl.close();
  }
});

test("the look-up schedule: 1 min, 5 min, 30 min, 2 h, 8 h, 24 h after the send, then no more", () => {
  const sent = 1_000_000;
  const steps: number[] = [];
  for (let now = sent, next = nextStatusCheck(sent, now); next !== null; now = next, next = nextStatusCheck(sent, now)) steps.push(next - sent);
  expect(steps).toEqual([...STATUS_CHECKS_AFTER_MS]);
  expect(steps).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 28_800_000, 86_400_000]);
  // A look-up that comes late (the server was down) is followed by the next step still ahead.
  expect(nextStatusCheck(sent, sent + 3 * 3_600_000)).toBe(sent + 8 * 3_600_000);
  expect(nextStatusCheck(sent, sent + 86_400_000)).toBeNull();
});
