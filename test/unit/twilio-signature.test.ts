import { describe, expect, test } from "bun:test";
// Signatures made by twilio's own signing code, not ours.
import { getExpectedTwilioSignature } from "twilio/lib/webhooks/webhooks";
import { twilioSignature, verifyTwilioSignature, webhookUrl } from "../../src/messaging/signature.ts";

const TOKEN = "0123456789abcdef0123456789abcdef";
const PUBLIC = "https://shop.example.com";
const PATH = "/api/webhooks/twilio/status?delivery=42";
const PARAMS = {
  AccountSid: "AC0123456789abcdef0123456789abcdef",
  MessageSid: "SM0123456789abcdef0123456789abcdef",
  MessageStatus: "delivered",
  To: "+15551234567",
  From: "+15550001111",
  ApiVersion: "2010-04-01",
};
const signed = getExpectedTwilioSignature(TOKEN, `${PUBLIC}${PATH}`, PARAMS);

describe("verifyTwilioSignature", () => {
  test("Twilio's documented example", () => {
    const params = { CallSid: "CA1234567890ABCDE", Caller: "+12349013030", Digits: "1234", From: "+12349013030", To: "+18005551212" };
    expect(twilioSignature("12345", "https://mycompany.com", "/myapp.php?foo=1&bar=2", params)).toBe(
      "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
    );
    expect(verifyTwilioSignature("12345", "https://mycompany.com", "/myapp.php?foo=1&bar=2", params, "0/KCTR6DLpKmkAf8muzZqo1nDgQ=")).toBe(true);
  });

  test("a valid signature over public URL + path + query is accepted", () => {
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, PARAMS, signed)).toBe(true);
    expect(twilioSignature(TOKEN, PUBLIC, PATH, PARAMS)).toBe(signed);
    // Order of the form fields does not matter (Twilio sorts them).
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse());
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, reversed, signed)).toBe(true);
  });

  test("a tampered, added or removed parameter is rejected", () => {
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, { ...PARAMS, MessageStatus: "failed" }, signed)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, { ...PARAMS, ErrorCode: "30006" }, signed)).toBe(false);
    const { To: _to, ...withoutTo } = PARAMS;
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, withoutTo, signed)).toBe(false);
  });

  test("the wrong URL is rejected: other host, scheme, path or query", () => {
    expect(verifyTwilioSignature(TOKEN, "https://evil.example.com", PATH, PARAMS, signed)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, "http://shop.example.com", PATH, PARAMS, signed)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, "/api/webhooks/twilio/inbound?delivery=42", PARAMS, signed)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, "/api/webhooks/twilio/status?delivery=43", PARAMS, signed)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, "/api/webhooks/twilio/status", PARAMS, signed)).toBe(false);
  });

  test("a missing, empty or foreign signature is rejected", () => {
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, PARAMS, null)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, PARAMS, undefined)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, PARAMS, "")).toBe(false);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, PARAMS, signed.slice(0, -1))).toBe(false);
    expect(verifyTwilioSignature("another-token-0000000000000000", PUBLIC, PATH, PARAMS, signed)).toBe(false);
    expect(verifyTwilioSignature("", PUBLIC, PATH, PARAMS, signed)).toBe(false);
  });

  test("the port may or may not be in the URL Twilio signed (twilio's validateRequest tries both)", () => {
    const withPort = getExpectedTwilioSignature(TOKEN, `https://shop.example.com:443${PATH}`, PARAMS);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, PATH, PARAMS, withPort)).toBe(true);
  });

  test("repeated form keys (arrays) are signed like Twilio does", () => {
    const params = { Body: "hi", MediaUrl: ["https://a.example/1.png", "https://a.example/2.png"] };
    const sig = getExpectedTwilioSignature(TOKEN, `${PUBLIC}/api/webhooks/twilio/inbound`, params);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, "/api/webhooks/twilio/inbound", params, sig)).toBe(true);
    expect(verifyTwilioSignature(TOKEN, PUBLIC, "/api/webhooks/twilio/inbound", { ...params, MediaUrl: ["https://a.example/1.png"] }, sig)).toBe(false);
  });

  test("webhookUrl joins the public URL and the path", () => {
    expect(webhookUrl("https://shop.example.com", "/api/webhooks/twilio/status?x=1")).toBe(
      "https://shop.example.com/api/webhooks/twilio/status?x=1",
    );
    expect(webhookUrl("https://shop.example.com/nearcast/", "/api/x")).toBe("https://shop.example.com/nearcast/api/x");
  });
});
