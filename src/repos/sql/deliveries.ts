// The outbox: one row per message to one subscriber (see the deliveries table in src/db/schema.ts), and the store the
// dispatcher works through (DispatchStore in src/dispatch/store.ts; src/context.ts hands it this repo).
//
// Raw SQL on prepared statements, on purpose (the rest of src/repos uses drizzle's builder): here it is the clearer
// way to say what happens. A broadcast to 100,000 subscribers is ONE INSERT ... SELECT; a claim is ONE UPDATE ...
// RETURNING that also skips whoever unsubscribed meanwhile (CASE WHEN EXISTS); each result is one guarded UPDATE
// whose WHERE says which moves are allowed (a status callback may have got there first). In drizzle's builder these
// become sql`` fragments inside builder calls, harder to read than the statements themselves.
//
// Status moves: Queued -> Sending (claimed) -> Sent -> Delivered | Failed. Sending -> Uncertain when the provider's
// answer was lost (or the process died mid-send); Uncertain is reconciled, never blindly resent. Skipped: the
// recipient is no longer an active subscriber when their turn came. "Pending" = Queued, Sending or Uncertain.
import type { Database } from "bun:sqlite";
import type { Db } from "../db/client.ts";
import type { BroadcastMessage, ClaimedDelivery } from "../dispatch/store.ts";
import type { DeliveryStatus as ProviderStatus, ProviderMessage } from "../messaging/messenger.ts";
import { nextAllowed, type QuietSpan } from "../lib/quiet-hours.ts";
import { phoneTimeZones } from "../lib/phone-time-zones.ts";
import { underOptOutSql } from "./consent-events.ts";
import { prepareScheduledStarts, type ScheduledStartStatements } from "./scheduled-starts.ts";
import { durableTransactionRunner, transactionRunner } from "./transaction.ts";
import { skipUnreachableWhatsApp } from "./whatsapp-skips.ts";
import { HELD_UNTIL } from "./confirmations.ts";

/** Subscriptions per enqueue transaction: some 15 ms of writing, so the server answers in between (bench/stall.ts). */
export const ENQUEUE_CHUNK = 2000;

/** One chunk of a broadcast's enqueue: rows written, whether it was the last, and the broadcast's total so far
 * (null when it was not being enqueued). */
export interface EnqueueStep {
  written: number;
  done: boolean;
  total: number | null;
}

export type DeliveryStatus = "Queued" | "Sending" | "Uncertain" | "Sent" | "Delivered" | "Failed" | "Skipped";
export type DeliveryChannel = "SMS" | "WhatsApp";

/** Twilio error codes after which sending the same message again cannot help (the retry endpoint skips them). */
const NON_RETRYABLE_CODES: readonly number[] = [
  21610, // the recipient replied STOP
  21211, // invalid 'To' number
  21614, // not a mobile number
  30004, // message blocked
  30005, // unknown or inactive destination
  30006, // landline or unreachable carrier
];

export interface DeliveryRow {
  id: number;
  broadcastId: number;
  customerId: number;
  businessId: number;
  channel: DeliveryChannel;
  toPhone: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  claimedAt: number | null;
  sentAt: number | null;
  updatedAt: number | null;
  providerId: string | null;
  providerStatus: string | null;
  errorCode: number | null;
  errorMessage: string | null;
}

export interface StatusCounts {
  Queued: number;
  Sending: number;
  Uncertain: number;
  Sent: number;
  Delivered: number;
  Failed: number;
  Skipped: number;
}

const SKIPPED_MESSAGE = "Not sent: the customer unsubscribed before their turn.";

const COLUMNS = `id, broadcast_id AS broadcastId, customer_id AS customerId, business_id AS businessId, channel,
  to_phone AS toPhone, status, attempts, next_attempt_at AS nextAttemptAt, claimed_at AS claimedAt, sent_at AS sentAt,
  updated_at AS updatedAt, provider_id AS providerId, provider_status AS providerStatus, error_code AS errorCode,
  error_message AS errorMessage`;

/** Whether a deliveries row belongs to an opt-in confirmation: those are sent to 'unconfirmed' (double opt-in)
 * subscriptions too, and are not marketing (no quiet hours, not in the daily cap). */
/** A delivery whose broadcast is still being written: not sent until all of it is (a publish that fails half-way
 * takes every row back, and none may have gone). */
const STILL_ENQUEUING = `(SELECT enqueued_through FROM broadcasts b WHERE b.id = deliveries.broadcast_id) IS NOT NULL`;

