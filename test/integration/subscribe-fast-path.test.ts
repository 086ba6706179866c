// POST /api/subscription/Subscribe is answered by Bun.serve's own routes table, without Hono's router and middleware
// chain (src/http/routes/subscription.ts). These tests go through the real Bun.serve (startServer on port 0) and check
// that the fast route enforces every rule the generic chain enforces, with the same answers: XSRF 403 before the body
// is read, the body cap (413, declared or streamed), 415 / 400 for bad bodies, the spec's validation texts, the
// per-IP rate limit (429 + Retry-After), the security headers on every answer, and the error shape.
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { JSON_BODY_LIMIT } from "../../src/http/app.ts";
import { securityHeaderPairs } from "../../src/http/middleware/security-headers.ts";
import { SUBSCRIBE_PATH } from "../../src/http/routes/subscription.ts";
import { INBOUND_WEBHOOK_PATH, STATUS_WEBHOOK_PATH } from "../../src/messaging/messenger.ts";
import { startServer } from "../../src/server.ts";
import { consentText } from "../../src/schemas/consent.ts";
import { SUBSCRIBE_BUSINESS_NOT_FOUND } from "../../src/services/subscriptions.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { counts, customerTables } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";

const UA = "Mozilla/5.0 (Android 15; Mobile)";
const XSRF = { cookie: "XSRF-TOKEN=t0k3n", "x-xsrf-token": "t0k3n" };
const JSON_TYPE = { "content-type": "application/json" };

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

function serve(env: Record<string, string> = {}) {
  const ctx = testContext(env);
  const business = insertBusiness(ctx, { name: "Sunrise Bakery", successMessage: "Thanks! Fresh deals are on their way." });
  const server = startServer({ ...ctx, config: { ...ctx.config, port: 0, host: "127.0.0.1" } }, {});
  async function call(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Answer> {
    const res = await fetch(`${server.url.replace("localhost", "127.0.0.1")}${path}`, {
      method,
      headers: init.headers,
      body: init.body,
      ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
    } as RequestInit);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body, headers: res.headers };
  }
  const subscribe = (json: unknown, headers: Record<string, string> = {}) =>
    call("POST", SUBSCRIBE_PATH, { body: JSON.stringify(json), headers: { ...XSRF, ...JSON_TYPE, ...headers } });
  return { ctx, business, server, call, subscribe };
}

/** Every header the securityHeaders middleware sets, with its value. */
async function expectSecurityHeaders(res: Answer): Promise<void> {
  const pairs = await securityHeaderPairs();
  expect(pairs.length).toBeGreaterThan(8);
  for (const [name, value] of pairs) expect({ name, value: res.headers.get(name) }).toEqual({ name, value });
  expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
  expect(res.headers.get("x-powered-by")).toBeNull();
}

/** What must be equal between two answers to the same mistake: status, body, and every header but date/length. */
function comparable(res: Answer) {
  const headers = [...res.headers].filter(([name]) => name !== "date" && name !== "content-length").sort(([a], [b]) => a.localeCompare(b));
  return { status: res.status, body: res.body, headers };
}

function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.subarray(i, i + 8192));
      controller.close();
    },
  });
}

describe("the subscribe POST is served from Bun.serve's routes table", () => {
  test("startServer hands Bun.serve a route for it and for Twilio's webhooks (POST only: other methods fall through to the app)", async () => {
    const spy = spyOn(Bun, "serve");
    const s = serve();
    try {
      const options = spy.mock.calls[0]?.[0] as { routes?: Record<string, Record<string, unknown>> };
      expect(Object.keys(options.routes ?? {})).toEqual([SUBSCRIBE_PATH, STATUS_WEBHOOK_PATH, INBOUND_WEBHOOK_PATH]);
      for (const route of Object.values(options.routes!)) expect(Object.keys(route)).toEqual(["POST"]);
    } finally {
      spy.mockRestore();
      await s.server.stop();
      s.ctx.close();
    }
  });
});

