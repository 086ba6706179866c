// Issue 25 item 1, the publish side: TrackLinks on PublishMessageToAllCustomers (now and scheduled), on
// UpdateScheduledBroadcast's new text, and on the estimate's segment count. Tracking needs a URL in the text and a
// saved public URL; the broadcast then stores track_links and one broadcast_links row per URL, in order.
import { describe, expect } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { broadcastLinks, broadcasts } from "../../src/db/schema.ts";
import { TRACK_LINKS_INVALID } from "../../src/schemas/broadcast-input.ts";
import { TRACKING_NEEDS_PUBLIC_URL, TRACKING_TURNED_OFF } from "../../src/schemas/link-tracking.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { member, shopWithSubscribers } from "../helpers/worlds.ts";

const PUBLIC = { NEARCAST_PUBLIC_URL: "https://deals.example.com" };
const DEALS = "https://shop.example.com/autumn/deals?utm_source=sms&utm_campaign=fall-weekend-2026";
const MENU = "https://shop.example.com/menu";
const TEXT = `Autumn deals all weekend: ${DEALS}. Menu: ${MENU}`;
/** 191 GSM characters: two segments as written, one with the link as a 36-character short link. */
const LONG = `${"Fresh bread and pastries, 20% off until noon on Saturday and Sunday at our shop in the old town. "}See ${DEALS}`;

interface LinksWorld extends ScenarioWorld {
  ctx: TestContext;
  bakery: number;
  gym: number;
}

