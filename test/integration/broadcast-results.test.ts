// Issue 25 item 3: GetBroadcastResults and ExportBroadcastResults on a seeded broadcast: who may read them, every
// number (delivered, failed, clicks, unique clickers, redemptions, opt-outs inside and outside 72 h, cost with and
// without tracking), the phones masked in the JSON, and the CSV's totals equal to the JSON's.
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { broadcasts } from "../../src/db/schema.ts";
import { PUBLIC_URL } from "../helpers/api.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertClicks, insertCoupon, insertOptOut, insertRedemption } from "../helpers/engagement-rows.ts";
import { type ApiScenario, request, runScenarios } from "../helpers/scenario.ts";
import { ownersWorld, SIGNED_WEBHOOKS_ENV } from "../helpers/worlds.ts";

const T0 = Date.parse("2026-01-15T12:00:00Z");
const at = (hours: number) => new Date(T0 + hours * 3_600_000);
// 104 characters before the link: with its long URL (75) the text is 2 segments; as a short link on the public URL
// (https://deals.example.com/l/xxxxxxxx, 36) it is 1. {code} becomes an 8-character code.
const LONG_URL = "https://bakery.example/offers/this-week/rye-bread-special-for-our-regulars";
const TEXT = `Fresh rye today at A Bakery, two loaves for the price of one. Show code {code} at the till or see ${LONG_URL}`;

function world() {
  const ctx = testContext({ ...SIGNED_WEBHOOKS_ENV, NEARCAST_PUBLIC_URL: PUBLIC_URL });
  const { ownerA, ownerB, admin, bakery, gym } = ownersWorld(ctx, { cafe: false });
  const subs = Array.from({ length: 6 }, (_, i) => insertSubscriber(ctx, bakery.id, { phone: `+1415555020${i}`, contactPreference: i === 2 ? "WhatsApp" : "SMS" }));
  const broadcast = insertBroadcast(ctx, { businessId: bakery.id, messageText: TEXT, total: 6, trackLinks: true, uniqueCoupons: true, startedAt: at(0), createdAt: at(0) });
  const statuses = ["Delivered", "Delivered", "Delivered", "Sent", "Failed", "Skipped"] as const;
  const d = subs.map((s, i) => insertDelivery(ctx, broadcast, s.customer, { status: statuses[i], sentAt: i < 5 ? at(0) : null, errorCode: i === 4 ? 30005 : null }));
  // Clicks: the first twice (10 min, 2 h), the second at 30 h, the fourth at 80 h (counted, outside the chart).
  insertClicks(ctx, d[0]!, [at(1 / 6), at(2)]);
  insertClicks(ctx, d[1]!, [at(30)]);
  insertClicks(ctx, d[3]!, [at(80)]);
  const ids = { broadcastId: broadcast.id, businessId: bakery.id };
  const codes = ["K2M4P6Q8", "R3S5T7U9", "V2W4X6Y8", "Z3A5B7C9"];
  const coupons = codes.map((code, i) => insertCoupon(ctx, ids, code, d[i]!));
  insertRedemption(ctx, coupons[1]!, subs[1]!.customer.id, at(5));
  insertRedemption(ctx, coupons[2]!, subs[2]!.customer.id, at(6));
  // Opt-outs: from the bakery at 1 h, from all at 71 h (both counted), from all at 73 h (too late); a recipient
  // leaving another business, and someone who got nothing, are not this broadcast's.
  insertOptOut(ctx, subs[3]!.customer.id, bakery.id, at(1), "subscriptions-page", null);
  insertOptOut(ctx, subs[4]!.customer.id, null, at(71));
  insertOptOut(ctx, subs[5]!.customer.id, null, at(73));
  const gymOnly = insertSubscriber(ctx, gym.id, { phone: "+14155550299" });
  insertSubscriber(ctx, gym.id, { phone: subs[0]!.customer.phone });
  insertOptOut(ctx, subs[0]!.customer.id, gym.id, at(3));
  insertOptOut(ctx, gymOnly.customer.id, null, at(2));
  return {
    ctx,
    api: apiClient(ctx),
    tokens: { owner: ownerA.token, other: ownerB.token, admin: admin.token },
    broadcastId: broadcast.id,
    bakery,
    subs,
    phones: subs.map((s) => s.customer.phone),
  };
}
type World = ReturnType<typeof world>;