describe("POST /api/subscription/Subscribe over a real socket", () => {
  let s: ReturnType<typeof serve>;
  beforeAll(() => {
    s = serve();
  });
  afterAll(async () => {
    await s.server.stop();
    s.ctx.close();
  });

  test("200 with the business's message, JSON, the security headers; consent recorded with the socket's address", async () => {
    const res = await s.subscribe({ businessId: s.business.id, phone: "(415) 555-0134", contactPreference: "WhatsApp" }, { "user-agent": UA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Thanks! Fresh deals are on their way." });
    expect(res.headers.get("content-type")).toBe("application/json");
    await expectSecurityHeaders(res);
    // A POST never hands out a new XSRF cookie (the generic chain does not either: it needs one to get this far).
    expect(res.headers.get("set-cookie")).toBeNull();
    const t = customerTables(s.ctx);
    const sub = t.subscriptions.find((x) => x.userAgent === UA)!;
    expect(sub).toMatchObject({ businessId: s.business.id, status: "active", source: "qr", ip: "127.0.0.1", consentText: consentText("Sunrise Bakery", "WhatsApp") });
    expect(t.consentEvents.find((e) => e.customerId === sub.customerId)).toMatchObject({ kind: "subscribed", ip: "127.0.0.1", userAgent: UA });
    expect(t.customers.find((c) => c.id === sub.customerId)?.phone).toBe("+14155550134");
  });

  test("subscribing again answers the same and writes nothing new (idempotent)", async () => {
    const body = { businessId: s.business.id, phone: "415.555.0177", contactPreference: "SMS" };
    const first = await s.subscribe(body);
    const before = counts(s.ctx);
    const second = await s.subscribe({ ...body, phone: "+1 415 555 0177" });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(counts(s.ctx)).toEqual(before);
  });

  test("many at once: every 200 is a stored subscription by the time it arrives", async () => {
    const before = counts(s.ctx);
    const phones = Array.from({ length: 40 }, (_, i) => `415555${2000 + i}`);
    const answers = await Promise.all(
      phones.map(async (phone) => {
        const res = await s.subscribe({ businessId: s.business.id, phone, contactPreference: "SMS" });
        return { status: res.status, stored: customerTables(s.ctx).customers.some((c) => c.phone === `+1${phone}`) };
      }),
    );
    expect(answers.every((a) => a.status === 200 && a.stored)).toBe(true);
    expect(counts(s.ctx)).toEqual({ customers: before.customers + 40, subscriptions: before.subscriptions + 40, consentEvents: before.consentEvents + 40 });
  });

  describe("XSRF double submit: 403 xsrf_failed, nothing written", () => {
    const body = (phone: string) => JSON.stringify({ businessId: 1, phone, contactPreference: "SMS" });
    const cases: [string, Record<string, string>, string][] = [
      ["no cookie, no header", {}, body("4155550301")],
      ["cookie without the header", { cookie: XSRF.cookie }, body("4155550302")],
      ["header without the cookie", { "x-xsrf-token": XSRF["x-xsrf-token"] }, body("4155550303")],
      ["header not matching the cookie", { cookie: XSRF.cookie, "x-xsrf-token": "other" }, body("4155550304")],
      ["malformed JSON and no XSRF (checked before the body is read)", {}, "{nope"],
    ];
    for (const [name, headers, payload] of cases) {
      test(name, async () => {
        const before = counts(s.ctx);
        const res = await s.call("POST", SUBSCRIBE_PATH, { body: payload, headers: { ...JSON_TYPE, ...headers } });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: "Your session token is missing or out of date. Reload the page and try again.", code: "xsrf_failed" });
        await expectSecurityHeaders(res);
        expect(counts(s.ctx)).toEqual(before);
      });
    }
  });

  describe("bad bodies", () => {
    test("a declared Content-Length over the API cap: 413 before anything is read", async () => {
      const huge = JSON.stringify({ businessId: s.business.id, phone: "4155550401", contactPreference: "SMS", pad: "x".repeat(JSON_BODY_LIMIT) });
      const res = await s.call("POST", SUBSCRIBE_PATH, { body: huge, headers: { ...XSRF, ...JSON_TYPE } });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: "Request body is too large.", code: "payload_too_large" });
      await expectSecurityHeaders(res);
    });

    test("a streamed body without Content-Length is counted: 413 over the cap; at the cap it is read", async () => {
      const over = JSON.stringify({ businessId: s.business.id, phone: "4155550402", contactPreference: "SMS", pad: "x".repeat(JSON_BODY_LIMIT) });
      const res = await s.call("POST", SUBSCRIBE_PATH, { body: streamed(over), headers: { ...XSRF, ...JSON_TYPE } });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: "Request body is too large.", code: "payload_too_large" });
      const base = JSON.stringify({ businessId: s.business.id, phone: "4155550403", contactPreference: "SMS", pad: "" });
      const exact = base.replace('"pad":""', `"pad":"${"x".repeat(JSON_BODY_LIMIT - base.length)}"`);
      expect(exact.length).toBe(JSON_BODY_LIMIT);
      const ok = await s.call("POST", SUBSCRIBE_PATH, { body: streamed(exact), headers: { ...XSRF, ...JSON_TYPE } });
      expect(ok.status).toBe(200);
    });

    test("not JSON: 415; malformed JSON: 400; not an object: 400; nothing written", async () => {
      const before = counts(s.ctx);
      const form = await s.call("POST", SUBSCRIBE_PATH, { body: "phone=4155550501", headers: { ...XSRF, "content-type": "application/x-www-form-urlencoded" } });
      expect(form.status).toBe(415);
      expect(form.body).toEqual({ error: "Content-Type must be application/json.", code: "unsupported_media_type" });
      const malformed = await s.call("POST", SUBSCRIBE_PATH, { body: "{nope", headers: { ...XSRF, ...JSON_TYPE } });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: "Request body must be valid JSON.", code: "validation_failed" });
      const array = await s.call("POST", SUBSCRIBE_PATH, { body: "[]", headers: { ...XSRF, ...JSON_TYPE } });
      expect(array.status).toBe(400);
      expect(array.body).toEqual({ error: "Request body must be a JSON object.", code: "validation_failed" });
      const empty = await s.call("POST", SUBSCRIBE_PATH, { headers: { ...XSRF, ...JSON_TYPE } });
      expect(empty.status).toBe(400);
      for (const res of [form, malformed, array, empty]) await expectSecurityHeaders(res);
      expect(counts(s.ctx)).toEqual(before);
    });

    test("a JSON content type with a charset is accepted", async () => {
      const res = await s.subscribe({ businessId: s.business.id, phone: "4155550502", contactPreference: "SMS" }, { "content-type": "application/json; charset=utf-8" });
      expect(res.status).toBe(200);
    });
  });

  test("the spec's validation texts, per field; unknown business 404; nothing written", async () => {
    const before = counts(s.ctx);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ contactPreference: "SMS" }, "phone", "Phone number is required"],
      [{ phone: "call me", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
      [{ phone: "+1 555 555 5555", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
      [{ phone: "4155550134" }, "contactPreference", "Please select a contact preference"],
      [{ phone: "4155550134", contactPreference: "SMS", source: "manual" }, "source", "Source must be qr or list."],
      [{ businessId: "abc", phone: "4155550134", contactPreference: "SMS" }, "businessId", "Business ID is required."],
    ];
    for (const [body, field, message] of cases) {
      const res = await s.subscribe({ businessId: s.business.id, ...body });
      expect({ field, status: res.status, text: res.body.fields?.[field], code: res.body.code }).toEqual({ field, status: 400, text: message, code: "validation_failed" });
      await expectSecurityHeaders(res);
    }
    const unknown = await s.subscribe({ businessId: 987654, phone: "4155550134", contactPreference: "SMS" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: SUBSCRIBE_BUSINESS_NOT_FOUND, code: "not_found" });
    expect(counts(s.ctx)).toEqual(before);
  });

  test("other methods on the path are the app's: 404 JSON with the security headers", async () => {
    const res = await s.call("GET", SUBSCRIBE_PATH);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No such API endpoint.", code: "not_found" });
    await expectSecurityHeaders(res);
  });

  test("the same mistakes get the same answers (status, body, headers) as on a route behind the generic middleware", async () => {
    const bigBody = JSON.stringify({ pad: "x".repeat(JSON_BODY_LIMIT) });
    const mistakes: [string, { body?: BodyInit; headers: Record<string, string> }][] = [
      ["no XSRF", { body: "{}", headers: { ...JSON_TYPE } }],
      ["oversize", { body: bigBody, headers: { ...XSRF, ...JSON_TYPE } }],
      ["malformed JSON", { body: "{nope", headers: { ...XSRF, ...JSON_TYPE } }],
      ["not JSON", { body: "hello", headers: { ...XSRF, "content-type": "text/plain" } }],
      ["an array", { body: "[]", headers: { ...XSRF, ...JSON_TYPE } }],
    ];
    for (const [name, init] of mistakes) {
      const fast = comparable(await s.call("POST", SUBSCRIBE_PATH, init));
      const generic = comparable(await s.call("POST", "/api/auth/Login", init));
      expect({ name, ...fast }).toEqual({ name, ...generic });
    }
  });
});

