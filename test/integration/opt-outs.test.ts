import { describe, expect, test } from "bun:test";
import { subscriptions } from "../../src/db/schema.ts";
import { NOT_SENT_UNSUBSCRIBED } from "../../src/services/opt-outs.ts";
import { testContext } from "../helpers/context.ts";
import { insertPersonSubscribedTo, insertSubscriber } from "../helpers/customer-factories.ts";
import {
  allConsentEvents,
  allDeliveries,
  allSubscriptions,
  deliveryById,
  insertBroadcast,
  insertCustomer,
  insertDelivery,
  messageSid,
} from "../helpers/delivery-factories.ts";
import { insertBusiness, insertOwnerBusinesses } from "../helpers/factories.ts";

const AT = new Date("2026-02-01T08:00:00Z");
const LATER = new Date("2026-02-02T08:00:00Z");

/** One person subscribed to three businesses of two owners; one subscription the owner removed. */
function world() {
  const ctx = testContext();
  const [bakery, cafe] = insertOwnerBusinesses(ctx, "Bakery", "Cafe");
  const [gym, florist] = insertOwnerBusinesses(ctx, "Gym", "Florist");
  const sam = insertPersonSubscribedTo(ctx, "+14155550111", [bakery.id, cafe.id, gym.id], [florist.id]);
  const other = insertSubscriber(ctx, bakery.id, { phone: "+14155550222" }).customer;
  return { ctx, sam, other, bakery, cafe, gym, florist };
}

const statusByBusiness = (ctx: ReturnType<typeof testContext>, customerId: number) =>
  Object.fromEntries(allSubscriptions(ctx).filter((s) => s.customerId === customerId).map((s) => [s.businessId, s.status]));

/** Sam's three live subscriptions all `status` (with that unsubscribedAt); the one the owner removed stays removed. */
function expectSamEverywhere(w: ReturnType<typeof world>, status: "active" | "unsubscribed", unsubscribedAt: Date | null) {
  expect(statusByBusiness(w.ctx, w.sam.id)).toEqual({ [w.bakery.id]: status, [w.cafe.id]: status, [w.gym.id]: status, [w.florist.id]: "removed" });
  for (const s of allSubscriptions(w.ctx).filter((s) => s.customerId === w.sam.id && s.status === status)) {
    expect(s.unsubscribedAt).toEqual(unsubscribedAt);
  }
}

