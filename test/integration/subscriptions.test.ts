import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { subscriptions } from "../../src/db/schema.ts";
import { JSON_BODY_LIMIT } from "../../src/http/middleware/body-limit.ts";
import { DEFAULT_SUCCESS_MESSAGE } from "../../src/schemas/businesses.ts";
import { consentText } from "../../src/schemas/consent.ts";
import { startServer } from "../../src/server.ts";
import { SUBSCRIBE_BUSINESS_NOT_FOUND } from "../../src/services/subscriptions.ts";
import { type ApiClient, type ApiResponse, type CallOptions, answerOf, apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { counts, customerTables } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { type ApiScenario, runScenarios } from "../helpers/scenario.ts";

const PATH = "/api/subscription/Subscribe";
const UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)";
/** Tests that subscribe a +1 number by WhatsApp use a Toronto one: WhatsApp promotions reach Canada, not the US. */
const US_CA = { NEARCAST_ALLOWED_COUNTRIES: "US,CA" };

function setup(env: Record<string, string> = {}) {
  const ctx = testContext(env);
  const api = apiClient(ctx);
  const business = insertBusiness(ctx, { name: "Sunrise Bakery", successMessage: "Thanks! Fresh deals are on their way." });
  return { ctx, api, business };
}

describe("POST /api/subscription/Subscribe: validation", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["phone missing", { contactPreference: "SMS" }, "phone", "Phone number is required"],
    ["phone blank", { phone: "   ", contactPreference: "SMS" }, "phone", "Phone number is required"],
    ["phone letters", { phone: "call me", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
    ["phone too long", { phone: "+12345678901234567", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
    ["phone starting with 0", { phone: "0415555013", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
    ["phone of the right shape but no real number", { phone: "+1 555 555 5555", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
    ["preference missing", { phone: "4155550134" }, "contactPreference", "Please select a contact preference"],
    ["preference unknown", { phone: "4155550134", contactPreference: "Pigeon" }, "contactPreference", "Please select a contact preference"],
    ["preference wrong case", { phone: "4155550134", contactPreference: "sms" }, "contactPreference", "Please select a contact preference"],
    ["source a visitor cannot claim", { phone: "4155550134", contactPreference: "SMS", source: "manual" }, "source", "Source must be qr or list."],
    ["business id missing", { businessId: undefined, phone: "4155550134", contactPreference: "SMS" }, "businessId", "Business ID is required."],
    ["business id not a number", { businessId: "abc", phone: "4155550134", contactPreference: "SMS" }, "businessId", "Business ID is required."],
  ];
  type World = ReturnType<typeof setup>;
  const nothingWritten = (w: World) => expect(counts(w.ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
  runScenarios<World>(
    [
      ...cases.map(([name, body, field, message]): ApiScenario<World> => ({
        name: `${name} -> 400 "${message}", nothing written`,
        method: "POST",
        path: PATH,
        json: (w) => ({ businessId: w.business.id, ...body }),
        status: 400,
        expect: (res) => expect(res.fields[field]).toBe(message),
        after: nothingWritten,
      })),
      { name: "not JSON -> 415, nothing written", method: "POST", path: PATH, raw: "phone=4155550134", headers: { "content-type": "application/x-www-form-urlencoded" }, status: 415, after: nothingWritten },
      {
        name: "no XSRF header -> 403, nothing written",
        method: "POST",
        path: PATH,
        json: (w) => ({ businessId: w.business.id, phone: "4155550134", contactPreference: "SMS" }),
        noXsrf: true,
        status: 403,
        after: nothingWritten,
      },
    ],
    { world: () => setup(), unchanged: (w) => counts(w.ctx) },
  );
});

describe("POST /api/subscription/Subscribe: one person, one customer", () => {
  test("the same number typed three ways is one E.164 customer with one subscription", async () => {
    const { ctx, api, business } = setup();
    for (const phone of ["(415) 555-0134", "415.555.0134", "+1 415 555 0134"]) {
      const res = await api.post(PATH, { businessId: business.id, phone, contactPreference: "SMS" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: "Thanks! Fresh deals are on their way." });
    }
    const t = customerTables(ctx);
    expect(t.customers.map((c) => c.phone)).toEqual(["+14155550134"]);
    expect(t.subscriptions).toHaveLength(1);
    expect(t.consentEvents.map((e) => e.kind)).toEqual(["subscribed"]);
  });

  test("the default country comes from NEARCAST_DEFAULT_COUNTRY", async () => {
    const { ctx, api, business } = setup({ NEARCAST_DEFAULT_COUNTRY: "GB" });
    const res = await api.post(PATH, { businessId: business.id, phone: "7400 123456", contactPreference: "WhatsApp" });
    expect(res.status).toBe(200);
    expect(customerTables(ctx).customers[0]?.phone).toBe("+447400123456");
  });

  test("subscribing twice answers the same and writes nothing new", async () => {
    const { ctx, api, business } = setup();
    const body = { businessId: business.id, phone: "4155550134", contactPreference: "SMS" };
    const first = await api.post(PATH, body);
    const before = customerTables(ctx);
    ctx.clock.advance(60_000);
    const second = await api.post(PATH, body);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(customerTables(ctx)).toEqual(before);
  });

  test("one person subscribing to two businesses is one customer with two subscriptions", async () => {
    const { ctx, api, business } = setup();
    const other = insertBusiness(ctx, { name: "Corner Gym" });
    await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS" });
    const res = await api.post(PATH, { businessId: other.id, phone: "+14155550134", contactPreference: "SMS" });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(DEFAULT_SUCCESS_MESSAGE);
    expect(counts(ctx)).toEqual({ customers: 1, subscriptions: 2, consentEvents: 2 });
  });

  test("the latest contact preference chosen by the person is kept, on that business's subscription only", async () => {
    const { ctx, api, business } = setup(US_CA);
    const other = insertBusiness(ctx, { name: "Harbor Gym" });
    await api.post(PATH, { businessId: other.id, phone: "4165550134", contactPreference: "SMS" });
    await api.post(PATH, { businessId: business.id, phone: "4165550134", contactPreference: "SMS" });
    await api.post(PATH, { businessId: business.id, phone: "4165550134", contactPreference: "WhatsApp" });
    const subs = customerTables(ctx).subscriptions;
    expect(subs.map((s) => [s.businessId, s.contactPreference])).toEqual([
      [other.id, "SMS"],
      [business.id, "WhatsApp"],
    ]);
  });

  test("re-subscribing after an unsubscribe reactivates and records 'resubscribed'", async () => {
    const { ctx, api, business } = setup();
    const body = { businessId: business.id, phone: "4155550134", contactPreference: "SMS" };
    await api.post(PATH, body);
    const sub = customerTables(ctx).subscriptions[0]!;
    ctx.db.update(subscriptions).set({ status: "unsubscribed", unsubscribedAt: ctx.clock.now() }).where(eq(subscriptions.id, sub.id)).run();
    ctx.clock.advance(3_600_000);
    const res = await api.post(PATH, { ...body, source: "list" }, { headers: { "user-agent": UA } });
    expect(res.status).toBe(200);
    const t = customerTables(ctx);
    expect(t.subscriptions).toHaveLength(1);
    expect(t.subscriptions[0]).toMatchObject({ id: sub.id, status: "active", unsubscribedAt: null, source: "list", userAgent: UA });
    expect(t.subscriptions[0]!.consentAt.getTime()).toBe(ctx.clock.now().getTime());
    expect(t.consentEvents.map((e) => e.kind)).toEqual(["subscribed", "resubscribed"]);
  });

  test("a person the owner removed who subscribes again: the same answer, but only a pending request (no re-activation)", async () => {
    const { ctx, api, business } = setup(US_CA);
    const body = { businessId: business.id, phone: "4165550134", contactPreference: "SMS" };
    const first = await api.post(PATH, body);
    ctx.db.update(subscriptions).set({ status: "removed" }).run();
    ctx.clock.advance(60_000);
    const again = await api.post(PATH, { ...body, contactPreference: "WhatsApp" }, { ip: "198.51.100.44", headers: { "user-agent": "Phone/1" } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(customerTables(ctx).subscriptions[0]).toMatchObject({ status: "pending", contactPreference: "WhatsApp", consentAt: ctx.clock.now() });
    expect(customerTables(ctx).consentEvents.at(-1)).toMatchObject({
      kind: "requested",
      businessId: business.id,
      ip: "198.51.100.44",
      userAgent: "Phone/1",
      consentText: consentText({ name: "Sunrise Bakery", messagesPerWeek: 4 }, "WhatsApp"),
    });
    expect(ctx.repos.broadcasts.recipients(business.id)).toEqual([]);
  });
});

describe("POST /api/subscription/Subscribe: a person who replied STOP subscribes again themselves", () => {
  /** +14165550134 subscribed to Corner Gym, then replied STOP to our number. */
  async function stopped() {
    const s = setup(US_CA);
    const gym = insertBusiness(s.ctx, { name: "Corner Gym" });
    await s.api.post(PATH, { businessId: gym.id, phone: "4165550134", contactPreference: "SMS" });
    const customerId = customerTables(s.ctx).customers[0]!.id;
    s.ctx.clock.advance(60_000);
    s.ctx.services.optOuts.optOutCustomer(customerId, { source: "sms-stop", at: s.ctx.clock.now(), note: "STOP" });
    s.ctx.clock.advance(60_000);
    return { ...s, gym, customerId };
  }

  test("another business: accepted with the business's own message ({message} only), subscription and consent recorded", async () => {
    const { ctx, api, business, customerId } = await stopped();
    const before = customerTables(ctx);
    const res = await api.post(PATH, { businessId: business.id, phone: "(416) 555-0134", contactPreference: "WhatsApp" }, { ip: "198.51.100.23", headers: { "user-agent": UA } });
    expect(res.status).toBe(200);
    // Nothing about the STOP: anyone can type any number here, and whether a number opted out is not theirs to learn.
    expect(res.body).toEqual({ message: "Thanks! Fresh deals are on their way." });
    const t = customerTables(ctx);
    expect(t.customers).toEqual(before.customers);
    expect(t.subscriptions.slice(before.subscriptions.length)).toMatchObject([
      { customerId, businessId: business.id, status: "active", contactPreference: "WhatsApp", source: "qr", consentText: consentText({ name: "Sunrise Bakery", messagesPerWeek: 4 }, "WhatsApp"), ip: "198.51.100.23", userAgent: UA },
    ]);
    expect(t.consentEvents.slice(before.consentEvents.length)).toMatchObject([
      { customerId, businessId: business.id, kind: "subscribed", source: "qr", ip: "198.51.100.23", userAgent: UA, at: ctx.clock.now() },
    ]);
    // The STOP still stands at the carrier: no broadcast goes to them until they text START (then it ends for all).
    expect(ctx.repos.consentEvents.optedOut(customerId)).toBe(true);
    expect(ctx.repos.broadcasts.recipients(business.id)).toEqual([]);
    ctx.services.optOuts.optInCustomer(customerId, { source: "sms-start", at: ctx.clock.now() });
    expect(ctx.repos.consentEvents.optedOut(customerId)).toBe(false);
    expect(ctx.repos.broadcasts.recipients(business.id)).toEqual([{ customerId, phone: "+14165550134", channel: "WhatsApp" }]);
  });

  test("the business the STOP ended: reactivated by the person, 'resubscribed' recorded", async () => {
    const { ctx, api, gym, customerId } = await stopped();
    const res = await api.post(PATH, { businessId: gym.id, phone: "4165550134", contactPreference: "SMS" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: DEFAULT_SUCCESS_MESSAGE });
    const t = customerTables(ctx);
    expect(t.subscriptions).toMatchObject([{ customerId, businessId: gym.id, status: "active", unsubscribedAt: null }]);
    expect(t.consentEvents.map((e) => [e.businessId, e.kind])).toEqual([
      [gym.id, "subscribed"],
      [null, "unsubscribed"],
      [gym.id, "resubscribed"],
    ]);
    expect(ctx.repos.consentEvents.optedOut(customerId)).toBe(true);
  });
});

describe("POST /api/subscription/Subscribe: consent record", () => {
  test("stores business, UTC time, source, IP, user agent and the exact consent text shown", async () => {
    const { ctx, api, business } = setup(US_CA);
    const res = await api.post(
      PATH,
      { businessId: String(business.id), phone: "(416) 555-0134", contactPreference: "WhatsApp" },
      { ip: "198.51.100.23", headers: { "user-agent": UA } },
    );
    expect(res.status).toBe(200);
    const { subscriptions: [sub], consentEvents: [event] } = customerTables(ctx);
    const shown = consentText({ name: "Sunrise Bakery", messagesPerWeek: 4 }, "WhatsApp");
    expect(shown).toContain("Sunrise Bakery");
    expect(shown).toContain("Reply STOP");
    expect(sub).toMatchObject({
      businessId: business.id,
      status: "active",
      source: "qr",
      consentText: shown,
      ip: "198.51.100.23",
      userAgent: UA,
      unsubscribedAt: null,
    });
    expect(sub!.consentAt.toISOString()).toBe("2026-01-15T12:00:00.000Z");
    expect(event).toMatchObject({
      businessId: business.id,
      kind: "subscribed",
      source: "qr",
      consentText: shown,
      ip: "198.51.100.23",
      userAgent: UA,
    });
    expect(event!.at.toISOString()).toBe("2026-01-15T12:00:00.000Z");
  });

  test("source 'list' is kept", async () => {
    const { ctx, api, business } = setup();
    await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS", source: "list" });
    expect(customerTables(ctx).subscriptions[0]?.source).toBe("list");
  });

  test("the consent text: the business, recurring promotions by the channel chosen, up to N per week, rates, STOP/HELP, terms", () => {
    expect(consentText({ name: " Ana's Bakery ", messagesPerWeek: 6 }, "SMS")).toBe(
      "By subscribing, you agree to receive recurring promotional messages by SMS, up to 6 per week, from Ana's Bakery at this number. " +
        "Consent is not a condition of purchase. Msg & data rates may apply. Reply STOP to cancel, HELP for help. See our Terms and Privacy Policy.",
    );
    expect(consentText({ name: "A", messagesPerWeek: 4 }, "WhatsApp")).toContain("by WhatsApp, up to 4 per week");
    expect(consentText({ name: "A", messagesPerWeek: 4 })).toContain("by SMS/WhatsApp, up to 4 per week");
  });
});

describe("POST /api/subscription/Subscribe: unknown or inactive business", () => {
  test("unknown business -> 404 with a clear message, nothing written", async () => {
    const { ctx, api } = setup();
    const res = await api.post(PATH, { businessId: 9999, phone: "4155550134", contactPreference: "SMS" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(SUBSCRIBE_BUSINESS_NOT_FOUND);
    expect(counts(ctx).customers).toBe(0);
  });

  test("inactive business -> 404, nothing written", async () => {
    const { ctx, api } = setup();
    const closed = insertBusiness(ctx, { isActive: false });
    const res = await api.post(PATH, { businessId: closed.id, phone: "4155550134", contactPreference: "SMS" });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(SUBSCRIBE_BUSINESS_NOT_FOUND);
    expect(counts(ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
  });
});

describe("POST /api/subscription/Subscribe: rate limit", () => {
  test("NEARCAST_SUBSCRIBE_LIMIT per IP per 10 minutes -> 429 with Retry-After; other IPs and later are fine", async () => {
    const { ctx, api, business } = setup({ NEARCAST_SUBSCRIBE_LIMIT: "3" });
    const body = (n: number) => ({ businessId: business.id, phone: `415555013${n}`, contactPreference: "SMS" });
    for (let i = 0; i < 3; i++) expect((await api.post(PATH, body(i), { ip: "203.0.113.50" })).status).toBe(200);
    const limited = await api.post(PATH, body(5), { ip: "203.0.113.50" });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe("Too many subscription attempts from your network. Please wait 10 minutes and try again.");
    expect(Number(limited.headers.get("retry-after"))).toBe(600);
    expect(counts(ctx).customers).toBe(3);
    expect((await api.post(PATH, body(6), { ip: "203.0.113.51" })).status).toBe(200);
    ctx.clock.advance(10 * 60 * 1000 + 1);
    expect((await api.post(PATH, body(7), { ip: "203.0.113.50" })).status).toBe(200);
  });

  test("failed attempts count too (no free probing)", async () => {
    const { api, business } = setup({ NEARCAST_SUBSCRIBE_LIMIT: "2" });
    expect((await api.post(PATH, { businessId: 9999, phone: "4155550134", contactPreference: "SMS" })).status).toBe(404);
    expect((await api.post(PATH, { businessId: business.id, phone: "nope", contactPreference: "SMS" })).status).toBe(400);
    expect((await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS" })).status).toBe(429);
  });

  test("IPv6 clients are limited per /64, like the other limits", async () => {
    const { api, business } = setup({ NEARCAST_SUBSCRIBE_LIMIT: "2" });
    const body = (n: number) => ({ businessId: business.id, phone: `415555070${n}`, contactPreference: "SMS" });
    expect((await api.post(PATH, body(1), { ip: "2001:db8:1:2::10" })).status).toBe(200);
    expect((await api.post(PATH, body(2), { ip: "2001:db8:1:2:aaaa::1" })).status).toBe(200);
    expect((await api.post(PATH, body(3), { ip: "2001:db8:1:2:ffff::9" })).status).toBe(429);
    expect((await api.post(PATH, body(4), { ip: "2001:db8:1:3::10" })).status).toBe(200);
  });

  test("0 means no limit", async () => {
    const { api, business } = setup({ NEARCAST_SUBSCRIBE_LIMIT: "0" });
    for (let i = 0; i < 30; i++) {
      expect((await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS" })).status).toBe(200);
    }
  });
});

describe("POST /api/subscription/Subscribe: nothing half-written", () => {
  test("a failure while recording consent rolls back the customer and the subscription", async () => {
    const { ctx, api, business } = setup();
    const original = ctx.repos.consentEvents.insert;
    ctx.repos.consentEvents.insert = () => {
      throw new Error("disk full");
    };
    try {
      const res = await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS" });
      expect(res.status).toBe(500);
      expect(res.body.error).toBe("Something went wrong on our side. Please try again.");
    } finally {
      ctx.repos.consentEvents.insert = original;
    }
    expect(counts(ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
  });

  test("a failure while reactivating leaves the unsubscribed state as it was", async () => {
    const { ctx, api, business } = setup(US_CA);
    const body = { businessId: business.id, phone: "4165550134", contactPreference: "SMS" };
    await api.post(PATH, body);
    ctx.db.update(subscriptions).set({ status: "unsubscribed", unsubscribedAt: ctx.clock.now() }).run();
    const before = customerTables(ctx);
    const original = ctx.repos.consentEvents.insert;
    ctx.repos.consentEvents.insert = () => {
      throw new Error("disk full");
    };
    try {
      expect((await api.post(PATH, { ...body, contactPreference: "WhatsApp" })).status).toBe(500);
    } finally {
      ctx.repos.consentEvents.insert = original;
    }
    expect(customerTables(ctx)).toEqual(before);
  });
});

describe("POST /api/subscription/Subscribe: many at once", () => {
  test("every 200 is a stored subscription by the time it arrives", async () => {
    const { ctx, api, business } = setup();
    const phones = Array.from({ length: 20 }, (_, i) => `415555${String(1000 + i)}`);
    const answers = await Promise.all(
      phones.map(async (phone) => {
        const res = await api.post(PATH, { businessId: business.id, phone, contactPreference: "SMS" });
        // By the time the answer arrives, the row is there.
        const stored = customerTables(ctx).customers.some((c) => c.phone === `+1${phone}`);
        return { status: res.status, stored };
      }),
    );
    expect(answers.every((a) => a.status === 200 && a.stored)).toBe(true);
    expect(counts(ctx)).toEqual({ customers: 20, subscriptions: 20, consentEvents: 20 });
  });

  test("one failing request rolls back alone; the others are stored and answered 200", async () => {
    const { ctx, api, business } = setup();
    const insert = ctx.repos.consentEvents.insert;
    let calls = 0;
    ctx.repos.consentEvents.insert = (row) => {
      calls += 1;
      if (calls === 3) throw new Error("disk hiccup");
      insert(row);
    };
    const requests = [
      ...Array.from({ length: 5 }, (_, i) => ({ businessId: business.id, phone: `415555${2000 + i}`, contactPreference: "SMS" })),
      { businessId: 9999, phone: "4155552100", contactPreference: "SMS" },
    ];
    const statuses = await Promise.all(requests.map(async (body) => (await api.post(PATH, body)).status));
    ctx.repos.consentEvents.insert = insert;
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 500)).toHaveLength(1);
    expect(statuses[5]).toBe(404);
    // The failed one left nothing behind: every customer has its subscription and its consent event.
    expect(counts(ctx)).toEqual({ customers: 4, subscriptions: 4, consentEvents: 4 });
  });
});

describe("POST /api/subscription/Subscribe: the HTTP contract (the app's middleware, like every route)", () => {
  const JSON_TYPE = { "content-type": "application/json" };
  const XSRF_FAILED = { error: "Your session token is missing or out of date. Reload the page and try again.", code: "xsrf_failed" };

  /** Every security header an ordinary answer (GET /api/health) carries, with the same value. */
  async function expectSecurityHeaders(api: ApiClient, res: ApiResponse): Promise<void> {
    const reference = (await api.get("/api/health")).headers;
    const names = [...reference.keys()].filter((n) => n.startsWith("x-") || n.includes("policy") || n === "strict-transport-security");
    expect(names.length).toBeGreaterThan(8);
    for (const name of names) expect({ name, value: res.headers.get(name) }).toEqual({ name, value: reference.get(name) });
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("x-powered-by")).toBeNull();
  }

  test("200: JSON, the security headers, and no new XSRF cookie (a POST needs one to get this far)", async () => {
    const { api, business } = setup();
    const res = await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    await expectSecurityHeaders(api, res);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  const xsrfCases: [string, Record<string, string>, string][] = [
    ["no cookie, no header", {}, '{"businessId":1,"phone":"4155550301","contactPreference":"SMS"}'],
    ["cookie without the header", { cookie: "XSRF-TOKEN=t0k3n" }, '{"businessId":1,"phone":"4155550302","contactPreference":"SMS"}'],
    ["header without the cookie", { "x-xsrf-token": "t0k3n" }, '{"businessId":1,"phone":"4155550303","contactPreference":"SMS"}'],
    ["header not matching the cookie", { cookie: "XSRF-TOKEN=t0k3n", "x-xsrf-token": "other" }, '{"businessId":1,"phone":"4155550304","contactPreference":"SMS"}'],
    ["malformed JSON and no XSRF (checked before the body is read)", {}, "{nope"],
  ];
  for (const [name, headers, body] of xsrfCases) {
    test(`XSRF: ${name} -> 403 xsrf_failed with the security headers, nothing written`, async () => {
      const { ctx, api } = setup();
      const res = await api.call("POST", PATH, { body, headers: { ...JSON_TYPE, ...headers }, noXsrf: true });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(XSRF_FAILED);
      await expectSecurityHeaders(api, res);
      expect(counts(ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
    });
  }

  test("over the body cap: 413 before the type is looked at; not JSON: 415; malformed: 400; not an object: 400; all with the security headers", async () => {
    const { ctx, api, business } = setup();
    const huge = JSON.stringify({ businessId: business.id, phone: "4155550401", contactPreference: "SMS", pad: "x".repeat(JSON_BODY_LIMIT) });
    const cases: [CallOptions, number, object][] = [
      [{ body: huge, headers: JSON_TYPE }, 413, { error: "Request body is too large.", code: "payload_too_large" }],
      [{ body: huge, headers: { "content-type": "text/plain" } }, 413, { error: "Request body is too large.", code: "payload_too_large" }],
      [{ body: "phone=4155550501", headers: { "content-type": "application/x-www-form-urlencoded" } }, 415, { error: "Content-Type must be application/json.", code: "unsupported_media_type" }],
      [{ body: "{nope", headers: JSON_TYPE }, 400, { error: "Request body must be valid JSON.", code: "validation_failed" }],
      [{ body: "[]", headers: JSON_TYPE }, 400, { error: "Request body must be a JSON object.", code: "validation_failed" }],
      [{ headers: JSON_TYPE }, 400, { error: "Request body must be valid JSON.", code: "validation_failed" }],
    ];
    for (const [opts, status, body] of cases) {
      const res = await api.call("POST", PATH, opts);
      expect({ status: res.status, body: res.body }).toEqual({ status, body });
      await expectSecurityHeaders(api, res);
    }
    expect(counts(ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
  });

  test("a JSON content type with a charset is accepted", async () => {
    const { api, business } = setup();
    const res = await api.call("POST", PATH, {
      body: JSON.stringify({ businessId: business.id, phone: "4155550502", contactPreference: "SMS" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(200);
  });

  test("validation errors, the unknown business and the rate limit carry the one error shape and the security headers", async () => {
    const { api, business } = setup({ NEARCAST_SUBSCRIBE_LIMIT: "2" });
    const invalid = await api.post(PATH, { businessId: business.id, phone: "call me", contactPreference: "SMS" });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: "validation_failed", fields: { phone: "Please enter a valid phone number" } });
    await expectSecurityHeaders(api, invalid);
    const unknown = await api.post(PATH, { businessId: 987654, phone: "4155550134", contactPreference: "SMS" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: SUBSCRIBE_BUSINESS_NOT_FOUND, code: "not_found" });
    const limited = await api.post(PATH, { businessId: business.id, phone: "4155550135", contactPreference: "SMS" });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: "Too many subscription attempts from your network. Please wait 10 minutes and try again.",
      code: "too_many_requests",
    });
    expect(limited.headers.get("retry-after")).toBe("600");
    await expectSecurityHeaders(api, limited);
  });

  test("other methods on the path: 404 JSON with the security headers", async () => {
    const { api } = setup();
    const res = await api.get(PATH);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No such API endpoint.", code: "not_found" });
    await expectSecurityHeaders(api, res);
  });
});

describe("POST /api/subscription/Subscribe over a real socket (startServer)", () => {
  let s: { ctx: TestContext; business: { id: number }; url: string; stop(): Promise<void> };
  beforeAll(() => {
    const ctx = testContext();
    const business = insertBusiness(ctx, { name: "Sunrise Bakery", successMessage: "Thanks! Fresh deals are on their way." });
    const server = startServer({ ...ctx, config: { ...ctx.config, port: 0, host: "127.0.0.1" } }, {});
    s = { ctx, business, url: server.url.replace("localhost", "127.0.0.1"), stop: () => server.stop() };
  });
  afterAll(async () => {
    await s.stop();
    s.ctx.close();
  });
  const XSRF = { cookie: "XSRF-TOKEN=t0k3n", "x-xsrf-token": "t0k3n", "content-type": "application/json" };
  const post = async (body: BodyInit, headers: Record<string, string> = {}) =>
    answerOf(await fetch(`${s.url}${PATH}`, { method: "POST", headers: { ...XSRF, ...headers }, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit));
  const streamed = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.subarray(i, i + 8192));
        controller.close();
      },
    });
  };

  test("200 with the business's message; consent recorded with the socket's address and the user agent", async () => {
    const res = await post(JSON.stringify({ businessId: s.business.id, phone: "(415) 555-0134", contactPreference: "SMS" }), { "user-agent": UA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Thanks! Fresh deals are on their way." });
    const t = customerTables(s.ctx);
    const sub = t.subscriptions.find((x) => x.userAgent === UA)!;
    expect(sub).toMatchObject({ businessId: s.business.id, status: "active", source: "qr", ip: "127.0.0.1", consentText: consentText({ name: "Sunrise Bakery", messagesPerWeek: 4 }, "SMS") });
    expect(t.consentEvents.find((e) => e.customerId === sub.customerId)).toMatchObject({ kind: "subscribed", ip: "127.0.0.1", userAgent: UA });
    expect(t.customers.find((c) => c.id === sub.customerId)?.phone).toBe("+14155550134");
  });

  test("a streamed (chunked) body: 413 over the cap; at the cap it is read, and the consent still has the socket's address", async () => {
    const over = JSON.stringify({ businessId: s.business.id, phone: "4155550402", contactPreference: "SMS", pad: "x".repeat(JSON_BODY_LIMIT) });
    const res = await post(streamed(over));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "Request body is too large.", code: "payload_too_large" });
    const base = JSON.stringify({ businessId: s.business.id, phone: "4155550403", contactPreference: "SMS", pad: "" });
    const exact = base.replace('"pad":""', `"pad":"${"x".repeat(JSON_BODY_LIMIT - base.length)}"`);
    expect(exact.length).toBe(JSON_BODY_LIMIT);
    const ok = await post(streamed(exact), { "user-agent": "chunked" });
    expect(ok.status).toBe(200);
    expect(customerTables(s.ctx).subscriptions.find((x) => x.userAgent === "chunked")?.ip).toBe("127.0.0.1");
  });
});