function world(s: ApiScenario<LinksWorld>): LinksWorld {
  const ctx = testContext(s.env ?? PUBLIC);
  const owner = member(ctx);
  const other = member(ctx);
  const admin = member(ctx, { role: "admin" });
  const bakery = shopWithSubscribers(ctx, 3, { business: { ownerId: owner.id } }).business.id;
  const gym = shopWithSubscribers(ctx, 2, { business: { ownerId: other.id } }).business.id;
  return { ctx, api: apiClient(ctx), bakery, gym, tokens: { owner: owner.token, other: other.token, admin: admin.token } };
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const publish = (as: string) => request<LinksWorld>(as, "POST", "/api/business/PublishMessageToAllCustomers");
const estimate = (as: string) => request<LinksWorld>(as, "POST", "/api/broadcast/Estimate");

const newest = (w: LinksWorld) => w.ctx.db.select().from(broadcasts).orderBy(asc(broadcasts.id)).all().at(-1)!;
const linksOf = (w: LinksWorld, id: number) =>
  w.ctx.db.select({ position: broadcastLinks.position, url: broadcastLinks.url }).from(broadcastLinks).where(eq(broadcastLinks.broadcastId, id)).orderBy(asc(broadcastLinks.position)).all();
const allLinks = (w: LinksWorld) => w.ctx.db.select().from(broadcastLinks).all();

const scenarios: ApiScenario<LinksWorld>[] = [
  publish("owner")("TrackLinks left out: on; one broadcast_links row per URL, in order", 200, {
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.bakery), MessageText: TEXT }),
    expectBody: { recipients: 3, linkTracking: { on: true } },
    after: (w) => {
      expect(newest(w).trackLinks).toBe(true);
      expect(linksOf(w, newest(w).id)).toEqual([{ position: 0, url: DEALS }, { position: 1, url: MENU }]);
    },
  }),
  publish("owner")("TrackLinks=false: the links go as written, none stored", 200, {
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.bakery), MessageText: TEXT, TrackLinks: "false" }),
    expectBody: { recipients: 3, linkTracking: { on: false, reason: TRACKING_TURNED_OFF } },
    after: (w) => {
      expect(newest(w).trackLinks).toBe(false);
      expect(allLinks(w)).toEqual([]);
    },
  }),
  publish("owner")("no public URL: tracking is off, and the answer says why", 200, {
    env: {},
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.bakery), MessageText: TEXT, TrackLinks: "true" }),
    expectBody: { recipients: 3, linkTracking: { on: false, reason: TRACKING_NEEDS_PUBLIC_URL } },
    after: (w) => {
      expect(newest(w).trackLinks).toBe(false);
      expect(allLinks(w)).toEqual([]);
    },
  }),
  publish("owner")("a text without a URL: nothing to track, nothing said", 200, {
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.bakery), MessageText: "Fresh bagels, 2 for 1" }),
    expect: (body, w) => {
      expect(body.linkTracking).toBeUndefined();
      expect(newest(w).trackLinks).toBe(false);
      expect(allLinks(w)).toEqual([]);
    },
  }),
  publish("owner")("TrackLinks=maybe: 400 naming TrackLinks, nothing written", 400, {
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.bakery), MessageText: TEXT, TrackLinks: "maybe" }),
    fields: { TrackLinks: TRACK_LINKS_INVALID },
  }),
  publish("other")("another owner's business: refused, nothing written", 403, {
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.bakery), MessageText: TEXT }),
  }),
  publish("admin")("the admin may publish for any business: links stored the same", 200, {
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.gym), MessageText: TEXT }),
    expectBody: { recipients: 2, linkTracking: { on: true } },
    after: (w) => expect(linksOf(w, newest(w).id).map((l) => l.url)).toEqual([DEALS, MENU]),
  }),
  publish("owner")("scheduled: its links are stored with it, and a new text rewrites them", 200, {
    headers: FORM,
    raw: (w) => form({ BusinessId: String(w.bakery), MessageText: TEXT, ScheduledFor: new Date(w.ctx.clock.now().getTime() + 3_600_000).toISOString() }),
    expectBody: { linkTracking: { on: true } },
    after: async (w) => {
      const id = newest(w).id;
      expect(linksOf(w, id).map((l) => l.url)).toEqual([DEALS, MENU]);
      const res = await w.api.call("POST", "/api/business/UpdateScheduledBroadcast", {
        token: w.tokens!.owner,
        headers: FORM,
        body: form({ BroadcastId: String(id), MessageText: `Only one link now: ${MENU}` }),
      });
      expect(res.status).toBe(200);
      expect(res.body.broadcast).toMatchObject({ trackLinks: true });
      expect(linksOf(w, id)).toEqual([{ position: 0, url: MENU }]);
    },
  }),
  estimate("owner")("a long URL that makes two segments counts as one short link", 200, {
    json: (w) => ({ businessId: w.bakery, messageText: LONG }),
    expectBody: { segmentsPerMessage: 1, totalSegments: 3, linkTracking: { on: true } },
  }),
  estimate("owner")("TrackLinks false: the long URL is counted as written", 200, {
    json: (w) => ({ businessId: w.bakery, messageText: LONG, trackLinks: false }),
    expectBody: { segmentsPerMessage: 2, totalSegments: 6, linkTracking: { on: false, reason: TRACKING_TURNED_OFF } },
  }),
  estimate("owner")("no public URL: counted as written, and it says why", 200, {
    env: {},
    json: (w) => ({ businessId: w.bakery, messageText: LONG }),
    expectBody: { segmentsPerMessage: 2, linkTracking: { on: false, reason: TRACKING_NEEDS_PUBLIC_URL } },
  }),
  estimate("other")("another owner's business: not found", 404, {
    json: (w) => ({ businessId: w.bakery, messageText: LONG }),
  }),
  estimate("admin")("the admin may ask for any business: counted the same", 200, {
    json: (w) => ({ businessId: w.gym, messageText: LONG }),
    expectBody: { segmentsPerMessage: 1, totalSegments: 2, linkTracking: { on: true } },
  }),
  // In GSM-7 "{code}" already costs 8 septets ({ and } are escapes), as a code does; in UCS-2 it is 6 units against a
  // code's 8. 70 units with {code} as typed (a croissant is 2): one segment; as sent, 72: two.
  estimate("owner")("UniqueCoupons: {code} counts as a code's 8 characters", 200, {
    json: (w) => ({ businessId: w.bakery, messageText: `\u{1F950}${"b".repeat(61)} {code}`, uniqueCoupons: true }),
    expectBody: { encoding: "UCS-2", segmentsPerMessage: 2 },
  }),
  estimate("owner")("without UniqueCoupons the same text is counted as typed", 200, {
    json: (w) => ({ businessId: w.bakery, messageText: `\u{1F950}${"b".repeat(61)} {code}` }),
    expectBody: { encoding: "UCS-2", segmentsPerMessage: 1 },
  }),
  estimate("owner")("trackLinks not true or false: 400", 400, {
    json: (w) => ({ businessId: w.bakery, messageText: LONG, trackLinks: "sometimes" }),
    fields: { TrackLinks: TRACK_LINKS_INVALID },
  }),
];

describe("TrackLinks on publish, schedule and estimate", () => {
  runScenarios(scenarios, {
    world,
    unchanged: (w) => ({ broadcasts: w.ctx.db.select().from(broadcasts).all().length, links: allLinks(w).length }),
    done: (w) => w.ctx.close(),
  });
});