describe("optOutCustomer", () => {
  test("unsubscribes every active subscription of the person, across owners; removed ones stay removed", () => {
    const w = world();
    const before = allConsentEvents(w.ctx).length;
    const result = w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT, note: "STOP" });
    expect(result).toEqual({ found: true, businessIds: [w.bakery.id, w.cafe.id, w.gym.id], skippedDeliveries: 0, recorded: true });
    expectSamEverywhere(w, "unsubscribed", AT);
    // Exactly one event, for all businesses.
    const events = allConsentEvents(w.ctx).slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ customerId: w.sam.id, businessId: null, kind: "unsubscribed", source: "sms-stop", consentText: "STOP", at: AT });
    // Another person is untouched.
    expect(statusByBusiness(w.ctx, w.other.id)).toEqual({ [w.bakery.id]: "active" });
  });

  test("skips the person's pending deliveries (Queued, Uncertain without provider id), leaves the rest", () => {
    const w = world();
    const b1 = insertBroadcast(w.ctx, { businessId: w.bakery.id });
    const b2 = insertBroadcast(w.ctx, { businessId: w.gym.id });
    const b3 = insertBroadcast(w.ctx, { businessId: w.cafe.id });
    const b4 = insertBroadcast(w.ctx, { businessId: w.cafe.id });
    const b5 = insertBroadcast(w.ctx, { businessId: w.gym.id });
    const queued = insertDelivery(w.ctx, b1, w.sam);
    const uncertainNoId = insertDelivery(w.ctx, b2, w.sam, { status: "Uncertain" });
    const uncertainWithId = insertDelivery(w.ctx, b3, w.sam, { status: "Uncertain", providerId: messageSid() });
    const sending = insertDelivery(w.ctx, b4, w.sam, { status: "Sending" });
    const sent = insertDelivery(w.ctx, b5, w.sam, { status: "Sent", providerId: messageSid(), sentAt: AT });
    const othersQueued = insertDelivery(w.ctx, b1, w.other);

    const result = w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    expect(result.skippedDeliveries).toBe(2);
    expect(deliveryById(w.ctx, queued.id)).toMatchObject({ status: "Skipped", errorMessage: NOT_SENT_UNSUBSCRIBED, updatedAt: AT });
    expect(deliveryById(w.ctx, uncertainNoId.id).status).toBe("Skipped");
    expect(deliveryById(w.ctx, uncertainWithId.id).status).toBe("Uncertain");
    expect(deliveryById(w.ctx, sending.id).status).toBe("Sending");
    expect(deliveryById(w.ctx, sent.id).status).toBe("Sent");
    expect(deliveryById(w.ctx, othersQueued.id)).toEqual(othersQueued);
  });

  test("idempotent: a second STOP changes nothing and records nothing", () => {
    const w = world();
    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    const subs = allSubscriptions(w.ctx);
    const events = allConsentEvents(w.ctx);
    const deliveries = allDeliveries(w.ctx);
    const again = w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: LATER });
    expect(again).toEqual({ found: true, businessIds: [], skippedDeliveries: 0, recorded: false });
    expect(allSubscriptions(w.ctx)).toEqual(subs);
    expect(allConsentEvents(w.ctx)).toEqual(events);
    expect(allDeliveries(w.ctx)).toEqual(deliveries);
  });

  test("a person with no active subscription still gets one opt-out on record (a later manual add must know)", () => {
    const ctx = testContext();
    const lonely = insertCustomer(ctx);
    const r1 = ctx.services.optOuts.optOutCustomer(lonely.id, { source: "twilio-21610", at: AT });
    expect(r1).toEqual({ found: true, businessIds: [], skippedDeliveries: 0, recorded: true });
    expect(allConsentEvents(ctx)).toMatchObject([{ customerId: lonely.id, businessId: null, kind: "unsubscribed", source: "twilio-21610" }]);
    expect(ctx.services.optOuts.optOutCustomer(lonely.id, { source: "twilio-21610", at: LATER }).recorded).toBe(false);
    expect(allConsentEvents(ctx)).toHaveLength(1);
  });

  test("an unknown customer id: nothing written", () => {
    const w = world();
    const events = allConsentEvents(w.ctx);
    expect(w.ctx.services.optOuts.optOutCustomer(999_999, { source: "sms-stop", at: AT })).toEqual({
      found: false,
      businessIds: [],
      skippedDeliveries: 0,
      recorded: false,
    });
    expect(allConsentEvents(w.ctx)).toEqual(events);
  });

  test("all in one transaction: a failure part way leaves nothing changed", () => {
    const w = world();
    const b1 = insertBroadcast(w.ctx, { businessId: w.bakery.id });
    insertDelivery(w.ctx, b1, w.sam);
    const subs = allSubscriptions(w.ctx);
    const deliveries = allDeliveries(w.ctx);
    const events = allConsentEvents(w.ctx);
    const original = w.ctx.repos.consentEvents.insert;
    w.ctx.repos.consentEvents.insert = () => {
      throw new Error("disk full");
    };
    try {
      expect(() => w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT })).toThrow("disk full");
    } finally {
      w.ctx.repos.consentEvents.insert = original;
    }
    expect(allSubscriptions(w.ctx)).toEqual(subs);
    expect(allDeliveries(w.ctx)).toEqual(deliveries);
    expect(allConsentEvents(w.ctx)).toEqual(events);
  });
});

