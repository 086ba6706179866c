// Not the scenario runner: each request is a Twilio-signed form, and most tests replay one.
import { afterEach, describe, expect, test } from "bun:test";
import { twilioSignature, type WebhookParams } from "../../src/messaging/signature.ts";
import {
  helpReply,
  NOT_YOUR_NUMBER,
  SANDBOX_DOOR_CLOSED,
  SANDBOX_KEY_SETTING,
  STOP_REPLY,
  startReply,
  twiml,
} from "../../src/services/inbound-messages.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { subscriptionLinks } from "../../src/db/schema.ts";
import { customerTables, insertPersonSubscribedTo, sessionFor } from "../helpers/customer-factories.ts";
import { allDeliveries, insertBroadcast, insertDelivery, messageSid } from "../helpers/delivery-factories.ts";
import { insertOwnerBusinesses, insertUser } from "../helpers/factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../helpers/fake-twilio.ts";
import { SIGNED_WEBHOOKS_ENV } from "../helpers/worlds.ts";

// Issue 10 item 6: a replayed signed message changes nothing, and without Twilio the inbound webhook opens only to
// the install's key or to a signed-in owner (their own numbers) or admin, CSRF-safe.

const PUBLIC_URL = "https://shop.example.com";
const INBOUND = "/api/webhooks/twilio/inbound";
const STATUS = "/api/webhooks/twilio/status";
const FORM = { "content-type": "application/x-www-form-urlencoded" };
const TWILIO_ENV = SIGNED_WEBHOOKS_ENV;
const SANDBOX_ENV = { NEARCAST_PUBLIC_URL: PUBLIC_URL };
const DOOR_CLOSED = { error: SANDBOX_DOOR_CLOSED, code: "forbidden" };
const NOT_YOURS = { error: NOT_YOUR_NUMBER, code: "forbidden" };

let ctx: TestContext;
afterEach(() => ctx?.close());

/** Rosa (owner) has the bakery; Ivan (another owner) the gym. Sam follows the bakery only, Gail the gym only, and
 * Max both. */
function world(env: Record<string, string>) {
  ctx = testContext(env);
  const api = apiClient(ctx);
  const [bakery] = insertOwnerBusinesses(ctx, "Rosa's Bakery");
  const [gym] = insertOwnerBusinesses(ctx, "Iron & Oak Gym");
  const sam = insertPersonSubscribedTo(ctx, "+14155550101", [bakery.id]);
  const gail = insertPersonSubscribedTo(ctx, "+14155550102", [gym.id]);
  const max = insertPersonSubscribedTo(ctx, "+14155550103", [bakery.id, gym.id]);
  const rosa = sessionFor(ctx, { id: bakery.ownerId });
  const ivan = sessionFor(ctx, { id: gym.ownerId });
  const admin = sessionFor(ctx, insertUser(ctx, { role: "admin" }));
  const message = (from: string, body: string): WebhookParams => {
    const sid = messageSid();
    return { AccountSid: FAKE_ACCOUNT_SID, Body: body, From: from, MessageSid: sid, SmsSid: sid, To: "+15005550006" };
  };
  /** Posts like Twilio: signed (Twilio configured) or, in the sandbox, with whatever `how` says. */
  const post = (path: string, params: WebhookParams, how: { signed?: boolean; token?: string; noXsrf?: boolean } = {}) =>
    api.call("POST", path, {
      body: new URLSearchParams(params as Record<string, string>).toString(),
      headers: { ...FORM, ...(how.signed ? { "x-twilio-signature": twilioSignature(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params) } : {}) },
      token: how.token,
      noXsrf: how.noXsrf ?? !how.token,
    });
  const tables = () => ({ ...customerTables(ctx), deliveries: allDeliveries(ctx) });
  const statusOf = (customerId: number) => customerTables(ctx).subscriptions.filter((s) => s.customerId === customerId).map((s) => s.status);
  return { api, bakery, gym, sam, gail, max, rosa, ivan, admin, message, post, tables, statusOf };
}

