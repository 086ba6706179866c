// What the dispatcher writes after a send: each result is one guarded UPDATE whose WHERE says which moves are allowed
// (a status callback may have got there first), and the rows it gives back (release, recoverInFlight).
import type { Db } from "../../db/client.ts";
import type { DeliveryStatus as ProviderStatus } from "../../messaging/messenger.ts";
import { transactionRunner } from "../transaction.ts";
import { QUEUED_UNLESS_STOPPED } from "./broadcast-stop.ts";
import { statements } from "./statements.ts";

const q = statements((sqlite) => ({
  recordSent: sqlite.prepare<unknown, [number, string, string, string, number]>(
    // A status callback may have got here first (it carries the delivery id): never move backwards.
    `UPDATE deliveries SET
       status = CASE WHEN status IN ('Queued', 'Sending', 'Uncertain') THEN ?3
                     WHEN status = 'Sent' AND ?3 IN ('Delivered', 'Failed') THEN ?3 ELSE status END,
       provider_id = COALESCE(provider_id, ?2), provider_status = COALESCE(provider_status, ?4),
       sent_at = COALESCE(sent_at, ?5), updated_at = ?5, error_code = NULL, error_message = NULL
     WHERE id = ?1`,
  ),
  requeue: sqlite.prepare<unknown, [number, number, number, string | null, number | null]>(
    `UPDATE deliveries SET status = ${QUEUED_UNLESS_STOPPED}, next_attempt_at = ?2, updated_at = ?3, error_message = ?4,
       error_code = ?5
     WHERE id = ?1 AND status IN ('Sending', 'Uncertain')`,
  ),
  markUncertain: sqlite.prepare<unknown, [number, number, number, string]>(
    `UPDATE deliveries SET status = 'Uncertain', next_attempt_at = ?2, updated_at = ?3, error_message = ?4
     WHERE id = ?1 AND status = 'Sending'`,
  ),
  markFailed: sqlite.prepare<unknown, [number, number | null, string, number]>(
    `UPDATE deliveries SET status = 'Failed', error_code = ?2, error_message = ?3, updated_at = ?4
     WHERE id = ?1 AND status IN ('Queued', 'Sending', 'Uncertain')`,
  ),
  markSkipped: sqlite.prepare<unknown, [number, string, number]>(
    `UPDATE deliveries SET status = 'Skipped', attempts = MAX(0, attempts - 1), error_message = ?2, updated_at = ?3
     WHERE id = ?1 AND status = 'Sending'`,
  ),
  release: sqlite.prepare<unknown, [number, number]>(
    `UPDATE deliveries SET status = ${QUEUED_UNLESS_STOPPED}, attempts = MAX(0, attempts - 1), claimed_at = NULL, updated_at = ?2
     WHERE id = ?1 AND status = 'Sending'`,
  ),
  // Only unfinished broadcasts can have Sending rows (deliveries_broadcast_status_idx, no scan of the history).
  recoverInFlight: sqlite.prepare<{ id: number }, [number, number, string]>(
    `UPDATE deliveries SET status = 'Uncertain', next_attempt_at = MAX(COALESCE(claimed_at, ?1) + ?2, ?1),
       updated_at = ?1, error_message = ?3
     WHERE broadcast_id IN (SELECT id FROM broadcasts WHERE completed_at IS NULL) AND status = 'Sending' RETURNING id`,
  ),
}));

export function outboxSendResults(db: Db) {
  const transaction = transactionRunner(db);
  return {
    /** The provider accepted it (or a reconcile found it). */
    recordSent(id: number, providerId: string, status: ProviderStatus, providerStatus: string, now: number): void {
      q(db).recordSent.run(id, providerId, status === "Queued" ? "Sent" : status, providerStatus, now);
    },

    /** Back to the queue (certainly not accepted): retried at `nextAttemptAt`. */
    requeue(id: number, nextAttemptAt: number, now: number, reason: string | null, code: number | null): void {
      q(db).requeue.run(id, nextAttemptAt, now, reason, code);
    },

    /** The answer was lost: reconcile at `reconcileAt` (or earlier, through a status callback). */
    markUncertain(id: number, reconcileAt: number, now: number, reason: string): void {
      q(db).markUncertain.run(id, reconcileAt, now, reason);
    },

    markFailed(id: number, code: number | null, message: string, now: number): void {
      q(db).markFailed.run(id, code, message, now);
    },

    /** Claimed but not to be sent (the number rule refuses its number): Skipped with the reason. */
    markSkipped(id: number, reason: string, now: number): void {
      q(db).markSkipped.run(id, reason, now);
    },

    /** Claimed but never handed to the provider (graceful stop): back to Queued, the attempt not counted. */
    release(ids: number[], now: number): number {
      if (ids.length === 0) return 0;
      return transaction(() => ids.reduce((n, id) => n + q(db).release.run(id, now).changes, 0));
    },

    /**
     * At dispatcher start: rows still Sending were in flight when the previous process died. They become Uncertain,
     * to be reconciled `graceMs` after their claim (a late answer or status callback may still settle them).
     */
    recoverInFlight(now: number, graceMs: number): number[] {
      return q(db)
        .recoverInFlight.all(now, graceMs, "In flight when the dispatcher stopped; checking with the provider")
        .map((r) => r.id);
    },
  };
}
