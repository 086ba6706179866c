// Issue 11 item 5, the dispatcher: a scheduled broadcast starts at its time on the injected clock (the idle loop
// wakes for it: nextDueAt includes it), its recipients decided then (an opt-out after scheduling is not sent, a new
// subscriber is), through the real Twilio client against the fake Twilio; with nobody to send to it completes with
// total 0; a cancelled one never starts.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createDispatcher, type Dispatcher } from "../../src/dispatch/dispatcher.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import type { TestContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { until, VirtualScheduler } from "../helpers/virtual-scheduler.ts";
import { broadcastIn, contextOnFake, fakeTwilioForFile, stopDispatchers } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile();
let ctx: TestContext;
let sched: VirtualScheduler;
const running: Dispatcher[] = [];
beforeEach(() => {
  ctx = contextOnFake(fake, { NEARCAST_PUBLIC_URL: "https://deals.example.com" });
  sched = new VirtualScheduler(ctx.clock);
});
afterEach(async () => {
  await stopDispatchers(running);
  ctx.close();
});

function startDispatcher(): void {
  const messenger = createMessenger(ctx.services.settings.messaging(), { clock: ctx.clock });
  // A long idle poll: the loop sleeps straight to the next due time (what nextDueAt says), as a real idle server does.
  const d = createDispatcher({ store: ctx.repos.deliveries, messenger, logger: ctx.logger, rate: 50, scheduler: sched, idlePollMs: 3_600_000 });
  running.push(d);
  d.start();
}

const sendsTo = (phone: string) => fake.sends().filter((r) => r.form.To === phone);
const row = (id: number) => ctx.repos.broadcasts.findById(id)!;
/** Scheduled an hour from now; `at` is its time. */
const schedule = async (businessId: number, text: string) => (await broadcastIn(ctx, "scheduled", { businessId, text })) as { id: number; at: number };

describe("scheduled broadcasts in the dispatcher", () => {
  test("starts on time; recipients decided at the start: an opt-out meanwhile is not sent, a new subscriber is", async () => {
    const business = insertBusiness(ctx);
    const stays = insertSubscriber(ctx, business.id);
    const leaves = insertSubscriber(ctx, business.id);
    const { id, at } = await schedule(business.id, "Doors open at 9 for the winter sale");
    // Meanwhile: one opts out everywhere (STOP), one new person subscribes.
    ctx.clock.advance(60_000);
    ctx.services.optOuts.optOutCustomer(leaves.customer.id, { source: "sms-stop", at: ctx.clock.now() });
    const joins = insertSubscriber(ctx, business.id);
    expect(ctx.repos.deliveries.nextDueAt()).toBe(at);

    startDispatcher();
    await until(() => row(id).completedAt !== null, 10_000, "scheduled broadcast completed");

    expect(row(id).startedAt?.getTime()).toBe(at);
    expect(row(id).total).toBe(2);
    expect(sendsTo(stays.customer.phone)).toHaveLength(1);
    expect(sendsTo(joins.customer.phone)).toHaveLength(1);
    expect(sendsTo(leaves.customer.phone)).toHaveLength(0);
    expect(sendsTo(stays.customer.phone)[0]!.form.Body).toBe("Doors open at 9 for the winter sale");
    const rows = ctx.repos.deliveries.listByBroadcast(id);
    expect(rows.map((r) => r.toPhone).sort()).toEqual([stays.customer.phone, joins.customer.phone].sort());
    expect(rows.every((r) => r.status === "Sent" && r.nextAttemptAt === at)).toBe(true);
  });

  test("nothing is sent before the time; nobody to send to at the start: completed with total 0", async () => {
    const business = insertBusiness(ctx);
    const only = insertSubscriber(ctx, business.id);
    const { id, at } = await schedule(business.id, "Nobody will read this");
    ctx.services.optOuts.optOutCustomer(only.customer.id, { source: "sms-stop", at: ctx.clock.now() });
    expect(ctx.repos.deliveries.startDueBroadcasts(at - 1)).toEqual([]);
    startDispatcher();
    await until(() => row(id).completedAt !== null, 10_000, "completed");
    expect(row(id)).toMatchObject({ total: 0, cancelledAt: null });
    expect(row(id).startedAt?.getTime()).toBe(at);
    expect(fake.sends()).toHaveLength(0);
    expect(ctx.logger.lines.join("\n")).toContain(`scheduled broadcast ${id} started`);
    expect(ctx.logger.lines.join("\n")).toContain(`broadcast ${id} queued (0 message(s))`);
  });

  test("a cancelled broadcast never starts; the next scheduled one does", async () => {
    const business = insertBusiness(ctx);
    const s = insertSubscriber(ctx, business.id);
    const first = await broadcastIn(ctx, "cancelled", { businessId: business.id, text: "Cancelled sale" });
    ctx.clock.advance(5 * 60_000);
    const second = await schedule(business.id, "The real sale");
    expect(ctx.repos.deliveries.nextDueAt()).toBe(second.at);
    startDispatcher();
    await until(() => row(second.id).completedAt !== null, 10_000, "second completed");
    expect(sendsTo(s.customer.phone).map((r) => r.form.Body)).toEqual(["The real sale"]);
    expect(row(first.id)).toMatchObject({ startedAt: null, completedAt: null, total: 0 });
  });
});