describe("the per-IP subscribe limit over a real socket", () => {
  test("NEARCAST_SUBSCRIBE_LIMIT attempts per 10 minutes, then 429 with Retry-After and the security headers", async () => {
    const s = serve({ NEARCAST_SUBSCRIBE_LIMIT: "2" });
    try {
      const body = (n: number) => ({ businessId: s.business.id, phone: `415555060${n}`, contactPreference: "SMS" });
      expect((await s.subscribe(body(1))).status).toBe(200);
      // A failed attempt counts too.
      expect((await s.subscribe({ ...body(2), phone: "nope" })).status).toBe(400);
      const limited = await s.subscribe(body(3));
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        error: "Too many subscription attempts from your network. Please wait 10 minutes and try again.",
        code: "too_many_requests",
      });
      expect(limited.headers.get("retry-after")).toBe("600");
      await expectSecurityHeaders(limited);
      expect(counts(s.ctx).customers).toBe(1);
    } finally {
      await s.server.stop();
      s.ctx.close();
    }
  });

  test("IPv6 clients are limited per /64, like the other limits", async () => {
    const ctx = testContext({ NEARCAST_SUBSCRIBE_LIMIT: "2" });
    const api = apiClient(ctx);
    const business = insertBusiness(ctx);
    const body = (n: number) => ({ businessId: business.id, phone: `415555070${n}`, contactPreference: "SMS" });
    expect((await api.post(SUBSCRIBE_PATH, body(1), { ip: "2001:db8:1:2::10" })).status).toBe(200);
    expect((await api.post(SUBSCRIBE_PATH, body(2), { ip: "2001:db8:1:2:aaaa::1" })).status).toBe(200);
    expect((await api.post(SUBSCRIBE_PATH, body(3), { ip: "2001:db8:1:2:ffff::9" })).status).toBe(429);
    expect((await api.post(SUBSCRIBE_PATH, body(4), { ip: "2001:db8:1:3::10" })).status).toBe(200);
    ctx.close();
  });
});
