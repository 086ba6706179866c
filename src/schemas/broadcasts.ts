// What the broadcast API answers about a broadcast (shared with web/): derived from the publish schema, so a field a
// publish gives (and the table stores) shows here too.
import type { PublishInput, STEERING_FIELDS } from "./broadcast-input.ts";
import type { LinkTracking } from "./link-tracking.ts";

/** What the owner gave, as stored and shown back: every publish field but those that only steer the publish. */
export type GivenFields = Omit<PublishInput, (typeof STEERING_FIELDS)[number]>;

/** A broadcast's deliveries by where they are. queued + sent + delivered + failed + skipped + expired + cancelled = total:
 * `queued` counts Queued, Sending and Uncertain (not settled yet); `failed`, what the provider refused or could not
 * deliver; `skipped`, recipients never sent to (unsubscribed before their turn, a number rule, WhatsApp's rules);
 * `expired`, dropped by Twilio when the recipient's quiet hours began; `cancelled`, what was not yet sent when the
 * owner stopped the broadcast. */
export interface DeliveryTally {
  total: number;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  skipped: number;
  /** Not delivered because Twilio dropped them when the recipient's quiet hours began ("Expired before quiet hours");
   * not in `failed`. Retry sends them in the next window. */
  expired: number;
  cancelled: number;
  /** Of `failed` and `expired`: those RetryFailedDeliveries would send again (not an opted-out or invalid number; 0 once stopped). */
  retryable: number;
  /** Of `queued`: deliveries held back until the recipient's morning, or until their daily cap allows. */
  waiting?: { quietHours: number; dailyLimit: number; quietHoursUntil?: string | null };
  /** While sending: how many other shops' broadcasts are sent at the same time (the dispatcher takes turns between
   * shops, so each of them goes alongside this one); see broadcast-queue.ts for the words. */
  queueAhead?: number;
}

/** Why an expired delivery never arrived (Twilio 30036: its ValidityPeriod ran out at the recipient's quiet hours). */
export const EXPIRED_BEFORE_QUIET_HOURS = "Expired before quiet hours";

/** When it happened (ISO 8601, UTC), and so its state. */
export interface BroadcastTimeline {
  createdAt: string;
  completedAt: string | null;
  /** Scheduled: when it starts; null for an immediate broadcast. */
  scheduledFor: string | null;
  /** When its recipients were decided and its deliveries written; null while scheduled (or cancelled before). */
  startedAt: string | null;
  cancelledAt: string | null;
  /** The offer's end (CouponExpires: the last instant of that day in the business's time zone); null: none. */
  couponExpiresAt: string | null;
  /** scheduled: waiting for scheduledFor (can be edited or cancelled); cancelled: will never be sent. */
  state: BroadcastState;
}

/** While an account problem (a rotated token, no sender set...) holds its messages back: "Paused: <reason>". Its
 * messages wait and go once the admin fixes it; none is failed for it. */
export interface BroadcastPause {
  paused?: string;
}

/** One broadcast with its delivery counts. */
export type BroadcastSummary = { id: number } & GivenFields & { imagePath: string | null } & BroadcastTimeline & DeliveryTally & BroadcastPause;

export type BroadcastState = "scheduled" | "cancelled" | "sending" | "completed";

/** 200 answers of PublishMessageToAllCustomers (`linkTracking`: whether the text's links are tracked, and why not). `warning`: who on WhatsApp is skipped and why (whatsappSkipWarning);
 * alone: nobody to send to. */
export type PublishResult =
  | { message: string; broadcastId: number; recipients: number; scheduledFor?: string; warning?: string; linkTracking?: LinkTracking }
  | { warning: string };

/** Broadcasts may be scheduled at most this many days ahead. */
export const MAX_SCHEDULE_DAYS = 35;
