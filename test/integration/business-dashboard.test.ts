// Issue 25 item 4: GetBusinessDashboard. Who may read it; new subscribers per day by source (on the business's own
// clock) with the active total walked back; opt-outs per day by their word; the last promotions side by side; this
// month's messages, segments and cost.
import { expect, test } from "bun:test";
import { broadcasts, subscriptions } from "../../src/db/schema.ts";
import { DASHBOARD_DAYS } from "../../src/schemas/business-dashboard.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertClicks, insertCoupon, insertOptOut, insertRedemption } from "../helpers/engagement-rows.ts";
import { type ApiScenario, request, runScenarios } from "../helpers/scenario.ts";
import { ownersWorld, SIGNED_WEBHOOKS_ENV } from "../helpers/worlds.ts";
import { eq } from "drizzle-orm";

// The fake clock reads 2026-01-15T12:00Z: 07:00 in New York, so "today" there is 2026-01-15 from 05:00Z.
const NY = "America/New_York";

function world() {
  const ctx = testContext({ ...SIGNED_WEBHOOKS_ENV, NEARCAST_PUBLIC_URL: PUBLIC_URL });
  const { ownerA, ownerB, admin, bakery, gym } = ownersWorld(ctx, { cafe: false, bakery: { timeZone: NY } });
  const joined = (phone: string, source: "qr" | "list" | "keyword" | "import" | "manual", createdAt: string, status: "active" | "unsubscribed" | "pending" = "active") => {
    const s = insertSubscriber(ctx, bakery.id, { phone, source, status });
    ctx.db.update(subscriptions).set({ createdAt: new Date(createdAt), unsubscribedAt: status === "unsubscribed" ? new Date("2026-01-15T08:00:00Z") : null }).where(eq(subscriptions.id, s.subscription.id)).run();
    return s;
  };
  // Long ago (before the 90 days), and in the window: 04:30Z on the 14th is still the 13th in New York.
  const old = joined("+14155550300", "import", "2025-06-01T12:00:00Z");
  joined("+14155550301", "qr", "2026-01-14T04:30:00Z");
  joined("+14155550302", "qr", "2026-01-14T16:00:00Z");
  joined("+14155550303", "keyword", "2026-01-14T17:00:00Z");
  const left = joined("+14155550304", "list", "2026-01-15T06:00:00Z", "unsubscribed");
  joined("+14155550305", "manual", "2026-01-15T07:00:00Z", "pending");
  // Opt-outs: a STOP (all businesses) by a subscriber on the 14th, the page on the 14th; a STOP by the gym's only.
  insertOptOut(ctx, old.customer.id, null, new Date("2026-01-14T15:00:00Z"), "sms-stop", 'Replied "stop"');
  insertOptOut(ctx, left.customer.id, bakery.id, new Date("2026-01-14T15:00:00Z"), "subscriptions-page", null);
  const gymOnly = insertSubscriber(ctx, gym.id, { phone: "+14155550399" });
  insertOptOut(ctx, gymOnly.customer.id, null, new Date("2026-01-14T15:00:00Z"));
  // Promotions: 7 started this month (the dashboard shows the last 6), one scheduled (not shown), one confirmation.
  const sent: number[] = [];
  for (let i = 0; i < 7; i++) {
    const b = insertBroadcast(ctx, { businessId: bakery.id, messageText: `Deal ${i}`, total: 2, createdAt: new Date(Date.UTC(2026, 0, 2 + i)), startedAt: new Date(Date.UTC(2026, 0, 2 + i)) });
    insertDelivery(ctx, b, old.customer, { status: "Delivered" });
    insertDelivery(ctx, b, left.customer, { status: i === 6 ? "Failed" : "Sent" });
    sent.push(b.id);
  }
  const newest = ctx.db.select().from(broadcasts).where(eq(broadcasts.id, sent[6]!)).get()!;
  const d = insertDelivery(ctx, newest, insertSubscriber(ctx, bakery.id, { phone: "+14155550306", contactPreference: "WhatsApp" }).customer, { status: "Delivered" });
  insertClicks(ctx, d, [new Date("2026-01-09T01:00:00Z"), new Date("2026-01-09T02:00:00Z")]);
  insertRedemption(ctx, insertCoupon(ctx, { broadcastId: newest.id, businessId: bakery.id }, "SAVE10"), null, new Date("2026-01-09T03:00:00Z"));
  insertBroadcast(ctx, { businessId: bakery.id, messageText: "Later", total: 0, scheduledFor: new Date("2026-02-01T00:00:00Z") });
  insertBroadcast(ctx, { businessId: bakery.id, kind: "confirmation", messageText: "Reply YES", total: 1, startedAt: new Date("2026-01-14T00:00:00Z") });
  return { ctx, api: apiClient(ctx), tokens: { owner: ownerA.token, other: ownerB.token, admin: admin.token }, bakery, sent };
}
type World = ReturnType<typeof world>;

