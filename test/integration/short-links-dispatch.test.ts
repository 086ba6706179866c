// Issue 25 at send time: each delivery of a tracked broadcast carries its own short links on the saved public URL,
// and `{code}` its own unique coupon code, made when it is first sent; a resend says the same. Through the real
// dispatcher and the fake Twilio on loopback.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { coupons, deliveries, shortLinks } from "../../src/db/schema.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { COUPON_ALPHABET, SHORT_CODE_ALPHABET } from "../../src/schemas/tracked-text.ts";
import { apiClient } from "../helpers/api.ts";
import type { TestContext } from "../helpers/context.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";
import { contextOnFake, fakeTwilioForFile, shopWithSubscribers } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile({ resetEach: true });
const PUBLIC_URL = "https://deals.example.com";
const DEALS = "https://shop.example.com/autumn/deals?utm_source=sms";
const MENU = "https://shop.example.com/menu";
const TEXT = `Autumn deals: ${DEALS} and the menu ${MENU}. Your code: {code}`;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const CODE = `[${SHORT_CODE_ALPHABET}]{8}`;
const AS_SENT = new RegExp(
  `^Autumn deals: ${escape(PUBLIC_URL)}/l/(${CODE}) and the menu ${escape(PUBLIC_URL)}/l/(${CODE})\\. Your code: ([${COUPON_ALPHABET}]{8})$`,
);

// The same text without the coupon's place: {code} without UniqueCoupons is refused (nobody receives "{code}").
const PLAIN = TEXT.replace(" Your code: {code}", "");

async function publish(ctx: TestContext, businessId: number, fields: { trackLinks?: boolean; uniqueCoupons?: boolean } = {}) {
  const messageText = fields.uniqueCoupons ? TEXT : PLAIN;
  const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(businessId), messageText, trackLinks: fields.trackLinks, uniqueCoupons: fields.uniqueCoupons });
  if (!("broadcastId" in res)) throw new Error("nothing published");
  return res.broadcastId;
}

const allSent = (ctx: TestContext, id: number) => () =>
  ctx.db.select().from(deliveries).where(eq(deliveries.broadcastId, id)).all().every((d) => d.status === "Sent");

function send(ctx: TestContext, id: number) {
  return dispatchUntil(ctx, allSent(ctx, id), 50, { publicUrl: () => ctx.services.settings.savedPublicUrl() }, 15_000);
}

describe("short links and unique coupons at send time", () => {
  test("each person gets distinct short links on the public URL and a distinct coupon; a resend says the same", async () => {
    const ctx = contextOnFake(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL });
    try {
      const shop = shopWithSubscribers(ctx, 5);
      const id = await publish(ctx, shop.business.id, { uniqueCoupons: true });
      // The first try to the first person fails before Twilio takes it: sent again later, with the same codes.
      fake.scriptFor(shop.phones[0]!, "server_error");
      await send(ctx, id);

      const sends = fake.sends();
      expect(sends).toHaveLength(6);
      const first = sends.filter((s) => s.form.To === shop.phones[0]);
      expect(first).toHaveLength(2);
      expect(first[1]!.form.Body).toBe(first[0]!.form.Body);

      const bodies = shop.phones.map((p) => String(sends.findLast((s) => s.form.To === p)!.form.Body));
      const parts = bodies.map((b) => AS_SENT.exec(b));
      expect(parts.every((m) => m !== null)).toBe(true);
      const links = parts.flatMap((m) => [m![1]!, m![2]!]);
      const codes = parts.map((m) => m![3]!);
      expect(new Set(links).size).toBe(10);
      expect(new Set(codes).size).toBe(5);

      // Stored: one short link per delivery and link, one coupon per delivery, the ones that went out.
      expect(ctx.db.select().from(shortLinks).where(eq(shortLinks.broadcastId, id)).all().map((r) => r.code).sort()).toEqual([...links].sort());
      const stored = ctx.db.select().from(coupons).where(eq(coupons.broadcastId, id)).all();
      expect(stored.map((c) => c.code).sort()).toEqual([...codes].sort());
      expect(stored.every((c) => c.deliveryId !== null && c.businessId === shop.business.id)).toBe(true);

      // The short links lead where the text's URLs did, in order.
      const api = apiClient(ctx);
      const deals = await api.get(`/l/${parts[2]![1]}`, { headers: { "user-agent": "Mozilla/5.0 (iPhone)" } });
      const menu = await api.get(`/l/${parts[2]![2]}`, { headers: { "user-agent": "Mozilla/5.0 (iPhone)" } });
      expect([deals.status, deals.headers.get("location")]).toEqual([302, DEALS]);
      expect([menu.status, menu.headers.get("location")]).toEqual([302, MENU]);
    } finally {
      ctx.close();
    }
  });

  test("TrackLinks false and no unique coupons: the text goes as written, and nothing is made for it", async () => {
    const ctx = contextOnFake(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL });
    try {
      const shop = shopWithSubscribers(ctx, 3);
      const id = await publish(ctx, shop.business.id, { trackLinks: false });
      await send(ctx, id);
      expect(fake.sends().map((s) => s.form.Body)).toEqual([PLAIN, PLAIN, PLAIN]);
      expect(ctx.db.select().from(shortLinks).all()).toEqual([]);
      expect(ctx.db.select().from(coupons).all()).toEqual([]);
    } finally {
      ctx.close();
    }
  });
});
