// Opt-in confirmations: a broadcast of kind 'confirmation' with its deliveries, written in the transaction that
// (re)subscribed the people, so the text goes through the outbox like any message (paced, crash-safe, shown in the
// customer's messages) and is exempt from quiet hours and the daily cap (deliveries.ts claim). Raw SQL, like the
// outbox it writes (deliveries.ts says why).
import type { Database } from "bun:sqlite";
import type { Db } from "../db/client.ts";
import { underOptOutSql } from "./consent-events.ts";
import { skipUnreachableWhatsApp } from "./whatsapp-skips.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export type ConfirmationOrigin = "public" | "keyword" | "owner" | "import";

export interface NewConfirmation {
  businessId: number;
  origin: ConfirmationOrigin;
  createdBy: number | null;
  messageText: string;
  /** The WhatsApp utility template and its variables; null: WhatsApp people are reached only inside the 24-hour
   * window (the others' deliveries are Skipped with the reason). */
  contentSid: string | null;
  contentVariables: string | null;
  customerIds: number[];
  now: number;
  /** When the texts may first go (the public page's hourly cap); now when absent. */
  notBefore?: number;
}

function prepare(sqlite: Database) {
  return {
    insertBroadcast: sqlite.prepare<{ id: number }, [number, number | null, string, string, string | null, string | null, number, number]>(
      // scheduled_for holds a public confirmation's slot under the hourly cap (publicSlot); started_at is set, so the
      // scheduler never sees it.
      `INSERT INTO broadcasts (business_id, created_by, kind, origin, message_text, content_sid, content_variables, total,
         created_at, started_at, scheduled_for)
       VALUES (?1, ?2, 'confirmation', ?3, ?4, ?5, ?6, 0, ?7, ?7, ?8) RETURNING id`,
    ),
    // The subscription's channel, the customer's phone; only people subscribed (active, or unconfirmed for double
    // opt-in) to this business, and never anyone under an all-business STOP (it stays in force until their START).
    insertDelivery: sqlite.prepare<unknown, [number, number, number, number, string | null]>(
      `INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, attempts, next_attempt_at, deferred_reason)
       SELECT ?1, c.id, s.business_id, s.contact_preference, c.phone, 'Queued', 0, ?4, ?5
       FROM subscriptions s JOIN customers c ON c.id = s.customer_id
       WHERE s.business_id = ?2 AND s.customer_id = ?3 AND s.status IN ('active', 'unconfirmed')
         AND NOT ${underOptOutSql("s.customer_id")}`,
    ),
    setTotal: sqlite.prepare<unknown, [number, number]>(`UPDATE broadcasts SET total = ?2 WHERE id = ?1`),
    // deliveries_customer_idx, then the broadcast by its key.
    sentWithin: sqlite.prepare<{ one: number }, [number, number, number]>(
      `SELECT 1 AS one FROM deliveries d JOIN broadcasts b ON b.id = d.broadcast_id
       WHERE d.customer_id = ?1 AND d.business_id = ?2 AND b.kind = 'confirmation' AND b.created_at > ?3 LIMIT 1`,
    ),
    // The cap-th newest public confirmation's slot (broadcasts_confirmation_idx: newest first by created_at).
    nthPublicSlot: sqlite.prepare<{ slot: number | null }, [number]>(
      `SELECT scheduled_for AS slot FROM broadcasts WHERE kind = 'confirmation' AND origin = 'public'
       ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?1`,
    ),
  };
}

export function confirmationsRepo(db: Db) {
  const sqlite = db.$client;
  let ps: ReturnType<typeof prepare> | undefined;
  const q = () => (ps ??= prepare(sqlite));

  return {
    /** Writes the confirmation broadcast and one delivery per subscribed customer; its id and how many were
     * queued. Call inside the transaction that subscribed them. */
    create(c: NewConfirmation): { broadcastId: number; total: number } {
      const notBefore = Math.max(c.notBefore ?? c.now, c.now);
      const id = q().insertBroadcast.get(c.businessId, c.createdBy, c.origin, c.messageText, c.contentSid, c.contentVariables, c.now, notBefore)!.id;
      const reason = notBefore > c.now ? "confirmation_cap" : null;
      let total = 0;
      for (const customerId of c.customerIds) total += q().insertDelivery.run(id, c.businessId, customerId, notBefore, reason).changes;
      q().setTotal.run(id, total);
      skipUnreachableWhatsApp(sqlite, id, c.now);
      return { broadcastId: id, total };
    },

    /** Whether this person got (or has queued) a confirmation from this business in the last 24 hours. */
    sentWithinDay(customerId: number, businessId: number, now: number): boolean {
      return q().sentWithin.get(customerId, businessId, now - DAY_MS) !== null;
    },

    /**
     * When the next confirmation from the public page may go: now, unless `perHour` of them already have slots in
     * the hour before; then an hour after the perHour-th newest slot. Slots only grow, so no rolling hour ever holds
     * more than perHour of them, however many people (or a script) subscribe.
     */
    publicSlot(now: number, perHour: number): number {
      const nth = q().nthPublicSlot.get(perHour - 1)?.slot ?? null;
      if (nth === null || nth + HOUR_MS <= now) return now;
      return nth + HOUR_MS;
    },
  };
}

export type ConfirmationsRepo = ReturnType<typeof confirmationsRepo>;
