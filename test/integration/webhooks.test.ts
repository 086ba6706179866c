// Not the scenario runner: each request is a Twilio-signed form (some streamed or oversized), some to a real server.
import { describe, expect, test } from "bun:test";
import { SANDBOX_FAILURE_MESSAGE, SandboxMessenger, type Timers } from "../../src/messaging/sandbox.ts";
import { statusCallbackPath } from "../../src/messaging/messenger.ts";
import { twilioSignature, type WebhookParams } from "../../src/messaging/signature.ts";
import { INVALID_SIGNATURE, signatureValid } from "../../src/http/routes/webhooks.ts";
import {
  HELP_KEYWORDS,
  NOT_SUBSCRIBED_REPLY,
  OPT_IN_KEYWORDS,
  OPT_OUT_KEYWORDS,
  STOP_REPLY,
  twiml,
} from "../../src/services/inbound-messages.ts";
import { NOT_SENT_UNSUBSCRIBED } from "../../src/services/opt-outs.ts";
import { startServer } from "../../src/server.ts";
import { answerOf, apiClient } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { customerTables, insertPersonSubscribedTo, insertSubscriber } from "../helpers/customer-factories.ts";
import { allDeliveries, deliveryById, insertBroadcast, insertDelivery, messageSid } from "../helpers/delivery-factories.ts";
import { insertOwnerBusinesses } from "../helpers/factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../helpers/fake-twilio.ts";
import { SIGNED_WEBHOOKS_ENV } from "../helpers/worlds.ts";

const PUBLIC_URL = "https://shop.example.com";
const STATUS = "/api/webhooks/twilio/status";
const INBOUND = "/api/webhooks/twilio/inbound";
const EMPTY_TWIML = twiml(null);

const TWILIO_ENV = SIGNED_WEBHOOKS_ENV;

/** Form body with repeated keys for array values, in the given order. */
function formBody(params: WebhookParams): string {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return body.toString();
}

interface PostOptions {
  /** Sign these params instead of the ones sent (tampering). */
  signParams?: WebhookParams;
  /** Sign for this path+query instead of the one posted to. */
  signPath?: string;
  signPublicUrl?: string;
  signToken?: string;
  /** No X-Twilio-Signature header. */
  unsigned?: boolean;
}

/** `via: "server"`: requests go through a real Bun.serve (startServer on port 0), as in production; stop it with close(). */
function world(env: Record<string, string> = TWILIO_ENV, via: "app" | "server" = "app") {
  const ctx = testContext(env);
  const api = apiClient(ctx);
  const server = via === "server" ? startServer({ ...ctx, config: { ...ctx.config, port: 0, host: "127.0.0.1" } }, {}) : null;
  async function call(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) {
    if (!server) return api.call(method, path, { ...init, noXsrf: true });
    return answerOf(await fetch(`${server.url.replace("localhost", "127.0.0.1")}${path}`, { method, ...init }));
  }
  const [bakery] = insertOwnerBusinesses(ctx, "Rosa's Bakery");
  const [gym, removedShop] = insertOwnerBusinesses(ctx, "Iron & Oak Gym", "Corner Shop");
  const phone = "+14155550123";
  const sam = insertPersonSubscribedTo(ctx, phone, [bakery.id, gym.id], [removedShop.id]);
  const broadcast = insertBroadcast(ctx, { businessId: bakery.id, messageText: "Fresh croissants" });

  /** POSTs a Twilio webhook the way Twilio does: form-encoded, signed, without cookies or XSRF header. */
  async function post(pathWithQuery: string, params: WebhookParams, opts: PostOptions = {}) {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", "user-agent": "TwilioProxy/1.1" };
    if (!opts.unsigned) {
      headers["x-twilio-signature"] = twilioSignature(
        opts.signToken ?? FAKE_AUTH_TOKEN,
        opts.signPublicUrl ?? PUBLIC_URL,
        opts.signPath ?? pathWithQuery,
        opts.signParams ?? params,
      );
    }
    return call("POST", pathWithQuery, { body: formBody(params), headers });
  }

  const close = () => server?.stop();
  return { ctx, api, call, post, close, bakery, gym, removedShop, sam, phone, broadcast };
}

