import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { subscriptions } from "../../src/db/schema.ts";
import { DEFAULT_SUCCESS_MESSAGE } from "../../src/schemas/businesses.ts";
import { consentText } from "../../src/schemas/consent.ts";
import { SUBSCRIBE_BUSINESS_NOT_FOUND } from "../../src/services/subscriptions.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { counts, customerTables } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";

const PATH = "/api/subscription/Subscribe";
const UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)";

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
  for (const [name, body, field, message] of cases) {
    test(`${name} -> 400 "${message}", nothing written`, async () => {
      const { ctx, api, business } = setup();
      const res = await api.post(PATH, { businessId: business.id, ...body });
      expect(res.status).toBe(400);
      expect(res.body.fields[field]).toBe(message);
      expect(counts(ctx)).toEqual({ customers: 0, subscriptions: 0, consentEvents: 0 });
    });
  }

  test("not JSON -> 415; no XSRF header -> 403; nothing written", async () => {
    const { ctx, api, business } = setup();
    const form = await api.call("POST", PATH, { body: "phone=4155550134", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    const noXsrf = await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS" }, { noXsrf: true });
    expect(noXsrf.status).toBe(403);
    expect(counts(ctx).customers).toBe(0);
  });
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
    const res = await api.post(PATH, { businessId: business.id, phone: "7911 123456", contactPreference: "WhatsApp" });
    expect(res.status).toBe(200);
    expect(customerTables(ctx).customers[0]?.phone).toBe("+447911123456");
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

  test("the latest contact preference chosen by the person is kept", async () => {
    const { ctx, api, business } = setup();
    await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "SMS" });
    await api.post(PATH, { businessId: business.id, phone: "4155550134", contactPreference: "WhatsApp" });
    expect(customerTables(ctx).customers[0]?.contactPreference).toBe("WhatsApp");
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

  test("a person the owner removed can subscribe again themselves", async () => {
    const { ctx, api, business } = setup();
    const body = { businessId: business.id, phone: "4155550134", contactPreference: "SMS" };
    await api.post(PATH, body);
    ctx.db.update(subscriptions).set({ status: "removed" }).run();
    expect((await api.post(PATH, body)).status).toBe(200);
    expect(customerTables(ctx).subscriptions[0]?.status).toBe("active");
  });
});

describe("POST /api/subscription/Subscribe: a person who replied STOP subscribes again themselves", () => {
  /** +14155550134 subscribed to Corner Gym, then replied STOP to our number. */
  async function stopped() {
    const s = setup();
    const gym = insertBusiness(s.ctx, { name: "Corner Gym" });
    await s.api.post(PATH, { businessId: gym.id, phone: "4155550134", contactPreference: "SMS" });
    const customerId = customerTables(s.ctx).customers[0]!.id;
    s.ctx.clock.advance(60_000);
    s.ctx.services.optOuts.optOutCustomer(customerId, { source: "sms-stop", at: s.ctx.clock.now(), note: "STOP" });
    s.ctx.clock.advance(60_000);
    return { ...s, gym, customerId };
  }

  test("another business: accepted with the business's own message ({message} only), subscription and consent recorded", async () => {
    const { ctx, api, business, customerId } = await stopped();
    const before = customerTables(ctx);
    const res = await api.post(PATH, { businessId: business.id, phone: "(415) 555-0134", contactPreference: "WhatsApp" }, { ip: "198.51.100.23", headers: { "user-agent": UA } });
    expect(res.status).toBe(200);
    // Nothing about the STOP: anyone can type any number here, and whether a number opted out is not theirs to learn.
    expect(res.body).toEqual({ message: "Thanks! Fresh deals are on their way." });
    const t = customerTables(ctx);
    expect(t.customers).toEqual([{ ...before.customers[0]!, contactPreference: "WhatsApp" }]);
    expect(t.subscriptions.slice(before.subscriptions.length)).toMatchObject([
      { customerId, businessId: business.id, status: "active", source: "qr", consentText: consentText("Sunrise Bakery", "WhatsApp"), ip: "198.51.100.23", userAgent: UA },
    ]);
    expect(t.consentEvents.slice(before.consentEvents.length)).toMatchObject([
      { customerId, businessId: business.id, kind: "subscribed", source: "qr", ip: "198.51.100.23", userAgent: UA, at: ctx.clock.now() },
    ]);
    // The STOP still stands at the carrier: no broadcast goes to them until they text START (then it ends for all).
    expect(ctx.repos.consentEvents.optedOut(customerId)).toBe(true);
    expect(ctx.repos.broadcasts.recipients(business.id)).toEqual([]);
    ctx.services.optOuts.optInCustomer(customerId, { source: "sms-start", at: ctx.clock.now() });
    expect(ctx.repos.consentEvents.optedOut(customerId)).toBe(false);
    expect(ctx.repos.broadcasts.recipients(business.id)).toEqual([{ customerId, phone: "+14155550134", channel: "WhatsApp" }]);
  });

  test("the business the STOP ended: reactivated by the person, 'resubscribed' recorded", async () => {
    const { ctx, api, gym, customerId } = await stopped();
    const res = await api.post(PATH, { businessId: gym.id, phone: "4155550134", contactPreference: "SMS" });
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
    const { ctx, api, business } = setup();
    const res = await api.post(
      PATH,
      { businessId: String(business.id), phone: "(415) 555-0134", contactPreference: "WhatsApp" },
      { ip: "198.51.100.23", headers: { "user-agent": UA } },
    );
    expect(res.status).toBe(200);
    const { subscriptions: [sub], consentEvents: [event] } = customerTables(ctx);
    const shown = consentText("Sunrise Bakery", "WhatsApp");
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

  test("the consent text names the channel chosen", () => {
    expect(consentText("A", "SMS")).toContain("by text message (SMS)");
    expect(consentText("A", "WhatsApp")).toContain("by WhatsApp");
    expect(consentText("A")).toContain("by text message (SMS) or WhatsApp");
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
    const { ctx, api, business } = setup();
    const body = { businessId: business.id, phone: "4155550134", contactPreference: "SMS" };
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

describe("POST /api/subscription/Subscribe: group commit", () => {
  test("requests arriving together are committed together, and each is answered only after its rows are stored", async () => {
    const { ctx, api, business } = setup();
    let commits = 0;
    const atomic = ctx.repos.subscriptions.atomic;
    let depth = 0;
    ctx.repos.subscriptions.atomic = ((fn: () => unknown) => {
      if (depth++ === 0) commits++;
      try {
        return atomic(fn);
      } finally {
        depth--;
      }
    }) as typeof atomic;
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
    expect(commits).toBeLessThan(20);
  });

  test("one failing request in a batch rolls back alone; the others are stored and answered 200", async () => {
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
