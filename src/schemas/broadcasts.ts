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
}
