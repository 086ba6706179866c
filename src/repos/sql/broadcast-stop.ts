// Stopping a broadcast that already started (issue 23 item 8): whatever is not yet handed to the provider becomes
// Cancelled, in one durable transaction with the broadcast's cancelled_at. The dispatcher's claim is a transaction
// too (BEGIN IMMEDIATE), so the two take turns: a row the claim got first is Sending (in flight) and finishes; a row
// the stop got first is Cancelled and is never claimed. A row in flight that comes back to the queue (rate limited,
// released) comes back as Cancelled (QUEUED_UNLESS_STOPPED, used by send-results.ts).
import type { Db } from "../../db/client.ts";
import { durableTransactionRunner } from "../transaction.ts";
import { statements } from "./statements.ts";

export const STOPPED_MESSAGE = "Not sent: the broadcast was stopped.";

/** The status a delivery that was not handed over goes back to: Queued, or Cancelled once its broadcast was stopped. */
export const QUEUED_UNLESS_STOPPED = `CASE WHEN (SELECT cancelled_at FROM broadcasts b WHERE b.id = deliveries.broadcast_id) IS NULL
  THEN 'Queued' ELSE 'Cancelled' END`;

const q = statements((sqlite) => ({
  // Any unfinished broadcast: scheduled, still being written (enqueued_through: no more chunks), or sending.
  markStopped: sqlite.prepare<{ id: number }, [number, number]>(
    `UPDATE broadcasts SET cancelled_at = ?2, enqueued_through = NULL
     WHERE id = ?1 AND cancelled_at IS NULL AND completed_at IS NULL RETURNING id`,
  ),
  cancelQueued: sqlite.prepare<unknown, [number, number, string]>(
    `UPDATE deliveries SET status = 'Cancelled', updated_at = ?2, error_message = ?3, deferred_reason = NULL, claimed_at = NULL
     WHERE broadcast_id = ?1 AND status = 'Queued'`,
  ),
}));

export function broadcastStop(db: Db) {
  const durableTransaction = durableTransactionRunner(db);
  return {
    /** Stops an unfinished broadcast: its Queued deliveries become Cancelled. null when it was already finished or
     * cancelled; else how many were cancelled. */
    stopBroadcast(broadcastId: number, now: number): { cancelled: number } | null {
      return durableTransaction(() => {
        if (q(db).markStopped.all(broadcastId, now).length === 0) return null;
        return { cancelled: q(db).cancelQueued.run(broadcastId, now, STOPPED_MESSAGE).changes };
      });
    },
  };
}
