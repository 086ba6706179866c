// A business at a glance (issue 25, item 4): the answer of GET /api/business/GetBusinessDashboard, shared by the
// dashboard screen. Types only: the server builds it (src/services/broadcasts/business-dashboard.ts).
import type { SubscriptionSource } from "./subscriptions-types.ts";

/** The days the charts cover, the last of them today (in `timeZone`). */
export const DASHBOARD_DAYS = 90;
/** How many promotions `lastBroadcasts` holds at most. */
export const DASHBOARD_BROADCASTS = 6;

/** New subscriptions on one day by how they came, and the active subscribers at the end of that day. */
export type SubscribersOnDay = { day: string } & Record<SubscriptionSource, number> & { total: number };

/** Opt-outs on one day. `byKeyword`: a STOP keyword by its word as texted, upper case ("STOP", "UNSUBSCRIBE",
 * "CANCEL"...); any other way by the source stored with it: "subscriptions-page" (the person's own page),
 * "twilio-21610" (the carrier said the number opted out), "sms-reply-words" / "whatsapp-reply-words" (a reply in words). */
export interface OptOutsOnDay {
  day: string;
  count: number;
  byKeyword: Record<string, number>;
}

/** One promotion's results, in short (GetBroadcastResults has the rest). */
export interface DashboardBroadcast {
  broadcastId: number;
  messageText: string;
  /** ISO 8601 (UTC). */
  createdAt: string;
  startedAt: string | null;
  recipients: number;
  delivered: number;
  failed: number;
  clicks: number;
  uniqueClickers: number;
  redemptions: number;
  /** USD as the estimate computes it; null in the sandbox. */
  cost: number | null;
}

export interface BusinessDashboard {
  businessId: number;
  /** The IANA zone the days are counted in: the business's, or "UTC" when it has none. */
  timeZone: string;
  /** DASHBOARD_DAYS entries, oldest first ("YYYY-MM-DD"), every day present (zeros included). */
  subscribersOverTime: SubscribersOnDay[];
  optOutsOverTime: OptOutsOnDay[];
  /** Up to DASHBOARD_BROADCASTS started promotions, newest first. */
  lastBroadcasts: DashboardBroadcast[];
  /** Since the first of this month (in `timeZone`): promotion messages sent (accepted by the provider), their SMS
   * segments (as the estimate counts them) and cost; cost null in the sandbox. */
  thisMonth: { messagesSent: number; segments: number; cost: number | null; currency: "USD" };
}
