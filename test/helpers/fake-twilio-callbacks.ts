// What the fake Twilio does not do by itself: call a message's StatusCallback as Twilio does (a signed form POST to
// the URL given at creation), for the tests of what a callback changes. Loopback only: the URL must be 127.0.0.1.
import { twilioSignature } from "../../src/messaging/signature.ts";
import type { FakeMessage, FakeTwilio } from "./fake-twilio.ts";

/** Moves the stored message to `status` (with `errorCode`) and POSTs Twilio's status callback for it; the answer's
 * HTTP status. */
export async function sendStatusCallback(fake: FakeTwilio, sid: string, status: string, errorCode?: number): Promise<number> {
  const m: FakeMessage | undefined = fake.messages.get(sid);
  if (!m?.statusCallback) throw new Error(`message ${sid} has no StatusCallback`);
  const url = new URL(m.statusCallback);
  if (url.hostname !== "127.0.0.1") throw new Error(`callbacks stay on loopback, not ${url.hostname}`);
  fake.setStatus(sid, status, errorCode === undefined ? undefined : { code: errorCode, message: "" });
  const params: Record<string, string> = {
    AccountSid: m.accountSid, MessageSid: sid, SmsSid: sid, MessageStatus: status, SmsStatus: status, To: m.to, From: m.from ?? "", ApiVersion: "2010-04-01",
    ...(errorCode === undefined ? {} : { ErrorCode: String(errorCode) }),
  };
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(fake.authToken, url.origin, url.pathname + url.search, params),
      "user-agent": "TwilioProxy/1.1",
    },
    body: new URLSearchParams(params).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}
