// Opt-in confirmations: a broadcast of kind 'confirmation' with its deliveries, written in the transaction that
// (re)subscribed the people, so the text goes through the outbox like any message (paced, crash-safe, shown in the
// customer's messages) and is exempt from quiet hours and the daily cap (claim.ts). Each delivery has its
// own slot under the text budgets (src/services/text-budget.ts), or waits for the owner's approval (HELD_UNTIL).
// Raw SQL, like the outbox it writes (deliveries.ts says why).
import type { Db } from "../../db/client.ts";
import { statements } from "./statements.ts";
import { underOptOutSql } from "../consent-events.ts";
import { skipUnreachableWhatsApp } from "./whatsapp-skips.ts";

const DAY_MS = 86_400_000;

/** Far ahead: a confirmation of an owner the admin has not approved waits until releaseHeld gives it a slot. */
export const HELD_UNTIL = Date.UTC(9999, 11, 31);

export type ConfirmationOrigin = "public" | "keyword" | "owner" | "import";
/** Why a confirmation waits: its owner awaits approval, or its slot under the text budgets is ahead. */
export type ConfirmationWait = "owner_pending" | "text_budget" | null;

export interface NewConfirmation {
  businessId: number;
  origin: ConfirmationOrigin;
  createdBy: number | null;
  messageText: string;
  /** The WhatsApp utility template and its variables; null: WhatsApp people are reached only inside the 24-hour
   * window (the others' deliveries are Skipped with the reason). */
  contentSid: string | null;
  contentVariables: string | null;
  now: number;
}

/** The business a confirmation is for: what its text says, and whether the admin approved its owner. */
export interface ConfirmationBusiness {
  name: string;
  messagesPerWeek: number;
  doubleOptIn: boolean;
  ownerId: number;
  ownerStatus: "approved" | "pending" | "refused";
}

/** A held delivery of an owner's business (releaseHeld): confirmations get budget slots, anything else goes now. */
export interface HeldDelivery {
  id: number;
  phone: string;
  confirmation: number;
}

const q = statements((sqlite) => ({
  insertBroadcast: sqlite.prepare<{ id: number }, [number, number | null, string, string, string | null, string | null, number]>(
    // started_at is set, so the scheduler never sees it.
    `INSERT INTO broadcasts (business_id, created_by, kind, origin, message_text, content_sid, content_variables, total,
       created_at, started_at, scheduled_for)
     VALUES (?1, ?2, 'confirmation', ?3, ?4, ?5, ?6, 0, ?7, ?7, ?7) RETURNING id`,
  ),
  // The subscription's channel, the customer's phone; only people subscribed (active, or unconfirmed for double
  // opt-in) to this business, and never anyone under an all-business STOP (it stays in force until their START).
  // The phone is a subquery, not a join: see the rule "a join or a sort beside `column = ?`" in src/repos/README.md.
  insertDelivery: sqlite.prepare<{ id: number }, [number, number, number, number, string | null]>(
    `INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, attempts, next_attempt_at, deferred_reason)
     SELECT ?1, s.customer_id, s.business_id, s.contact_preference, (SELECT phone FROM customers WHERE id = s.customer_id),
       'Queued', 0, ?4, ?5
     FROM subscriptions s
     WHERE s.business_id = ?2 AND s.customer_id = ?3 AND s.status IN ('active', 'unconfirmed')
       AND NOT ${underOptOutSql("s.customer_id")}
     RETURNING id`,
  ),
  // More deliveries (an import's next chunk): the total grows, and a broadcast the dispatcher had already completed
  // is open again.
  addTotal: sqlite.prepare<unknown, [number, number]>(`UPDATE broadcasts SET total = total + ?2, completed_at = NULL WHERE id = ?1`),
  phones: sqlite.prepare<{ id: number; phone: string }, [string]>(
    `SELECT id, phone FROM customers WHERE id IN (SELECT value FROM json_each(?1))`,
  ),
  // What the text says and whether its owner may send (one row, by the keys).
  business: sqlite.prepare<ConfirmationBusiness, [number]>(
    `SELECT b.name, b.messages_per_week AS messagesPerWeek, b.double_opt_in AS doubleOptIn, b.owner_id AS ownerId,
            u.status AS ownerStatus
     FROM businesses b JOIN users u ON u.id = b.owner_id WHERE b.id = ?1`,
  ),
  // deliveries_customer_idx, then each one's broadcast by its key (a subquery, not a join: src/repos/README.md).
  sentWithin: sqlite.prepare<{ one: number }, [number, number, number]>(
    `SELECT 1 AS one FROM deliveries d
     WHERE d.customer_id = ?1 AND d.business_id = ?2
       AND (SELECT kind = 'confirmation' AND created_at > ?3 FROM broadcasts WHERE id = d.broadcast_id)
     LIMIT 1`,
  ),
  // Held rows all wait until HELD_UNTIL: deliveries_queued_due_idx finds them by that one value.
  held: sqlite.prepare<HeldDelivery, [number, number]>(
    `SELECT d.id, d.to_phone AS phone, (SELECT kind FROM broadcasts b WHERE b.id = d.broadcast_id) = 'confirmation' AS confirmation
     FROM deliveries d
     WHERE d.status = 'Queued' AND d.next_attempt_at = ?1 AND d.deferred_reason = 'owner_pending'
       AND d.business_id IN (SELECT id FROM businesses WHERE owner_id = ?2)
     ORDER BY d.id`,
  ),
  release: sqlite.prepare<unknown, [number, number, string | null]>(
    `UPDATE deliveries SET next_attempt_at = ?2, deferred_reason = ?3 WHERE id = ?1 AND status = 'Queued' AND deferred_reason = 'owner_pending'`,
  ),
}));

