// Issue 25 items 3-4: the results page, its CSV and the dashboard stay fast at 50,000 subscribers and 1,000,000
// deliveries. Every statement they prepare goes through EXPLAIN QUERY PLAN: no table is scanned (deliveries,
// subscriptions, consent_events, the clicks and redemptions are each sought through an index), and the indexes of
// migration 0024 are the ones used. bench/results.ts times the same reads on such a database.
import { afterEach, expect, test } from "bun:test";
import type { DayRange } from "../../src/repos/sql/business-dashboard.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { queryPlans } from "../helpers/query-plans.ts";

let ctx: TestContext;
afterEach(() => ctx?.close());

// Table names and the aliases the statements give them (subqueries are named otherwise: opted, per, act, days).
const TABLE = /^SCAN (deliveries|subscriptions|consent_events|link_clicks|coupon_redemptions|coupons|short_links|broadcasts|broadcast_counts|customers|businesses|d|e|s|c|r|k)\b/;

function plansOf(run: () => unknown) {
  const plans = queryPlans(ctx.db.$client, run);
  expect(plans.length).toBeGreaterThan(0);
  for (const p of plans) {
    expect({ sql: p.sql, scans: p.plan.filter((d) => TABLE.test(d.trim())) }).toEqual({ sql: p.sql, scans: [] });
    // Every table a statement reads is sought by an index (or its rowid).
    const searches = p.plan.filter((d) => /^SEARCH /.test(d.trim()));
    expect({ sql: p.sql, unindexed: searches.filter((d) => !/INDEX|PRIMARY KEY/.test(d)) }).toEqual({ sql: p.sql, unindexed: [] });
  }
  return plans.flatMap((p) => p.plan);
}

const DAYS: DayRange[] = [
  ["2026-01-14", 1_768_348_800_000, 1_768_435_200_000],
  ["2026-01-15", 1_768_435_200_000, 1_768_521_600_000],
];

test("GetBroadcastResults: clicks, redemptions, opt-outs and WhatsApp sends each read an index range", () => {
  ctx = testContext();
  const r = ctx.repos.broadcastResults;
  const plan = plansOf(() => {
    r.engagementTotals(1);
    r.whatsappSent(1);
    r.clicksByHour(1, 0, 72);
    r.optOutsBetween(1, 1, 0, 1);
    r.people(1, 501);
  });
  expect(plan).toContain("SEARCH deliveries USING COVERING INDEX deliveries_broadcast_status_idx (broadcast_id=? AND status=? AND channel=?)");
  expect(plan).toContain("SEARCH link_clicks USING COVERING INDEX link_clicks_broadcast_idx (broadcast_id=? AND clicked_at>? AND clicked_at<?)");
  expect(plan).toContain("SEARCH e USING INDEX consent_events_business_kind_at_idx (business_id=? AND kind=? AND at>? AND at<?)");
  expect(plan).toContain("SEARCH d EXISTS USING COVERING INDEX deliveries_broadcast_customer_unique (broadcast_id=? AND customer_id=?)");
  expect(plan.some((d) => /coupon_redemptions USING (COVERING )?INDEX coupon_redemptions_broadcast_idx/.test(d))).toBe(true);
  // Its delivery totals are broadcast_counts' few rows (the counts GetBroadcastStatus reads).
  const counts = queryPlans(ctx.db.$client, () => ctx.repos.deliveries.counts(1)).find((p) => /SUM\(n\) AS n FROM broadcast_counts/.test(p.sql))!;
  expect(counts.plan.join("\n")).toMatch(/SEARCH broadcast_counts USING (COVERING )?INDEX sqlite_autoindex_broadcast_counts_1 \(broadcast_id=\?\)/);
});

test("ExportBroadcastResults: one seek per recipient for clicks, code and redemption", () => {
  ctx = testContext();
  const plan = plansOf(() => ctx.repos.deliveries.resultRows(1));
  expect(plan).toContain("SEARCH c USING COVERING INDEX link_clicks_delivery_idx (delivery_id=?)");
  expect(plan).toContain("SEARCH k USING INDEX coupons_delivery_unique (delivery_id=?)");
  expect(plan).toContain("SEARCH r USING INDEX coupon_redemptions_customer_idx (customer_id=?)");
});

test("GetBusinessDashboard: each day is a seek of subscriptions and consent events; promotions by their index", () => {
  ctx = testContext();
  const d = ctx.repos.businessDashboard;
  const plan = plansOf(() => {
    d.joinedByDay(1, DAYS);
    d.activeSubscribers(1);
    d.leftSince(1, 0);
    d.optOutsByDay(1, DAYS);
    d.lastPromotions(1, 6);
    d.promotionsStartedSince(1, 0);
  });
  expect(plan).toContain("SEARCH s USING INDEX subscriptions_business_created_idx (business_id=? AND created_at>? AND created_at<?)");
  expect(plan.filter((p) => p.includes("consent_events_business_kind_at_idx (business_id=? AND kind=? AND at>? AND at<?)"))).toHaveLength(2);
  expect(plan).toContain("SEARCH subscriptions USING COVERING INDEX subscriptions_business_status_idx (business_id=? AND status=?)");
  expect(plan.some((p) => /broadcasts USING INDEX broadcasts_business_kind_created_idx/.test(p))).toBe(true);
  // The last promotions come in the index's order: no sort.
  expect(plan.filter((p) => /TEMP B-TREE FOR ORDER BY/.test(p))).toEqual([]);
});

// Migration 0024 widened deliveries_broadcast_status_idx with the channel; the retry count of GetBroadcastStatus names
// its two statuses so it still seeks them (an OR alone made SQLite walk every delivery of the broadcast instead).
test("GetBroadcastStatus's retry count and RetryFailedDeliveries seek Failed and Expired in deliveries_broadcast_status_idx", () => {
  ctx = testContext();
  const plans = queryPlans(ctx.db.$client, () => ctx.repos.deliveries.retryableFailed(1)).filter((p) => /status IN \('Expired', 'Failed'\)/.test(p.sql));
  expect(plans).toHaveLength(2);
  for (const p of plans) expect(p.plan).toContain("SEARCH deliveries USING INDEX deliveries_broadcast_status_idx (broadcast_id=? AND status=?)");
});
