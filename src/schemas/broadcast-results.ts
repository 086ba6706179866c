// What a broadcast brought in (issue 25, item 3): the answer of GET /api/business/GetBroadcastResults, shared by the
// results screen and `nearcast broadcast results`. Types only: the server builds it (src/services/broadcasts/results.ts).
import type { CostLine } from "./broadcast-estimate.ts";

/** The broadcast's offer, if any: one code for all ("shared", `code` set) or one per person ("unique"). */
export interface ResultsCoupon {
  kind: "shared" | "unique" | null;
  /** The shared code; absent for unique codes and without an offer. */
  code?: string;
  /** ISO 8601 (UTC): the end of the offer's last day; absent without an offer. */
  expiresAt?: string | null;
}

/** Clicks in one hour after the broadcast started (hour 0 = its first 60 minutes), 0..71. */
export interface ClicksInHour {
  hour: number;
  clicks: number;
}

/** One person who clicked or redeemed. The phone shows only its last 4 digits ("•••• 1234"). */
export interface ResultsPerson {
  customerId: number;
  phoneMasked: string;
  clicks: number;
  /** ISO 8601 (UTC), null when the person only redeemed. */
  firstClickAt: string | null;
  /** ISO 8601 (UTC) of the first redemption, null when the person only clicked. */
  redeemedAt: string | null;
}

/** At most this many people are listed (newest activity first); `peopleTruncated` says there were more. */
export const RESULTS_PEOPLE_LIMIT = 500;
/** Opt-outs and the clicks chart look at the first 72 hours after the broadcast started. */
export const RESULTS_WINDOW_HOURS = 72;

export interface BroadcastResults {
  broadcastId: number;
  businessId: number;
  businessName: string;
  messageText: string;
  /** ISO 8601 (UTC); startedAt null while scheduled, completedAt null while sending. */
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
  trackLinks: boolean;
  coupon: ResultsCoupon;
  /** Deliveries written (the people it went to); delivered + failed + skipped + sent + queued + expired + cancelled. */
  recipients: number;
  delivered: number;
  failed: number;
  skipped: number;
  /** Accepted by the provider, no delivery receipt (yet). */
  sent: number;
  /** Not settled yet (queued, sending, uncertain). */
  queued: number;
  expired: number;
  cancelled: number;
  /** Recipients who unsubscribed (from this business, or from all) within 72 h after the start. */
  optOuts: number;
  /** As the estimate computes it: the text as sent (short links, unique codes) by the price per segment; USD to 4
   * decimals; null in the sandbox (nothing billed). `costLines` are its parts. */
  cost: number | null;
  costLines: CostLine[];
  /** SMS segments per SMS message of the text as sent (1 for an MMS). */
  segmentsPerMessage: number;
  currency: "USD";
  clicks: number;
  uniqueClickers: number;
  /** uniqueClickers / (delivered + sent), 0..1; null when nobody was reached. */
  clickRate: number | null;
  /** Redemptions of the broadcast's coupons (a shared code counts each time). */
  redemptions: number;
  /** Distinct people who redeemed (redemptions without a known person are not counted here). */
  redeemers: number;
  /** redeemers / (delivered + sent), 0..1; null when nobody was reached. */
  redemptionRate: number | null;
  /** 72 entries, hours 0..71 (all zero before the start). */
  clicksOverTime: ClicksInHour[];
  people: ResultsPerson[];
  peopleTruncated: boolean;
}