describe("replay (Twilio configured, signed requests)", () => {
  test("a captured START replayed after a later STOP does not undo the STOP: 200, empty TwiML, nothing changed", async () => {
    const w = world(TWILIO_ENV);
    const stop1 = w.message(w.sam.phone, "STOP");
    expect((await w.post(INBOUND, stop1, { signed: true })).body).toBe(twiml(STOP_REPLY));
    const start = w.message(w.sam.phone, "START");
    expect((await w.post(INBOUND, start, { signed: true })).body).toBe(twiml(null)); // the confirmation goes through the outbox
    const stop2 = w.message(w.sam.phone, "STOP");
    expect((await w.post(INBOUND, stop2, { signed: true })).status).toBe(200);
    expect(w.statusOf(w.sam.id)).toEqual(["unsubscribed"]);
    const before = w.tables();

    const replay = await w.post(INBOUND, start, { signed: true });
    expect(replay.status).toBe(200);
    expect(replay.body).toBe(twiml(null));
    expect(w.tables()).toEqual(before);
    expect(w.statusOf(w.sam.id)).toEqual(["unsubscribed"]);
    expect(ctx.repos.consentEvents.optedOut(w.sam.id)).toBe(true);
  });

  test("each keyword message's MessageSid is remembered; a repeated STOP or HELP gets no reply and writes nothing", async () => {
    const w = world(TWILIO_ENV);
    const stop = w.message(w.max.phone, "STOP");
    await w.post(INBOUND, stop, { signed: true });
    expect(ctx.repos.inboundMessages.has(stop.MessageSid as string)).toBe(true);
    const before = w.tables();
    expect((await w.post(INBOUND, stop, { signed: true })).body).toBe(twiml(null));
    const help = w.message(w.max.phone, "HELP");
    expect((await w.post(INBOUND, help, { signed: true })).body).not.toBe(twiml(null));
    expect((await w.post(INBOUND, help, { signed: true })).body).toBe(twiml(null));
    expect(w.tables()).toEqual(before);
  });

  test("a message that is not a keyword gets no reply; from a customer it is remembered (it records when they last wrote), from a stranger not", async () => {
    const w = world(TWILIO_ENV);
    const hello = w.message(w.sam.phone, "hello there");
    expect((await w.post(INBOUND, hello, { signed: true })).body).toBe(twiml(null));
    expect(ctx.repos.inboundMessages.has(hello.MessageSid as string)).toBe(true);
    expect(ctx.repos.customerInbound.lastInboundAt(w.sam.id, "SMS")).toBe(ctx.clock.now().getTime());
    // A replay later does not move the time on (it would reopen WhatsApp's 24-hour window).
    ctx.clock.advance(60_000);
    expect((await w.post(INBOUND, hello, { signed: true })).body).toBe(twiml(null));
    expect(ctx.repos.customerInbound.lastInboundAt(w.sam.id, "SMS")).toBe(ctx.clock.now().getTime() - 60_000);
    const stranger = w.message("+14155559876", "hi");
    await w.post(INBOUND, stranger, { signed: true });
    expect(ctx.repos.inboundMessages.has(stranger.MessageSid as string)).toBe(false);
  });

  test("with Twilio configured, neither the sandbox key nor a session opens the door: the signature rules", async () => {
    const w = world(TWILIO_ENV);
    const key = ctx.services.inboundMessages.sandboxKey();
    const before = w.tables();
    const withKey = await w.post(`${INBOUND}?key=${key}`, w.message(w.sam.phone, "STOP"));
    expect(withKey.status).toBe(403);
    expect(withKey.body.code).toBe("invalid_signature");
    const withSession = await w.post(INBOUND, w.message(w.sam.phone, "STOP"), { token: w.admin });
    expect(withSession.status).toBe(403);
    expect(withSession.body.code).toBe("invalid_signature");
    expect(w.tables()).toEqual(before);
  });
});

