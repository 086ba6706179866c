// The Twilio adapter against the fake Twilio on loopback (TWILIO_API_BASE), which speaks Twilio's wire format.
// Not the scenario runner: it calls the Twilio adapter against the fake Twilio, not the app's API.
import { describe, expect, test } from "bun:test";
import { FakeClock } from "../../src/clock.ts";
import { messagingFromEnv } from "../helpers/context.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import { type Messenger, MessengerUnavailableError, type SendOutcome } from "../../src/messaging/messenger.ts";
import { createTwilioMessenger, parseRetryAfter } from "../../src/messaging/twilio.ts";
import { FAKE_SMS_FROM as SMS_FROM, FAKE_WHATSAPP_FROM as WA_FROM, type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { outboundStatusPairs } from "../helpers/twilio-statuses.ts";
import { until } from "../helpers/until.ts";
import { fakeTwilioForFile } from "../helpers/worlds.ts";

const PUBLIC = "https://shop.example.com";
const TO = "+15551234567";
const MSS = "MG0123456789abcdef0123456789abcdef";
const TIMEOUT_MS = 300;

const fake = fakeTwilioForFile({ resetEach: true });

/** Goes through loadConfig like the server does: TWILIO_* settings, TWILIO_API_BASE = the fake. */
function messenger(env: Record<string, string> = {}, clock?: FakeClock): Messenger {
  const m = createMessenger(messagingFromEnv({ NEARCAST_PUBLIC_URL: PUBLIC, ...fake.settings(), ...env }), { twilioTimeoutMs: TIMEOUT_MS, ...(clock ? { clock } : {}) });
  expect(m.name).toBe("twilio");
  return m;
}

function lastSend() {
  const sends = fake.sends();
  expect(sends.length).toBeGreaterThan(0);
  return sends[sends.length - 1]!;
}

describe("what goes on the wire", () => {
  test("SMS from TWILIO_FROM: form-encoded POST to the account's Messages.json with Basic auth", async () => {
    const out = await messenger().send({ to: TO, channel: "sms", body: "20% off today" });
    const req = lastSend();
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`/2010-04-01/Accounts/${fake.accountSid}/Messages.json`);
    expect(req.contentType).toStartWith("application/x-www-form-urlencoded");
    expect(req.auth).toEqual({ username: fake.accountSid, password: fake.authToken });
    // The headers twilio-node's client sends.
    expect(req.headers["user-agent"]).toMatch(/^twilio-node\/\d+\.\d+\.\d+ \(\w+ \w+\) node\/v\d/);
    expect(req.headers.accept).toBe("application/json");
    expect(req.headers["accept-charset"]).toBe("utf-8");
    expect(req.form).toEqual({
      To: TO,
      From: SMS_FROM,
      Body: "20% off today",
      StatusCallback: `${PUBLIC}/api/webhooks/twilio/status`,
    });
    const stored = [...fake.messages.values()][0]!;
    expect(out).toEqual({ kind: "sent", providerId: stored.sid, status: "Sent", providerStatus: "queued" });
    expect(stored.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(fake.sends()).toHaveLength(1);
  });

  test("SMS with TWILIO_MESSAGING_SERVICE_SID: MessagingServiceSid and no From", async () => {
    const out = await messenger({ TWILIO_MESSAGING_SERVICE_SID: MSS }).send({ to: TO, channel: "sms", body: "Hi" });
    expect(lastSend().form).toEqual({
      To: TO,
      MessagingServiceSid: MSS,
      Body: "Hi",
      StatusCallback: `${PUBLIC}/api/webhooks/twilio/status`,
    });
    expect(out).toMatchObject({ kind: "sent", status: "Sent", providerStatus: "accepted" });
  });

  test("WhatsApp: whatsapp: on To and From; TWILIO_WHATSAPP_FROM accepted with or without the prefix", async () => {
    for (const setting of [WA_FROM, `whatsapp:${WA_FROM}`]) {
      await messenger({ TWILIO_WHATSAPP_FROM: setting }).send({ to: TO, channel: "whatsapp", body: "Hola" });
      expect(lastSend().form).toEqual({
        To: `whatsapp:${TO}`,
        From: `whatsapp:${WA_FROM}`,
        Body: "Hola",
        StatusCallback: `${PUBLIC}/api/webhooks/twilio/status`,
      });
    }
    // WhatsApp never goes through the SMS messaging service.
    await messenger({ TWILIO_MESSAGING_SERVICE_SID: MSS }).send({ to: TO, channel: "whatsapp", body: "x" });
    expect(lastSend().form.MessagingServiceSid).toBeUndefined();
  });

  test("MediaUrl = public URL + image path; StatusCallback keeps its query; absolute URLs kept as they are", async () => {
    const m = messenger();
    await m.send({
      to: TO,
      channel: "sms",
      body: "New menu",
      mediaUrl: "/uploads/3f9a.jpg",
      statusCallback: "/api/webhooks/twilio/status?delivery=42",
    });
    expect(lastSend().form).toEqual({
      To: TO,
      From: SMS_FROM,
      Body: "New menu",
      MediaUrl: `${PUBLIC}/uploads/3f9a.jpg`,
      StatusCallback: `${PUBLIC}/api/webhooks/twilio/status?delivery=42`,
    });
    await m.send({ to: TO, channel: "sms", body: "", mediaUrl: "https://cdn.example.org/a.png" });
    // No empty Body when there is only an image.
    expect(lastSend().form).toEqual({
      To: TO,
      From: SMS_FROM,
      MediaUrl: "https://cdn.example.org/a.png",
      StatusCallback: `${PUBLIC}/api/webhooks/twilio/status`,
    });
  });

  test("without a public URL (issue 21): no StatusCallback at all, and an image on this server is not sent (nothing reaches Twilio)", async () => {
    const m = createMessenger({ ...messagingFromEnv(fake.settings()), publicUrl: null }, { twilioTimeoutMs: TIMEOUT_MS });
    expect(m.name).toBe("twilio");
    await m.send({ to: TO, channel: "sms", body: "Plain text", statusCallback: "/api/webhooks/twilio/status?delivery=7" });
    expect(lastSend().form).toEqual({ To: TO, From: SMS_FROM, Body: "Plain text" });
    const sent = fake.sends().length;
    expect(await m.send({ to: TO, channel: "sms", body: "With a photo", mediaUrl: "/uploads/3f9a.jpg" })).toEqual({
      kind: "failed",
      code: null,
      message: "The image was not sent: this server has no public URL, so Twilio cannot fetch it (set one in Settings)",
    });
    expect(fake.sends()).toHaveLength(sent);
    // An image already on the internet needs no address of ours.
    await m.send({ to: TO, channel: "sms", body: "", mediaUrl: "https://cdn.example.org/a.png" });
    expect(lastSend().form).toEqual({ To: TO, From: SMS_FROM, MediaUrl: "https://cdn.example.org/a.png" });
  });

  test("refused before anything is sent: bad number, nothing to send; no sender for the channel is an account problem (issue 23)", async () => {
    const noWa = messenger({ TWILIO_WHATSAPP_FROM: "" });
    expect(await noWa.send({ to: TO, channel: "whatsapp", body: "x" })).toEqual({
      kind: "account_problem",
      code: null,
      message: "No WhatsApp sender is set",
      fix: "Set the WhatsApp sender (TWILIO_WHATSAPP_FROM) in Settings.",
    });
    const onlyWa = messenger({ TWILIO_FROM: "" });
    expect(await onlyWa.send({ to: TO, channel: "sms", body: "x" })).toMatchObject({ kind: "account_problem", code: null, message: "No SMS sender is set" });
    expect(await noWa.send({ to: "5551234567", channel: "sms", body: "x" })).toMatchObject({ kind: "failed", code: null });
    expect(await noWa.send({ to: TO, channel: "sms", body: "  " })).toMatchObject({ kind: "failed", code: null });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("each Twilio answer maps to one outcome, after exactly one request", () => {
  const cases: Array<[string, Parameters<FakeTwilio["script"]>[0], SendOutcome]> = [
    [
      "429 with Retry-After seconds",
      { reply: "rate_limited", retryAfter: "7" },
      { kind: "rate_limited", retryAfterMs: 7000, code: 20429, message: "Too Many Requests" },
    ],
    [
      "429 without Retry-After",
      "rate_limited",
      { kind: "rate_limited", retryAfterMs: null, code: 20429, message: "Too Many Requests" },
    ],
    ["500", "server_error", { kind: "uncertain", message: "Twilio error 500 (20500): Internal Server Error" }],
    [
      "503",
      { reply: "server_error", status: 503 },
      { kind: "uncertain", message: "Twilio error 503 (20500): Internal Server Error" },
    ],
    ["21610", "opted_out", { kind: "opted_out", code: 21610, message: "Attempt to send to unsubscribed recipient" }],
    ["21211", "invalid_number", { kind: "failed", code: 21211, message: "Invalid 'To' Phone Number" }],
    [
      "another permanent error (21408)",
      { reply: "error", status: 400, code: 21408, message: "Permission to send an SMS has not been enabled for the region" },
      { kind: "failed", code: 21408, message: "Permission to send an SMS has not been enabled for the region" },
    ],
  ];
  for (const [name, reply, expected] of cases) {
    test(name, async () => {
      fake.script(reply);
      expect(await messenger().send({ to: TO, channel: "sms", body: "x" })).toEqual(expected);
      expect(fake.sends()).toHaveLength(1); // the adapter never retries: the dispatcher decides
    });
  }

  test("Retry-After as an HTTP date is measured from the clock", async () => {
    const clock = new FakeClock(new Date("2026-01-15T12:00:00Z"));
    fake.script({ reply: "rate_limited", retryAfter: "Thu, 15 Jan 2026 12:00:30 GMT" });
    expect(await messenger({}, clock).send({ to: TO, channel: "sms", body: "x" })).toMatchObject({
      kind: "rate_limited",
      retryAfterMs: 30_000,
    });
  });

  test("a script per number: only that recipient gets the error", async () => {
    const other = "+15557654321";
    fake.scriptFor(other, "opted_out");
    const m = messenger();
    expect((await m.send({ to: TO, channel: "sms", body: "x" })).kind).toBe("sent");
    expect((await m.send({ to: other, channel: "whatsapp", body: "x" })).kind).toBe("opted_out");
    expect((await m.send({ to: other, channel: "sms", body: "x" })).kind).toBe("sent");
  });

  test("wrong credentials: an account problem with Twilio's 20003 (never the recipient's failure), the token nowhere in the outcome", async () => {
    const out = await messenger({ TWILIO_AUTH_TOKEN: "not-the-token-0123" }).send({ to: TO, channel: "sms", body: "x" });
    expect(out).toEqual({
      kind: "account_problem",
      code: 20003,
      message: "Twilio refused the credentials (the auth token was changed or revoked) (Twilio: Authenticate)",
      fix: "Save the account's current auth token (Twilio console, Account info) in Settings.",
    });
    expect(JSON.stringify(out)).not.toContain("not-the-token-0123");
    expect(fake.sends()[0]?.auth?.password).toBe("not-the-token-0123");
  });

  test("a server that never answers: uncertain at the timeout, the request aborted, sent once", async () => {
    fake.script("hang");
    const out = await messenger().send({ to: TO, channel: "sms", body: "x" });
    expect(out.kind).toBe("uncertain");
    expect((out as { message: string }).message).toContain(`within ${TIMEOUT_MS} ms`);
    await until(() => fake.sends()[0]?.aborted === true, 2000, "the fake to see the request aborted");
    expect(fake.sends()).toHaveLength(1);
  });

  test("a slow answer inside the timeout is a normal send", async () => {
    fake.latencyMs = 100;
    expect((await messenger().send({ to: TO, channel: "sms", body: "x" })).kind).toBe("sent");
  });

  test("nothing listening: unavailable (the request never left), not uncertain", async () => {
    const closed = startFakeTwilio();
    const url = closed.url;
    await closed.stop();
    const out = await messenger({ TWILIO_API_BASE: url }).send({ to: TO, channel: "sms", body: "x" });
    expect(out.kind).toBe("unavailable");
  });
});

describe("the auth token never leaves in a message", () => {
  test("not in an error message that echoes it, nor in its Basic form", async () => {
    const basic = Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString("base64");
    fake.script(
      { reply: "error", status: 400, code: 20001, message: `bad token ${fake.authToken}` },
      { reply: "error", status: 400, code: 20001, message: `bad header Basic ${basic}` },
      { reply: "server_error", status: 502 },
      "hang",
    );
    const m = messenger();
    const outcomes: SendOutcome[] = [];
    for (let i = 0; i < 4; i++) outcomes.push(await m.send({ to: TO, channel: "sms", body: "x" }));
    expect(outcomes[0]).toEqual({ kind: "failed", code: 20001, message: "bad token [redacted]" });
    expect(outcomes[1]).toEqual({ kind: "failed", code: 20001, message: "bad header Basic [redacted]" });
    const text = JSON.stringify(outcomes);
    expect(text).not.toContain(fake.authToken);
    expect(text).not.toContain(basic);

    fake.scriptReads({ reply: "error", status: 500, code: 20500, message: `oops ${fake.authToken}` });
    const err = await m.lookup(`SM${"a".repeat(32)}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MessengerUnavailableError);
    expect(String((err as Error).message)).not.toContain(fake.authToken);
    expect(String((err as Error).stack)).not.toContain(fake.authToken);
  });
});

describe("lookup: by provider id, for reconciling", () => {
  test("Twilio's statuses map to Nearcast's", async () => {
    const m = messenger();
    const sent = await m.send({ to: TO, channel: "sms", body: "x" });
    if (sent.kind !== "sent") throw new Error(`expected sent, got ${sent.kind}`);
    const id = sent.providerId;
    expect(await m.lookup(id)).toEqual({
      providerId: id,
      status: "Sent",
      providerStatus: "queued",
      errorCode: null,
      errorMessage: null,
    });
    for (const [twilio, nearcast] of outboundStatusPairs()) {
      fake.setStatus(id, twilio);
      expect((await m.lookup(id))?.status).toBe(nearcast);
    }
    fake.setStatus(id, "undelivered", { code: 30003, message: "Unreachable destination handset" });
    expect(await m.lookup(id)).toEqual({
      providerId: id,
      status: "Failed",
      providerStatus: "undelivered",
      errorCode: 30003,
      errorMessage: "Unreachable destination handset",
    });
  });

  test("unknown sid: null; a sid that is not Twilio's (sandbox): null without asking", async () => {
    const m = messenger();
    expect(await m.lookup(`SM${"0".repeat(32)}`)).toBeNull();
    expect(fake.requests).toHaveLength(1);
    expect(await m.lookup("SMsandbox0123456789abcdef0123456")).toBeNull();
    expect(await m.lookup("SM../../Calls")).toBeNull();
    expect(fake.requests).toHaveLength(1);
  });

  test("Twilio failing or hanging: MessengerUnavailableError within the timeout", async () => {
    const m = messenger();
    fake.scriptReads("server_error", "hang");
    await expect(m.lookup(`SM${"1".repeat(32)}`)).rejects.toBeInstanceOf(MessengerUnavailableError);
    await expect(m.lookup(`SM${"1".repeat(32)}`)).rejects.toThrow(/within 300 ms/);
    await until(() => fake.requests.at(-1)?.aborted === true, 2000, "the fake to see the look-up aborted");
  });
});

describe("findRecent: a send whose answer was lost", () => {
  test("finds the message Twilio accepted although it answered 500", async () => {
    const m = messenger();
    const since = new Date();
    fake.script({ reply: "server_error", created: true });
    expect((await m.send({ to: TO, channel: "sms", body: "Lost answer" })).kind).toBe("uncertain");
    const stored = [...fake.messages.values()][0]!;
    expect(await m.findRecent({ to: TO, channel: "sms", body: "Lost answer" }, since)).toMatchObject({
      providerId: stored.sid,
      status: "Sent",
    });
    const list = fake.requests.at(-1)!;
    expect(list.method).toBe("GET");
    expect(list.query).toMatchObject({ To: TO, From: SMS_FROM, PageSize: "50" });
  });

  test("not found: another body, another number, another channel, or older than `since`", async () => {
    const m = messenger();
    await m.send({ to: TO, channel: "sms", body: "Promo" });
    const since = new Date();
    expect(await m.findRecent({ to: TO, channel: "sms", body: "Other" }, since)).toBeNull();
    expect(await m.findRecent({ to: "+15557654321", channel: "sms", body: "Promo" }, since)).toBeNull();
    expect(await m.findRecent({ to: TO, channel: "whatsapp", body: "Promo" }, since)).toBeNull();
    expect(await m.findRecent({ to: TO, channel: "sms", body: "Promo" }, new Date(Date.now() + 5 * 60_000))).toBeNull();
  });

  test("WhatsApp, and a hang answered by a lost-but-created message", async () => {
    const m = messenger();
    const since = new Date();
    fake.script({ reply: "hang", created: true });
    expect((await m.send({ to: TO, channel: "whatsapp", body: "Hola" })).kind).toBe("uncertain");
    expect(await m.findRecent({ to: TO, channel: "whatsapp", body: "Hola" }, since)).toMatchObject({ status: "Sent" });
    expect(fake.requests.at(-1)!.query).toMatchObject({ To: `whatsapp:${TO}`, From: `whatsapp:${WA_FROM}` });
  });
});

describe("helpers", () => {
  test("TWILIO_API_BASE with a path (a proxy): requests go under it, trailing slash or not", async () => {
    const seen: string[] = [];
    const proxy = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const url = new URL(req.url);
        seen.push(url.pathname + url.search);
        if (!url.pathname.startsWith("/twilio/")) return new Response("not here", { status: 404 });
        const target = fake.url + url.pathname.slice("/twilio".length) + url.search;
        return fetch(target, { method: req.method, headers: req.headers, body: req.method === "GET" ? undefined : await req.text() });
      },
    });
    try {
      for (const base of [`http://127.0.0.1:${proxy.port}/twilio/`, `http://127.0.0.1:${proxy.port}/twilio`]) {
        const m = messenger({ TWILIO_API_BASE: base });
        const out = await m.send({ to: TO, channel: "sms", body: "via proxy" });
        expect(out).toMatchObject({ kind: "sent" });
        const sid = (out as { providerId: string }).providerId;
        expect(await m.lookup(sid)).toMatchObject({ providerId: sid, status: "Sent" });
      }
      expect(seen.filter((p) => p === `/twilio/2010-04-01/Accounts/${fake.accountSid}/Messages.json`)).toHaveLength(2);
      expect(seen.every((p) => p.startsWith(`/twilio/2010-04-01/Accounts/${fake.accountSid}/Messages`))).toBe(true);
    } finally {
      proxy.stop(true);
    }
  });

  test("parseRetryAfter: seconds, dates, junk", () => {
    const now = new Date("2026-01-15T12:00:00Z");
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("2.5", now)).toBe(2500);
    expect(parseRetryAfter(["3"], now)).toBe(3000);
    expect(parseRetryAfter("Thu, 15 Jan 2026 11:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });

  test("an invalid account sid is a failed send, not a crash", async () => {
    const m = createTwilioMessenger({
      twilio: { accountSid: "XX123", authToken: "t0ken-value", from: SMS_FROM, messagingServiceSid: null, whatsappFrom: null },
      apiBase: fake.url,
      publicUrl: PUBLIC,
      timeoutMs: TIMEOUT_MS,
    });
    expect(await m.send({ to: TO, channel: "sms", body: "x" })).toMatchObject({ kind: "failed", code: null });
  });
});
