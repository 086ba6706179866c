// What the results page and the dashboard are answered with in their component tests: a broadcast that went to 48
// people, with link clicks in its first hours and a unique-code offer; a business with subscribers by source, opt-outs
// by keyword and three broadcasts. Each test changes what it is about.
import type { BroadcastResults } from "../../../src/schemas/broadcast-results.ts";
import type { BusinessDashboard, OptOutsOnDay, SubscribersOnDay } from "../../../src/schemas/business-dashboard.ts";

/** Clicks per hour of `results()`: 12 in hour 0, 9 in hour 1, 3 in hour 5, 1 in hour 30; 25 in all. */
export const CLICKS = { 0: 12, 1: 9, 5: 3, 30: 1 } as Record<number, number>;

export function results(over: Partial<BroadcastResults> = {}): BroadcastResults {
  return {
    broadcastId: 31,
    businessId: 42,
    businessName: "Rosie's Corner Bakery",
    messageText: "Two loaves for one today: https://rosies.example/deal",
    createdAt: "2026-11-20T09:00:00.000Z",
    startedAt: "2026-11-20T09:00:05.000Z",
    completedAt: "2026-11-20T09:02:00.000Z",
    trackLinks: true,
    coupon: { kind: "unique", expiresAt: "2026-11-30T23:59:59.999Z" },
    recipients: 48,
    delivered: 40,
    failed: 3,
    skipped: 1,
    sent: 4,
    queued: 0,
    expired: 0,
    cancelled: 0,
    optOuts: 2,
    cost: 0.7968,
    costLines: [{ channel: "SMS", count: 96, unit: "SMS segment", unitPrice: 0.0083, cost: 0.7968 }],
    segmentsPerMessage: 2,
    currency: "USD",
    clicks: 25,
    uniqueClickers: 11,
    clickRate: 11 / 44,
    redemptions: 4,
    redeemers: 3,
    redemptionRate: 3 / 44,
    clicksOverTime: Array.from({ length: 72 }, (_, hour) => ({ hour, clicks: CLICKS[hour] ?? 0 })),
    people: [
      { customerId: 7, phoneMasked: "•••• 0107", clicks: 3, firstClickAt: "2026-11-20T09:05:00.000Z", redeemedAt: "2026-11-20T15:00:00.000Z" },
      { customerId: 8, phoneMasked: "•••• 0108", clicks: 1, firstClickAt: "2026-11-20T10:00:00.000Z", redeemedAt: null },
      { customerId: 9, phoneMasked: "•••• 0109", clicks: 0, firstClickAt: null, redeemedAt: "2026-11-21T11:00:00.000Z" },
    ],
    peopleTruncated: false,
    ...over,
  };
}

/** `n` days ending Nov 27, 2026, oldest first. */
export const days = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 10, 27 - (n - 1 - i))).toISOString().slice(0, 10));

const zeroDay = (day: string): SubscribersOnDay => ({ day, qr: 0, list: 0, keyword: 0, import: 0, manual: 0, total: 0 });

export function dashboard(over: Partial<BusinessDashboard> = {}): BusinessDashboard {
  const span = days(90);
  let total = 100;
  const subscribersOverTime = span.map((day, i) => {
    const row = zeroDay(day);
    if (i === 80) Object.assign(row, { qr: 5, list: 2, keyword: 1, import: 20, manual: 1 });
    if (i === 89) Object.assign(row, { qr: 3 });
    total += row.qr + row.list + row.keyword + row.import + row.manual - (i === 85 ? 2 : 0);
    return { ...row, total };
  });
  const optOutsOverTime = span.map((day, i): OptOutsOnDay => (i === 85 ? { day, count: 2, byKeyword: { STOP: 1, "subscriptions-page": 1 } } : { day, count: 0, byKeyword: {} }));
  return {
    businessId: 42,
    timeZone: "America/Los_Angeles",
    subscribersOverTime,
    optOutsOverTime,
    lastBroadcasts: [
      { broadcastId: 31, messageText: "Two loaves for one today", createdAt: "2026-11-20T09:00:00.000Z", startedAt: "2026-11-20T09:00:05.000Z", recipients: 48, delivered: 40, failed: 3, clicks: 25, uniqueClickers: 11, redemptions: 4, cost: 0.7968 },
      { broadcastId: 30, messageText: "Pumpkin pie is back", createdAt: "2026-11-10T09:00:00.000Z", startedAt: "2026-11-10T09:00:05.000Z", recipients: 45, delivered: 45, failed: 0, clicks: 0, uniqueClickers: 0, redemptions: 0, cost: 0.3735 },
    ],
    thisMonth: { messagesSent: 93, segments: 186, cost: 1.5438, currency: "USD" },
    ...over,
  };
}

export { zeroDay };
