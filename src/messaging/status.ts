import { whatsappErrorReason } from "./whatsapp-errors.ts";
import type { DeliveryStatus, StatusUpdate } from "./messenger.ts";

/** Twilio message statuses -> Nearcast's. Everything Twilio holds but has not yet handed to the carrier is Sent
 * from our side: it left our outbox and must never be sent again. Inbound statuses are not delivery statuses. */
const TWILIO_STATUS: Record<string, DeliveryStatus | null> = {
  queued: "Sent",
  accepted: "Sent",
  scheduled: "Sent",
  sending: "Sent",
  sent: "Sent",
  delivered: "Delivered",
  read: "Delivered",
  undelivered: "Failed",
  failed: "Failed",
  canceled: "Failed",
  receiving: null,
  received: null,
};

/** null for an inbound or unknown status (ignore it rather than guess). */
export function normalizeTwilioStatus(status: string | null | undefined): DeliveryStatus | null {
  return TWILIO_STATUS[(status ?? "").trim().toLowerCase()] ?? null;
}

const RANK: Record<DeliveryStatus, number> = { Queued: 0, Sent: 1, Delivered: 2, Failed: 2 };

/** Statuses only move forward: Queued -> Sent -> Delivered | Failed; Delivered and Failed are final.
 * (Twilio's callbacks can arrive out of order, e.g. `sent` after `delivered`.) */
export function canAdvance(current: DeliveryStatus, next: DeliveryStatus): boolean {
  if (current === "Delivered" || current === "Failed") return false;
  return RANK[next] > RANK[current];
}

/** Twilio error codes arrive as strings in callbacks ("30006") and numbers in the API. */
export function errorCodeOf(raw: unknown): number | null {
  if (typeof raw === "number" && Number.isInteger(raw)) return raw;
  if (typeof raw === "string" && /^\d{1,9}$/.test(raw.trim())) return Number(raw.trim());
  return null;
}

/** The form fields of a Twilio status callback (POST /api/webhooks/twilio/status) as a StatusUpdate;
 * null when it carries no message sid or a status that is not about an outbound message. */
export function parseStatusCallback(params: Record<string, unknown>, at: Date): StatusUpdate | null {
  const text = (k: string) => (typeof params[k] === "string" ? (params[k] as string).trim() : "");
  const providerId = text("MessageSid") || text("SmsSid");
  const providerStatus = (text("MessageStatus") || text("SmsStatus")).toLowerCase();
  const status = normalizeTwilioStatus(providerStatus);
  if (!/^[A-Za-z]{2}[0-9a-fA-F]{32}$/.test(providerId) || !status) return null;
  return {
    providerId,
    status,
    providerStatus,
    errorCode: errorCodeOf(params.ErrorCode),
    // WhatsApp's codes get a reason an owner can act on (Twilio's own text, when any, is terser).
    errorMessage: whatsappErrorReason(errorCodeOf(params.ErrorCode)) ?? (text("ErrorMessage") || null),
    at,
  };
}