type World = ReturnType<typeof world>;

function callback(sid: string, status: string, extra: Record<string, string> = {}): WebhookParams {
  return {
    AccountSid: FAKE_ACCOUNT_SID,
    ApiVersion: "2010-04-01",
    From: "+15005550006",
    MessageSid: sid,
    MessageStatus: status,
    SmsSid: sid,
    SmsStatus: status,
    To: "+14155550123",
    ...extra,
  };
}

function inbound(from: string, body: string, extra: Record<string, string> = {}): WebhookParams {
  const sid = messageSid();
  return {
    AccountSid: FAKE_ACCOUNT_SID,
    ApiVersion: "2010-04-01",
    Body: body,
    From: from,
    MessageSid: sid,
    NumMedia: "0",
    SmsMessageSid: sid,
    SmsSid: sid,
    SmsStatus: "received",
    To: "+15005550006",
    ...extra,
  };
}

function sentDelivery(w: World, overrides: Parameters<typeof insertDelivery>[3] = {}) {
  return insertDelivery(w.ctx, w.broadcast, w.sam, { status: "Sent", providerId: messageSid(), sentAt: new Date("2026-01-15T11:00:00Z"), ...overrides });
}

/** Everything the webhooks could change. */
function snapshot(ctx: TestContext) {
  return { deliveries: allDeliveries(ctx), ...customerTables(ctx) };
}

/** A world with one sent delivery, and a status callback about it padded past the webhook body limit. */
function oversizedCallback() {
  const w = world();
  const d = sentDelivery(w);
  return { w, before: snapshot(w.ctx), params: { ...callback(d.providerId!, "delivered"), Padding: "x".repeat(70 * 1024) } };
}

function expectTooLarge(w: World, res: { status: number; body: unknown }, before: ReturnType<typeof snapshot>) {
  expect(res.status).toBe(413);
  expect(res.body).toEqual({ error: "Request body is too large.", code: "payload_too_large" });
  expect(snapshot(w.ctx)).toEqual(before);
}

