// Uncertain deliveries (the provider's answer was lost, or a restored backup may have sent them since): looked up at
// the provider before anything is sent again, never blindly resent.
import type { Db } from "../../db/client.ts";
import type { ProviderMessage } from "../../messaging/messenger.ts";
import { expiredAtQuietHours } from "../../messaging/validity.ts";
import { durableTransactionRunner } from "../transaction.ts";
import { COLUMNS, type DeliveryRow } from "./delivery-rows.ts";
import { statements } from "./statements.ts";

const q = statements((sqlite) => ({
  // After a restore: every unfinished delivery may have gone out after the backup was taken (a Queued one too,
  // sent later from the lost database), so each is looked up at the provider since the backup (or its own
  // earlier claim) before anything is sent.
  reconcileRestored: sqlite.prepare<{ id: number }, [number, number, string]>(
    `UPDATE deliveries SET status = 'Uncertain', claimed_at = CASE WHEN status = 'Queued' THEN ?1 ELSE MIN(COALESCE(claimed_at, ?1), ?1) END,
       next_attempt_at = ?2, updated_at = ?2, error_message = ?3
     WHERE status IN ('Queued', 'Sending', 'Uncertain') RETURNING id`,
  ),
  dueUncertain: sqlite.prepare<DeliveryRow, [number, number]>(
    `SELECT ${COLUMNS} FROM deliveries WHERE status = 'Uncertain' AND next_attempt_at <= ?1
     ORDER BY next_attempt_at, id LIMIT ?2`,
  ),
  resolve: sqlite.prepare<unknown, [number, string, string, string, number | null, string | null, number]>(
    // A provider message belongs to one delivery only: the look-up matches by number and text, so the same text
    // sent to the same person a minute earlier (a confirmed repeat broadcast, or another business's) must not
    // settle this delivery (deliveries_customer_idx: only this customer's rows are looked at).
    `UPDATE deliveries SET status = ?3, provider_id = COALESCE(provider_id, ?2), provider_status = ?4,
       error_code = ?5, error_message = ?6, sent_at = COALESCE(sent_at, claimed_at, ?7), updated_at = ?7
     WHERE id = ?1 AND status = 'Uncertain'
       AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.customer_id = deliveries.customer_id
                         AND d.provider_id = ?2 AND d.id <> deliveries.id)`,
  ),
  postpone: sqlite.prepare<unknown, [number, number, number, string]>(
    `UPDATE deliveries SET next_attempt_at = ?2, updated_at = ?3, error_message = ?4 WHERE id = ?1 AND status = 'Uncertain'`,
  ),
}));

export function outboxReconcile(db: Db) {
  const durableTransaction = durableTransactionRunner(db);
  return {
    /** A restored backup taken at `takenAt`: its unfinished deliveries become Uncertain, due now; how many. */
    reconcileRestored(takenAt: number, now: number): number {
      return durableTransaction(() => q(db).reconcileRestored.all(takenAt, now, "Unfinished in a restored backup; checking with the provider").length);
    },

    dueUncertain(now: number, limit: number): DeliveryRow[] {
      return q(db).dueUncertain.all(now, limit);
    },

    /**
     * An Uncertain delivery found at the provider. false when nothing changed: it is no longer Uncertain, or the
     * provider message found already belongs to another delivery of this customer (so it is not this one's).
     */
    resolveFound(id: number, found: ProviderMessage, now: number): boolean {
      const status = found.status === null || found.status === "Queued" ? "Sent" : expiredAtQuietHours(found) ? "Expired" : found.status;
      return q(db).resolve.run(id, found.providerId, status, found.providerStatus, found.errorCode, found.errorMessage, now).changes > 0;
    },

    /** An Uncertain delivery that could not be checked yet: try again at `at`. */
    postpone(id: number, at: number, now: number, reason: string): void {
      q(db).postpone.run(id, at, now, reason);
    },
  };
}
