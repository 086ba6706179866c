// An owner's answer in the inbox (issue 24 item 2): a one-recipient broadcast of kind 'reply' with its delivery,
// written in one transaction, so it goes through the outbox like every message (paced, crash-safe, its status shown in
// the thread). origin 'recent' marks an answer to someone who wrote within the hour: the claim lets it through quiet
// hours (src/repos/sql/claim.ts); no reply counts toward the daily cap of promotions.
import type { Db } from "../../db/client.ts";
import { underOptOutSql } from "../consent-events.ts";
import { statements } from "./statements.ts";
import { skipUnreachableWhatsApp } from "./whatsapp-skips.ts";

export interface NewReply {
  businessId: number;
  customerId: number;
  createdBy: number | null;
  messageText: string;
  contentSid: string | null;
  contentVariables: string | null;
  /** The person wrote within the hour: quiet hours do not hold it. */
  recent: boolean;
  now: number;
}

const q = statements((sqlite) => ({
  insertBroadcast: sqlite.prepare<{ id: number }, [number, number | null, string | null, string, string | null, string | null, number]>(
    `INSERT INTO broadcasts (business_id, created_by, kind, origin, message_text, content_sid, content_variables, total,
       created_at, started_at, scheduled_for)
     VALUES (?1, ?2, 'reply', ?3, ?4, ?5, ?6, 1, ?7, ?7, ?7) RETURNING id`,
  ),
  // Only to an active subscriber not under an all-business STOP, on the subscription's channel.
  insertDelivery: sqlite.prepare<{ id: number; channel: "SMS" | "WhatsApp" }, [number, number, number, number]>(
    `INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, attempts, next_attempt_at)
     SELECT ?1, c.id, s.business_id, s.contact_preference, c.phone, 'Queued', 0, ?4
     FROM subscriptions s JOIN customers c ON c.id = s.customer_id
     WHERE s.business_id = ?2 AND s.customer_id = ?3 AND s.status = 'active' AND NOT ${underOptOutSql("s.customer_id")}
     RETURNING id, channel`,
  ),
  status: sqlite.prepare<{ status: string }, [number]>(`SELECT status FROM deliveries WHERE id = ?1`),
}));

export function inboxRepliesRepo(db: Db) {
  return {
    /** Writes the answer and its delivery (call inside a transaction); the delivery's id and status, or null when the
     * person may not be sent anything (and nothing is written: the caller's transaction rolls back). */
    queue(r: NewReply): { deliveryId: number; status: string } | null {
      const s = q(db);
      const broadcastId = s.insertBroadcast.get(r.businessId, r.createdBy, r.recent ? "recent" : null, r.messageText, r.contentSid, r.contentVariables, r.now)!.id;
      const delivery = s.insertDelivery.get(broadcastId, r.businessId, r.customerId, r.now);
      if (!delivery) return null;
      skipUnreachableWhatsApp(db, broadcastId, r.now, delivery.id);
      return { deliveryId: delivery.id, status: s.status.get(delivery.id)!.status };
    },
  };
}
