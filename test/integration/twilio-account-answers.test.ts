// Issue 23 item 2: the fake Twilio speaks Twilio's real answers about the account and the sender, and the messenger
// makes each an account problem (the channel pauses), while answers about one recipient stay that recipient's.
import { describe, expect, test } from "bun:test";
import { createMessenger } from "../../src/messaging/index.ts";
import type { SendOutcome } from "../../src/messaging/messenger.ts";
import { messagingFromEnv } from "../helpers/context.ts";
import type { FakeReply } from "../helpers/fake-twilio.ts";
import { fakeTwilioForFile } from "../helpers/worlds.ts";

const TO = "+14155550177";
const fake = fakeTwilioForFile({ resetEach: true });

const send = () =>
  createMessenger(messagingFromEnv({ NEARCAST_PUBLIC_URL: "https://shop.example.com", ...fake.settings() }), { twilioTimeoutMs: 2000 }).send({ to: TO, channel: "sms", body: "x" });

describe("the fake answers as api.twilio.com does", () => {
  test("a rotated token: 401 with Twilio's JSON body (code 20003) for the old one, 201 for the new one", async () => {
    const old = fake.authToken;
    fake.rotateAuthToken("new-primary-token-0011223344");
    const res = await fetch(`${fake.url}/2010-04-01/Accounts/${fake.accountSid}/Messages.json`, {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`${fake.accountSid}:${old}`)}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ To: TO, From: "+15550001111", Body: "x" }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 20003, message: "Authenticate", more_info: "https://www.twilio.com/docs/errors/20003", status: 401 });
    expect(fake.settings().TWILIO_AUTH_TOKEN).toBe("new-primary-token-0011223344");
    expect((await send()).kind).toBe("sent");
  });
});

describe("what the messenger makes of each answer", () => {
  const cases: Array<[string, FakeReply, Partial<SendOutcome>]> = [
    ["21606 (the sender cannot send)", "sender_not_capable", { kind: "account_problem", code: 21606 }],
    ["21659 (the sender is not the account's)", "sender_not_owned", { kind: "account_problem", code: 21659 }],
    ["21610 (the recipient replied STOP)", "opted_out", { kind: "opted_out", code: 21610 }],
    ["21211 (an invalid To)", "invalid_number", { kind: "failed", code: 21211 }],
    ["21614 (not a mobile number)", { reply: "error", status: 400, code: 21614, message: "'To' number is not a valid mobile number" }, { kind: "failed", code: 21614 }],
    ["63016 (outside the WhatsApp window)", { reply: "error", status: 400, code: 63016, message: "Failed to send freeform message because you are outside the allowed window." }, { kind: "failed", code: 63016 }],
  ];
  for (const [name, reply, expected] of cases) {
    test(name, async () => {
      fake.script(reply);
      const out = await send();
      expect(out).toMatchObject(expected);
      if (out.kind === "account_problem") expect(out.fix).toContain("Settings");
      expect(fake.sends()).toHaveLength(1);
    });
  }

  test("the old token after a rotation: an account problem with 20003, not a failure of the recipient", async () => {
    const settings = fake.settings();
    fake.rotateAuthToken("new-primary-token-5566778899");
    const out = await createMessenger(messagingFromEnv({ NEARCAST_PUBLIC_URL: "https://shop.example.com", ...settings }), { twilioTimeoutMs: 2000 }).send({ to: TO, channel: "sms", body: "x" });
    expect(out).toMatchObject({ kind: "account_problem", code: 20003 });
  });
});