const results = (w: World) => `/api/business/GetBroadcastResults?id=${w.broadcastId}`;
const exportCsv = (w: World) => `/api/business/ExportBroadcastResults?id=${w.broadcastId}`;

const EXPECTED = {
  recipients: 6,
  delivered: 3,
  sent: 1,
  failed: 1,
  skipped: 1,
  queued: 0,
  optOuts: 2,
  clicks: 4,
  uniqueClickers: 3,
  clickRate: 0.75,
  redemptions: 2,
  redeemers: 2,
  redemptionRate: 0.5,
  trackLinks: true,
  coupon: { kind: "unique" },
  businessName: "A Bakery",
  currency: "USD",
  // 3 SMS of 1 segment and 1 WhatsApp message at $0.0083.
  segmentsPerMessage: 1,
  cost: 0.0332,
  peopleTruncated: false,
};

const asOwner = request<World>("owner", "GET", results);
const csvAs = (as: string | undefined) => request<World>(as, "GET", exportCsv);
const scenarios: ApiScenario<World>[] = [
  asOwner("the owner reads the numbers of their broadcast", 200, {
    expectBody: EXPECTED,
    expect: (body) => {
      expect(body.costLines).toEqual([
        { channel: "SMS", count: 3, unit: "SMS segment", unitPrice: 0.0083, cost: 0.0249 },
        { channel: "WhatsApp", count: 1, unit: "WhatsApp message", unitPrice: 0.0083, cost: 0.0083 },
      ]);
      expect(body.clicksOverTime).toHaveLength(72);
      expect(body.clicksOverTime.filter((h: { clicks: number }) => h.clicks > 0)).toEqual([
        { hour: 0, clicks: 1 },
        { hour: 2, clicks: 1 },
        { hour: 30, clicks: 1 },
      ]);
    },
  }),
  asOwner("who clicked or redeemed, newest first, with the last 4 digits of their phone only", 200, {
    expect: (body, w) => {
      const masked = (i: number) => `•••• ${w.phones[i]!.slice(-4)}`;
      expect(body.people).toEqual([
        { customerId: w.subs[3]!.customer.id, phoneMasked: masked(3), clicks: 1, firstClickAt: at(80).toISOString(), redeemedAt: null },
        { customerId: w.subs[1]!.customer.id, phoneMasked: masked(1), clicks: 1, firstClickAt: at(30).toISOString(), redeemedAt: at(5).toISOString() },
        { customerId: w.subs[2]!.customer.id, phoneMasked: masked(2), clicks: 0, firstClickAt: null, redeemedAt: at(6).toISOString() },
        { customerId: w.subs[0]!.customer.id, phoneMasked: masked(0), clicks: 2, firstClickAt: at(1 / 6).toISOString(), redeemedAt: null },
      ]);
      const text = JSON.stringify(body);
      for (const phone of w.phones) expect(text).not.toContain(phone.slice(1));
    },
  }),
  request<World>("admin", "GET", results)("the admin reads any business's", 200, { expectBody: { broadcastId: expect.any(Number), clicks: 4 } as never }),
  request<World>("other", "GET", results)("another owner gets 404", 404),
  request<World>(undefined, "GET", results)("anonymous: 401", 401),
  request<World>("owner", "GET", "/api/business/GetBroadcastResults?id=abc")("a bad id: 400 naming id", 400, { fields: { id: "invalid" } }),
  request<World>("owner", "GET", "/api/business/GetBroadcastResults")("no id: 400", 400, { fields: { id: "required" } }),
  request<World>("owner", "GET", "/api/business/GetBroadcastResults?id=999")("an unknown broadcast: 404", 404),
  csvAs("owner")("the owner exports one line per recipient, whose totals are the JSON's", 200, {
    expect: async (body, w, res) => {
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="broadcast-${w.broadcastId}-results.csv"`);
      const json = (await w.api.get(results(w), { token: w.tokens.owner })).body;
      const [header, ...lines] = String(body).trimEnd().split("\r\n").map((l) => l.split(","));
      expect(header).toEqual(["phone", "channel", "status", "reason", "sent_at", "clicks", "first_click_at", "coupon_code", "redeemed_at"]);
      // The full number, as BroadcastReport writes it (a leading apostrophe keeps a spreadsheet from reading "+1..." as a formula).
      expect(lines.map((l) => l[0])).toEqual(w.phones.map((p) => `'${p}`));
      const col = (name: string) => lines.map((l) => l[header!.indexOf(name)]!);
      const statusCount = (s: string) => col("status").filter((x) => x === s).length;
      expect(lines.length).toBe(json.recipients);
      expect([statusCount("Delivered"), statusCount("Sent"), statusCount("Failed"), statusCount("Skipped")]).toEqual([json.delivered, json.sent, json.failed, json.skipped]);
      expect(col("clicks").reduce((a, b) => a + Number(b), 0)).toBe(json.clicks);
      expect(col("first_click_at").filter(Boolean).length).toBe(json.uniqueClickers);
      expect(col("redeemed_at").filter(Boolean).length).toBe(json.redeemers);
      expect(col("coupon_code")).toEqual(["K2M4P6Q8", "R3S5T7U9", "V2W4X6Y8", "Z3A5B7C9", "", ""]);
      expect(lines[0]).toEqual([`'${w.phones[0]}`, "SMS", "Delivered", "", at(0).toISOString(), "2", at(1 / 6).toISOString(), "K2M4P6Q8", ""]);
      expect(lines[4]![3]).not.toBe("");
    },
  }),
  csvAs("admin")("the admin exports any business's", 200, { expect: (body: string) => expect(body.split("\r\n")).toHaveLength(8) }),
  csvAs("other")("another owner cannot export it: 404", 404),
  csvAs(undefined)("anonymous export: 401", 401),
  request<World>("owner", "GET", "/api/business/ExportBroadcastResults?id=0")("export with a bad id: 400", 400, { fields: { id: "invalid" } }),
];

