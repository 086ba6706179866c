// The deliveries of a paused channel (an account problem: src/dispatch/channel-gate.ts). They stay Queued, held with
// deferred_reason 'channel_paused' and next_attempt_at far ahead (PAUSED_UNTIL), so the claim never sees them and
// the broadcast is not finished; a resume makes them due again in one statement. Raw SQL beside the outbox's other
// statements (see deliveries.ts for why).
import type { Db } from "../../db/client.ts";
import type { DeliveryChannel } from "./delivery-rows.ts";
import { statements } from "./statements.ts";
import { transactionRunner } from "../transaction.ts";

/** next_attempt_at of a held delivery: after any real time, and apart from the owner's HELD_UNTIL. */
export const PAUSED_UNTIL = Date.UTC(9999, 11, 30);

const q = statements((sqlite) => ({
  // A claimed delivery not sent: held, the attempt not counted.
  park: sqlite.prepare<unknown, [number, number, number, string]>(
    `UPDATE deliveries SET status = 'Queued', attempts = MAX(0, attempts - 1), claimed_at = NULL, next_attempt_at = ?3,
       deferred_reason = 'channel_paused', error_message = ?4, updated_at = ?2
     WHERE id = ?1 AND status = 'Sending'`,
  ),
  // The channel's deliveries waiting for their turn: held at once, rather than one claim at a time. Those held back
  // for another reason (quiet hours, the daily cap, the owner's approval) keep it; they are held when claimed.
  holdQueued: sqlite.prepare<unknown, [DeliveryChannel, number, number, string]>(
    `UPDATE deliveries SET next_attempt_at = ?3, deferred_reason = 'channel_paused', error_message = ?4, updated_at = ?2
     WHERE status = 'Queued' AND channel = ?1 AND deferred_reason IS NULL AND next_attempt_at < ?3`,
  ),
  resume: sqlite.prepare<unknown, [DeliveryChannel, number, number]>(
    `UPDATE deliveries SET next_attempt_at = ?2, deferred_reason = NULL, error_message = NULL, updated_at = ?2
     WHERE status = 'Queued' AND next_attempt_at = ?3 AND deferred_reason = 'channel_paused' AND channel = ?1`,
  ),
  probe: sqlite.prepare<{ id: number }, [DeliveryChannel, number, number]>(
    `UPDATE deliveries SET next_attempt_at = ?2, deferred_reason = NULL, updated_at = ?2
     WHERE id = (SELECT id FROM deliveries WHERE status = 'Queued' AND next_attempt_at = ?3
                   AND deferred_reason = 'channel_paused' AND channel = ?1 ORDER BY id LIMIT 1)
     RETURNING id`,
  ),
  // Accepted by Twilio, then refused for the account (30034 in a status callback): never delivered, so it goes again
  // once the pause lifts, as a new message (its old sid and times are cleared; a late callback of the old sid then
  // finds another sid, or none, and changes nothing it should not). Only from this sid, or none known yet.
  requeueUndelivered: sqlite.prepare<{ broadcastId: number }, [number, string, number, number, number | null, string]>(
    `UPDATE deliveries SET status = 'Queued', attempts = MAX(0, attempts - 1), next_attempt_at = ?4,
       deferred_reason = 'channel_paused', provider_id = NULL, provider_status = NULL, sent_at = NULL, claimed_at = NULL,
       error_code = ?5, error_message = ?6, updated_at = ?3
     WHERE id = ?1 AND status IN ('Uncertain', 'Sent') AND (provider_id IS NULL OR provider_id = ?2)
     RETURNING broadcast_id AS broadcastId`,
  ),
  reopen: sqlite.prepare<unknown, [number]>(`UPDATE broadcasts SET completed_at = NULL WHERE id = ?1`),
  // Uses deliveries_broadcast_status_idx; stops at the first row of the channel.
  hasQueued: sqlite.prepare<{ one: number }, [number, DeliveryChannel]>(
    `SELECT 1 AS one FROM deliveries WHERE broadcast_id = ?1 AND status IN ('Queued', 'Sending', 'Uncertain') AND channel = ?2 LIMIT 1`,
  ),
}));

/** The dispatcher's part (DispatchStore.park), which repos.deliveries includes. */
export function outboxPark(db: Db) {
  return {
    /** A claimed delivery of a paused channel: held, the attempt not counted. */
    park(id: number, now: number, reason: string): void {
      q(db).park.run(id, now, PAUSED_UNTIL, reason);
    },
  };
}

export function pausedDeliveriesRepo(db: Db) {
  const transaction = transactionRunner(db);
  return {
    holdQueued(channel: DeliveryChannel, now: number, reason: string): number {
      return q(db).holdQueued.run(channel, now, PAUSED_UNTIL, reason).changes;
    },
    /** Every held delivery of the channel is due at `now`; how many. */
    resume(channel: DeliveryChannel, now: number): number {
      return q(db).resume.run(channel, now, PAUSED_UNTIL).changes;
    },
    /** One held delivery of the channel is due at `now`: its id, null when none is held. */
    probe(channel: DeliveryChannel, now: number): number | null {
      return q(db).probe.get(channel, now, PAUSED_UNTIL)?.id ?? null;
    },
    /** A delivery Twilio accepted and then refused for the account: held again, its broadcast unfinished. false when
     * the row had moved on (another sid, already final). */
    requeueUndelivered(id: number, providerId: string, now: number, code: number | null, reason: string): boolean {
      return transaction(() => {
        const row = q(db).requeueUndelivered.get(id, providerId, now, PAUSED_UNTIL, code, reason);
        if (row) q(db).reopen.run(row.broadcastId);
        return row !== null;
      });
    },
    /** Whether the broadcast still has deliveries to send on the channel. */
    hasPending(broadcastId: number, channel: DeliveryChannel): boolean {
      return q(db).hasQueued.get(broadcastId, channel) !== null;
    },
  };
}

export type PausedDeliveriesRepo = ReturnType<typeof pausedDeliveriesRepo>;
