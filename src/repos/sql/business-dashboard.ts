// A business at a glance (issue 25, item 4): new subscribers and opt-outs per day, its last promotions, this month's.
// Days are the business's own (local midnights computed by the service), handed in as a JSON array of
// [day, start, end) so each day is one seek of an index (CROSS JOIN keeps the days outside: the planner cannot tell
// how few they are): subscriptions_business_created_idx and
// consent_events_business_kind_at_idx (migrations/0024). No statement here reads a delivery row.
import type { Db } from "../../db/client.ts";
import type { SubscriptionSource } from "../../schemas/subscriptions-types.ts";
import { statements } from "./statements.ts";

/** One day of the window: its name and its [start, end) in ms. */
export type DayRange = [day: string, start: number, end: number];

export interface JoinedRow {
  day: string;
  source: SubscriptionSource;
  /** Whether these subscriptions are in today's active total or left since (not pending, never confirmed). */
  counted: 0 | 1;
  n: number;
}

export interface OptOutRow {
  day: string;
  source: string;
  consentText: string | null;
  n: number;
}

export interface PromotionRow {
  id: number;
  messageText: string;
  imagePath: string | null;
  trackLinks: boolean;
  uniqueCoupons: boolean;
  createdAt: number;
  startedAt: number | null;
}

const DAYS = `days(day, s, e) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?2))`;

const PROMOTION_COLUMNS = `id, message_text AS messageText, image_path AS imagePath, track_links AS trackLinks,
  unique_coupons AS uniqueCoupons, created_at AS createdAt, started_at AS startedAt`;

const q = statements((sqlite) => ({
  joined: sqlite.prepare<JoinedRow, [number, string]>(
    `WITH ${DAYS}
     SELECT days.day, s.source, (s.status = 'active' OR (s.status IN ('unsubscribed', 'removed') AND s.unsubscribed_at IS NOT NULL)) AS counted, count(*) AS n
     FROM days CROSS JOIN subscriptions s ON s.business_id = ?1 AND s.created_at >= days.s AND s.created_at < days.e
     GROUP BY days.day, s.source, counted`,
  ),
  activeNow: sqlite.prepare<{ n: number }, [number]>(`SELECT count(*) AS n FROM subscriptions WHERE business_id = ?1 AND status = 'active'`),
  // subscriptions_business_status_idx: when the ones who left did (a day at a time would walk them all 90 times).
  leftSince: sqlite.prepare<{ at: number }, [number, number]>(
    `SELECT unsubscribed_at AS at FROM subscriptions
     WHERE business_id = ?1 AND status IN ('unsubscribed', 'removed') AND unsubscribed_at >= ?2`,
  ),
  // This business's opt-outs, and the all-business ones (a STOP) of people subscribed to it.
  optOuts: sqlite.prepare<OptOutRow, [number, string]>(
    `WITH ${DAYS}
     SELECT day, source, consent_text AS consentText, count(*) AS n FROM (
       SELECT days.day, e.source, e.consent_text FROM days CROSS JOIN consent_events e
         ON e.business_id = ?1 AND e.kind = 'unsubscribed' AND e.at >= days.s AND e.at < days.e
       UNION ALL
       SELECT days.day, e.source, e.consent_text FROM days CROSS JOIN consent_events e
         ON e.business_id IS NULL AND e.kind = 'unsubscribed' AND e.at >= days.s AND e.at < days.e
       WHERE EXISTS (SELECT 1 FROM subscriptions s WHERE s.customer_id = e.customer_id AND s.business_id = ?1)
     ) GROUP BY day, source, consent_text`,
  ),
  lastPromotions: sqlite.prepare<PromotionRow, [number, number]>(
    `SELECT ${PROMOTION_COLUMNS} FROM broadcasts
     WHERE business_id = ?1 AND kind = 'promotion' AND started_at IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT ?2`,
  ),
  promotionsStartedSince: sqlite.prepare<PromotionRow, [number, number]>(
    `SELECT ${PROMOTION_COLUMNS} FROM broadcasts WHERE business_id = ?1 AND kind = 'promotion' AND started_at >= ?2`,
  ),
}));

const asBool = (r: PromotionRow): PromotionRow => ({ ...r, trackLinks: Boolean(r.trackLinks), uniqueCoupons: Boolean(r.uniqueCoupons) });

export function businessDashboard(db: Db) {
  return {
    /** New subscriptions per day and source (`counted`: in the active total now, or left since). */
    joinedByDay(businessId: number, days: DayRange[]): JoinedRow[] {
      return q(db).joined.all(businessId, JSON.stringify(days));
    },
    activeSubscribers(businessId: number): number {
      return q(db).activeNow.get(businessId)!.n;
    },
    /** When the subscriptions that ended (unsubscribed or removed, and still so) since `from` ended. */
    leftSince(businessId: number, from: number): number[] {
      return q(db).leftSince.all(businessId, from).map((r) => r.at);
    },
    /** Opt-outs per day by source and the words stored with them. */
    optOutsByDay(businessId: number, days: DayRange[]): OptOutRow[] {
      return q(db).optOuts.all(businessId, JSON.stringify(days));
    },
    /** The business's last `limit` started promotions, newest first. */
    lastPromotions(businessId: number, limit: number): PromotionRow[] {
      return q(db).lastPromotions.all(businessId, limit).map(asBool);
    },
    promotionsStartedSince(businessId: number, since: number): PromotionRow[] {
      return q(db).promotionsStartedSince.all(businessId, since).map(asBool);
    },
  };
}
