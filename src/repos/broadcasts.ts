// Broadcasts: one row per press of Send Broadcast; its deliveries are the outbox (src/repos/deliveries.ts).
import type { Database } from "bun:sqlite";
import type { Db } from "../db/client.ts";
import { underOptOutSql } from "./consent-events.ts";
import { type DeliveryStatus, emptyCounts, type StatusCounts } from "./deliveries.ts";

export interface BroadcastRow {
  id: number;
  businessId: number;
  createdBy: number | null;
  messageText: string;
  imagePath: string | null;
  total: number;
  createdAt: number;
  completedAt: number | null;
  /** The business's owner (for tenancy checks). */
  ownerId: number;
}

export interface NewBroadcast {
  businessId: number;
  createdBy: number | null;
  messageText: string;
  imagePath: string | null;
  createdAt: number;
}

/**
 * Active subscribers of a business by channel: the people a broadcast goes to (so, like the enqueue, without anyone
 * under an all-business opt-out).
 */
export interface SubscriberCounts {
  total: number;
  sms: number;
  whatsapp: number;
}

/** One recipient a broadcast would go to (dry runs). */
export interface Recipient {
  customerId: number;
  phone: string;
  channel: "SMS" | "WhatsApp";
}

const COLUMNS = `b.id, b.business_id AS businessId, b.created_by AS createdBy, b.message_text AS messageText,
  b.image_path AS imagePath, b.total, b.created_at AS createdAt, b.completed_at AS completedAt, o.owner_id AS ownerId`;

function prepare(sqlite: Database) {
  return {
    insert: sqlite.prepare<{ id: number }, [number, number | null, string, string | null, number]>(
      `INSERT INTO broadcasts (business_id, created_by, message_text, image_path, total, created_at)
       VALUES (?1, ?2, ?3, ?4, 0, ?5) RETURNING id`,
    ),
    setTotal: sqlite.prepare<unknown, [number, number]>(`UPDATE broadcasts SET total = ?2 WHERE id = ?1`),
    findById: sqlite.prepare<BroadcastRow, [number]>(
      `SELECT ${COLUMNS} FROM broadcasts b JOIN businesses o ON o.id = b.business_id WHERE b.id = ?1`,
    ),
    listByBusiness: sqlite.prepare<BroadcastRow, [number, number]>(
      `SELECT ${COLUMNS} FROM broadcasts b JOIN businesses o ON o.id = b.business_id
       WHERE b.business_id = ?1 ORDER BY b.created_at DESC, b.id DESC LIMIT ?2`,
    ),
    countsForBusiness: sqlite.prepare<{ broadcastId: number; status: DeliveryStatus; n: number }, [number, number]>(
      `SELECT d.broadcast_id AS broadcastId, d.status, COUNT(*) AS n FROM deliveries d
       WHERE d.broadcast_id IN (SELECT id FROM broadcasts WHERE business_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2)
       GROUP BY d.broadcast_id, d.status`,
    ),
    subscriberCounts: sqlite.prepare<{ channel: "SMS" | "WhatsApp"; n: number }, [number]>(
      `SELECT c.contact_preference AS channel, COUNT(*) AS n
       FROM subscriptions s JOIN customers c ON c.id = s.customer_id
       WHERE s.business_id = ?1 AND s.status = 'active' AND NOT ${underOptOutSql("s.customer_id")} GROUP BY c.contact_preference`,
    ),
    hasRecipients: sqlite.prepare<{ yes: number }, [number]>(
      `SELECT EXISTS (SELECT 1 FROM subscriptions s
         WHERE s.business_id = ?1 AND s.status = 'active' AND NOT ${underOptOutSql("s.customer_id")}) AS yes`,
    ),
    recipients: sqlite.prepare<Recipient, [number]>(
      `SELECT c.id AS customerId, c.phone, c.contact_preference AS channel
       FROM subscriptions s JOIN customers c ON c.id = s.customer_id
       WHERE s.business_id = ?1 AND s.status = 'active' AND NOT ${underOptOutSql("s.customer_id")} ORDER BY s.id`,
    ),
    delete: sqlite.prepare<unknown, [number]>(`DELETE FROM broadcasts WHERE id = ?1`),
  };
}

export function broadcastsRepo(db: Db) {
  const sqlite = db.$client;
  let ps: ReturnType<typeof prepare> | undefined;
  const q = () => (ps ??= prepare(sqlite));

  return {
    /** Inserts the broadcast with total 0; setTotal() once its deliveries are written (same transaction). */
    insert(row: NewBroadcast): number {
      return q().insert.get(row.businessId, row.createdBy, row.messageText, row.imagePath, row.createdAt)!.id;
    },
    setTotal(id: number, total: number): void {
      q().setTotal.run(id, total);
    },
    findById(id: number): BroadcastRow | undefined {
      return q().findById.get(id) ?? undefined;
    },
    /** Newest first. */
    listByBusiness(businessId: number, limit = 100): BroadcastRow[] {
      return q().listByBusiness.all(businessId, limit);
    },
    /** Delivery counts by status for the broadcasts listByBusiness() returns. */
    countsForBusiness(businessId: number, limit = 100): Map<number, StatusCounts> {
      const out = new Map<number, StatusCounts>();
      for (const r of q().countsForBusiness.all(businessId, limit)) {
        let c = out.get(r.broadcastId);
        if (!c) out.set(r.broadcastId, (c = emptyCounts()));
        c[r.status] = r.n;
      }
      return out;
    },
    subscriberCounts(businessId: number): SubscriberCounts {
      const out: SubscriberCounts = { total: 0, sms: 0, whatsapp: 0 };
      for (const r of q().subscriberCounts.all(businessId)) {
        out.total += r.n;
        if (r.channel === "WhatsApp") out.whatsapp += r.n;
        else out.sms += r.n;
      }
      return out;
    },
    /** Whether a broadcast would go to anyone now: stops at the first one (the publish check before an image is stored). */
    hasRecipients(businessId: number): boolean {
      return q().hasRecipients.get(businessId)?.yes === 1;
    },
    /** The active subscribers a broadcast would go to now (no one under an opt-out), in enqueue order. */
    recipients(businessId: number): Recipient[] {
      return q().recipients.all(businessId);
    },
    delete(id: number): void {
      q().delete.run(id);
    },
  };
}

export type BroadcastsRepo = ReturnType<typeof broadcastsRepo>;
