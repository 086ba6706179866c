import { describe, expect, test } from "bun:test";
import { messagingFromEnv } from "../helpers/context.ts";
import { isUnreachableFromInternet } from "../../src/schemas/public-url.ts";
import { describeMessenger } from "../../src/messaging/index.ts";
import { deliveryIdOf, statusCallbackPath } from "../../src/messaging/messenger.ts";
import { canAdvance, normalizeTwilioStatus, parseStatusCallback } from "../../src/messaging/status.ts";
import { INBOUND_TWILIO_STATUSES, outboundStatusPairs } from "../helpers/twilio-statuses.ts";

const SID = "AC0123456789abcdef0123456789abcdef";
const TOKEN = "secret-token-abcdef0123456789";
const twilio = (env: Record<string, string>) =>
  messagingFromEnv({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, NEARCAST_PUBLIC_URL: "https://shop.example.com", ...env });

describe("describeMessenger: the start-up line", () => {
  test("sandbox without credentials (no warning even on localhost)", () => {
    expect(describeMessenger(messagingFromEnv({}))).toEqual([
      "Messages: sandbox (no Twilio credentials; messages are recorded, not sent)",
    ]);
  });

  test("Twilio: SMS and WhatsApp senders", () => {
    expect(describeMessenger(twilio({ TWILIO_FROM: "+15550001111", TWILIO_WHATSAPP_FROM: "whatsapp:+15550002222" }))).toEqual([
      "Messages: Twilio (SMS from +15550001111, WhatsApp from +15550002222)",
    ]);
    expect(describeMessenger(twilio({ TWILIO_MESSAGING_SERVICE_SID: "MG0123456789abcdef0123456789abcdef", TWILIO_FROM: "+15550001111" }))).toEqual([
      "Messages: Twilio (SMS via messaging service MG0123456789abcdef0123456789abcdef, no WhatsApp sender)",
    ]);
    expect(describeMessenger(twilio({ TWILIO_WHATSAPP_FROM: "+15550002222" }))).toEqual([
      "Messages: Twilio (no SMS sender, WhatsApp from +15550002222)",
    ]);
  });

  test("a non-default TWILIO_API_BASE is shown", () => {
    expect(describeMessenger(twilio({ TWILIO_FROM: "+15550001111", TWILIO_API_BASE: "http://127.0.0.1:4010" }))).toEqual([
      "Messages: Twilio (SMS from +15550001111, no WhatsApp sender; API http://127.0.0.1:4010)",
    ]);
  });

  test("Twilio with a public URL Twilio cannot reach: a second, warning line (issue 23: no callbacks, looked up instead)", () => {
    for (const url of ["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:3000", "http://192.168.1.20:3000"]) {
      expect(describeMessenger(twilio({ TWILIO_FROM: "+15550001111", NEARCAST_PUBLIC_URL: url }))).toEqual([
        "Messages: Twilio (SMS from +15550001111, no WhatsApp sender)",
        `The public URL is ${url}, a private address: Twilio gets no status callbacks (outcomes are looked up instead) and broadcasts with an image are refused; set the public address in Settings or NEARCAST_PUBLIC_URL`,
      ]);
    }
  });

  test("a private public URL with a TWILIO_API_BASE on this network (a fake Twilio): no warning, links go out as given", () => {
    expect(describeMessenger(twilio({ TWILIO_FROM: "+15550001111", NEARCAST_PUBLIC_URL: "http://127.0.0.1:8080", TWILIO_API_BASE: "http://127.0.0.1:4010" }))).toEqual([
      "Messages: Twilio (SMS from +15550001111, no WhatsApp sender; API http://127.0.0.1:4010)",
    ]);
  });

  test("Twilio without a public URL: no callbacks and no images, said on a second line (issue 21)", () => {
    const config = messagingFromEnv({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: "+15550001111" });
    expect(config.publicUrl).toBeNull();
    expect(describeMessenger(config)[1]).toBe(
      "No public URL is set: Twilio gets no status callbacks (outcomes are looked up instead) and broadcasts with an image are refused; set the public address in Settings or NEARCAST_PUBLIC_URL",
    );
  });

  test("never shows the auth token", () => {
    const lines = describeMessenger(twilio({ TWILIO_FROM: "+15550001111", NEARCAST_PUBLIC_URL: "http://localhost:3000" }));
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  test("isUnreachableFromInternet", () => {
    for (const h of ["localhost", "app.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "0.0.0.0", "10.0.0.5", "172.16.0.1", "172.31.255.1", "169.254.1.1"]) {
      expect(isUnreachableFromInternet(h)).toBe(true);
    }
    for (const h of ["shop.example.com", "8.8.8.8", "172.32.0.1", "192.169.0.1", "localhost.example.com"]) {
      expect(isUnreachableFromInternet(h)).toBe(false);
    }
  });
});

describe("Twilio statuses", () => {
  test("normalizeTwilioStatus", () => {
    for (const [twilioStatus, nearcast] of outboundStatusPairs()) expect(normalizeTwilioStatus(twilioStatus)).toBe(nearcast);
    for (const twilioStatus of [...INBOUND_TWILIO_STATUSES, "bogus", ""]) expect(normalizeTwilioStatus(twilioStatus)).toBeNull();
    expect(normalizeTwilioStatus(" Delivered ")).toBe("Delivered");
    expect(normalizeTwilioStatus(undefined)).toBeNull();
  });

  test("canAdvance: only forward; Delivered and Failed are final", () => {
    expect(canAdvance("Queued", "Sent")).toBe(true);
    expect(canAdvance("Queued", "Failed")).toBe(true);
    expect(canAdvance("Sent", "Delivered")).toBe(true);
    expect(canAdvance("Sent", "Failed")).toBe(true);
    expect(canAdvance("Sent", "Sent")).toBe(false);
    expect(canAdvance("Delivered", "Sent")).toBe(false);
    expect(canAdvance("Delivered", "Failed")).toBe(false);
    expect(canAdvance("Failed", "Delivered")).toBe(false);
  });

  test("parseStatusCallback reads Twilio's form fields", () => {
    const at = new Date("2026-01-15T12:00:00Z");
    const sid = "SM0123456789abcdef0123456789abcdef";
    expect(parseStatusCallback({ MessageSid: sid, MessageStatus: "undelivered", ErrorCode: "30006" }, at)).toEqual({
      providerId: sid,
      status: "Failed",
      providerStatus: "undelivered",
      errorCode: 30006,
      errorMessage: null,
      at,
    });
    expect(parseStatusCallback({ SmsSid: sid, SmsStatus: "delivered" }, at)?.status).toBe("Delivered");
    expect(parseStatusCallback({ MessageSid: sid, MessageStatus: "received" }, at)).toBeNull();
    expect(parseStatusCallback({ MessageSid: "nope", MessageStatus: "sent" }, at)).toBeNull();
    expect(parseStatusCallback({ MessageStatus: "sent" }, at)).toBeNull();
  });
});

describe("status callback URLs carry the delivery id", () => {
  test.each([
    ["/api/webhooks/twilio/status?delivery=42", 42],
    ["https://shop.example.com/api/webhooks/twilio/status?delivery=7", 7],
    ["/api/webhooks/twilio/status?x=1&delivery=9007199254740", 9007199254740],
    ["/api/webhooks/twilio/status", null],
    ["/api/webhooks/twilio/status?delivery=", null],
    ["/api/webhooks/twilio/status?delivery=0", null],
    ["/api/webhooks/twilio/status?delivery=-3", null],
    ["/api/webhooks/twilio/status?delivery=4x", null],
    ["/api/webhooks/twilio/status?delivery=12345678901234567", null],
    ["/api/webhooks/twilio/status?redelivery=5", null],
    [null, null],
  ])("%p -> %p", (url, id) => {
    expect(deliveryIdOf(url)).toBe(id);
  });

  test("statusCallbackPath and deliveryIdOf round-trip", () => {
    for (const id of [1, 42, 123456789]) expect(deliveryIdOf(statusCallbackPath(id))).toBe(id);
  });
});