export function confirmationsRepo(db: Db) {

  return {
    /** Writes a confirmation broadcast without deliveries yet (add them with addDelivery, then finish). Call inside
     * the transaction that subscribed the people. */
    open(c: NewConfirmation): number {
      return q(db).insertBroadcast.get(c.businessId, c.createdBy, c.origin, c.messageText, c.contentSid, c.contentVariables, c.now)!.id;
    },

    /** One delivery of the confirmation to a subscribed customer, due at `notBefore`; its id, or null when the
     * person is not (or no longer) someone it may go to. */
    addDelivery(broadcastId: number, businessId: number, customerId: number, notBefore: number, wait: ConfirmationWait): number | null {
      return q(db).insertDelivery.get(broadcastId, businessId, customerId, notBefore, wait)?.id ?? null;
    },

    /** After a batch of addDelivery: the total grows by `added`, and the WhatsApp rules apply to the new rows
     * (from `firstId` on). */
    finish(broadcastId: number, added: number, firstId: number, now: number): void {
      q(db).addTotal.run(broadcastId, added);
      if (added > 0) skipUnreachableWhatsApp(db, broadcastId, now, firstId);
    },

    business(businessId: number): ConfirmationBusiness | undefined {
      const b = q(db).business.get(businessId);
      return b ? { ...b, doubleOptIn: Boolean(b.doubleOptIn) } : undefined;
    },

    /** The phones of these customers, by id. */
    phonesOf(customerIds: readonly number[]): Map<number, string> {
      return new Map(q(db).phones.all(JSON.stringify(customerIds)).map((r) => [r.id, r.phone]));
    },

    /** Whether this person got (or has queued) a confirmation from this business in the last 24 hours. */
    sentWithinDay(customerId: number, businessId: number, now: number): boolean {
      return q(db).sentWithin.get(customerId, businessId, now - DAY_MS) !== null;
    },

    /** The deliveries of the owner's businesses held while the admin had not approved them, oldest first. */
    heldOf(ownerId: number): HeldDelivery[] {
      return q(db).held.all(HELD_UNTIL, ownerId);
    },

    /** A held delivery may go at `at` (waiting for its budget slot when `wait` says so). */
    release(id: number, at: number, wait: ConfirmationWait): boolean {
      return q(db).release.run(id, at, wait).changes > 0;
    },
  };
}

export type ConfirmationsRepo = ReturnType<typeof confirmationsRepo>;
