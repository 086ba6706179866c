// Scheduled broadcasts (issue 11 item 5): a broadcasts row with scheduled_for set and started_at NULL has NO
// deliveries; its recipients are decided when it starts. Starting one is the same outbox write as an immediate publish
// (enqueue.ts), done by the dispatcher in one durable transaction with the started_at mark, so a restart
// never starts it twice nor loses it (everything is in the database; broadcasts_scheduled_idx is the queue).
import type { Db } from "../../db/client.ts";
import { durableTransactionRunner } from "../transaction.ts";
import { statements } from "./statements.ts";

const q = statements((sqlite) => ({
  due: sqlite.prepare<{ id: number; businessId: number }, [number, number]>(
    `SELECT id, business_id AS businessId FROM broadcasts
     WHERE started_at IS NULL AND cancelled_at IS NULL AND scheduled_for IS NOT NULL AND scheduled_for <= ?1
     ORDER BY scheduled_for, id LIMIT ?2`,
  ),
  // Guarded: a cancel that committed first wins (the row is no longer waiting, nothing is written).
  // Its deliveries are then written a chunk at a time from enqueued_through = 0 (deliveries.enqueueNextChunk); with
  // nobody to send to, it completes with total 0 once the last (empty) chunk is done.
  markStarted: sqlite.prepare<unknown, [number, number]>(
    `UPDATE broadcasts SET started_at = ?2, enqueued_through = 0 WHERE id = ?1 AND started_at IS NULL AND cancelled_at IS NULL`,
  ),
  nextScheduled: sqlite.prepare<{ at: number | null }, []>(
    `SELECT MIN(scheduled_for) AS at FROM broadcasts
     WHERE started_at IS NULL AND cancelled_at IS NULL AND scheduled_for IS NOT NULL`,
  ),
}));

/** When the next broadcast waiting to start is due; null when none waits. */
export function nextScheduledAt(db: Db): number | null {
  return q(db).nextScheduled.get()?.at ?? null;
}

export function scheduledStarts(db: Db) {
  const durableTransaction = durableTransactionRunner(db);
  return {
    /**
     * Starts scheduled broadcasts whose time has come (up to `limit`), each in ONE durable transaction: started_at,
     * its deliveries (the same enqueue as an immediate publish, so the recipients are the active subscribers NOW)
     * and its total; with nobody to send to it completes with total 0. Answers what was started.
     */
    startDueBroadcasts(now: number, limit = 20): number[] {
      const started: number[] = [];
      for (const b of q(db).due.all(now, limit)) {
        // Started (enqueued_through = 0): its deliveries follow a chunk at a time (enqueueNextChunk), as a publish's.
        if (durableTransaction(() => q(db).markStarted.run(b.id, now).changes) > 0) started.push(b.id);
      }
      return started;
    },
  };
}
