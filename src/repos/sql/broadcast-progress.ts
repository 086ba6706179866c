// Where a broadcast's sending stands: what it says, its counts, when the next delivery is due, its completion, and
// the retry of its failed deliveries.
import type { Db } from "../../db/client.ts";
import type { BroadcastMessage } from "../../dispatch/store.ts";
import { COLUMNS, type DeliveryRow, type DeliveryStatus, emptyCounts, type StatusCounts } from "./delivery-rows.ts";
import { nextScheduledAt } from "./scheduled-starts.ts";
import { phoneTimeZones } from "../../lib/phone-time-zones.ts";
import { statements } from "./statements.ts";
import { transactionRunner } from "../transaction.ts";

/** Twilio error codes after which sending the same message again cannot help (the retry endpoint skips them). */
const NON_RETRYABLE_CODES: readonly number[] = [
  21610, // the recipient replied STOP
  21211, // invalid 'To' number
  21614, // not a mobile number
  30004, // message blocked
  30005, // unknown or inactive destination
  30006, // landline or unreachable carrier
];

const RETRYABLE = `(error_code IS NULL OR error_code NOT IN (${NON_RETRYABLE_CODES.join(", ")}))`;
// The status IN comes first so SQLite seeks the two statuses in deliveries_broadcast_status_idx instead of walking
// every delivery of the broadcast (an OR alone hides the status from the index).
const EXPIRED_OR_RETRYABLE = `status IN ('Expired', 'Failed') AND (status = 'Expired' OR ${RETRYABLE})`;

export interface WaitingCounts {
  quietHours: number;
  dailyLimit: number;
  /** When the first message held by quiet hours is due, on the recipient's clock ("8:00"); null when none is held. */
  quietHoursUntil?: string | null;
}

const q = statements((sqlite) => ({
  // The read before the write of completeFinished: with nothing to do, the dispatcher does not wait for the write
  // lock (another process, e.g. a CLI import, may hold it, and a wait for it blocks the server's event loop).
  anyFinished: sqlite.prepare<{ one: number }, []>(
    `SELECT 1 AS one FROM broadcasts
     WHERE completed_at IS NULL AND (scheduled_for IS NULL OR started_at IS NOT NULL) AND enqueued_through IS NULL AND NOT EXISTS (
       SELECT 1 FROM deliveries d WHERE d.broadcast_id = broadcasts.id AND d.status IN ('Queued', 'Sending', 'Uncertain'))
     LIMIT 1`,
  ),
  // A scheduled broadcast still waiting to start has no deliveries yet: it is not finished.
  completeFinished: sqlite.prepare<{ id: number }, [number]>(
    `UPDATE broadcasts SET completed_at = ?1
     WHERE completed_at IS NULL AND (scheduled_for IS NULL OR started_at IS NOT NULL) AND enqueued_through IS NULL AND NOT EXISTS (
       SELECT 1 FROM deliveries d WHERE d.broadcast_id = broadcasts.id AND d.status IN ('Queued', 'Sending', 'Uncertain'))
     RETURNING id`,
  ),
  nextDue: sqlite.prepare<{ at: number | null }, []>(
    `SELECT MIN(at) AS at FROM (
       SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status = 'Queued'
       UNION ALL SELECT MIN(next_attempt_at) FROM deliveries WHERE status = 'Uncertain')`,
  ),
  findById: sqlite.prepare<DeliveryRow, [number]>(`SELECT ${COLUMNS} FROM deliveries WHERE id = ?1`),
  broadcastMessage: sqlite.prepare<BroadcastMessage, [number]>(
    `SELECT message_text AS messageText, image_path AS imagePath, content_sid AS contentSid, content_variables AS contentVariables,
       track_links AND EXISTS (SELECT 1 FROM broadcast_links WHERE broadcast_id = ?1) AS trackLinks, unique_coupons AS uniqueCoupons
     FROM broadcasts WHERE id = ?1`,
  ),
  retryFailed: sqlite.prepare<{ id: number }, [number, number]>(
    `UPDATE deliveries SET status = 'Queued', next_attempt_at = ?2, updated_at = ?2, provider_id = NULL,
       provider_status = NULL, error_code = NULL, error_message = NULL, claimed_at = NULL, sent_at = NULL
     WHERE broadcast_id = ?1 AND ${EXPIRED_OR_RETRYABLE}
     RETURNING id`,
  ),
  retryableFailed: sqlite.prepare<{ n: number }, [number]>(
    `SELECT count(*) AS n FROM deliveries WHERE broadcast_id = ?1 AND ${EXPIRED_OR_RETRYABLE}`,
  ),
  reopen: sqlite.prepare<unknown, [number]>(`UPDATE broadcasts SET completed_at = NULL WHERE id = ?1`),
  waitingByBroadcast: sqlite.prepare<{ reason: "quiet_hours" | "daily_limit"; n: number }, [number]>(
    `SELECT reason, n FROM broadcast_counts WHERE broadcast_id = ?1 AND status = 'Queued' AND reason IN ('quiet_hours', 'daily_limit')`,
  ),
  // The first message held by quiet hours (deliveries_broadcast_status_idx), with the zone its due time is read in.
  firstHeld: sqlite.prepare<{ at: number; phone: string; zone: string | null }, [number]>(
    `SELECT d.next_attempt_at AS at, d.to_phone AS phone, b.time_zone AS zone FROM deliveries d JOIN businesses b ON b.id = d.business_id
     WHERE d.broadcast_id = ?1 AND d.status = 'Queued' AND d.deferred_reason = 'quiet_hours' ORDER BY d.next_attempt_at LIMIT 1`,
  ),
  // Quiet hours changed: every message they hold is due now, and the next claim plans it again with the new window.
  replanQuietHeld: sqlite.prepare<unknown, [number]>(
    `UPDATE deliveries SET next_attempt_at = ?1 WHERE status = 'Queued' AND deferred_reason = 'quiet_hours' AND next_attempt_at > ?1`,
  ),
  countsByBroadcast: sqlite.prepare<{ status: DeliveryStatus; n: number }, [number]>(
    // The counts the triggers keep (migrations/0011), not a count of the rows: a few rows however big the broadcast.
    `SELECT status, SUM(n) AS n FROM broadcast_counts WHERE broadcast_id = ?1 GROUP BY status`,
  ),
  listByBroadcast: sqlite.prepare<DeliveryRow, [number]>(`SELECT ${COLUMNS} FROM deliveries WHERE broadcast_id = ?1 ORDER BY id`),
}));

