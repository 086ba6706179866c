// The fake Twilio's side of an incoming text: the form Twilio POSTs to the number's messaging webhook, signed with the
// account's auth token (X-Twilio-Signature), with OptOutType as Twilio sets it. Twilio adds OptOutType (STOP, START or
// HELP) only when the number is in a Messaging Service with Advanced Opt-Out on, and only when the WHOLE body is one
// of the keywords, in any case ("Stop" yes, "Stop please" no); it has answered the keyword itself by then.
// (help.twilio.com: "How to Track Opt-Out, Opt-In and Help Messages Using the OptOutType Parameter".)
import { twilioSignature, type WebhookParams } from "../../src/messaging/signature.ts";

/** Twilio's default keywords (Advanced Opt-Out starts from these). */
const TWILIO_KEYWORDS: Record<"STOP" | "START" | "HELP", string[]> = {
  STOP: ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"],
  START: ["START", "YES", "UNSTOP"],
  HELP: ["HELP", "INFO"],
};

/** The OptOutType Twilio would put on this body, or undefined when it is not a keyword. */
export function twilioOptOutType(body: string): "STOP" | "START" | "HELP" | undefined {
  const word = body.trim().toUpperCase();
  return (Object.keys(TWILIO_KEYWORDS) as Array<keyof typeof TWILIO_KEYWORDS>).find((type) => TWILIO_KEYWORDS[type].includes(word));
}

export interface FakeInbound {
  from: string;
  body: string;
  /** Our number (default +15005550006). */
  to?: string;
  /** The number is in a Messaging Service with Advanced Opt-Out on (default true): OptOutType on keywords. */
  advancedOptOut?: boolean;
  /** MediaUrl0..N (NumMedia), absolute URLs. */
  media?: string[];
  /** The MessageSid (default: a new one), to replay a message. */
  sid?: string;
}

let counter = 0;

/** The form fields Twilio sends for one incoming SMS. */
export function inboundParams(accountSid: string, message: FakeInbound): WebhookParams {
  counter += 1;
  const sid = message.sid ?? `SM${Date.now().toString(16).padStart(16, "0")}${counter.toString(16).padStart(16, "0")}`;
  const media = message.media ?? [];
  const advanced = message.advancedOptOut ?? true;
  const type = advanced ? twilioOptOutType(message.body) : undefined;
  return {
    ToCountry: "US",
    SmsMessageSid: sid,
    NumMedia: String(media.length),
    ...Object.fromEntries(media.map((url, i) => [`MediaUrl${i}`, url])),
    SmsSid: sid,
    SmsStatus: "received",
    Body: message.body,
    To: message.to ?? "+15005550006",
    NumSegments: "1",
    MessageSid: sid,
    AccountSid: accountSid,
    From: message.from,
    ApiVersion: "2010-04-01",
    ...(advanced ? { MessagingServiceSid: "MG0123456789abcdef0123456789abcdef" } : {}),
    ...(type ? { OptOutType: type } : {}),
  };
}

/** The request Twilio makes to `publicUrl` + `pathWithQuery` for `message`: its form body and headers. */
export function inboundRequest(
  account: { accountSid: string; authToken: string },
  publicUrl: string,
  pathWithQuery: string,
  message: FakeInbound,
): { params: WebhookParams; body: string; headers: Record<string, string> } {
  const params = inboundParams(account.accountSid, message);
  const body = new URLSearchParams(params as Record<string, string>).toString();
  const headers = {
    "content-type": "application/x-www-form-urlencoded",
    "user-agent": "TwilioProxy/1.1",
    "x-twilio-signature": twilioSignature(account.authToken, publicUrl, pathWithQuery, params),
  };
  return { params, body, headers };
}

/** Sends it over HTTP to `webhookUrl` (signed for `publicUrl`, the address Twilio was given): the TwiML answer. */
export async function sendInbound(account: { accountSid: string; authToken: string }, webhookUrl: string, publicUrl: string, message: FakeInbound) {
  const url = new URL(webhookUrl);
  const req = inboundRequest(account, publicUrl, `${url.pathname}${url.search}`, message);
  const res = await fetch(webhookUrl, { method: "POST", headers: req.headers, body: req.body });
  return { status: res.status, twiml: await res.text() };
}