describe("status webhook: signature (Twilio configured)", () => {
  test("a valid signature is accepted without cookie or XSRF header", async () => {
    const w = world();
    const d = sentDelivery(w);
    const res = await w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"));
    expect(res.status).toBe(200);
    expect(deliveryById(w.ctx, d.id).status).toBe("Delivered");
  });

  const rejected: [string, (w: World, d: { id: number; providerId: string | null }) => Promise<{ status: number; body: any }>][] = [
    ["missing header", (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { unsigned: true })],
    [
      "tampered parameter (signed 'sent', sent 'delivered')",
      (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { signParams: callback(d.providerId!, "sent") }),
    ],
    [
      "added parameter",
      (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "failed", { ErrorCode: "30006" }), { signParams: callback(d.providerId!, "failed") }),
    ],
    ["wrong query (signed for another delivery)", (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { signPath: `${STATUS}?delivery=${d.id + 1}` })],
    ["query dropped from the signed URL", (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { signPath: STATUS })],
    ["wrong path (signed for inbound)", (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { signPath: `${INBOUND}?delivery=${d.id}` })],
    ["wrong host", (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { signPublicUrl: "https://evil.example.com" })],
    ["wrong scheme", (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { signPublicUrl: "http://shop.example.com" })],
    ["another auth token", (w, d) => w.post(`${STATUS}?delivery=${d.id}`, callback(d.providerId!, "delivered"), { signToken: "another-token-0123456789abcdef" })],
  ];
  for (const [name, send] of rejected) {
    test(`403 and nothing changes: ${name}`, async () => {
      const w = world();
      const d = sentDelivery(w);
      const before = snapshot(w.ctx);
      const res = await send(w, d);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: INVALID_SIGNATURE, code: "invalid_signature" });
      expect(snapshot(w.ctx)).toEqual(before);
      expect(w.ctx.logger.lines.some((l) => l.includes("X-Twilio-Signature"))).toBe(true);
    });
  }

  test("a garbage signature header is a 403", async () => {
    const w = world();
    const d = sentDelivery(w);
    const res = await w.api.call("POST", STATUS, {
      body: formBody(callback(d.providerId!, "delivered")),
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": "not base64 !!" },
      noXsrf: true,
    });
    expect(res.status).toBe(403);
    expect(deliveryById(w.ctx, d.id).status).toBe("Sent");
  });

  test("repeated form keys are kept: signed over every value", async () => {
    const w = world();
    const d = sentDelivery(w);
    const params = { ...callback(d.providerId!, "delivered"), Tag: ["a", "b"] };
    expect((await w.post(statusCallbackPath(d.id), params)).status).toBe(200);
    expect(deliveryById(w.ctx, d.id).status).toBe("Delivered");
    // Signed with only one of the values: rejected.
    const d2 = sentDelivery(w, { customerId: insertSubscriber(w.ctx, w.bakery.id).customer.id });
    const res = await w.post(statusCallbackPath(d2.id), { ...callback(d2.providerId!, "delivered"), Tag: ["a", "b"] }, { signParams: { ...callback(d2.providerId!, "delivered"), Tag: "a" } });
    expect(res.status).toBe(403);
    expect(deliveryById(w.ctx, d2.id).status).toBe("Sent");
  });

  test("an oversized body is refused before it is read (413), nothing changes", async () => {
    const { w, before, params } = oversizedCallback();
    const res = await w.post(STATUS, params);
    expectTooLarge(w, res, before);
  });

  test("an oversized streamed (chunked) body is refused too (413), nothing changes", async () => {
    const { w, before, params } = oversizedCallback();
    const bytes = new TextEncoder().encode(formBody(params));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 8192) controller.enqueue(bytes.subarray(i, i + 8192));
        controller.close();
      },
    });
    const req = new Request(`http://localhost${STATUS}`, {
      method: "POST",
      body,
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(FAKE_AUTH_TOKEN, PUBLIC_URL, STATUS, params) },
      duplex: "half",
    } as RequestInit);
    expect(req.headers.has("content-length")).toBe(false);
    const res = await answerOf(await w.api.app.fetch(req, { requestIP: () => ({ address: "203.0.113.5" }) }));
    expectTooLarge(w, res, before);
  });

  test("webhook answers set no browser cookie (the XSRF middleware leaves them alone)", async () => {
    const w = world();
    const d = sentDelivery(w);
    const res = await w.post(STATUS, callback(d.providerId!, "delivered"));
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("a signed request without a body type is judged on its (empty) fields: 403", async () => {
    const w = world();
    const d = sentDelivery(w);
    const params = callback(d.providerId!, "delivered");
    const res = await w.api.call("POST", STATUS, {
      body: JSON.stringify(params),
      headers: { "content-type": "application/json", "x-twilio-signature": twilioSignature(FAKE_AUTH_TOKEN, PUBLIC_URL, STATUS, params) },
      noXsrf: true,
    });
    expect(res.status).toBe(403);
    expect(deliveryById(w.ctx, d.id).status).toBe("Sent");
  });
});

describe("signatureValid (exact URL first, then twilio's variants)", () => {
  const params = callback(messageSid(1), "delivered");
  const path = `${STATUS}?delivery=1`;
  test("the exact URL", () => {
    expect(signatureValid(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params, twilioSignature(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params))).toBe(true);
  });
  test("Twilio's port variants still pass (through verifyTwilioSignature)", () => {
    const withPort = twilioSignature(FAKE_AUTH_TOKEN, "https://shop.example.com:443", path, params);
    expect(signatureValid(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params, withPort)).toBe(true);
    const withoutPort = twilioSignature(FAKE_AUTH_TOKEN, "http://localhost", path, params);
    expect(signatureValid(FAKE_AUTH_TOKEN, "http://localhost:80", path, params, withoutPort)).toBe(true);
  });
  test("wrong, short, long, empty or missing: false", () => {
    const good = twilioSignature(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params);
    for (const bad of [good.slice(1), `${good}=`, "", undefined, "x".repeat(28), twilioSignature("other-token", PUBLIC_URL, path, params)]) {
      expect(signatureValid(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params, bad)).toBe(false);
    }
    expect(signatureValid(FAKE_AUTH_TOKEN, PUBLIC_URL, path, { ...params, MessageStatus: "failed" }, good)).toBe(false);
  });
});

