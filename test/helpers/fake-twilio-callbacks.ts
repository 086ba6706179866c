// What Twilio does after it accepted a message: it POSTs the message's status, signed, to the StatusCallback the
// message was created with (Twilio's "Message status callback" parameters). The fake stores that URL on each message;
// this sends the callback to it, through the app (the URL's path and query) or to a real server.
import { twilioSignature } from "../../src/messaging/signature.ts";
import type { ApiClient } from "./api.ts";
import { FAKE_AUTH_TOKEN, type FakeMessage, type FakeTwilio } from "./fake-twilio.ts";

export interface CallbackOptions {
  errorCode?: number;
  errorMessage?: string;
  authToken?: string;
}

/** The form Twilio posts for `message` now in `status` (queued, sent, delivered, undelivered, failed, read). */
export function statusCallbackParams(message: FakeMessage, status: string, opts: CallbackOptions = {}): Record<string, string> {
  return {
    AccountSid: message.accountSid,
    ApiVersion: "2010-04-01",
    From: message.from ?? "",
    To: message.to,
    MessageSid: message.sid,
    SmsSid: message.sid,
    MessageStatus: status,
    SmsStatus: status,
    ...(message.to.startsWith("whatsapp:") ? { ChannelPrefix: "whatsapp" } : {}),
    ...(opts.errorCode !== undefined ? { ErrorCode: String(opts.errorCode) } : {}),
    ...(opts.errorMessage !== undefined ? { ErrorMessage: opts.errorMessage } : {}),
  };
}

/** The request Twilio makes: the path and query of the message's StatusCallback, its signed form. */
function signedCallback(message: FakeMessage, status: string, opts: CallbackOptions) {
  if (!message.statusCallback) throw new Error(`message ${message.sid} has no StatusCallback`);
  const url = new URL(message.statusCallback);
  const params = statusCallbackParams(message, status, opts);
  const signature = twilioSignature(opts.authToken ?? FAKE_AUTH_TOKEN, url.origin, url.pathname + url.search, params);
  return {
    path: url.pathname + url.search,
    body: new URLSearchParams(params).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature, "user-agent": "TwilioProxy/1.1" },
  };
}

/** POSTs the signed status callback of `message` to the app behind `api`. */
export async function sendStatusCallback(api: ApiClient, message: FakeMessage, status: string, opts: CallbackOptions = {}) {
  const { path, body, headers } = signedCallback(message, status, opts);
  return api.call("POST", path, { body, headers, noXsrf: true });
}

/** POSTs it to a running server at `baseUrl` (whose public URL is the StatusCallback's origin); its HTTP status. */
export async function postStatusCallbackTo(baseUrl: string, message: FakeMessage, status: string, opts: CallbackOptions = {}): Promise<number> {
  const { path, body, headers } = signedCallback(message, status, opts);
  return (await fetch(`${baseUrl}${path}`, { method: "POST", body, headers })).status;
}

/** Moves the fake's message to `status` (with `errorCode`) and POSTs its signed status callback over HTTP to the
 * server its StatusCallback names (loopback only), as Twilio does; the answer's HTTP status. */
export async function postStatusCallback(fake: FakeTwilio, sid: string, status: string, errorCode?: number): Promise<number> {
  const message = fake.messages.get(sid);
  if (!message?.statusCallback) throw new Error(`message ${sid} has no StatusCallback`);
  const origin = new URL(message.statusCallback);
  if (origin.hostname !== "127.0.0.1") throw new Error(`callbacks stay on loopback, not ${origin.hostname}`);
  fake.setStatus(sid, status, errorCode === undefined ? undefined : { code: errorCode, message: "" });
  const { path, body, headers } = signedCallback(message, status, { errorCode, authToken: fake.authToken });
  const res = await fetch(`${origin.origin}${path}`, { method: "POST", body, headers });
  await res.arrayBuffer();
  return res.status;
}