describe("the sandbox's inbound door (no Twilio credentials)", () => {
  test("no key and no session: 403 in the one error shape, nothing written (not even the MessageSid)", async () => {
    const w = world(SANDBOX_ENV);
    const before = w.tables();
    for (const body of ["STOP", "START", "HELP"]) {
      const params = w.message(w.sam.phone, body);
      const res = await w.post(INBOUND, params);
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: DOOR_CLOSED });
      expect(ctx.repos.inboundMessages.has(params.MessageSid as string)).toBe(false);
    }
    expect(w.tables()).toEqual(before);
  });

  test("a wrong or empty key: 403; the right key: the STOP is applied", async () => {
    const w = world(SANDBOX_ENV);
    const key = ctx.services.inboundMessages.sandboxKey();
    const before = w.tables();
    for (const wrong of ["", "x", key.slice(0, -1), `${key}x`, key.toUpperCase()]) {
      const res = await w.post(`${INBOUND}?key=${encodeURIComponent(wrong)}`, w.message(w.sam.phone, "STOP"));
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: DOOR_CLOSED });
    }
    expect(w.tables()).toEqual(before);
    const res = await w.post(`${INBOUND}?key=${key}`, w.message(w.sam.phone, "STOP"));
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: twiml(STOP_REPLY) });
    expect(w.statusOf(w.sam.id)).toEqual(["unsubscribed"]);
  });

  test("the key is made once (random, 256 bits), stored as an internal key, never shown as a setting or logged", async () => {
    const w = world(SANDBOX_ENV);
    expect(ctx.repos.settings.get(SANDBOX_KEY_SETTING)).toBeUndefined();
    const key = ctx.services.inboundMessages.sandboxKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ctx.services.inboundMessages.sandboxKey()).toBe(key);
    expect(ctx.repos.settings.get(SANDBOX_KEY_SETTING)).toBe(key);
    expect(Object.keys(ctx.services.settings.view(insertUser(ctx, { role: "admin" })))).not.toContain(SANDBOX_KEY_SETTING);
    await w.post(`${INBOUND}?key=${key}`, w.message(w.sam.phone, "HELP"));
    await w.post(`${INBOUND}?key=nope`, w.message(w.sam.phone, "HELP"));
    expect(ctx.logger.lines.join("\n")).not.toContain(key);
    expect(ctx.logger.lines.join("\n")).not.toContain("nope");
  });

  test("an owner's session without the XSRF header: 403, nothing written (a session alone could be ridden from another site)", async () => {
    const w = world(SANDBOX_ENV);
    const before = w.tables();
    const res = await w.post(INBOUND, w.message(w.sam.phone, "STOP"), { token: w.rosa, noXsrf: true });
    expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: DOOR_CLOSED });
    expect(w.tables()).toEqual(before);
  });

  test("an owner simulates replies from their own customer's number: HELP, STOP, START", async () => {
    const w = world(SANDBOX_ENV);
    expect((await w.post(INBOUND, w.message(w.sam.phone, "HELP"), { token: w.rosa })).body).toBe(twiml(helpReply({ name: "Rosa's Bakery", phone: "+14155550100" })));
    expect((await w.post(INBOUND, w.message(w.sam.phone, "STOP"), { token: w.rosa })).body).toBe(twiml(STOP_REPLY));
    expect(w.statusOf(w.sam.id)).toEqual(["unsubscribed"]);
    expect((await w.post(INBOUND, w.message(w.sam.phone, "START"), { token: w.rosa })).body).toBe(twiml(null)); // the confirmation goes through the outbox
    expect(w.statusOf(w.sam.id)).toEqual(["active"]);
    // Typed the national way, as the panel allows: the same customer.
    expect((await w.post(INBOUND, w.message("(415) 555-0101", "HELP"), { token: w.rosa })).body).toBe(twiml(helpReply({ name: "Rosa's Bakery", phone: "+14155550100" })));
    // A simulated HELP makes no link to the person's subscriptions page (it would show other owners' businesses).
    expect(ctx.db.select().from(subscriptionLinks).all()).toEqual([]);
    // A simulated reply says nothing about Twilio reaching the server.
    expect(ctx.repos.settings.get("seen.inboundWebhookAt")).toBeUndefined();
  });

  test("cross-tenant: an owner cannot speak for another owner's customer, a shared number, or a stranger; nothing leaks or changes", async () => {
    const w = world(SANDBOX_ENV);
    const before = w.tables();
    for (const [from, body] of [
      [w.gail.phone, "HELP"],
      [w.gail.phone, "STOP"],
      [w.max.phone, "HELP"],
      [w.max.phone, "STOP"],
      ["+14155550999", "HELP"],
    ] as const) {
      const res = await w.post(INBOUND, w.message(from, body), { token: w.rosa });
      expect({ from, body, status: res.status, answer: res.body }).toEqual({ from, body, status: 403, answer: NOT_YOURS });
      expect(JSON.stringify(res.body)).not.toContain("Gym");
    }
    expect(w.tables()).toEqual(before);
    // Ivan may for Gail, his own.
    expect((await w.post(INBOUND, w.message(w.gail.phone, "HELP"), { token: w.ivan })).body).toBe(twiml(helpReply({ name: "Iron & Oak Gym", phone: "+14155550100" })));
  });

  test("the admin may simulate replies from any number", async () => {
    const w = world(SANDBOX_ENV);
    expect((await w.post(INBOUND, w.message(w.max.phone, "HELP"), { token: w.admin })).body).toBe(
      twiml(helpReply({ name: "Iron & Oak Gym", phone: "+14155550100" })),
    );
    expect((await w.post(INBOUND, w.message(w.max.phone, "STOP"), { token: w.admin })).status).toBe(200);
    expect(w.statusOf(w.max.id)).toEqual(["unsubscribed", "unsubscribed"]);
  });

  test("the status webhook: the key or an admin's session; an owner's session or nothing: 403, nothing written", async () => {
    const w = world(SANDBOX_ENV);
    const broadcast = insertBroadcast(ctx, { businessId: w.bakery.id, messageText: "Fresh croissants" });
    const sid = messageSid();
    const d = insertDelivery(ctx, broadcast, w.sam, { status: "Sent", providerId: sid, sentAt: new Date("2026-01-15T11:00:00Z") });
    const path = `${STATUS}?delivery=${d.id}`;
    const cb = (status: string): WebhookParams => ({ AccountSid: FAKE_ACCOUNT_SID, MessageSid: sid, MessageStatus: status, To: w.sam.phone });
    const before = w.tables();
    for (const how of [{}, { token: w.rosa }, { token: w.admin, noXsrf: true }]) {
      const res = await w.post(path, cb("delivered"), how);
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: DOOR_CLOSED });
    }
    expect(w.tables()).toEqual(before);
    expect((await w.post(path, cb("sent"), { token: w.admin })).status).toBe(200);
    expect((await w.post(`${path}&key=${ctx.services.inboundMessages.sandboxKey()}`, cb("delivered"))).status).toBe(200);
    expect(allDeliveries(ctx).find((x) => x.id === d.id)!.status).toBe("Delivered");
  });
});