runScenarios(scenarios, { world, unchanged: (w) => w.ctx.db.select().from(broadcasts).all(), done: (w) => w.ctx.close() });

test("without tracking the long URL is counted: 2 segments per SMS, and the cost with it", async () => {
  const w = world();
  try {
    w.ctx.db.update(broadcasts).set({ trackLinks: false }).where(eq(broadcasts.id, w.broadcastId)).run();
    const body = (await w.api.get(results(w), { token: w.tokens.owner })).body;
    expect(body).toMatchObject({ trackLinks: false, segmentsPerMessage: 2, cost: 0.0581 });
    expect(body.costLines[0]).toEqual({ channel: "SMS", count: 6, unit: "SMS segment", unitPrice: 0.0083, cost: 0.0498 });
  } finally {
    w.ctx.close();
  }
});

test("a scheduled broadcast not started yet: zeros, no chart, no opt-outs; a shared code shows as such", async () => {
  const w = world();
  try {
    const later = insertBroadcastFor(w);
    const body = (await w.api.get(`/api/business/GetBroadcastResults?id=${later}`, { token: w.tokens.owner })).body;
    expect(body).toMatchObject({ startedAt: null, recipients: 0, clicks: 0, optOuts: 0, clickRate: null, redemptionRate: null, cost: 0, coupon: { kind: "shared", code: "SAVE10" } });
    expect(body.clicksOverTime.every((h: { clicks: number }) => h.clicks === 0)).toBe(true);
    expect(body.people).toEqual([]);
  } finally {
    w.ctx.close();
  }
});

function insertBroadcastFor(w: World): number {
  return insertBroadcast(w.ctx, { businessId: w.bakery.id, messageText: "Soon", total: 0, scheduledFor: at(24), couponCode: "SAVE10", couponExpiresAt: at(48) }).id;
}
