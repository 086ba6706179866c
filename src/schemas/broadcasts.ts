// What the broadcast API answers about a broadcast (shared with web/): derived from the publish schema, so a field a
// publish gives (and the table stores) shows here too.
import type { PublishInput, STEERING_FIELDS } from "./broadcast-input.ts";

/** What the owner gave, as stored and shown back: every publish field but those that only steer the publish. */
export type GivenFields = Omit<PublishInput, (typeof STEERING_FIELDS)[number]>;

/** A broadcast's deliveries by where they are. queued + sent + delivered + failed = total: `queued` counts Queued,
 * Sending and Uncertain (not settled yet); `failed` includes `skipped` (recipients who unsubscribed before their
 * turn), which is also given on its own. */
export interface DeliveryTally {
  total: number;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  skipped: number;
  /** Of `queued`: deliveries held back until the recipient's morning, or until their daily cap allows. */
  waiting?: { quietHours: number; dailyLimit: number };
  /** While sending: how many other shops' broadcasts are sent at the same time (the dispatcher takes turns between
   * shops, so each of them goes alongside this one); see broadcast-queue.ts for the words. */
  queueAhead?: number;
}

/** When it happened (ISO 8601, UTC), and so its state. */
export interface BroadcastTimeline {
  createdAt: string;
  completedAt: string | null;
  /** Scheduled: when it starts; null for an immediate broadcast. */
  scheduledFor: string | null;
  /** When its recipients were decided and its deliveries written; null while scheduled (or cancelled before). */
  startedAt: string | null;
  cancelledAt: string | null;
  /** scheduled: waiting for scheduledFor (can be edited or cancelled); cancelled: will never be sent. */
  state: BroadcastState;
}

/** One broadcast with its delivery counts. */
export type BroadcastSummary = { id: number } & GivenFields & { imagePath: string | null } & BroadcastTimeline & DeliveryTally;

export type BroadcastState = "scheduled" | "cancelled" | "sending" | "completed";

/** 200 answers of PublishMessageToAllCustomers. `warning`: who on WhatsApp is skipped and why (whatsappSkipWarning);
 * alone: nobody to send to. */
export type PublishResult =
  | { message: string; broadcastId: number; recipients: number; scheduledFor?: string; warning?: string }
  | { warning: string };

/** Broadcasts may be scheduled at most this many days ahead. */
export const MAX_SCHEDULE_DAYS = 35;
