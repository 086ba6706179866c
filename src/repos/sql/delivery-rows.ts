// The outbox: one row per message to one subscriber (the deliveries table, src/db/schema.ts). What the statements of
// the outbox files beside this one share: the row's shape, its statuses, and the SQL fragments several of them embed.
//
// Status moves: Queued -> Sending (claimed) -> Sent -> Delivered | Failed. Sending -> Uncertain when the provider's
// answer was lost (or the process died mid-send); Uncertain is reconciled, never blindly resent. Skipped: the
// recipient is no longer an active subscriber when their turn came. Cancelled: still
// Queued when the owner stopped the broadcast (sql/broadcast-stop.ts). "Pending" = Queued, Sending or Uncertain.
// Sent -> Expired: Twilio dropped it when its ValidityPeriod ran out at the recipient's quiet hours (30036).

export type DeliveryStatus = "Queued" | "Sending" | "Uncertain" | "Sent" | "Delivered" | "Failed" | "Skipped" | "Expired" | "Cancelled";
export type DeliveryChannel = "SMS" | "WhatsApp";

export interface DeliveryRow {
  id: number;
  broadcastId: number;
  customerId: number;
  businessId: number;
  channel: DeliveryChannel;
  toPhone: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  claimedAt: number | null;
  sentAt: number | null;
  updatedAt: number | null;
  providerId: string | null;
  providerStatus: string | null;
  errorCode: number | null;
  errorMessage: string | null;
}

export interface StatusCounts {
  Queued: number;
  Sending: number;
  Uncertain: number;
  Sent: number;
  Delivered: number;
  Failed: number;
  Skipped: number;
  Expired: number;
  /** Not yet handed to the provider when the owner stopped the broadcast (broadcast-stop.ts). */
  Cancelled: number;
}

export function emptyCounts(): StatusCounts {
  return { Queued: 0, Sending: 0, Uncertain: 0, Sent: 0, Delivered: 0, Failed: 0, Skipped: 0, Expired: 0, Cancelled: 0 };
}

/** The columns of a DeliveryRow. */
export const COLUMNS = `id, broadcast_id AS broadcastId, customer_id AS customerId, business_id AS businessId, channel,
  to_phone AS toPhone, status, attempts, next_attempt_at AS nextAttemptAt, claimed_at AS claimedAt, sent_at AS sentAt,
  updated_at AS updatedAt, provider_id AS providerId, provider_status AS providerStatus, error_code AS errorCode,
  error_message AS errorMessage`;

/** A delivery whose broadcast is still being written: not sent until all of it is (a publish that fails half-way
 * takes every row back, and none may have gone). */
export const STILL_ENQUEUING = `(SELECT enqueued_through FROM broadcasts b WHERE b.id = deliveries.broadcast_id) IS NOT NULL`;

/** Whether a deliveries row belongs to an opt-in confirmation: those are sent to 'unconfirmed' (double opt-in)
 * subscriptions too, and are not marketing (no quiet hours, not in the daily cap). */
export const IS_CONFIRMATION = `(SELECT kind FROM broadcasts b WHERE b.id = deliveries.broadcast_id) = 'confirmation'`;

/** A delivery of a business whose owner the admin has not approved (or refused): nothing is texted for them. The
 * subquery does not depend on the row, so SQLite runs it once per statement (users_status_idx, businesses_owner_idx). */
export const OWNER_NOT_APPROVED = `deliveries.business_id IN (SELECT b.id FROM users u JOIN businesses b ON b.owner_id = u.id
  WHERE u.status IN ('pending', 'refused'))`;
