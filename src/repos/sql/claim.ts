// The dispatcher's claim: the due Queued deliveries become Sending in one durable transaction, each checked against
// the owner's approval and, for marketing, the quiet hours and the daily cap (DeferralPolicy) on the way.
import type { Db } from "../../db/client.ts";
import type { ClaimedDelivery } from "../../dispatch/store.ts";
import { phoneTimeZones } from "../../lib/phone-time-zones.ts";
import { nextAllowed, type QuietSpan } from "../../lib/quiet-hours.ts";
import { validityPeriod } from "../../lib/validity-period.ts";
import { durableTransactionRunner } from "../transaction.ts";
import { HELD_UNTIL } from "./confirmations.ts";
import { IS_CONFIRMATION, OWNER_NOT_APPROVED, STILL_ENQUEUING } from "./delivery-rows.ts";
import { fairTurns } from "./fair-turns.ts";
import { statements } from "./statements.ts";

/** What holds marketing messages back (from the settings in use; see src/lib/quiet-hours.ts). */
export interface DeferralPolicy {
  /** null = off. */
  quietHours: QuietSpan | null;
  /** Per recipient (customer) per business per rolling 24 h (the state laws it follows limit each seller); 0 = no cap. */
  maxPerDay: number;
  /** The zone used when neither the number nor the business gives one. A function, read only when a row needs it:
   * asking Intl for the server's zone loads ICU's time-zone data (~5 MB of RSS, ~10 ms), which a server polling an
   * empty outbox never needs (bench/README.md, issue 26 items 2 and 6, session 13). */
  serverZone: () => string;
}

const SKIPPED_MESSAGE = "Not sent: the customer unsubscribed before their turn.";
const DAY_MS = 86_400_000;

/** A claimed row with the columns the claim itself reads (dropped before the dispatcher gets it). */
type ClaimedRow = ClaimedDelivery & { businessId: number; confirmation?: number; held?: number; reply?: number };

/** An owner's answer in the inbox (issue 24): 1 = quiet hours hold it, 2 = it answers someone who wrote within the hour
 * (nothing holds it); 0 for anything else. No answer counts toward the daily cap of promotions. */
const REPLY_EXEMPTION = `(SELECT CASE WHEN b.kind <> 'reply' THEN 0 WHEN b.origin = 'recent' THEN 2 ELSE 1 END
  FROM broadcasts b WHERE b.id = deliveries.broadcast_id)`;

/** What a claim does to a row, and what it answers; the benchmark's baseline (the claim before issue 23, in due
 * order only) shares them (bench/fair-claim.ts). */
export const CLAIM_SET = `status = CASE WHEN EXISTS (SELECT 1 FROM subscriptions s WHERE s.customer_id = deliveries.customer_id
                                   AND s.business_id = deliveries.business_id
                                   AND (s.status = 'active' OR (s.status = 'unconfirmed' AND ${IS_CONFIRMATION})))
                THEN 'Sending' ELSE 'Skipped' END,
       attempts = attempts + 1, claimed_at = ?1, updated_at = ?1, deferred_reason = NULL`;
export const CLAIM_RETURNING = `id, broadcast_id AS broadcastId, customer_id AS customerId, channel, to_phone AS toPhone, attempts,
               claimed_at AS claimedAt, status, business_id AS businessId, ${IS_CONFIRMATION} AS confirmation,
               ${OWNER_NOT_APPROVED} AS held, ${REPLY_EXEMPTION} AS reply`;

const q = statements((sqlite) => ({
  // The reads before the writes below: with nothing to do, the dispatcher does not wait for the write lock (another
  // process, e.g. a CLI import, may hold it, and a wait for it blocks the server's event loop).
  anyDue: sqlite.prepare<{ one: number }, [number]>(
    `SELECT 1 AS one FROM deliveries WHERE status = 'Queued' AND next_attempt_at <= ?1 AND NOT ${STILL_ENQUEUING} LIMIT 1`,
  ),
  // Claims the rows fair-turns.ts picked (JSON array ?2); a row whose customer is no longer an active subscriber of
  // the business becomes Skipped in the same statement (a STOP that arrived mid-broadcast).
  claim: sqlite.prepare<ClaimedRow, [number, string]>(
    `UPDATE deliveries SET ${CLAIM_SET}
     WHERE id IN (SELECT value FROM json_each(?2)) AND status = 'Queued'
     RETURNING ${CLAIM_RETURNING}`,
  ),
  // A claimed row that may not go yet (quiet hours, daily cap): Queued again until `notBefore`, the attempt not counted.
  defer: sqlite.prepare<unknown, [number, number, string]>(
    `UPDATE deliveries SET status = 'Queued', attempts = MAX(0, attempts - 1), claimed_at = NULL, next_attempt_at = ?2,
       deferred_reason = ?3 WHERE id = ?1 AND status = 'Sending'`,
  ),
  // This customer's sends for this business (?4) in the last 24 h, newest first (deliveries_customer_idx): sent, or in
  // flight (claimed), leaving out this claim's own rows (?3 = now; the claim counts those it lets go itself).
  recentSends: sqlite.prepare<{ at: number }, [number, number, number, number]>(
    `SELECT COALESCE(sent_at, claimed_at) AS at FROM deliveries
     WHERE customer_id = ?1 AND business_id = ?4 AND COALESCE(sent_at, claimed_at) > ?2
       AND (sent_at IS NOT NULL OR status IN ('Sending', 'Uncertain'))
       AND NOT (status = 'Sending' AND claimed_at = ?3) AND NOT ${IS_CONFIRMATION}
     ORDER BY at DESC`,
  ),
  businessZone: sqlite.prepare<{ zone: string | null }, [number]>(`SELECT time_zone AS zone FROM businesses WHERE id = ?1`),
  skippedText: sqlite.prepare<unknown, [string, number]>(
    `UPDATE deliveries SET error_message = ?1, attempts = attempts - 1 WHERE id = ?2`,
  ),
}));