const path = (w: World) => `/api/business/GetBusinessDashboard?id=${w.bakery.id}`;
const day = (body: any, name: string) => body.subscribersOverTime.find((d: { day: string }) => d.day === name);

const scenarios: ApiScenario<World>[] = [
  request<World>("owner", "GET", path)("new subscribers per day by source on the business's clock, and the active total", 200, {
    expect: (body) => {
      expect(body.timeZone).toBe(NY);
      expect(body.subscribersOverTime).toHaveLength(DASHBOARD_DAYS);
      expect(body.subscribersOverTime.at(-1).day).toBe("2026-01-15");
      expect(day(body, "2026-01-13")).toEqual({ day: "2026-01-13", qr: 1, list: 0, keyword: 0, import: 0, manual: 0, total: 3 });
      expect(day(body, "2026-01-14")).toEqual({ day: "2026-01-14", qr: 1, list: 0, keyword: 1, import: 0, manual: 0, total: 5 });
      // Today: one came by the list and left again (new, not in the total), one waits for the owner (pending).
      expect(day(body, "2026-01-15")).toEqual({ day: "2026-01-15", qr: 0, list: 1, keyword: 0, import: 0, manual: 1, total: 5 });
      // Before the 13th: the import and the WhatsApp subscriber (a qr one, from the 10th).
      expect(day(body, "2026-01-12").total).toBe(2);
      expect(day(body, "2026-01-10")).toMatchObject({ qr: 1, total: 2 });
      expect(day(body, "2026-01-09").total).toBe(1);
    },
  }),
  request<World>("owner", "GET", path)("opt-outs per day with their word; another business's STOP is not counted", 200, {
    expect: (body) => {
      const optOuts = body.optOutsOverTime.filter((d: { count: number }) => d.count > 0);
      expect(optOuts).toEqual([{ day: "2026-01-14", count: 2, byKeyword: { STOP: 1, "subscriptions-page": 1 } }]);
      expect(body.optOutsOverTime).toHaveLength(DASHBOARD_DAYS);
    },
  }),
  request<World>("owner", "GET", path)("the last 6 started promotions newest first, and this month's totals", 200, {
    expect: (body, w) => {
      expect(body.lastBroadcasts.map((b: { broadcastId: number }) => b.broadcastId)).toEqual(w.sent.slice(1).reverse());
      expect(body.lastBroadcasts[0]).toEqual({
        broadcastId: w.sent[6],
        messageText: "Deal 6",
        createdAt: "2026-01-08T00:00:00.000Z",
        startedAt: "2026-01-08T00:00:00.000Z",
        recipients: 3,
        delivered: 2,
        failed: 1,
        clicks: 2,
        uniqueClickers: 1,
        redemptions: 1,
        // One SMS and one WhatsApp message at $0.0083.
        cost: 0.0166,
      });
      expect(body.lastBroadcasts[1]).toMatchObject({ recipients: 2, delivered: 1, failed: 0, clicks: 0, cost: 0.0166 });
      // 6 promotions of 2 messages and the last of 2 (one failed): 14 sent, 14 segments, 14 × $0.0083.
      expect(body.thisMonth).toEqual({ messagesSent: 14, segments: 14, cost: 0.1162, currency: "USD" });
    },
  }),
  request<World>("admin", "GET", path)("the admin reads any business's", 200, { expectBody: { timeZone: NY } }),
  request<World>("other", "GET", path)("another owner gets 404", 404),
  request<World>(undefined, "GET", path)("anonymous: 401", 401),
  request<World>("owner", "GET", "/api/business/GetBusinessDashboard?id=x1")("a bad id: 400", 400, { fields: { id: "invalid" } }),
  request<World>("owner", "GET", "/api/business/GetBusinessDashboard?id=999")("an unknown business: 404", 404),
];

runScenarios(scenarios, { world, unchanged: (w) => w.ctx.db.select().from(subscriptions).all(), done: (w) => w.ctx.close() });

test("a business without a time zone counts days in UTC, and the sandbox shows no cost", async () => {
  const ctx = testContext();
  try {
    const { ownerA, bakery } = ownersWorld(ctx, { cafe: false });
    const b = insertBroadcast(ctx, { businessId: bakery.id, total: 1, startedAt: new Date("2026-01-10T00:00:00Z") });
    insertDelivery(ctx, b, insertSubscriber(ctx, bakery.id).customer, { status: "Delivered" });
    const body = (await apiClient(ctx).get(`/api/business/GetBusinessDashboard?id=${bakery.id}`, { token: ownerA.token })).body;
    expect(body.timeZone).toBe("UTC");
    expect(body.subscribersOverTime.at(-1).day).toBe("2026-01-15");
    expect(body.thisMonth).toEqual({ messagesSent: 1, segments: 1, cost: null, currency: "USD" });
    expect(body.lastBroadcasts[0].cost).toBeNull();
  } finally {
    ctx.close();
  }
});
