// Deliveries handed to Twilio without a status callback (no public URL Twilio can reach; issue 23, item 4): their
// outcome is looked up with the Messages API instead, at status_check_at (migrations/0016; only rows waiting for a
// check are in its index, so the look-up of what is due reads nothing else).
import type { Db } from "../../db/client.ts";
import type { DeliveryStatus } from "./delivery-rows.ts";
import { statements } from "./statements.ts";

/** A delivery whose outcome is due to be looked up. */
export interface StatusCheck {
  id: number;
  providerId: string | null;
  status: DeliveryStatus;
  sentAt: number | null;
}

const q = statements((sqlite) => ({
  watch: sqlite.prepare<unknown, [number, number]>(`UPDATE deliveries SET status_check_at = ?2 WHERE id = ?1 AND status = 'Sent'`),
  due: sqlite.prepare<StatusCheck, [number, number]>(
    `SELECT id, provider_id AS providerId, status, sent_at AS sentAt FROM deliveries
     WHERE status_check_at IS NOT NULL AND status_check_at <= ?1 ORDER BY status_check_at, id LIMIT ?2`,
  ),
  set: sqlite.prepare<unknown, [number, number | null]>(`UPDATE deliveries SET status_check_at = ?2 WHERE id = ?1`),
}));

export function outboxStatusChecks(db: Db) {
  return {
    /** A Sent delivery no status callback will come for: its outcome is looked up at `at`. */
    watchStatus(id: number, at: number): void {
      q(db).watch.run(id, at);
    },

    /** Up to `limit` deliveries whose look-up is due at `now`, the longest waiting first. */
    dueStatusChecks(now: number, limit: number): StatusCheck[] {
      return q(db).due.all(now, limit);
    },

    /** The next look-up of this delivery at `at`; null: no more (its outcome is known, or it is given up). */
    setStatusCheck(id: number, at: number | null): void {
      q(db).set.run(id, at);
    },
  };
}
