// Issue 23, item 4: which public URL Twilio may be handed links on (src/schemas/twilio-links.ts).
import { describe, expect, test } from "bun:test";
import { imageLinkProblem, twilioLinkBase } from "../../src/schemas/twilio-links.ts";

const REAL = "https://api.twilio.com";
const FAKE = "http://127.0.0.1:4010";

describe("twilioLinkBase", () => {
  test("a public URL on the internet is used as is", () => {
    for (const url of ["https://deals.example.com", "http://203.0.113.7:3000", "https://shop.example.co.uk/base"]) {
      expect(twilioLinkBase(url, REAL)).toBe(url);
    }
  });

  test("missing or private: null with the real Twilio", () => {
    const privates = [
      "http://localhost:3000", "http://127.0.0.1:3000", "http://127.8.9.1", "http://10.0.0.5", "http://192.168.1.20:3000",
      "http://172.16.0.1", "http://172.31.255.1", "http://169.254.10.10", "http://[::1]:3000", "http://[fc00::1]",
      "http://[fd12:3456::1]", "http://shop.local", "http://raspberrypi:3000",
    ];
    expect(twilioLinkBase(null, REAL)).toBeNull();
    expect(twilioLinkBase("", REAL)).toBeNull();
    for (const url of privates) expect([url, twilioLinkBase(url, REAL)]).toEqual([url, null]);
    // Just outside the private ranges.
    expect(twilioLinkBase("http://172.32.0.1", REAL)).toBe("http://172.32.0.1");
    expect(twilioLinkBase("http://172.15.0.1", REAL)).toBe("http://172.15.0.1");
  });

  test("the exception: a TWILIO_API_BASE on loopback or a private address may be given a private URL, never none", () => {
    expect(twilioLinkBase("http://127.0.0.1:3000", FAKE)).toBe("http://127.0.0.1:3000");
    expect(twilioLinkBase("http://192.168.1.20:3000", "http://10.0.0.9:4010")).toBe("http://192.168.1.20:3000");
    expect(twilioLinkBase(null, FAKE)).toBeNull();
  });

  test("the refusal names publicUrl and the fix; says which of missing or private it is", () => {
    expect(imageLinkProblem("https://deals.example.com", REAL)).toBeNull();
    expect(imageLinkProblem(null, REAL)).toBe(
      "Twilio cannot fetch this image: this server has no public address (publicUrl) yet. Set a public address (publicUrl) in Settings, or NEARCAST_PUBLIC_URL, so Twilio can fetch the image; or send without the image.",
    );
    expect(imageLinkProblem("http://192.168.1.20:3000", REAL)).toBe(
      "Twilio cannot fetch this image: the public address (publicUrl) http://192.168.1.20:3000 is private: only this network can reach it. Set a public address (publicUrl) in Settings, or NEARCAST_PUBLIC_URL, so Twilio can fetch the image; or send without the image.",
    );
    expect(imageLinkProblem("http://192.168.1.20:3000", FAKE)).toBeNull();
  });
});
