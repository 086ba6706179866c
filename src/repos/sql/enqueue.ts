// Writing a broadcast's deliveries, a chunk at a time (a publish, a scheduled start, the pick-up after a crash).
import type { Db } from "../../db/client.ts";
import { underOptOutSql } from "../consent-events.ts";
import { durableTransactionRunner, transactionRunner } from "../transaction.ts";
import { statements } from "./statements.ts";
import { skipUnreachableWhatsApp } from "./whatsapp-skips.ts";

/** Subscriptions per enqueue transaction: some 15 ms of writing, so the server answers in between (bench/stall.ts). */
export const ENQUEUE_CHUNK = 2000;

/** One chunk of a broadcast's enqueue: rows written, whether it was the last, and the broadcast's total so far
 * (null when it was not being enqueued). */
export interface EnqueueStep {
  written: number;
  done: boolean;
  total: number | null;
}

const q = statements((sqlite) => ({
  // One delivery per active subscriber, leaving out anyone under an all-business opt-out (a STOP to our number
  // not followed by START: e.g. a person who subscribed again on the page after texting STOP). The carrier would
  // refuse those sends (Twilio 21610), and they must not be attempted at all. The channel is the subscription's
  // (this business's), never another business's choice.
  // One chunk: the subscriptions with ids in (?4, ?5], walked in id order down subscriptions_business_status_idx.
  enqueueRange: sqlite.prepare<unknown, [number, number, number, number, number]>(
    `INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, attempts, next_attempt_at)
     SELECT ?1, c.id, s.business_id, s.contact_preference, c.phone, 'Queued', 0, ?3
     FROM subscriptions s JOIN customers c ON c.id = s.customer_id
     WHERE s.business_id = ?2 AND s.status = 'active' AND s.id > ?4 AND s.id <= ?5 AND NOT ${underOptOutSql("s.customer_id")}
     ORDER BY s.id`,
  ),
  // Where the chunk after ?2 ends: the id of the ?3-th active subscription after it (none: the chunk is the last).
  chunkEnd: sqlite.prepare<{ id: number }, [number, number, number]>(
    `SELECT id FROM subscriptions WHERE business_id = ?1 AND status = 'active' AND id > ?2 ORDER BY id LIMIT 1 OFFSET ?3`,
  ),
  enqueueState: sqlite.prepare<{ businessId: number; through: number | null }, [number]>(
    `SELECT business_id AS businessId, enqueued_through AS through FROM broadcasts WHERE id = ?1`,
  ),
  // After a chunk: where the next one starts (NULL: every recipient is written), and the total so far.
  advanceEnqueue: sqlite.prepare<{ total: number }, [number, number | null, number]>(
    `UPDATE broadcasts SET enqueued_through = ?2, total = total + ?3 WHERE id = ?1 RETURNING total`,
  ),
  // The chunk's rows, all Queued without a reason, counted at once (the insert trigger leaves them to this).
  countEnqueued: sqlite.prepare<unknown, [number, number]>(
    `INSERT INTO broadcast_counts (broadcast_id, status, reason, n) VALUES (?1, 'Queued', '', ?2)
     ON CONFLICT (broadcast_id, status, reason) DO UPDATE SET n = n + excluded.n`,
  ),
  touchBroadcast: sqlite.prepare<unknown, [number]>(`UPDATE broadcasts SET total = total WHERE id = ?1`),
  deleteBroadcastDeliveries: sqlite.prepare<unknown, [number]>(`DELETE FROM deliveries WHERE broadcast_id = ?1`),
  deleteBroadcast: sqlite.prepare<unknown, [number]>(`DELETE FROM broadcasts WHERE id = ?1`),
  pendingEnqueues: sqlite.prepare<{ id: number }, []>(`SELECT id FROM broadcasts WHERE enqueued_through IS NOT NULL ORDER BY id`),
  lastDeliveryId: sqlite.prepare<{ id: number }, []>(`SELECT coalesce(max(id), 0) AS id FROM deliveries`),
}));

export function outboxEnqueue(db: Db) {
  const transaction = transactionRunner(db);
  const durableTransaction = durableTransactionRunner(db);
  return {
    /**
     * Writes the next chunk of a broadcast's deliveries, in one transaction of its own: one Queued delivery
     * per ACTIVE subscriber of the business (channel from the subscription, phone snapshotted), for the next
     * `chunkSize` subscriptions after broadcasts.enqueued_through, then the WhatsApp rules on them, then moves
     * enqueued_through on (NULL after the last chunk) and adds them to total. The cursor is read inside the
     * transaction, so two callers (a publish and the dispatcher picking up after a crash) take turns, never the same
     * chunk twice. `done` once nothing is left (or the broadcast is not being enqueued).
     */
    enqueueNextChunk(broadcastId: number, now: number, chunkSize = ENQUEUE_CHUNK): EnqueueStep {
      // Not fsynced one by one (20 syncs for 100,000 people): a chunk lost to a power cut takes its cursor with it, so
      // the enqueue simply writes it again; the publish syncs once at the end (syncEnqueued), before the owner is told.
      return transaction(() => {
        const state = q(db).enqueueState.get(broadcastId);
        if (!state || state.through === null) return { written: 0, done: true, total: null };
        const end = q(db).chunkEnd.get(state.businessId, state.through, chunkSize - 1)?.id ?? null;
        const firstNew = q(db).lastDeliveryId.get()!.id + 1;
        const written = q(db).enqueueRange.run(broadcastId, state.businessId, now, state.through, end ?? Number.MAX_SAFE_INTEGER).changes;
        if (written > 0) {
          q(db).countEnqueued.run(broadcastId, written);
          skipUnreachableWhatsApp(db, broadcastId, now, firstNew);
        }
        const { total } = q(db).advanceEnqueue.get(broadcastId, end, written)!;
        return { written, done: end === null, total };
      });
    },

    /** A publish whose enqueue failed half-way: the broadcast and what was written of it go (none was sent: the
     * claim waits for a broadcast to be whole). False when it was finished meanwhile (then it stays). */
    abandonEnqueue(broadcastId: number): boolean {
      return durableTransaction(() => {
        if (q(db).enqueueState.get(broadcastId)?.through == null) return false;
        q(db).deleteBroadcastDeliveries.run(broadcastId);
        q(db).deleteBroadcast.run(broadcastId);
        return true;
      });
    },

    /** One durable commit after a publish's chunks: all of them are on disk before the owner is told it is queued. */
    syncEnqueued(broadcastId: number): void {
      durableTransaction(() => q(db).touchBroadcast.run(broadcastId));
    },

    /** The broadcasts whose deliveries are still being written (after a crash, or a scheduled start), oldest first. */
    pendingEnqueues(): number[] {
      return q(db).pendingEnqueues.all().map((r) => r.id);
    },
  };
}
