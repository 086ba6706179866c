// What the broadcast API answers about a broadcast (shared with web/).

/** One broadcast with its delivery counts. queued + sent + delivered + failed = total: `queued` counts Queued,
 * Sending and Uncertain (not settled yet); `failed` includes `skipped` (recipients who unsubscribed before their
 * turn), which is also given on its own. */
export interface BroadcastSummary {
  id: number;
  businessId: number;
  messageText: string;
  imagePath: string | null;
  createdAt: string;
  total: number;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  skipped: number;
  /** Of `queued`: deliveries held back until the recipient's morning, or until their daily cap allows. */
  waiting?: { quietHours: number; dailyLimit: number };
  completedAt: string | null;
  /** Scheduled: when it starts (ISO 8601, UTC); null for an immediate broadcast. */
  scheduledFor: string | null;
  /** When its recipients were decided and its deliveries written; null while scheduled (or cancelled before). */
  startedAt: string | null;
  cancelledAt: string | null;
  /** scheduled: waiting for scheduledFor (can be edited or cancelled); cancelled: will never be sent. */
  state: BroadcastState;
}

export type BroadcastState = "scheduled" | "cancelled" | "sending" | "completed";

/** Broadcasts may be scheduled at most this many days ahead. */
export const MAX_SCHEDULE_DAYS = 35;
