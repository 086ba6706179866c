// A business at a glance (issue 25, item 4): GET GetBusinessDashboard. New subscribers per day by how they came and
// the active total at the end of each day, opt-outs per day by their word, the last promotions' results side by side,
// and this month's messages and cost. Days are the business's own (businesses.time_zone; UTC without one).
import type { DayRange, JoinedRow, OptOutRow, PromotionRow } from "../../repos/sql/business-dashboard.ts";
import {
  type BusinessDashboard,
  DASHBOARD_BROADCASTS,
  DASHBOARD_DAYS,
  type DashboardBroadcast,
  type OptOutsOnDay,
  type SubscribersOnDay,
} from "../../schemas/business-dashboard.ts";
import { SUBSCRIPTION_SOURCES } from "../../schemas/subscriptions-types.ts";
import { knownZone, lastLocalDays, localMonthStart } from "../../lib/local-days.ts";
import type { Principal } from "../principal.ts";
import type { BroadcastParts } from "./parts.ts";
import { type Pricing, sentCost } from "./sent-cost.ts";

type Counts = ReturnType<BroadcastParts["repos"]["broadcasts"]["countsFor"]> extends Map<number, infer C> ? C : never;

/** The index of the day `t` falls in, or -1 outside the window. */
function dayIndex(days: DayRange[], t: number): number {
  let lo = 0;
  let hi = days.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [, start, end] = days[mid]!;
    if (t < start) hi = mid - 1;
    else if (t >= end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/**
 * New subscriptions per day by source; the total is today's active count walked back: minus those who came after
 * the day (pending and never-confirmed ones aside), plus those who left after it.
 */
export function subscribersByDay(days: DayRange[], joined: JoinedRow[], leftAt: number[], activeNow: number): SubscribersOnDay[] {
  const out = days.map(([day]) => ({ day, ...Object.fromEntries(SUBSCRIPTION_SOURCES.map((s) => [s, 0])), total: 0 }) as SubscribersOnDay);
  const net = days.map(() => 0);
  const index = new Map(days.map(([day], i) => [day, i]));
  for (const r of joined) {
    const i = index.get(r.day)!;
    out[i]![r.source] += r.n;
    if (r.counted) net[i]! += r.n;
  }
  for (const at of leftAt) {
    const i = dayIndex(days, at);
    if (i >= 0) net[i]! -= 1;
  }
  let total = activeNow;
  for (let i = days.length - 1; i >= 0; i--) {
    out[i]!.total = total;
    total -= net[i]!;
  }
  return out;
}

/** The word a STOP came with ('sms-stop' stores `Replied "stop"`), else how it came (the page, the carrier...). */
export function optOutKeyword(source: string, consentText: string | null): string {
  if (!source.endsWith("-stop")) return source;
  const said = /^Replied (".*")$/.exec(consentText ?? "")?.[1];
  try {
    const word = said ? String(JSON.parse(said)).trim().toUpperCase() : "";
    return word || "STOP";
  } catch {
    return "STOP";
  }
}

export function optOutsByDay(days: DayRange[], rows: OptOutRow[]): OptOutsOnDay[] {
  const out = days.map(([day]): OptOutsOnDay => ({ day, count: 0, byKeyword: {} }));
  const index = new Map(days.map(([day], i) => [day, i]));
  for (const r of rows) {
    const o = out[index.get(r.day)!]!;
    const word = optOutKeyword(r.source, r.consentText);
    o.count += r.n;
    o.byKeyword[word] = (o.byKeyword[word] ?? 0) + r.n;
  }
  return out;
}

const reachedOf = (c: Counts) => c.Delivered + c.Sent;

export function businessDashboards({ repos, access, settings, clock }: BroadcastParts) {
  const pricing = (): Pricing => {
    const current = settings.current();
    return { pricePerSegment: current.pricePerSegment, publicUrl: settings.savedPublicUrl(), billed: current.twilio !== null };
  };
  const costOf = (b: PromotionRow, c: Counts, p: Pricing) => {
    const whatsapp = repos.broadcastResults.whatsappSent(b.id);
    return sentCost(b, { sms: reachedOf(c) - whatsapp, whatsapp }, p);
  };

  function lastBroadcasts(businessId: number, p: Pricing): DashboardBroadcast[] {
    const rows = repos.businessDashboard.lastPromotions(businessId, DASHBOARD_BROADCASTS);
    const counts = repos.broadcasts.countsFor(rows.map((r) => r.id));
    return rows.map((b) => {
      const c = counts.get(b.id)!;
      const t = repos.broadcastResults.engagementTotals(b.id);
      return {
        broadcastId: b.id,
        messageText: b.messageText,
        createdAt: new Date(b.createdAt).toISOString(),
        startedAt: b.startedAt === null ? null : new Date(b.startedAt).toISOString(),
        recipients: Object.values(c).reduce((x, y) => x + y, 0),
        delivered: c.Delivered,
        failed: c.Failed,
        clicks: t.clicks,
        uniqueClickers: t.uniqueClickers,
        redemptions: t.redemptions,
        cost: costOf(b, c, p).cost,
      };
    });
  }

  function thisMonth(businessId: number, since: number, p: Pricing): BusinessDashboard["thisMonth"] {
    const rows = repos.businessDashboard.promotionsStartedSince(businessId, since);
    const counts = repos.broadcasts.countsFor(rows.map((r) => r.id));
    let messagesSent = 0;
    let segments = 0;
    let cost = 0;
    for (const b of rows) {
      const c = counts.get(b.id)!;
      const one = costOf(b, c, p);
      messagesSent += reachedOf(c);
      segments += one.totalSegments;
      cost += one.cost ?? 0;
    }
    return { messagesSent, segments, cost: p.billed ? Math.round(cost * 10_000) / 10_000 : null, currency: "USD" };
  }

  return {
    /** GET GetBusinessDashboard. 404 for a business the actor does not manage. */
    dashboard(actor: Principal, businessId: number): BusinessDashboard {
      const business = access.readable(actor, businessId);
      const timeZone = knownZone(business.timeZone);
      const now = clock.now().getTime();
      const days = lastLocalDays(timeZone, now, DASHBOARD_DAYS);
      const d = repos.businessDashboard;
      const p = pricing();
      return {
        businessId: business.id,
        timeZone,
        subscribersOverTime: subscribersByDay(days, d.joinedByDay(business.id, days), d.leftSince(business.id, days[0]![1]), d.activeSubscribers(business.id)),
        optOutsOverTime: optOutsByDay(days, d.optOutsByDay(business.id, days)),
        lastBroadcasts: lastBroadcasts(business.id, p),
        thisMonth: thisMonth(business.id, localMonthStart(timeZone, now), p),
      };
    },
  };
}