describe("GET /api/webhooks/twilio/Sandbox (the Try a reply panel)", () => {
  test("401 anonymous; an owner learns it is the sandbox but not the key; the admin gets the URL with the key", async () => {
    const w = world(SANDBOX_ENV);
    expect((await w.api.get("/api/webhooks/twilio/Sandbox")).status).toBe(401);
    expect((await w.api.get("/api/webhooks/twilio/Sandbox", { token: w.rosa })).body).toEqual({ sandbox: true, inboundUrl: null });
    const admin = await w.api.get("/api/webhooks/twilio/Sandbox", { token: w.admin });
    expect(admin.body).toEqual({ sandbox: true, inboundUrl: `${PUBLIC_URL}${INBOUND}?key=${ctx.services.inboundMessages.sandboxKey()}` });
    // The URL works as given.
    const res = await w.post(new URL(admin.body.inboundUrl).pathname + new URL(admin.body.inboundUrl).search, w.message(w.gail.phone, "HELP"));
    // Issue 24: a HELP as Twilio would post it carries the link to the person's subscriptions page (public URL saved).
    const link = /https:\/\/shop\.example\.com\/my-subscriptions\?t=[\w-]{22}/.exec(String(res.body))?.[0] ?? null;
    expect(link).not.toBeNull();
    expect(res.body).toBe(twiml(helpReply({ name: "Iron & Oak Gym", phone: "+14155550100" }, "Nearcast", link)));
  });

  test("with Twilio configured: not the sandbox, no URL", async () => {
    const w = world(TWILIO_ENV);
    expect((await w.api.get("/api/webhooks/twilio/Sandbox", { token: w.admin })).body).toEqual({ sandbox: false, inboundUrl: null });
    expect(ctx.repos.settings.get(SANDBOX_KEY_SETTING)).toBeUndefined();
  });
});