const IS_CONFIRMATION = `(SELECT kind FROM broadcasts b WHERE b.id = deliveries.broadcast_id) = 'confirmation'`;

/** A delivery of a business whose owner the admin has not approved (or refused): nothing is texted for them. The
 * subquery does not depend on the row, so SQLite runs it once per statement (users_status_idx, businesses_owner_idx). */
const OWNER_NOT_APPROVED = `deliveries.business_id IN (SELECT b.id FROM users u JOIN businesses b ON b.owner_id = u.id
  WHERE u.status IN ('pending', 'refused'))`;

function prepare(sqlite: Database) {
  return {
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
    // The reads before the writes below: with nothing to do, the dispatcher does not wait for the write lock (another
    // process, e.g. a CLI import, may hold it, and a wait for it blocks the server's event loop).
    anyDue: sqlite.prepare<{ one: number }, [number]>(
      `SELECT 1 AS one FROM deliveries WHERE status = 'Queued' AND next_attempt_at <= ?1 AND NOT ${STILL_ENQUEUING} LIMIT 1`,
    ),
    anyFinished: sqlite.prepare<{ one: number }, []>(
      `SELECT 1 AS one FROM broadcasts
       WHERE completed_at IS NULL AND (scheduled_for IS NULL OR started_at IS NOT NULL) AND enqueued_through IS NULL AND NOT EXISTS (
         SELECT 1 FROM deliveries d WHERE d.broadcast_id = broadcasts.id AND d.status IN ('Queued', 'Sending', 'Uncertain'))
       LIMIT 1`,
    ),
    // Claims the due rows in order; a row whose customer is no longer an active subscriber of the business becomes
    // Skipped in the same statement (a STOP that arrived mid-broadcast).
    claim: sqlite.prepare<ClaimedDelivery, [number, number]>(
      `UPDATE deliveries SET
         status = CASE WHEN EXISTS (SELECT 1 FROM subscriptions s WHERE s.customer_id = deliveries.customer_id
                                     AND s.business_id = deliveries.business_id
                                     AND (s.status = 'active' OR (s.status = 'unconfirmed' AND ${IS_CONFIRMATION})))
                  THEN 'Sending' ELSE 'Skipped' END,
         attempts = attempts + 1, claimed_at = ?1, updated_at = ?1, deferred_reason = NULL
       WHERE id IN (SELECT id FROM deliveries WHERE status = 'Queued' AND next_attempt_at <= ?1
                      AND NOT ${STILL_ENQUEUING}
                    ORDER BY next_attempt_at, id LIMIT ?2)
       RETURNING id, broadcast_id AS broadcastId, customer_id AS customerId, channel, to_phone AS toPhone, attempts,
                 claimed_at AS claimedAt, status, business_id AS businessId, ${IS_CONFIRMATION} AS confirmation,
                 ${OWNER_NOT_APPROVED} AS held`,
    ),
    // A claimed row that may not go yet (quiet hours, daily cap): Queued again until `notBefore`, the attempt not counted.
    defer: sqlite.prepare<unknown, [number, number, string]>(
      `UPDATE deliveries SET status = 'Queued', attempts = MAX(0, attempts - 1), claimed_at = NULL, next_attempt_at = ?2,
         deferred_reason = ?3 WHERE id = ?1 AND status = 'Sending'`,
    ),
    // This customer's sends in the last 24 h, newest first (deliveries_customer_idx): sent, or in flight (claimed),
    // leaving out this claim's own rows (?3 = now; the claim counts those it lets go itself).
    recentSends: sqlite.prepare<{ at: number }, [number, number, number]>(
      `SELECT COALESCE(sent_at, claimed_at) AS at FROM deliveries
       WHERE customer_id = ?1 AND COALESCE(sent_at, claimed_at) > ?2
         AND (sent_at IS NOT NULL OR status IN ('Sending', 'Uncertain'))
         AND NOT (status = 'Sending' AND claimed_at = ?3) AND NOT ${IS_CONFIRMATION}
       ORDER BY at DESC`,
    ),
    businessZone: sqlite.prepare<{ zone: string | null }, [number]>(`SELECT time_zone AS zone FROM businesses WHERE id = ?1`),
    waitingByBroadcast: sqlite.prepare<{ reason: "quiet_hours" | "daily_limit"; n: number }, [number]>(
      `SELECT reason, n FROM broadcast_counts WHERE broadcast_id = ?1 AND status = 'Queued' AND reason IN ('quiet_hours', 'daily_limit')`,
    ),
    skippedText: sqlite.prepare<unknown, [string, number]>(
      `UPDATE deliveries SET error_message = ?1, attempts = attempts - 1 WHERE id = ?2`,
    ),
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
      `UPDATE deliveries SET status = 'Queued', next_attempt_at = ?2, updated_at = ?3, error_message = ?4,
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
      `UPDATE deliveries SET status = 'Queued', attempts = MAX(0, attempts - 1), claimed_at = NULL, updated_at = ?2
       WHERE id = ?1 AND status = 'Sending'`,
    ),
    // Only unfinished broadcasts can have Sending rows (deliveries_broadcast_status_idx, no scan of the history).
    recoverInFlight: sqlite.prepare<{ id: number }, [number, number, string]>(
      `UPDATE deliveries SET status = 'Uncertain', next_attempt_at = MAX(COALESCE(claimed_at, ?1) + ?2, ?1),
         updated_at = ?1, error_message = ?3
       WHERE broadcast_id IN (SELECT id FROM broadcasts WHERE completed_at IS NULL) AND status = 'Sending' RETURNING id`,
    ),
    // After a restore: every unfinished delivery may have gone out after the backup was taken (a Queued one too,
    // sent later from the lost database), so each is looked up at the provider since the backup (or its own
    // earlier claim) before anything is sent.
    reconcileRestored: sqlite.prepare<{ id: number }, [number, number, string]>(
      `UPDATE deliveries SET status = 'Uncertain', claimed_at = CASE WHEN status = 'Queued' THEN ?1 ELSE MIN(COALESCE(claimed_at, ?1), ?1) END,
         next_attempt_at = ?2, updated_at = ?2, error_message = ?3
       WHERE status IN ('Queued', 'Sending', 'Uncertain') RETURNING id`,
    ),
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
    nextDue: sqlite.prepare<{ at: number | null }, []>(
      `SELECT MIN(at) AS at FROM (
         SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status = 'Queued'
         UNION ALL SELECT MIN(next_attempt_at) FROM deliveries WHERE status = 'Uncertain')`,
    ),
    // A scheduled broadcast still waiting to start has no deliveries yet: it is not finished.
    completeFinished: sqlite.prepare<{ id: number }, [number]>(
      `UPDATE broadcasts SET completed_at = ?1
       WHERE completed_at IS NULL AND (scheduled_for IS NULL OR started_at IS NOT NULL) AND enqueued_through IS NULL AND NOT EXISTS (
         SELECT 1 FROM deliveries d WHERE d.broadcast_id = broadcasts.id AND d.status IN ('Queued', 'Sending', 'Uncertain'))
       RETURNING id`,
    ),
    findById: sqlite.prepare<DeliveryRow, [number]>(`SELECT ${COLUMNS} FROM deliveries WHERE id = ?1`),
    broadcastMessage: sqlite.prepare<BroadcastMessage, [number]>(
      `SELECT message_text AS messageText, image_path AS imagePath, content_sid AS contentSid, content_variables AS contentVariables
       FROM broadcasts WHERE id = ?1`,
    ),
    retryFailed: sqlite.prepare<{ id: number }, [number, number]>(
      `UPDATE deliveries SET status = 'Queued', next_attempt_at = ?2, updated_at = ?2, provider_id = NULL,
         provider_status = NULL, error_code = NULL, error_message = NULL, claimed_at = NULL, sent_at = NULL
       WHERE broadcast_id = ?1 AND status = 'Failed'
         AND (error_code IS NULL OR error_code NOT IN (${NON_RETRYABLE_CODES.join(", ")}))
       RETURNING id`,
    ),
    reopen: sqlite.prepare<unknown, [number]>(`UPDATE broadcasts SET completed_at = NULL WHERE id = ?1`),
    countsByBroadcast: sqlite.prepare<{ status: DeliveryStatus; n: number }, [number]>(
      // The counts the triggers keep (migrations/0011), not a count of the rows: a few rows however big the broadcast.
      `SELECT status, SUM(n) AS n FROM broadcast_counts WHERE broadcast_id = ?1 GROUP BY status`,
    ),
    listByBroadcast: sqlite.prepare<DeliveryRow, [number]>(`SELECT ${COLUMNS} FROM deliveries WHERE broadcast_id = ?1 ORDER BY id`),
  };
}

/** What holds marketing messages back (from the settings in use; see src/lib/quiet-hours.ts). */
export interface DeferralPolicy {
  /** null = off. */
  quietHours: QuietSpan | null;
  /** Per recipient (customer) per rolling 24 h, across all businesses; 0 = no cap. */
  maxPerDay: number;
  /** The zone used when neither the number nor the business gives one. */
  serverZone: string;
}

export interface WaitingCounts {
  quietHours: number;
  dailyLimit: number;
}

const DAY_MS = 86_400_000;

export function emptyCounts(): StatusCounts {
  return { Queued: 0, Sending: 0, Uncertain: 0, Sent: 0, Delivered: 0, Failed: 0, Skipped: 0 };
}

export function deliveriesRepo(db: Db) {
  const sqlite = db.$client;
  const transaction = transactionRunner(db);
  const durableTransaction = durableTransactionRunner(db);
  let ps: ReturnType<typeof prepare> | undefined;
  const q = () => (ps ??= prepare(sqlite));
  let ss: ScheduledStartStatements | undefined;
  const sq = () => (ss ??= prepareScheduledStarts(sqlite));

  function stripBusiness(r: ClaimedDelivery): ClaimedDelivery {
    const { businessId: _, confirmation: __, held: ___, ...rest } = r as ClaimedDelivery & { businessId?: number; confirmation?: number; held?: number };
    return rest;
  }

  /** The zones a number is in: its own (all of them; the most restrictive wins), else its business's, else the server's. */
  function zonesFor(phone: string, businessId: number, policy: DeferralPolicy, zonesOf: Map<string, string[]>, businessZones: Map<number, string>): string[] {
    let zones = zonesOf.get(phone);
    if (!zones) zonesOf.set(phone, (zones = phoneTimeZones(phone)));
    if (zones.length > 0) return zones;
    let zone = businessZones.get(businessId);
    if (!zone) businessZones.set(businessId, (zone = q().businessZone.get(businessId)?.zone ?? policy.serverZone));
    return [zone];
  }

  /** Why and until when this claimed row must wait; null when it may go now (and then it counts as a send). */
  function deferral(
    r: ClaimedDelivery & { businessId: number },
    now: number,
    policy: DeferralPolicy,
    zonesOf: Map<string, string[]>,
    businessZones: Map<number, string>,
    sendsOf: Map<number, number[]>,
  ): { notBefore: number; reason: "quiet_hours" | "daily_limit" } | null {
    if (policy.quietHours) {
      const zones = zonesFor(r.toPhone, r.businessId, policy, zonesOf, businessZones);
      // Zones with no common window (rare) fall back to the business's zone rather than never sending.
      const at = nextAllowed(now, zones, policy.quietHours) ?? nextAllowed(now, zonesFor("", r.businessId, policy, zonesOf, businessZones), policy.quietHours)!;
      if (at > now) return { notBefore: at, reason: "quiet_hours" };
    }
    if (policy.maxPerDay > 0) {
      let sends = sendsOf.get(r.customerId);
      if (!sends) sendsOf.set(r.customerId, (sends = q().recentSends.all(r.customerId, now - DAY_MS, now).map((x) => x.at)));
      if (sends.length >= policy.maxPerDay) {
        // It may go when the oldest of the last maxPerDay sends is 24 h old.
        return { notBefore: sends[policy.maxPerDay - 1]! + DAY_MS, reason: "daily_limit" };
      }
      sends.unshift(now);
    }
    return null;
  }

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
        const state = q().enqueueState.get(broadcastId);
        if (!state || state.through === null) return { written: 0, done: true, total: null };
        const end = q().chunkEnd.get(state.businessId, state.through, chunkSize - 1)?.id ?? null;
        const firstNew = q().lastDeliveryId.get()!.id + 1;
        const written = q().enqueueRange.run(broadcastId, state.businessId, now, state.through, end ?? Number.MAX_SAFE_INTEGER).changes;
        if (written > 0) {
          q().countEnqueued.run(broadcastId, written);
          skipUnreachableWhatsApp(sqlite, broadcastId, now, firstNew);
        }
        const { total } = q().advanceEnqueue.get(broadcastId, end, written)!;
        return { written, done: end === null, total };
      });
    },

    /** A publish whose enqueue failed half-way: the broadcast and what was written of it go (none was sent: the
     * claim waits for a broadcast to be whole). False when it was finished meanwhile (then it stays). */
    abandonEnqueue(broadcastId: number): boolean {
      return durableTransaction(() => {
        if (q().enqueueState.get(broadcastId)?.through == null) return false;
        q().deleteBroadcastDeliveries.run(broadcastId);
        q().deleteBroadcast.run(broadcastId);
        return true;
      });
    },

    /** One durable commit after a publish's chunks: all of them are on disk before the owner is told it is queued. */
    syncEnqueued(broadcastId: number): void {
      durableTransaction(() => q().touchBroadcast.run(broadcastId));
    },

    /** The broadcasts whose deliveries are still being written (after a crash, or a scheduled start), oldest first. */
    pendingEnqueues(): number[] {
      return q().pendingEnqueues.all().map((r) => r.id);
    },

    /**
     * Claims up to `limit` due Queued deliveries in one short transaction (one statement): they become Sending
     * (attempts + 1, claimed_at = now), or Skipped when the customer is no longer an active subscriber. The commit
     * is durable (fsynced, see durableTransactionRunner) before this returns, so before the dispatcher calls the provider.
     */
    claim(now: number, limit: number, policy?: DeferralPolicy): ClaimedDelivery[] {
      if (limit <= 0 || !q().anyDue.get(now)) return [];
      return durableTransaction(() => {
        const out: ClaimedDelivery[] = [];
        // Caches for this claim only: zones per number prefix and business, sends per customer.
        const zonesOf = new Map<string, string[]>();
        const businessZones = new Map<number, string>();
        const sendsOf = new Map<number, number[]>();
        // Deferred rows leave the due set (their next_attempt_at moves on), so claiming again reaches the next ones:
        // a night-time broadcast of 50,000 is deferred batch by batch within this one claim, each row once.
        for (;;) {
          const rows = q().claim.all(now, limit - out.length);
          for (const r of rows) {
            if (r.status === "Skipped") {
              q().skippedText.run(SKIPPED_MESSAGE, r.id);
            } else if ((r as { held?: number }).held) {
              // A safety net (their confirmations are written held, and broadcasts refused): it waits for releaseHeld.
              q().defer.run(r.id, HELD_UNTIL, "owner_pending");
              continue;
            } else if (policy && !(r as { confirmation?: number }).confirmation) {
              const wait = deferral(r as ClaimedDelivery & { businessId: number }, now, policy, zonesOf, businessZones, sendsOf);
              if (wait) {
                q().defer.run(r.id, wait.notBefore, wait.reason);
                continue;
              }
            }
            out.push(stripBusiness(r));
          }
          if (rows.length === 0 || out.length >= limit || !policy) return out;
        }
      });
    },

    /** The provider accepted it (or a reconcile found it). */
    recordSent(id: number, providerId: string, status: ProviderStatus, providerStatus: string, now: number): void {
      q().recordSent.run(id, providerId, status === "Queued" ? "Sent" : status, providerStatus, now);
    },

    /** Back to the queue (certainly not accepted): retried at `nextAttemptAt`. */
    requeue(id: number, nextAttemptAt: number, now: number, reason: string | null, code: number | null): void {
      q().requeue.run(id, nextAttemptAt, now, reason, code);
    },

    /** The answer was lost: reconcile at `reconcileAt` (or earlier, through a status callback). */
    markUncertain(id: number, reconcileAt: number, now: number, reason: string): void {
      q().markUncertain.run(id, reconcileAt, now, reason);
    },

    markFailed(id: number, code: number | null, message: string, now: number): void {
      q().markFailed.run(id, code, message, now);
    },

    /** Claimed but not to be sent (the number rule refuses its number): Skipped with the reason. */
    markSkipped(id: number, reason: string, now: number): void {
      q().markSkipped.run(id, reason, now);
    },

    /** Claimed but never handed to the provider (graceful stop): back to Queued, the attempt not counted. */
    release(ids: number[], now: number): number {
      if (ids.length === 0) return 0;
      return transaction(() => ids.reduce((n, id) => n + q().release.run(id, now).changes, 0));
    },

    /**
     * At dispatcher start: rows still Sending were in flight when the previous process died. They become Uncertain,
     * to be reconciled `graceMs` after their claim (a late answer or status callback may still settle them).
     */
    recoverInFlight(now: number, graceMs: number): number[] {
      return q()
        .recoverInFlight.all(now, graceMs, "In flight when the dispatcher stopped; checking with the provider")
        .map((r) => r.id);
    },

    /** Finished broadcasts completed before `before` that still have delivery rows (what `nearcast prune` removes). */
    prunableBroadcasts(before: number): number[] {
      return q().prunable.all(before).map((r) => r.id);
    },

    /**
     * Removes up to `limit` delivery rows of a finished broadcast in one short transaction; how many. The broadcast
     * keeps its totals (the history still says how many were sent, delivered, failed): the counting trigger's
     * decrements are put back in the same transaction.
     */
    pruneDeliveries(broadcastId: number, limit: number): number {
      return transaction(() => {
        const kept = q().countsOf.all(broadcastId);
        const removed = q().pruneChunk.run(broadcastId, limit).changes;
        for (const c of kept) q().putCount.run(broadcastId, c.status, c.reason, c.n);
        return removed;
      });
    },

    /** A restored backup taken at `takenAt`: its unfinished deliveries become Uncertain, due now; how many. */
    reconcileRestored(takenAt: number, now: number): number {
      return durableTransaction(() => q().reconcileRestored.all(takenAt, now, "Unfinished in a restored backup; checking with the provider").length);
    },

    dueUncertain(now: number, limit: number): DeliveryRow[] {
      return q().dueUncertain.all(now, limit);
    },

    /**
     * An Uncertain delivery found at the provider. false when nothing changed: it is no longer Uncertain, or the
     * provider message found already belongs to another delivery of this customer (so it is not this one's).
     */
    resolveFound(id: number, found: ProviderMessage, now: number): boolean {
      const status = found.status === null || found.status === "Queued" ? "Sent" : found.status;
      return q().resolve.run(id, found.providerId, status, found.providerStatus, found.errorCode, found.errorMessage, now).changes > 0;
    },

    /** An Uncertain delivery that could not be checked yet: try again at `at`. */
    postpone(id: number, at: number, now: number, reason: string): void {
      q().postpone.run(id, at, now, reason);
    },

    /** The earliest next_attempt_at of a Queued or Uncertain row, or scheduled_for of a broadcast waiting to
     * start (null when there is none). */
    nextDueAt(): number | null {
      const delivery = q().nextDue.get()?.at ?? null;
      const scheduled = sq().nextScheduled.get()?.at ?? null;
      if (delivery === null) return scheduled;
      return scheduled === null ? delivery : Math.min(delivery, scheduled);
    },

    /**
     * Starts scheduled broadcasts whose time has come (up to `limit`), each in ONE durable transaction: started_at,
     * its deliveries (the same enqueue as an immediate publish, so the recipients are the active subscribers NOW)
     * and its total; with nobody to send to it completes with total 0. Answers what was started.
     */
    startDueBroadcasts(now: number, limit = 20): number[] {
      const started: number[] = [];
      for (const b of sq().due.all(now, limit)) {
        // Started (enqueued_through = 0): its deliveries follow a chunk at a time (enqueueNextChunk), as a publish's.
        if (durableTransaction(() => sq().markStarted.run(b.id, now).changes) > 0) started.push(b.id);
      }
      return started;
    },

    /** Sets completed_at on every broadcast with nothing pending any more; returns their ids. */
    completeFinished(now: number): number[] {
      if (!q().anyFinished.get()) return [];
      return q().completeFinished.all(now).map((r) => r.id);
    },

    findById(id: number): DeliveryRow | undefined {
      return q().findById.get(id) ?? undefined;
    },

    /** The text and image every delivery of the broadcast sends. */
    broadcastMessage(broadcastId: number): BroadcastMessage | undefined {
      return q().broadcastMessage.get(broadcastId) ?? undefined;
    },

    /** Failed deliveries of the broadcast that may be sent again (see NON_RETRYABLE_CODES) go back to Queued. */
    retryFailed(broadcastId: number, now: number): number {
      return transaction(() => {
        const n = q().retryFailed.all(broadcastId, now).length;
        if (n > 0) q().reopen.run(broadcastId);
        return n;
      });
    },

    /** Queued deliveries of the broadcast held back, by reason (they go at their next_attempt_at). */
    waiting(broadcastId: number): WaitingCounts {
      const out: WaitingCounts = { quietHours: 0, dailyLimit: 0 };
      for (const r of q().waitingByBroadcast.all(broadcastId)) out[r.reason === "quiet_hours" ? "quietHours" : "dailyLimit"] = r.n;
      return out;
    },

    counts(broadcastId: number): StatusCounts {
      const counts = emptyCounts();
      for (const r of q().countsByBroadcast.all(broadcastId)) counts[r.status] = r.n;
      return counts;
    },

    listByBroadcast(broadcastId: number): DeliveryRow[] {
      return q().listByBroadcast.all(broadcastId);
    },
  };
}

export type DeliveriesRepo = ReturnType<typeof deliveriesRepo>;