/** The due time on the recipient's clock (their number's zone, else the business's, else the server's): "8:00". */
function heldUntil(first: { at: number; phone: string; zone: string | null } | null): string | null {
  if (!first) return null;
  const timeZone = phoneTimeZones(first.phone)[0] ?? first.zone ?? undefined;
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit", hourCycle: "h23" }).formatToParts(first.at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "0";
  return `${Number(part("hour"))}:${part("minute")}`;
}

export function broadcastProgress(db: Db) {
  const transaction = transactionRunner(db);
  return {
    /** The earliest next_attempt_at of a Queued or Uncertain row, or scheduled_for of a broadcast waiting to
     * start (null when there is none). */
    nextDueAt(): number | null {
      const delivery = q(db).nextDue.get()?.at ?? null;
      const scheduled = nextScheduledAt(db);
      if (delivery === null) return scheduled;
      return scheduled === null ? delivery : Math.min(delivery, scheduled);
    },

    /** Sets completed_at on every broadcast with nothing pending any more; returns their ids. */
    completeFinished(now: number): number[] {
      if (!q(db).anyFinished.get()) return [];
      return q(db).completeFinished.all(now).map((r) => r.id);
    },

    findById(id: number): DeliveryRow | undefined {
      return q(db).findById.get(id) ?? undefined;
    },

    /** The text and image every delivery of the broadcast sends. */
    broadcastMessage(broadcastId: number): BroadcastMessage | undefined {
      return q(db).broadcastMessage.get(broadcastId) ?? undefined;
    },

    /** Failed deliveries of the broadcast that may be sent again (see NON_RETRYABLE_CODES), and those that expired
     * before the recipient's quiet hours, go back to Queued (the claim holds them to the recipient's next window). */
    retryFailed(broadcastId: number, now: number): number {
      return transaction(() => {
        const n = q(db).retryFailed.all(broadcastId, now).length;
        if (n > 0) q(db).reopen.run(broadcastId);
        return n;
      });
    },

    /** How many of the broadcast's Failed deliveries retryFailed would send again. */
    retryableFailed(broadcastId: number): number {
      return q(db).retryableFailed.get(broadcastId)!.n;
    },

    /** Queued deliveries of the broadcast held back, by reason (they go at their next_attempt_at). */
    waiting(broadcastId: number): WaitingCounts {
      const out: WaitingCounts = { quietHours: 0, dailyLimit: 0 };
      for (const r of q(db).waitingByBroadcast.all(broadcastId)) out[r.reason === "quiet_hours" ? "quietHours" : "dailyLimit"] = r.n;
      out.quietHoursUntil = out.quietHours > 0 ? heldUntil(q(db).firstHeld.get(broadcastId)) : null;
      return out;
    },

    /** After the quiet-hours window changed: the messages it held are planned again at the next claim. */
    replanQuietHeld(now: number): void {
      q(db).replanQuietHeld.run(now);
    },

    counts(broadcastId: number): StatusCounts {
      const counts = emptyCounts();
      for (const r of q(db).countsByBroadcast.all(broadcastId)) counts[r.status] = r.n;
      return counts;
    },

    listByBroadcast(broadcastId: number): DeliveryRow[] {
      return q(db).listByBroadcast.all(broadcastId);
    },
  };
}
