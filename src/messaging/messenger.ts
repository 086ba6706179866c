// The Messenger port: how the dispatcher hands one message to a provider and how it asks what became of it.
// Two adapters: twilio.ts (the real thing) and sandbox.ts (no account needed; messages are recorded, not sent).
// Nothing here imports the `twilio` package.
import { MAX_BODY_LENGTH } from "../schemas/broadcast-input.ts";
import { parseIdText } from "../schemas/ids.ts";

/** Nearcast's delivery statuses. Queued = still in our outbox; Sent = the provider has it (it must never be sent
 * again); Delivered and Failed are final. */
export type DeliveryStatus = "Queued" | "Sent" | "Delivered" | "Failed";

export type Channel = "sms" | "whatsapp";

export interface OutboundMessage {
  /** E.164, e.g. +15551234567 (the adapter adds `whatsapp:` itself). */
  to: string;
  channel: Channel;
  body: string;
  /** Absolute URL, or a path that the adapter resolves against NEARCAST_PUBLIC_URL (e.g. /uploads/ab12.jpg). */
  mediaUrl?: string;
  /** WhatsApp only: an approved template (Twilio Content API, HX…) sent with its variables (JSON object text) instead
   * of body and mediaUrl, which are then not sent (WhatsApp refuses a template's text in Body). `body` stays what the
   * owner wrote, for the history and for matching in findRecent(). */
  contentSid?: string;
  contentVariables?: string;
  /** Absolute URL or path as above. Default: /api/webhooks/twilio/status. Put the delivery id in the query
   * (…/status?delivery=42): the callback then identifies the delivery even when the send's answer was lost. */
  statusCallback?: string;
  /** Seconds Twilio may keep it queued (ValidityPeriod, 1..36000): until the recipient's quiet hours begin. Absent:
   * Twilio's default. */
  validityPeriod?: number;
}

export type SendOutcome =
  /** The provider accepted the message; `providerId` is its id (Twilio's SM… sid). Record it, never send again.
   * `unwatched`: no status callback was asked for (no public URL Twilio can reach): look the outcome up instead. */
  | { kind: "sent"; providerId: string; status: DeliveryStatus; providerStatus: string; unwatched?: true }
  /** HTTP 429: certainly not accepted. Retry later; wait at least `retryAfterMs` when the provider said so. */
  | { kind: "rate_limited"; retryAfterMs: number | null; code: number | null; message: string }
  /** Connection refused or host not found: the request never reached the provider. Safe to retry later. */
  | { kind: "unavailable"; message: string }
  /** 5xx, timeout, connection reset after the request was written: the provider may or may not have accepted it.
   * Do NOT send again; reconcile by the status callback, lookup(providerId) or findRecent(). */
  | { kind: "uncertain"; message: string }
  /** Twilio 21610: the recipient replied STOP to this sender. Mark the customer opted out; never retry. */
  | { kind: "opted_out"; code: 21610; message: string }
  /** About the account or the sender, not this recipient (account-errors.ts): a rotated token, a sender that cannot
   * send, an unregistered number, no sender set. Certainly not delivered: the channel pauses, the message waits. */
  | { kind: "account_problem"; code: number | null; message: string; fix: string }
  /** Permanent: invalid number, unsupported region, bad configuration… Record code and message; never retry.
   * `code` is the provider's error code, null when the message was refused before reaching the provider. */
  | { kind: "failed"; code: number | null; message: string };

/** What the provider knows about one message (for reconciling, and what status callbacks carry). */
export interface ProviderMessage {
  providerId: string;
  /** null for a provider status that is not about an outbound message (receiving, received). */
  status: DeliveryStatus | null;
  providerStatus: string;
  errorCode: number | null;
  errorMessage: string | null;
}

/** A status change pushed by the provider (Twilio: the status webhook; sandbox: its simulated timeline). */
export interface StatusUpdate extends ProviderMessage {
  at: Date;
  /** The delivery this is about, from the message's status callback URL (deliveryIdOf); null when unknown. */
  deliveryId?: number | null;
}

export interface Messenger {
  readonly name: "twilio" | "sandbox";
  /** Never throws and never hangs: every failure is an outcome. */
  send(msg: OutboundMessage): Promise<SendOutcome>;
  /** The message with this provider id; null when the provider does not know it.
   * Throws MessengerUnavailableError when the provider could not be asked (timeout, 5xx): try again later. */
  lookup(providerId: string): Promise<ProviderMessage | null>;
  /** For a send whose answer was lost (uncertain with no id): the newest message to `to` on `channel` with this
   * exact body created at or after `since`, or null. Throws MessengerUnavailableError like lookup(). */
  findRecent(msg: Pick<OutboundMessage, "to" | "channel" | "body" | "contentSid">, since: Date): Promise<ProviderMessage | null>;
  /** Stops timers and forgets pending work (sandbox); the Twilio adapter has nothing to release. */
  close(): void;
}

/** lookup()/findRecent() could not get an answer. The message never contains credentials. */
export class MessengerUnavailableError extends Error {
  override name = "MessengerUnavailableError";
}

export const E164 = /^\+[1-9]\d{6,14}$/;

/** Checks both adapters make before anything leaves the process; a failure is permanent (code null). */
export function preflight(msg: OutboundMessage): Extract<SendOutcome, { kind: "failed" }> | null {
  const fail = (message: string) => ({ kind: "failed" as const, code: null, message });
  if (typeof msg.body !== "string") return fail("Message text is missing");
  if (typeof msg.to !== "string" || !E164.test(msg.to)) {
    return fail(`Not an E.164 phone number: ${JSON.stringify(String(msg.to).slice(0, 40))}`);
  }
  if (msg.channel !== "sms" && msg.channel !== "whatsapp") return fail(`Unknown channel: ${String(msg.channel)}`);
  if (msg.contentSid !== undefined) {
    if (msg.channel !== "whatsapp") return fail("Templates (ContentSid) are for WhatsApp only");
    if (!/^HX\w{32}$/.test(msg.contentSid)) return fail(`Not a template sid: ${JSON.stringify(msg.contentSid.slice(0, 40))}`);
    return null;
  }
  if (!msg.body.trim() && !msg.mediaUrl) return fail("Message has neither text nor image");
  if (msg.body.length > MAX_BODY_LENGTH) return fail(`Message text is longer than ${MAX_BODY_LENGTH} characters`);
  return null;
}

/** NEARCAST_PUBLIC_URL + path; an absolute http(s) URL is kept as is. */
export function publicLink(publicUrl: string, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return publicUrl.replace(/\/+$/, "") + (pathOrUrl.startsWith("/") ? pathOrUrl : `/${pathOrUrl}`);
}

export const STATUS_WEBHOOK_PATH = "/api/webhooks/twilio/status";
export const INBOUND_WEBHOOK_PATH = "/api/webhooks/twilio/inbound";

/** The status callback of one delivery: the webhook finds the row by this id (also when the send's answer was lost). */
export function statusCallbackPath(deliveryId: number): string {
  return `${STATUS_WEBHOOK_PATH}?delivery=${deliveryId}`;
}

/** The delivery id in a status callback path or URL made by statusCallbackPath() (?delivery=42); null when absent
 * or malformed. */
export function deliveryIdOf(callback: string | null | undefined): number | null {
  return parseIdText(callback ? /[?&]delivery=([^&#]*)/.exec(callback)?.[1] : undefined);
}