/** The caches of one claim: zones per number and per business, recent sends per customer and business. */
interface ClaimCaches {
  zonesOf: Map<string, string[]>;
  businessZones: Map<number, string>;
  sendsOf: Map<string, number[]>;
}

function stripBusiness(r: ClaimedRow): ClaimedDelivery {
  const { businessId: _, confirmation: __, held: ___, reply: ____, ...rest } = r;
  return rest;
}

/** The zones a number is in: its own (all of them; the most restrictive wins), else its business's, else the server's. */
function zonesFor(db: Db, phone: string, businessId: number, policy: DeferralPolicy, c: ClaimCaches): string[] {
  let zones = c.zonesOf.get(phone);
  if (!zones) c.zonesOf.set(phone, (zones = phoneTimeZones(phone)));
  if (zones.length > 0) return zones;
  let zone = c.businessZones.get(businessId);
  if (!zone) c.businessZones.set(businessId, (zone = q(db).businessZone.get(businessId)?.zone ?? policy.serverZone()));
  return [zone];
}

/** Why and until when this claimed row must wait; null when it may go now (and then it counts as a send). */
function deferral(db: Db, r: ClaimedRow, now: number, policy: DeferralPolicy, c: ClaimCaches): { notBefore: number; reason: "quiet_hours" | "daily_limit" } | null {
  if (policy.quietHours) {
    let zones = zonesFor(db, r.toPhone, r.businessId, policy, c);
    // Zones with no common window (rare) fall back to the business's zone rather than never sending.
    let at = nextAllowed(now, zones, policy.quietHours);
    if (at === null) at = nextAllowed(now, (zones = zonesFor(db, "", r.businessId, policy, c)), policy.quietHours)!;
    if (at > now) return { notBefore: at, reason: "quiet_hours" };
    // Twilio drops it if it cannot go before the quiet hours begin; less than a minute left: the next window.
    const validity = validityPeriod(now, zones, policy.quietHours);
    if ("holdUntil" in validity) return { notBefore: validity.holdUntil, reason: "quiet_hours" };
    r.validForSeconds = validity.seconds;
  }
  if (policy.maxPerDay > 0) {
    const key = `${r.customerId}:${r.businessId}`;
    let sends = c.sendsOf.get(key);
    if (!sends) c.sendsOf.set(key, (sends = q(db).recentSends.all(r.customerId, now - DAY_MS, now, r.businessId).map((x) => x.at)));
    if (sends.length >= policy.maxPerDay) {
      // It may go when the oldest of the last maxPerDay sends is 24 h old.
      return { notBefore: sends[policy.maxPerDay - 1]! + DAY_MS, reason: "daily_limit" };
    }
    sends.unshift(now);
  }
  return null;
}

export function outboxClaim(db: Db) {
  const durableTransaction = durableTransactionRunner(db);
  const turns = fairTurns(db);
  return {
    /**
     * Claims up to `limit` due Queued deliveries in one short transaction, in fair order (fair-turns.ts): they become Sending
     * (attempts + 1, claimed_at = now), or Skipped when the customer is no longer an active subscriber. The commit
     * is durable (fsynced, see durableTransactionRunner) before this returns, so before the dispatcher calls the provider.
     */
    claim(now: number, limit: number, policy?: DeferralPolicy): ClaimedDelivery[] {
      if (limit <= 0 || !q(db).anyDue.get(now)) return [];
      return durableTransaction(() => {
        const out: ClaimedDelivery[] = [];
        // Caches for this claim only.
        const caches: ClaimCaches = { zonesOf: new Map(), businessZones: new Map(), sendsOf: new Map() };
        // Deferred rows leave the due set (their next_attempt_at moves on), so claiming again reaches the next ones:
        // a night-time broadcast of 50,000 is deferred batch by batch within this one claim, each row once.
        for (;;) {
          const picked = turns.next(now, limit - out.length);
          if (picked.length === 0) return out;
          const order = new Map(picked.map((id, i) => [id, i]));
          const rows = q(db).claim.all(now, JSON.stringify(picked)).sort((a, b) => order.get(a.id)! - order.get(b.id)!);
          for (const r of rows) {
            if (r.status === "Skipped") {
              q(db).skippedText.run(SKIPPED_MESSAGE, r.id);
            } else if (r.held) {
              // A safety net (their confirmations are written held, and broadcasts refused): it waits for releaseHeld.
              q(db).defer.run(r.id, HELD_UNTIL, "owner_pending");
              continue;
            } else if (policy && !r.confirmation && r.reply !== 2) {
              const wait = deferral(db, r, now, r.reply ? { ...policy, maxPerDay: 0 } : policy, caches);
              if (wait) {
                q(db).defer.run(r.id, wait.notBefore, wait.reason);
                continue;
              }
            }
            out.push(stripBusiness(r));
          }
          if (rows.length === 0 || out.length >= limit || !policy) return out;
        }
      });
    },
  };
}
