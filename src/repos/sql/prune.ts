// `nearcast prune`: the delivery rows of broadcasts finished long ago go; their totals stay.
import type { Db } from "../../db/client.ts";
import { transactionRunner } from "../transaction.ts";
import { statements } from "./statements.ts";

const q = statements((sqlite) => ({
  prunable: sqlite.prepare<{ id: number }, [number]>(
    `SELECT id FROM broadcasts WHERE completed_at IS NOT NULL AND completed_at < ?1
       AND EXISTS (SELECT 1 FROM deliveries d WHERE d.broadcast_id = broadcasts.id) ORDER BY id`,
  ),
  countsOf: sqlite.prepare<{ status: string; reason: string; n: number }, [number]>(
    "SELECT status, reason, n FROM broadcast_counts WHERE broadcast_id = ?1",
  ),
  putCount: sqlite.prepare<unknown, [number, string, string, number]>(
    "UPDATE broadcast_counts SET n = ?4 WHERE broadcast_id = ?1 AND status = ?2 AND reason = ?3",
  ),
  pruneChunk: sqlite.prepare<unknown, [number, number]>(
    "DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries WHERE broadcast_id = ?1 LIMIT ?2)",
  ),
}));

export function outboxPrune(db: Db) {
  const transaction = transactionRunner(db);
  return {
    /** Finished broadcasts completed before `before` that still have delivery rows (what `nearcast prune` removes). */
    prunableBroadcasts(before: number): number[] {
      return q(db).prunable.all(before).map((r) => r.id);
    },

    /**
     * Removes up to `limit` delivery rows of a finished broadcast in one short transaction; how many. The broadcast
     * keeps its totals (the history still says how many were sent, delivered, failed): the counting trigger's
     * decrements are put back in the same transaction.
     */
    pruneDeliveries(broadcastId: number, limit: number): number {
      return transaction(() => {
        const kept = q(db).countsOf.all(broadcastId);
        const removed = q(db).pruneChunk.run(broadcastId, limit).changes;
        for (const c of kept) q(db).putCount.run(broadcastId, c.status, c.reason, c.n);
        return removed;
      });
    },
  };
}
