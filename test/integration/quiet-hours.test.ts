// Quiet hours and the daily cap at claim time, on the injected clock: deferred deliveries stay Queued with
// next_attempt_at = when they may go and a reason, and go then.
import { afterEach, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { ValidationError } from "../../src/errors.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { deliveryById, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";

const HOUR = 3_600_000;
let ctx: TestContext;
afterEach(() => ctx?.close());

/** Moves the fake clock (which starts at 2026-01-15T12:00Z) to `iso`. */
function setClock(iso: string): number {
  ctx.clock.advance(Date.parse(iso) - ctx.clock.now().getTime());
  return ctx.clock.now().getTime();
}

function claim(): number[] {
  return ctx.repos.deliveries.claim(ctx.clock.now().getTime(), 100, ctx.services.settings.deferralPolicy()).map((d) => d.id);
}

function queueFor(phone: string, businessId = insertBusiness(ctx).id) {
  const { customer } = insertSubscriber(ctx, businessId, { phone });
  const broadcast = insertBroadcast(ctx, { businessId });
  return { customer, broadcast, delivery: insertDelivery(ctx, broadcast, customer, { nextAttemptAt: ctx.clock.now() }) };
}

describe("quiet hours", () => {
  test("07:30 Eastern: New York waits until 08:00 Eastern, Los Angeles until 08:00 Pacific; then each goes", () => {
    ctx = testContext();
    setClock("2026-01-15T12:30:00Z");
    const ny = queueFor("+12125550101");
    const la = queueFor("+13105550102");
    expect(claim()).toEqual([]);
    for (const [row, until] of [[ny, "2026-01-15T13:00:00.000Z"], [la, "2026-01-15T16:00:00.000Z"]] as const) {
      const d = deliveryById(ctx, row.delivery.id);
      expect(d.status).toBe("Queued");
      expect(d.deferredReason).toBe("quiet_hours");
      expect(d.nextAttemptAt.toISOString()).toBe(until);
      expect(d.attempts).toBe(0);
    }
    expect(ctx.repos.deliveries.waiting(ny.broadcast.id)).toEqual({ quietHours: 1, dailyLimit: 0, quietHoursUntil: "8:00" });
    expect(ctx.repos.deliveries.nextDueAt()).toBe(Date.parse("2026-01-15T13:00:00Z"));

    setClock("2026-01-15T13:00:00Z");
    expect(claim()).toEqual([ny.delivery.id]);
    expect(deliveryById(ctx, ny.delivery.id).deferredReason).toBeNull();
    setClock("2026-01-15T16:00:00Z");
    expect(claim()).toEqual([la.delivery.id]);
  });

  test("after 20:00 local it waits until the next morning", () => {
    ctx = testContext();
    setClock("2026-01-16T01:30:00Z"); // 20:30 in New York
    const ny = queueFor("+12125550101");
    expect(claim()).toEqual([]);
    expect(deliveryById(ctx, ny.delivery.id).nextAttemptAt.toISOString()).toBe("2026-01-16T13:00:00.000Z");
  });

  test("off sends at any hour", () => {
    ctx = testContext({ NEARCAST_QUIET_HOURS: "off" });
    setClock("2026-01-15T08:00:00Z"); // 03:00 in New York
    const ny = queueFor("+12125550101");
    expect(claim()).toEqual([ny.delivery.id]);
  });

  test("a number in several zones (+1 775: Mountain and Pacific) waits for the later morning", () => {
    ctx = testContext();
    setClock("2026-01-15T14:30:00Z"); // 07:30 Mountain, 06:30 Pacific
    const nv = queueFor("+17755550103");
    expect(claim()).toEqual([]);
    expect(deliveryById(ctx, nv.delivery.id).nextAttemptAt.toISOString()).toBe("2026-01-15T16:00:00.000Z");
  });

  test("a number without a zone of its own uses the business's time zone", () => {
    ctx = testContext();
    setClock("2026-01-15T12:30:00Z"); // 21:30 in Tokyo
    const tokyo = insertBusiness(ctx, { timeZone: "Asia/Tokyo" });
    const row = queueFor("+15555550104", tokyo.id);
    expect(claim()).toEqual([]);
    expect(deliveryById(ctx, row.delivery.id).nextAttemptAt.toISOString()).toBe("2026-01-15T23:00:00.000Z");
  });
});

describe("daily cap", () => {
  test("the 4th message in 24 h from the same business waits until the oldest of the 3 is 24 h old", () => {
    ctx = testContext();
    const now = setClock("2026-01-15T18:00:00Z"); // 13:00 in New York
    const first = queueFor("+12125550105");
    for (const ago of [20, 10, 1]) {
      insertDelivery(ctx, insertBroadcast(ctx, { businessId: first.broadcast.businessId }), first.customer, {
        status: "Sent", sentAt: new Date(now - ago * HOUR), nextAttemptAt: new Date(now - ago * HOUR),
      });
    }
    expect(claim()).toEqual([]);
    const d = deliveryById(ctx, first.delivery.id);
    expect(d.deferredReason).toBe("daily_limit");
    expect(d.nextAttemptAt.getTime()).toBe(now - 20 * HOUR + 24 * HOUR);
    expect(ctx.repos.deliveries.waiting(first.broadcast.id)).toEqual({ quietHours: 0, dailyLimit: 1, quietHoursUntil: null });
    setClock(new Date(now + 4 * HOUR).toISOString());
    expect(claim()).toEqual([first.delivery.id]);
  });

  test("two in one claim with two already sent: one goes, one waits; 0 means no cap", () => {
    ctx = testContext();
    const now = setClock("2026-01-15T18:00:00Z");
    const a = queueFor("+12125550106");
    const other = insertBroadcast(ctx, { businessId: a.broadcast.businessId });
    const second = insertDelivery(ctx, other, a.customer, { nextAttemptAt: new Date(now) });
    for (const ago of [5, 2]) insertDelivery(ctx, insertBroadcast(ctx, { businessId: a.broadcast.businessId }), a.customer, { status: "Sent", sentAt: new Date(now - ago * HOUR) });
    expect(claim()).toEqual([a.delivery.id]);
    expect(deliveryById(ctx, second.id).nextAttemptAt.getTime()).toBe(now - 5 * HOUR + 24 * HOUR);

    ctx.close();
    ctx = testContext({ NEARCAST_MAX_PER_DAY: "0" });
    const t = setClock("2026-01-15T18:00:00Z");
    const b = queueFor("+12125550107");
    for (const ago of [5, 4, 3, 2]) insertDelivery(ctx, insertBroadcast(ctx, { businessId: b.broadcast.businessId }), b.customer, { status: "Sent", sentAt: new Date(t - ago * HOUR) });
    expect(claim()).toEqual([b.delivery.id]);
  });
});

describe("settings", () => {
  test("a bad quiet-hours or per-day value is a 400 naming the field, and nothing is saved", () => {
    ctx = testContext();
    for (const [field, value] of [["quietHours", "25:00-08:00"], ["quietHours", "8pm-8am"], ["quietHours", "20:00-20:00"], ["maxPerDay", "-1"], ["maxPerDay", "three"]] as const) {
      let err: unknown;
      try {
        ctx.services.settings.update(OPERATOR, { [field]: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).status).toBe(400);
      expect(Object.keys((err as ValidationError).fields ?? {})).toEqual([field]);
    }
    expect(ctx.services.settings.view(OPERATOR).quietHours).toMatchObject({ value: "20:00-08:00", source: "default", env: "NEARCAST_QUIET_HOURS" });
    expect(ctx.services.settings.view(OPERATOR).maxPerDay).toMatchObject({ value: "3", source: "default" });
    ctx.services.settings.update(OPERATOR, { quietHours: "21:30-07:00", maxPerDay: 5 });
    expect(ctx.services.settings.current()).toMatchObject({ quietHours: { start: 1290, end: 420 }, maxPerDay: 5 });
  });

  test("a bad NEARCAST_QUIET_HOURS stops the start", () => {
    expect(() => loadConfig({ NEARCAST_DATA_DIR: "/nonexistent", NEARCAST_QUIET_HOURS: "evenings" })).toThrow(ConfigError);
    expect(() => loadConfig({ NEARCAST_DATA_DIR: "/nonexistent", NEARCAST_QUIET_HOURS: "evenings" })).toThrow(/NEARCAST_QUIET_HOURS: Quiet hours must be/);
  });
});

describe("progress", () => {
  test("the broadcast's status says how many wait, and the CLI progress line too", async () => {
    const { progressLine } = await import("../../cli/broadcast-progress.ts");
    ctx = testContext();
    setClock("2026-01-15T12:30:00Z");
    const ny = queueFor("+12125550108");
    claim();
    const s = ctx.services.broadcasts.status(OPERATOR, ny.broadcast.id);
    expect(s.waiting).toEqual({ quietHours: 1, dailyLimit: 0, quietHoursUntil: "8:00" });
    expect(s.queued).toBe(1);
    expect(progressLine(s)).toContain("· 1 held until 8:00 recipients' time");
  });
});
