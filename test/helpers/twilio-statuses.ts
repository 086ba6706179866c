// Twilio's message statuses grouped by the Nearcast status each must become (Twilio's Message resource docs): the
// one expectation the status unit test and the adapter's lookup test both hold src/messaging/status.ts to.
import type { DeliveryStatus } from "../../src/messaging/messenger.ts";

export const OUTBOUND_TWILIO_STATUSES: Record<Exclude<DeliveryStatus, "Queued">, readonly string[]> = {
  Sent: ["queued", "accepted", "scheduled", "sending", "sent"],
  Delivered: ["delivered", "read"],
  Failed: ["undelivered", "failed", "canceled"],
};

/** Statuses of messages coming in: not about a delivery, so no delivery status. */
export const INBOUND_TWILIO_STATUSES = ["receiving", "received"] as const;

/** Every outbound status with the Nearcast status it maps to. */
export const outboundStatusPairs = (): [string, DeliveryStatus][] =>
  Object.entries(OUTBOUND_TWILIO_STATUSES).flatMap(([nearcast, twilio]) => twilio.map((t): [string, DeliveryStatus] => [t, nearcast as DeliveryStatus]));