describe("status webhook: statuses only move forward", () => {
  test("Sent -> delivered; a late 'sent' afterwards changes nothing; a duplicate 'delivered' is harmless", async () => {
    const w = world();
    const d = sentDelivery(w);
    expect((await w.post(statusCallbackPath(d.id), callback(d.providerId!, "delivered"))).status).toBe(200);
    const delivered = deliveryById(w.ctx, d.id);
    expect(delivered).toMatchObject({ status: "Delivered", providerStatus: "delivered", errorCode: null, errorMessage: null });
    expect(delivered.sentAt).toEqual(d.sentAt);
    for (const late of ["sent", "queued", "sending", "delivered", "failed", "undelivered"]) {
      expect((await w.post(statusCallbackPath(d.id), callback(d.providerId!, late))).status).toBe(200);
      expect(deliveryById(w.ctx, d.id)).toEqual(delivered);
    }
  });

  test("failed with ErrorCode: recorded with a readable message; later callbacks do not undo it", async () => {
    const w = world();
    const d = sentDelivery(w);
    expect((await w.post(statusCallbackPath(d.id), callback(d.providerId!, "undelivered", { ErrorCode: "30006" }))).status).toBe(200);
    const failed = deliveryById(w.ctx, d.id);
    expect(failed).toMatchObject({
      status: "Failed",
      providerStatus: "undelivered",
      errorCode: 30006,
      errorMessage: "Twilio error 30006: Landline or unreachable carrier",
    });
    await w.post(statusCallbackPath(d.id), callback(d.providerId!, "delivered"));
    expect(deliveryById(w.ctx, d.id)).toEqual(failed);
  });

  test("ErrorMessage from Twilio is kept as given; an unknown code still says its number", async () => {
    const w = world();
    const a = sentDelivery(w);
    await w.post(statusCallbackPath(a.id), callback(a.providerId!, "failed", { ErrorCode: "30007", ErrorMessage: "Carrier violation" }));
    expect(deliveryById(w.ctx, a.id)).toMatchObject({ status: "Failed", errorCode: 30007, errorMessage: "Carrier violation" });
    const b = sentDelivery(w, { customerId: insertSubscriber(w.ctx, w.bakery.id).customer.id });
    await w.post(statusCallbackPath(b.id), callback(b.providerId!, "failed", { ErrorCode: "12345" }));
    expect(deliveryById(w.ctx, b.id)).toMatchObject({ status: "Failed", errorCode: 12345, errorMessage: "Twilio error 12345" });
  });

  test("Uncertain (answer lost, no sid) found by ?delivery=: moves to Sent and gets its sid, then Delivered", async () => {
    const w = world();
    const d = insertDelivery(w.ctx, w.broadcast, w.sam, { status: "Uncertain", errorMessage: "Twilio did not answer within 10000 ms" });
    const sid = messageSid();
    expect((await w.post(`${STATUS}?delivery=${d.id}`, callback(sid, "sent"))).status).toBe(200);
    const sent = deliveryById(w.ctx, d.id);
    expect(sent).toMatchObject({ status: "Sent", providerId: sid, providerStatus: "sent", errorMessage: null });
    expect(sent.sentAt).toEqual(w.ctx.clock.now());
    await w.post(`${STATUS}?delivery=${d.id}`, callback(sid, "delivered"));
    expect(deliveryById(w.ctx, d.id)).toMatchObject({ status: "Delivered", providerId: sid });
  });

  test("Uncertain straight to delivered or failed", async () => {
    const w = world();
    const a = insertDelivery(w.ctx, w.broadcast, w.sam, { status: "Uncertain" });
    await w.post(`${STATUS}?delivery=${a.id}`, callback(messageSid(), "delivered"));
    expect(deliveryById(w.ctx, a.id).status).toBe("Delivered");
    const other = insertSubscriber(w.ctx, w.bakery.id).customer;
    const b = insertDelivery(w.ctx, w.broadcast, other, { status: "Uncertain" });
    await w.post(`${STATUS}?delivery=${b.id}`, callback(messageSid(), "failed", { ErrorCode: "30003" }));
    expect(deliveryById(w.ctx, b.id)).toMatchObject({ status: "Failed", errorCode: 30003, sentAt: null });
  });

  test("a delivery the dispatcher has not recorded yet (Sending) advances; its sid is filled in", async () => {
    const w = world();
    const d = insertDelivery(w.ctx, w.broadcast, w.sam, { status: "Sending" });
    const sid = messageSid();
    await w.post(`${STATUS}?delivery=${d.id}`, callback(sid, "sent"));
    expect(deliveryById(w.ctx, d.id)).toMatchObject({ status: "Sent", providerId: sid });
  });

  test("a Skipped delivery the provider did get after all: the truth wins and the opt-out note goes", async () => {
    const w = world();
    const d = insertDelivery(w.ctx, w.broadcast, w.sam, { status: "Skipped", errorMessage: NOT_SENT_UNSUBSCRIBED });
    await w.post(`${STATUS}?delivery=${d.id}`, callback(messageSid(), "delivered"));
    expect(deliveryById(w.ctx, d.id)).toMatchObject({ status: "Delivered", errorMessage: null });
  });

  test("unknown MessageSid: 200, logged, nothing changes", async () => {
    const w = world();
    sentDelivery(w);
    const before = snapshot(w.ctx);
    const sid = messageSid();
    const res = await w.post(STATUS, callback(sid, "delivered"));
    expect(res.status).toBe(200);
    expect(snapshot(w.ctx)).toEqual(before);
    expect(w.ctx.logger.lines.some((l) => l.startsWith("warn") && l.includes(sid) && l.includes("unknown"))).toBe(true);
  });

  test("?delivery= names a delivery sent under another sid: 200, logged, nothing changes", async () => {
    const w = world();
    const d = sentDelivery(w);
    const before = snapshot(w.ctx);
    const res = await w.post(`${STATUS}?delivery=${d.id}`, callback(messageSid(), "failed"));
    expect(res.status).toBe(200);
    expect(snapshot(w.ctx)).toEqual(before);
    expect(w.ctx.logger.lines.some((l) => l.includes(`delivery ${d.id}`) && l.includes(d.providerId!))).toBe(true);
  });

  test("without ?delivery= a known sid is not looked up: 200, logged as unknown, nothing changes", async () => {
    const w = world();
    const d = sentDelivery(w);
    const before = snapshot(w.ctx);
    const res = await w.post(STATUS, callback(d.providerId!, "delivered"));
    expect(res.status).toBe(200);
    expect(snapshot(w.ctx)).toEqual(before);
    expect(w.ctx.logger.lines.some((l) => l.startsWith("warn") && l.includes(d.providerId!) && l.includes("unknown"))).toBe(true);
  });

  test("?delivery= of a delivery that does not exist: 200, logged, nothing changes", async () => {
    const w = world();
    const d = sentDelivery(w);
    const before = snapshot(w.ctx);
    const res = await w.post(statusCallbackPath(d.id + 1000), callback(d.providerId!, "delivered"));
    expect(res.status).toBe(200);
    expect(snapshot(w.ctx)).toEqual(before);
    expect(w.ctx.logger.lines.some((l) => l.includes(`(delivery ${d.id + 1000})`) && l.includes("unknown"))).toBe(true);
  });

  test("inbound statuses (received) are ignored; a missing MessageSid is a 400", async () => {
    const w = world();
    const d = sentDelivery(w);
    const before = snapshot(w.ctx);
    expect((await w.post(STATUS, callback(d.providerId!, "received"))).status).toBe(200);
    expect(snapshot(w.ctx)).toEqual(before);
    const res = await w.post(STATUS, { MessageStatus: "delivered" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
  });
});

describe("webhooks without Twilio (sandbox)", () => {
  const SANDBOX_ENV = { NEARCAST_PUBLIC_URL: PUBLIC_URL };

  test("unsigned requests with the install's webhook key are accepted (the sandbox reports statuses in-process); more in inbound-door.test.ts", async () => {
    const w = world(SANDBOX_ENV);
    const d = sentDelivery(w);
    const key = w.ctx.services.inboundMessages.sandboxKey();
    expect((await w.post(`${statusCallbackPath(d.id)}&key=${key}`, callback(d.providerId!, "delivered"), { unsigned: true })).status).toBe(200);
    expect(deliveryById(w.ctx, d.id).status).toBe("Delivered");
    const res = await w.post(`${INBOUND}?key=${key}`, inbound(w.phone, "STOP"), { unsigned: true });
    expect(res.status).toBe(200);
    expect(res.body).toBe(twiml(STOP_REPLY));
  });

  test("the sandbox messenger's simulated statuses reach the delivery through services.statusCallbacks.apply", async () => {
    const w = world(SANDBOX_ENV);
    const fired: (() => void)[] = [];
    const timers: Timers = { set: (fn) => fired.push(fn), clear: () => {} };
    const sandbox = new SandboxMessenger({ clock: w.ctx.clock, timers, onStatus: (u) => w.ctx.services.statusCallbacks.apply(u), logger: w.ctx.logger });
    const failing = insertSubscriber(w.ctx, w.bakery.id, { phone: "+14155550000" }).customer;
    const d1 = insertDelivery(w.ctx, w.broadcast, w.sam, { status: "Sending" });
    const d2 = insertDelivery(w.ctx, w.broadcast, failing, { status: "Sending" });
    const ok = await sandbox.send({ to: w.sam.phone, channel: "sms", body: "Fresh croissants", statusCallback: statusCallbackPath(d1.id) });
    const bad = await sandbox.send({ to: failing.phone, channel: "sms", body: "Fresh croissants", statusCallback: statusCallbackPath(d2.id) });
    if (ok.kind !== "sent" || bad.kind !== "sent") throw new Error("sandbox did not accept");
    w.ctx.repos.deliveries.recordSent(d1.id, ok.providerId, "Sent", "sent", w.ctx.clock.now().getTime());
    w.ctx.repos.deliveries.recordSent(d2.id, bad.providerId, "Sent", "sent", w.ctx.clock.now().getTime());
    for (const fn of fired) fn();
    expect(deliveryById(w.ctx, d1.id)).toMatchObject({ status: "Delivered", providerStatus: "delivered" });
    expect(deliveryById(w.ctx, d2.id)).toMatchObject({ status: "Failed", errorCode: 30006, errorMessage: SANDBOX_FAILURE_MESSAGE });
    sandbox.close();
  });
});

describe("inbound webhook: keywords", () => {
  const variants = (k: string) => [k, k.toLowerCase(), `  ${k[0]}${k.slice(1).toLowerCase()} \n`, `\t${k}\t`];

  for (const keyword of OPT_OUT_KEYWORDS) {
    test(`${keyword}: every business unsubscribed, one event, pending skipped, confirmation (${variants(keyword).length} spellings)`, async () => {
      for (const body of variants(keyword)) {
        const w = world();
        const pending = insertDelivery(w.ctx, w.broadcast, w.sam);
        const events = customerTables(w.ctx).consentEvents.length;
        const res = await w.post(INBOUND, inbound(w.phone, body));
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toContain("text/xml");
        expect(res.body).toBe(twiml(STOP_REPLY));
        const t = customerTables(w.ctx);
        expect(t.subscriptions.map((s) => [s.businessId, s.status])).toEqual([
          [w.bakery.id, "unsubscribed"],
          [w.gym.id, "unsubscribed"],
          [w.removedShop.id, "removed"],
        ]);
        expect(t.consentEvents.slice(events)).toMatchObject([{ customerId: w.sam.id, businessId: null, kind: "unsubscribed", source: "sms-stop" }]);
        expect(deliveryById(w.ctx, pending.id).status).toBe("Skipped");
      }
    });
  }

  for (const keyword of OPT_IN_KEYWORDS) {
    test(`${keyword}: resubscribes what STOP ended (not what the owner removed) and confirms`, async () => {
      for (const body of variants(keyword)) {
        const w = world();
        await w.post(INBOUND, inbound(w.phone, "stop"));
        const res = await w.post(INBOUND, inbound(w.phone, body));
        expect(res.status).toBe(200);
        // Each renewed business confirms through the outbox (frequency, rates, STOP/HELP); the keyword gets no second text.
        expect(res.body).toBe(twiml(null));
        const confirmations = w.ctx.db.$client
          .query("SELECT b.business_id AS businessId, b.origin, b.message_text AS text, d.to_phone AS phone FROM broadcasts b JOIN deliveries d ON d.broadcast_id = b.id WHERE b.kind = 'confirmation' ORDER BY b.id")
          .all();
        expect(confirmations).toEqual([
          { businessId: w.bakery.id, origin: "keyword", phone: w.phone, text: "Rosa's Bakery: you're subscribed to promotions, up to 4 msgs/week. Msg & data rates may apply. Reply STOP to cancel, HELP for help." },
          { businessId: w.gym.id, origin: "keyword", phone: w.phone, text: "Iron & Oak Gym: you're subscribed to promotions, up to 4 msgs/week. Msg & data rates may apply. Reply STOP to cancel, HELP for help." },
        ]);
        expect(customerTables(w.ctx).subscriptions.map((s) => s.status)).toEqual(["active", "active", "removed"]);
        // The opt-out ends (one all-business event), and each business the STOP ended comes back.
        const resubscribed = customerTables(w.ctx).consentEvents.filter((e) => e.kind === "resubscribed");
        expect(resubscribed.map((e) => e.businessId)).toEqual([null, w.bakery.id, w.gym.id]);
      }
    });
  }

  for (const keyword of HELP_KEYWORDS) {
    test(`${keyword}: names the latest business and its phone, rates and how to stop; changes nothing`, async () => {
      for (const body of variants(keyword)) {
        const w = world();
        const before = snapshot(w.ctx);
        const res = await w.post(INBOUND, inbound(w.phone, body));
        expect(res.status).toBe(200);
        const text = String(res.body);
        // Nothing was sent yet: the most recent subscription (the gym) is the one named, with its phone.
        expect(text).toContain("Iron &amp; Oak Gym. Contact: +14155550100.");
        expect(text).not.toContain("Rosa");
        expect(text).not.toContain("Corner Shop");
        expect(text).toContain("Msg &amp; data rates may apply");
        expect(text).toContain("Reply STOP to unsubscribe");
        expect(snapshot(w.ctx)).toEqual(before);
      }
    });
  }

  test("STOP twice: the second changes nothing and still confirms", async () => {
    const w = world();
    await w.post(INBOUND, inbound(w.phone, "STOP"));
    const before = snapshot(w.ctx);
    const res = await w.post(INBOUND, inbound(w.phone, "STOP"));
    expect(res.body).toBe(twiml(STOP_REPLY));
    expect(snapshot(w.ctx)).toEqual(before);
  });

  test("HELP after STOP: not subscribed to any business", async () => {
    const w = world();
    await w.post(INBOUND, inbound(w.phone, "STOP"));
    const res = await w.post(INBOUND, inbound(w.phone, "HELP"));
    expect(res.body).toBe(twiml("Nearcast: You are not subscribed to any business. Msg & data rates may apply. Reply STOP to unsubscribe."));
  });

  test("OptOutType from Twilio's own keyword handling wins (e.g. a STOP keyword in another language); Twilio answered it, so Nearcast does not (issue 23)", async () => {
    const w = world();
    let res = await w.post(INBOUND, inbound(w.phone, "Arrêt", { OptOutType: "STOP" }));
    expect(res.body).toBe(twiml(null));
    expect(customerTables(w.ctx).subscriptions.map((s) => s.status)).toEqual(["unsubscribed", "unsubscribed", "removed"]);
    res = await w.post(INBOUND, inbound(w.phone, "Reanudar", { OptOutType: "start" }));
    expect(res.body).toBe(twiml(null));
    expect(customerTables(w.ctx).subscriptions.map((s) => s.status)).toEqual(["active", "active", "removed"]);
    res = await w.post(INBOUND, inbound(w.phone, "Ayuda", { OptOutType: "HELP" }));
    expect(res.body).toBe(twiml(null));
    // keywordReplies "nearcast": Nearcast answers even where Twilio says it handled the keyword.
    w.ctx.repos.settings.save("keywordReplies", "nearcast", w.ctx.clock.now());
    res = await w.post(INBOUND, inbound(w.phone, "Arrêt", { OptOutType: "STOP" }));
    expect(res.body).toBe(twiml(STOP_REPLY));
    res = await w.post(INBOUND, inbound(w.phone, "Ayuda", { OptOutType: "HELP" }));
    expect(String(res.body)).toContain("Reply STOP to unsubscribe");
  });

  test("WhatsApp: the whatsapp: prefix is stripped; the source says whatsapp", async () => {
    const w = world();
    const res = await w.post(INBOUND, inbound(`whatsapp:${w.phone}`, "Stop"));
    expect(res.body).toBe(twiml(STOP_REPLY));
    expect(customerTables(w.ctx).subscriptions.map((s) => s.status)).toEqual(["unsubscribed", "unsubscribed", "removed"]);
    expect(customerTables(w.ctx).consentEvents.at(-1)).toMatchObject({ businessId: null, kind: "unsubscribed", source: "whatsapp-stop" });
  });

  // "STOP please" and "stop!" opt out since issue 24 (plain words that ask to stop: test/unit/stop-words.test.ts).
  test("anything else: empty TwiML, nothing changes", async () => {
    const w = world();
    const before = snapshot(w.ctx);
    for (const body of ["hello", "S T O P", "", "Yes, I want the deal", "what time do you stop baking?"]) {
      const res = await w.post(INBOUND, inbound(w.phone, body));
      expect(res.status).toBe(200);
      expect(res.body).toBe(EMPTY_TWIML);
    }
    expect(snapshot(w.ctx)).toEqual(before);
  });

  test("an unknown number: harmless 200; STOP is confirmed, START and HELP say not subscribed; nothing is stored", async () => {
    const w = world();
    const before = snapshot(w.ctx);
    const stranger = "+14155550999";
    expect((await w.post(INBOUND, inbound(stranger, "STOP"))).body).toBe(twiml(STOP_REPLY));
    expect((await w.post(INBOUND, inbound(stranger, "START"))).body).toBe(twiml(NOT_SUBSCRIBED_REPLY));
    expect(String((await w.post(INBOUND, inbound(stranger, "HELP"))).body)).toContain("not subscribed to any business");
    expect((await w.post(INBOUND, inbound("not-a-number", "STOP"))).status).toBe(200);
    expect((await w.post(INBOUND, { Body: "STOP" })).status).toBe(200);
    expect(snapshot(w.ctx)).toEqual(before);
  });

  test("a bad signature on STOP: 403 and the person stays subscribed", async () => {
    const w = world();
    const before = snapshot(w.ctx);
    const params = inbound(w.phone, "STOP");
    for (const opts of [{ unsigned: true }, { signParams: inbound(w.phone, "HELLO") }, { signPath: STATUS }] as PostOptions[]) {
      const res = await w.post(INBOUND, params, opts);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: INVALID_SIGNATURE, code: "invalid_signature" });
    }
    expect(snapshot(w.ctx)).toEqual(before);
  });
});

