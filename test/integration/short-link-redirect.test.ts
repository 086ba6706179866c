// Issue 25: GET /l/<code> answers a 302 to the original URL and records a person's click: not a HEAD, not a link
// preview, and one a day per code and address. An unknown code gets a small page in the install's brand, never a
// redirect. Not the scenario runner: its GETs must change nothing, and clicks are the point of this GET.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { deliveries, linkClicks } from "../../src/db/schema.ts";
import { nextTurn } from "../../src/lib/next-turn.ts";
import { LINK_NOT_FOUND_TITLE } from "../../src/http/pages/link-not-found-page.tsx";
import { OPERATOR } from "../../src/services/principal.ts";
import { type ApiClient, apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { shopWithSubscribers } from "../helpers/worlds.ts";

const DEALS = "https://shop.example.com/autumn/deals?utm_source=sms";
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const PREVIEWS = [
  "WhatsApp/2.23.20.0 A",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  // iMessage's link preview
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
  "TelegramBot (like TwitterBot)",
  "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
  "curl/8.5.0",
];

let ctx: TestContext;
let api: ApiClient;
let broadcastId: number;
/** The first two deliveries' short link codes, and the first's delivery id. */
let codes: string[];
let deliveryId: number;

beforeAll(async () => {
  ctx = testContext({ NEARCAST_PUBLIC_URL: "https://deals.example.com", NEARCAST_BRAND_NAME: "Corner Deals" });
  api = apiClient(ctx);
  const shop = shopWithSubscribers(ctx, 2);
  const res = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(shop.business.id), messageText: `Deals: ${DEALS}` });
  if (!("broadcastId" in res)) throw new Error("nothing published");
  broadcastId = res.broadcastId;
  const ids = ctx.db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.broadcastId, broadcastId)).orderBy(asc(deliveries.id)).all();
  deliveryId = ids[0]!.id;
  // As the dispatcher makes them when each is sent.
  codes = ids.map((d) => ctx.repos.deliveries.personalize(d.id, broadcastId, { links: true, coupon: false }, ctx.clock.now().getTime()).links[0]!);
});

afterAll(() => ctx.close());

const clicks = () => ctx.db.select().from(linkClicks).orderBy(asc(linkClicks.id)).all();
/** A request, then the turn of the event loop at which the clicks it answered are written (services/short-links.ts). */
async function follow(code: string, opts: { ua?: string; ip?: string; method?: string } = {}) {
  const res = await api.call(opts.method ?? "GET", `/l/${code}`, { ip: opts.ip ?? "198.51.100.7", headers: opts.ua === undefined ? { "user-agent": PHONE } : { "user-agent": opts.ua } });
  await nextTurn();
  return res;
}

describe("GET /l/<code>", () => {
  test("a 302 to the original URL, not cached, no referrer; the click stored with its delivery and time, no address", async () => {
    const res = await follow(codes[0]!);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(DEALS);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    // Nothing handed out with it: no XSRF (or any) cookie on a link from a text message.
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(clicks()).toEqual([{ id: 1, code: codes[0]!, broadcastId, deliveryId, clickedAt: ctx.clock.now() }]);
  });

  test("the same address again within a day: redirected, counted once; another address counts; a day later counts again", async () => {
    expect((await follow(codes[0]!)).status).toBe(302);
    expect(clicks()).toHaveLength(1);
    expect((await follow(codes[0]!, { ip: "198.51.100.8" })).status).toBe(302);
    expect(clicks()).toHaveLength(2);
    ctx.clock.advance(24 * 60 * 60 * 1000 + 1);
    expect((await follow(codes[0]!)).status).toBe(302);
    expect(clicks()).toHaveLength(3);
  });

  test("HEAD and link previews are redirected but not counted", async () => {
    const before = clicks().length;
    const head = await follow(codes[1]!, { method: "HEAD", ip: "198.51.100.20" });
    expect([head.status, head.headers.get("location")]).toEqual([302, DEALS]);
    for (const [i, ua] of [...PREVIEWS, ""].entries()) {
      const res = await follow(codes[1]!, { ua, ip: `198.51.100.${30 + i}` });
      expect([ua, res.status, res.headers.get("location")]).toEqual([ua, 302, DEALS]);
    }
    expect(clicks()).toHaveLength(before);
    // The person after the preview counts.
    await follow(codes[1]!, { ip: "198.51.100.20" });
    expect(clicks()).toHaveLength(before + 1);
    expect(clicks().at(-1)!.code).toBe(codes[1]!);
  });

  test("three people at once: three clicks, each its own row, written once their answers are out", async () => {
    const before = clicks().length;
    const answers = await Promise.all(["198.51.100.60", "198.51.100.61", "198.51.100.62"].map((ip) => api.call("GET", `/l/${codes[1]!}`, { ip, headers: { "user-agent": PHONE } })));
    expect(answers.map((a) => a.status)).toEqual([302, 302, 302]);
    await nextTurn();
    const second = ctx.repos.shortLinks.target(codes[1]!)!.deliveryId;
    expect(clicks().slice(before).map((c) => [c.code, c.deliveryId])).toEqual([1, 2, 3].map(() => [codes[1]!, second]));
  });

  test("an unknown or malformed code: a 404 page in the install's brand, no redirect, nothing stored", async () => {
    const before = clicks().length;
    for (const code of ["ZZZZZZZZ", "ab", "..%2F..%2Fsettings", `${codes[0]!}x`]) {
      const res = await follow(code);
      expect([code, res.status, res.headers.get("location")]).toEqual([code, 404, null]);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.body).toContain(LINK_NOT_FOUND_TITLE);
      expect(res.body).toContain("Corner Deals");
    }
    expect(clicks()).toHaveLength(before);
  });
});
