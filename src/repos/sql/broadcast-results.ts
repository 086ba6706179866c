// What a broadcast brought in (issue 25, item 3): its clicks, redemptions and opt-outs, read from their own indexed
// tables; its delivery totals come from broadcast_counts (broadcast-progress.ts), never from a count of deliveries.
// The one read of deliveries here counts the WhatsApp messages sent through deliveries_broadcast_status_idx
// (broadcast_id, status, channel: migrations/0024), an index range, so the cost splits SMS from WhatsApp.
import type { Db } from "../../db/client.ts";
import { statements } from "./statements.ts";

export interface EngagementTotals {
  clicks: number;
  uniqueClickers: number;
  redemptions: number;
  redeemers: number;
  /** WhatsApp deliveries the provider took (Sent or Delivered): billed per message, not per segment. */
  whatsappSent: number;
}

export interface ClickHourRow {
  hour: number;
  clicks: number;
}

export interface ResultsPersonRow {
  customerId: number;
  phone: string;
  clicks: number;
  firstClickAt: number | null;
  redeemedAt: number | null;
}

const HOUR = 3_600_000;

const q = statements((sqlite) => ({
  totals: sqlite.prepare<EngagementTotals, [number]>(
    `SELECT (SELECT count(*) FROM link_clicks WHERE broadcast_id = ?1) AS clicks,
       (SELECT count(DISTINCT delivery_id) FROM link_clicks WHERE broadcast_id = ?1) AS uniqueClickers,
       (SELECT count(*) FROM coupon_redemptions WHERE broadcast_id = ?1) AS redemptions,
       (SELECT count(DISTINCT customer_id) FROM coupon_redemptions WHERE broadcast_id = ?1) AS redeemers,
       (SELECT count(*) FROM deliveries WHERE broadcast_id = ?1 AND status IN ('Sent', 'Delivered') AND channel = 'WhatsApp') AS whatsappSent`,
  ),
  whatsappSent: sqlite.prepare<{ n: number }, [number]>(
    `SELECT count(*) AS n FROM deliveries WHERE broadcast_id = ?1 AND status IN ('Sent', 'Delivered') AND channel = 'WhatsApp'`,
  ),
  // link_clicks_broadcast_idx (broadcast_id, clicked_at) holds all this statement reads.
  clicksByHour: sqlite.prepare<ClickHourRow, [number, number, number]>(
    `SELECT (clicked_at - ?2) / ${HOUR} AS hour, count(*) AS clicks FROM link_clicks
     WHERE broadcast_id = ?1 AND clicked_at >= ?2 AND clicked_at < ?3 GROUP BY hour ORDER BY hour`,
  ),
  // Recipients (a delivery of this broadcast: deliveries_broadcast_customer_unique) who ended their subscription to
  // the business, or everything (business_id NULL), in the window: consent_events_business_kind_at_idx both times.
  optOuts: sqlite.prepare<{ n: number }, [number, number, number, number]>(
    `SELECT count(DISTINCT customer_id) AS n FROM (
       SELECT e.customer_id FROM consent_events e WHERE e.business_id = ?2 AND e.kind = 'unsubscribed' AND e.at >= ?3 AND e.at < ?4
       UNION ALL
       SELECT e.customer_id FROM consent_events e WHERE e.business_id IS NULL AND e.kind = 'unsubscribed' AND e.at >= ?3 AND e.at < ?4
     ) opted WHERE EXISTS (SELECT 1 FROM deliveries d WHERE d.broadcast_id = ?1 AND d.customer_id = opted.customer_id)`,
  ),
  // Who clicked (per delivery: one person) or redeemed, newest activity first; ?2 is how many to read.
  people: sqlite.prepare<ResultsPersonRow, [number, number]>(
    `SELECT act.customer_id AS customerId, c.phone, sum(act.clicks) AS clicks, min(act.first_click) AS firstClickAt,
       min(act.redeemed) AS redeemedAt
     FROM (
       SELECT d.customer_id, per.n AS clicks, per.first AS first_click, NULL AS redeemed
       FROM (SELECT delivery_id, count(*) AS n, min(clicked_at) AS first FROM link_clicks WHERE broadcast_id = ?1 GROUP BY delivery_id) per
       JOIN deliveries d ON d.id = per.delivery_id
       UNION ALL
       SELECT customer_id, 0, NULL, redeemed_at FROM coupon_redemptions WHERE broadcast_id = ?1 AND customer_id IS NOT NULL
     ) act JOIN customers c ON c.id = act.customer_id
     GROUP BY act.customer_id
     ORDER BY max(coalesce(max(act.first_click), 0), coalesce(max(act.redeemed), 0)) DESC, act.customer_id DESC
     LIMIT ?2`,
  ),
}));

export function broadcastResults(db: Db) {
  return {
    /** Clicks, redemptions and the WhatsApp messages sent, of one broadcast. */
    engagementTotals(broadcastId: number): EngagementTotals {
      return q(db).totals.get(broadcastId)!;
    },
    /** WhatsApp deliveries of the broadcast the provider took (an index range: no delivery row is read). */
    whatsappSent(broadcastId: number): number {
      return q(db).whatsappSent.get(broadcastId)!.n;
    },
    /** Clicks per hour after `from` (hour 0 = its first 60 minutes), up to `hours`; hours without a click are absent. */
    clicksByHour(broadcastId: number, from: number, hours: number): ClickHourRow[] {
      return q(db).clicksByHour.all(broadcastId, from, from + hours * HOUR);
    },
    /** Recipients of the broadcast who unsubscribed from `businessId` or from all in [from, to). */
    optOutsBetween(broadcastId: number, businessId: number, from: number, to: number): number {
      return q(db).optOuts.get(broadcastId, businessId, from, to)!.n;
    },
    /** Up to `limit` people who clicked or redeemed, newest activity first. */
    people(broadcastId: number, limit: number): ResultsPersonRow[] {
      return q(db).people.all(broadcastId, limit);
    },
  };
}
