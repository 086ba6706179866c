// What a broadcast brought in (issue 25, item 3): GET GetBroadcastResults (JSON), ExportBroadcastResults (one CSV
// line per recipient, the BroadcastReport's columns and what each person did after) and `nearcast broadcast results`.
// Totals come from broadcast_counts and the engagement tables' indexes (src/repos/sql/broadcast-results.ts).
import { toCsv } from "../../lib/csv.ts";
import type { BroadcastRow } from "../../repos/broadcasts.ts";
import type { ResultsRow } from "../../repos/sql/delivery-report.ts";
import {
  type BroadcastResults,
  type ClicksInHour,
  RESULTS_PEOPLE_LIMIT,
  RESULTS_WINDOW_HOURS,
  type ResultsCoupon,
} from "../../schemas/broadcast-results.ts";
import { lastDigits } from "../../schemas/masked-phone.ts";
import type { Principal } from "../principal.ts";
import { REPORT_CSV_HEADER, reportLine } from "./delivery-report.ts";
import type { BroadcastParts } from "./parts.ts";
import { type Pricing, sentCost } from "./sent-cost.ts";

export const RESULTS_CSV_HEADER = [...REPORT_CSV_HEADER, "clicks", "first_click_at", "coupon_code", "redeemed_at"] as const;

const HOUR = 3_600_000;
const iso = (ms: number | Date | null) => (ms === null ? null : new Date(ms).toISOString());
/** A share of the people reached, to 4 decimals; null when nobody was. */
export const rateOf = (n: number, reached: number) => (reached > 0 ? Math.round((n / reached) * 10_000) / 10_000 : null);

function couponOf(row: BroadcastRow): ResultsCoupon {
  const expiresAt = iso(row.couponExpiresAt);
  if (row.uniqueCoupons) return { kind: "unique", expiresAt };
  if (row.couponCode) return { kind: "shared", code: row.couponCode, expiresAt };
  return { kind: null };
}

/** 72 hours from the start, every hour present. */
function hoursFrom(rows: { hour: number; clicks: number }[]): ClicksInHour[] {
  const out = Array.from({ length: RESULTS_WINDOW_HOURS }, (_, hour) => ({ hour, clicks: 0 }));
  for (const r of rows) if (r.hour >= 0 && r.hour < RESULTS_WINDOW_HOURS) out[r.hour]!.clicks = r.clicks;
  return out;
}

/** The ResultsRow's cells after the report's own: clicks, first click, unique code, redemption. */
const resultLine = (d: ResultsRow) => [...reportLine(d), d.clicks, iso(d.firstClickAt), d.couponCode, iso(d.redeemedAt)];

export function broadcastResultsReports({ repos, access, settings }: BroadcastParts) {
  const pricing = (): Pricing => {
    const current = settings.current();
    return { pricePerSegment: current.pricePerSegment, publicUrl: settings.savedPublicUrl(), billed: current.twilio !== null };
  };

  return {
    /** GET GetBroadcastResults. 404 for a broadcast the actor does not manage. */
    results(actor: Principal, broadcastId: number): BroadcastResults {
      const row = access.broadcastOf(actor, broadcastId);
      const c = repos.deliveries.counts(row.id);
      const t = repos.broadcastResults.engagementTotals(row.id);
      const start = row.startedAt === null ? null : new Date(row.startedAt).getTime();
      const reached = c.Delivered + c.Sent;
      const cost = sentCost(row, { sms: reached - t.whatsappSent, whatsapp: t.whatsappSent }, pricing());
      const people = repos.broadcastResults.people(row.id, RESULTS_PEOPLE_LIMIT + 1);
      return {
        broadcastId: row.id,
        businessId: row.businessId,
        businessName: repos.businesses.findById(row.businessId)?.name ?? "",
        messageText: row.messageText,
        createdAt: new Date(row.createdAt).toISOString(),
        startedAt: iso(row.startedAt),
        completedAt: iso(row.completedAt),
        trackLinks: row.trackLinks,
        coupon: couponOf(row),
        recipients: Object.values(c).reduce((a, b) => a + b, 0),
        delivered: c.Delivered,
        failed: c.Failed,
        skipped: c.Skipped,
        sent: c.Sent,
        queued: c.Queued + c.Sending + c.Uncertain,
        expired: c.Expired,
        cancelled: c.Cancelled,
        optOuts: start === null ? 0 : repos.broadcastResults.optOutsBetween(row.id, row.businessId, start, start + RESULTS_WINDOW_HOURS * HOUR),
        cost: cost.cost,
        costLines: cost.lines,
        segmentsPerMessage: cost.segmentsPerMessage,
        currency: "USD",
        clicks: t.clicks,
        uniqueClickers: t.uniqueClickers,
        clickRate: rateOf(t.uniqueClickers, reached),
        redemptions: t.redemptions,
        redeemers: t.redeemers,
        redemptionRate: rateOf(t.redeemers, reached),
        clicksOverTime: hoursFrom(start === null ? [] : repos.broadcastResults.clicksByHour(row.id, start, RESULTS_WINDOW_HOURS)),
        people: people.slice(0, RESULTS_PEOPLE_LIMIT).map((p) => ({
          customerId: p.customerId,
          phoneMasked: lastDigits(p.phone),
          clicks: p.clicks,
          firstClickAt: iso(p.firstClickAt),
          redeemedAt: iso(p.redeemedAt),
        })),
        peopleTruncated: people.length > RESULTS_PEOPLE_LIMIT,
      };
    },

    /** GET ExportBroadcastResults: one CSV line per recipient (the full phone, as BroadcastReport). 404 as above. */
    resultsCsv(actor: Principal, broadcastId: number): { broadcastId: number; csv: string } {
      const row = access.broadcastOf(actor, broadcastId);
      return { broadcastId: row.id, csv: toCsv(RESULTS_CSV_HEADER, repos.deliveries.resultRows(row.id).map(resultLine)) };
    },
  };
}