describe("over a real socket (startServer), as in production", () => {
  test("a signed callback moves its delivery; a bad signature is a 403; other methods on the webhook paths are 404s", async () => {
    const w = world(TWILIO_ENV, "server");
    try {
      const d = sentDelivery(w);
      const d2 = sentDelivery(w, { customerId: insertSubscriber(w.ctx, w.bakery.id).customer.id });
      expect((await w.post(statusCallbackPath(d.id), callback(d.providerId!, "delivered"))).status).toBe(200);
      expect(deliveryById(w.ctx, d.id).status).toBe("Delivered");
      const forged = await w.post(statusCallbackPath(d2.id), callback(d2.providerId!, "delivered"), { signParams: callback(d2.providerId!, "sent") });
      expect(forged.status).toBe(403);
      expect(forged.body).toEqual({ error: INVALID_SIGNATURE, code: "invalid_signature" });
      expect(deliveryById(w.ctx, d2.id).status).toBe("Sent");
      const stop = await w.post(INBOUND, inbound(w.phone, "STOP"));
      expect(stop.status).toBe(200);
      expect(stop.headers.get("content-type")).toBe("text/xml; charset=utf-8");
      expect(stop.body).toBe(twiml(STOP_REPLY));
      for (const path of [STATUS, INBOUND]) {
        const res = await w.call("GET", path);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: "No such API endpoint.", code: "not_found" });
      }
    } finally {
      await w.close();
    }
  });
});