describe("optInCustomer", () => {
  test("ends the opt-out (one all-business event) and resubscribes only what it unsubscribed; removed stays removed; one event per business", () => {
    const w = world();
    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    const before = allConsentEvents(w.ctx).length;
    const result = w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: LATER, note: "START" });
    expect(result).toEqual({ found: true, businessIds: [w.bakery.id, w.cafe.id, w.gym.id], businessNames: ["Bakery", "Cafe", "Gym"] });
    expectSamEverywhere(w, "active", null);
    const events = allConsentEvents(w.ctx).slice(before);
    expect(events.map((e) => [e.businessId, e.kind, e.source, e.consentText])).toEqual([
      [null, "resubscribed", "sms-start", "START"],
      [w.bakery.id, "resubscribed", "sms-start", "START"],
      [w.cafe.id, "resubscribed", "sms-start", "START"],
      [w.gym.id, "resubscribed", "sms-start", "START"],
    ]);
  });

  test("idempotent: START twice, or START without a STOP, writes nothing", () => {
    const w = world();
    const subs = allSubscriptions(w.ctx);
    const events = allConsentEvents(w.ctx);
    expect(w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: AT }).businessIds).toEqual([]);
    expect(allSubscriptions(w.ctx)).toEqual(subs);
    expect(allConsentEvents(w.ctx)).toEqual(events);

    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    expect(w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: LATER }).businessIds).toHaveLength(3);
    const afterFirst = { subs: allSubscriptions(w.ctx), events: allConsentEvents(w.ctx) };
    expect(w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: LATER }).businessIds).toEqual([]);
    expect({ subs: allSubscriptions(w.ctx), events: allConsentEvents(w.ctx) }).toEqual(afterFirst);
  });

  test("does not bring back a subscription unsubscribed some other way (a per-business event after the STOP)", () => {
    const w = world();
    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    // e.g. a subscription carried over, unsubscribed, from another number by a phone correction
    w.ctx.repos.consentEvents.insert({ customerId: w.sam.id, businessId: w.cafe.id, kind: "unsubscribed", source: "manual", at: AT });
    const result = w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: LATER });
    expect(result.businessIds).toEqual([w.bakery.id, w.gym.id]);
    expect(statusByBusiness(w.ctx, w.sam.id)[w.cafe.id]).toBe("unsubscribed");
  });

  test("does not activate a subscription that was never active before the STOP (no consent then)", () => {
    const ctx = testContext();
    const shop = insertBusiness(ctx, { name: "Shop" });
    const customer = insertCustomer(ctx, { phone: "+14155550999" });
    ctx.services.optOuts.optOutCustomer(customer.id, { source: "sms-stop", at: AT });
    // An 'unsubscribed' row whose consent is dated after the opt-out, with no history of its own.
    ctx.db.insert(subscriptions).values({
      customerId: customer.id,
      businessId: shop.id,
      status: "unsubscribed",
      source: "import",
      consentAt: LATER,
      consentText: "x",
      unsubscribedAt: LATER,
    }).run();
    expect(ctx.services.optOuts.optInCustomer(customer.id, { source: "sms-start", at: new Date("2026-03-01T00:00:00Z") }).businessIds).toEqual([]);
  });

  test("a business the person re-joined by QR after the STOP is left alone; the others come back", async () => {
    const w = world();
    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    await w.ctx.services.subscriptions.subscribe({ businessId: w.gym.id, phone: "+14155550111", contactPreference: "SMS" }, { ip: null, userAgent: null });
    const result = w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: LATER });
    expect(result.businessIds).toEqual([w.bakery.id, w.cafe.id]);
    expect(statusByBusiness(w.ctx, w.sam.id)).toMatchObject({ [w.bakery.id]: "active", [w.cafe.id]: "active", [w.gym.id]: "active" });
  });

  test("a person with nothing to bring back: START still ends the opt-out (one all-business event); a second START writes nothing", () => {
    const ctx = testContext();
    const lonely = insertCustomer(ctx);
    ctx.services.optOuts.optOutCustomer(lonely.id, { source: "twilio-21610", at: AT });
    expect(ctx.services.optOuts.optInCustomer(lonely.id, { source: "sms-start", at: LATER, note: "START" })).toEqual({ found: true, businessIds: [], businessNames: [] });
    expect(allConsentEvents(ctx).map((e) => [e.businessId, e.kind, e.source])).toEqual([
      [null, "unsubscribed", "twilio-21610"],
      [null, "resubscribed", "sms-start"],
    ]);
    expect(ctx.repos.consentEvents.optedOut(lonely.id)).toBe(false);
    ctx.services.optOuts.optInCustomer(lonely.id, { source: "sms-start", at: LATER });
    expect(allConsentEvents(ctx)).toHaveLength(2);
  });

  test("STOP after START unsubscribes again and is recorded", () => {
    const w = world();
    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: LATER });
    const r = w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: new Date("2026-02-03T00:00:00Z") });
    expect(r.recorded).toBe(true);
    expect(r.businessIds).toHaveLength(3);
  });
});

describe("consentEvents.optedOut: the latest all-business event decides", () => {
  test("STOP -> true; per-business events after it do not change that; START -> false; STOP again -> true", async () => {
    const w = world();
    const out = () => w.ctx.repos.consentEvents.optedOut(w.sam.id);
    expect(out()).toBe(false);
    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: AT });
    expect(out()).toBe(true);
    expect(w.ctx.repos.consentEvents.optedOut(w.other.id)).toBe(false);
    await w.ctx.services.subscriptions.subscribe({ businessId: w.florist.id, phone: "+14155550111", contactPreference: "SMS" }, { ip: null, userAgent: null });
    w.ctx.repos.consentEvents.insert({ customerId: w.sam.id, businessId: w.cafe.id, kind: "resubscribed", source: "manual", at: LATER });
    expect(out()).toBe(true);
    w.ctx.services.optOuts.optInCustomer(w.sam.id, { source: "sms-start", at: LATER });
    expect(out()).toBe(false);
    w.ctx.services.optOuts.optOutCustomer(w.sam.id, { source: "sms-stop", at: LATER });
    expect(out()).toBe(true);
    expect(w.ctx.repos.consentEvents.optedOut(999_999)).toBe(false);
  });
});
