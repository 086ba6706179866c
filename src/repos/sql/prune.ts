// `nearcast prune`: the delivery rows of broadcasts finished long ago go; their totals stay. The rows of a broadcast's
// links and coupons (migrations/0023) go with its deliveries: short links, clicks and unique coupons cascade from
// the delivery row; the shared coupon hangs off the broadcast, so the same step deletes it (and its redemptions).
import type { Db } from "../../db/client.ts";
import { transactionRunner } from "../transaction.ts";
import { statements } from "./statements.ts";

/** SQL condition on `broadcasts`: it carried links or a coupon, so its rows say who clicked or redeemed. */
const TRACKED = `(broadcasts.track_links = 1 OR broadcasts.coupon_code IS NOT NULL OR broadcasts.unique_coupons = 1
  OR EXISTS (SELECT 1 FROM coupons c WHERE c.broadcast_id = broadcasts.id)
  OR EXISTS (SELECT 1 FROM broadcast_links l WHERE l.broadcast_id = broadcasts.id))`;
const HAS_ROWS = "EXISTS (SELECT 1 FROM deliveries d WHERE d.broadcast_id = broadcasts.id)";

const q = statements((sqlite) => ({
  // A shared coupon outlives its deliveries when every recipient was forgotten: such a broadcast is prunable too.
  prunable: sqlite.prepare<{ id: number }, [number, number]>(
    `SELECT id FROM broadcasts WHERE completed_at IS NOT NULL AND completed_at < ?1
       AND (NOT ${TRACKED} OR completed_at < ?2)
       AND (${HAS_ROWS} OR EXISTS (SELECT 1 FROM coupons c WHERE c.broadcast_id = broadcasts.id)) ORDER BY id`,
  ),
  keptTracked: sqlite.prepare<{ id: number }, [number, number]>(
    `SELECT id FROM broadcasts WHERE completed_at IS NOT NULL AND completed_at < ?1 AND completed_at >= ?2
       AND ${TRACKED} AND ${HAS_ROWS} ORDER BY id`,
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
  // Its redemptions go by their foreign key (ON DELETE CASCADE).
  pruneSharedCoupon: sqlite.prepare<unknown, [number]>("DELETE FROM coupons WHERE broadcast_id = ?1 AND delivery_id IS NULL"),
}));

export function outboxPrune(db: Db) {
  const transaction = transactionRunner(db);
  return {
    /**
     * Finished broadcasts that still have delivery rows (or a shared coupon) and were completed before `before`,
     * those with links or coupons only when also completed before `trackedBefore` (what `nearcast prune` removes).
     */
    prunableBroadcasts(before: number, trackedBefore: number): number[] {
      return q(db).prunable.all(before, trackedBefore).map((r) => r.id);
    },

    /** Broadcasts with links or coupons completed before `before` but not before `trackedBefore`: what prune keeps. */
    keptTrackedBroadcasts(before: number, trackedBefore: number): number[] {
      return q(db).keptTracked.all(before, trackedBefore).map((r) => r.id);
    },

    /**
     * Removes up to `limit` delivery rows of a finished broadcast in one short transaction, and its shared coupon;
     * how many delivery rows. The broadcast keeps its totals (the history still says how many were sent, delivered,
     * failed): the counting trigger's decrements are put back in the same transaction.
     */
    pruneDeliveries(broadcastId: number, limit: number): number {
      return transaction(() => {
        const kept = q(db).countsOf.all(broadcastId);
        const removed = q(db).pruneChunk.run(broadcastId, limit).changes;
        q(db).pruneSharedCoupon.run(broadcastId);
        for (const c of kept) q(db).putCount.run(broadcastId, c.status, c.reason, c.n);
        return removed;
      });
    },
  };
}
