// Scheduled broadcasts (issue 11 item 5): a broadcasts row with scheduled_for set and started_at NULL has NO
// deliveries; its recipients are decided when it starts. Starting one is the same outbox write as an immediate publish
// (deliveries.ts enqueue), done by the dispatcher in one durable transaction with the started_at mark, so a restart
// never starts it twice nor loses it (everything is in the database; broadcasts_scheduled_idx is the queue).
import type { Database } from "bun:sqlite";

export function prepareScheduledStarts(sqlite: Database) {
  return {
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
  };
}

export type ScheduledStartStatements = ReturnType<typeof prepareScheduledStarts>;
