// The page where a person sees and manages their subscriptions (issue 24 item 6): HELP through the signed inbound
// webhook carries a link on the saved public URL; the link lists every business the number follows, with channel;
// one-tap unsubscribe per business and from all, recorded in the consent ledger like STOP; expired and altered links
// are refused with how to get a new one.
import { describe, expect, test } from "bun:test";
import { subscriptionLinks } from "../../src/db/schema.ts";
import { hashToken } from "../../src/lib/tokens.ts";
import { LINK_EXPIRED_TITLE, LINK_UNKNOWN_TITLE, NEW_LINK_HINT } from "../../src/http/pages/my-subscriptions-page.tsx";
import { LINKS_KEPT_PER_CUSTOMER } from "../../src/repos/subscription-links.ts";
import { countSegments } from "../../src/schemas/sms-segments.ts";
import { HELP_MAX_WITH_LINK, helpReply } from "../../src/services/keyword-replies.ts";
import { twiml } from "../../src/services/inbound-messages.ts";
import { PAGE_SOURCE } from "../../src/services/my-subscriptions.ts";
import { NOT_SENT_UNSUBSCRIBED } from "../../src/services/opt-outs.ts";
import { ADMIN_EMAIL, apiClient, signUp } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { customerTables, insertPersonSubscribedTo } from "../helpers/customer-factories.ts";
import { allDeliveries, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertOwnerBusinesses } from "../helpers/factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../helpers/fake-twilio.ts";
import { inboundRequest } from "../helpers/fake-twilio-inbound.ts";
import { SIGNED_WEBHOOKS_ENV } from "../helpers/worlds.ts";

const INBOUND = "/api/webhooks/twilio/inbound";
const PHONE = "+14155550123";
const PUBLIC_URL = SIGNED_WEBHOOKS_ENV.NEARCAST_PUBLIC_URL;
const LINK = new RegExp(`${PUBLIC_URL}/my-subscriptions\\?t=([A-Za-z0-9_-]{22})`);

function world(env: Record<string, string> = {}) {
  const ctx = testContext({ ...SIGNED_WEBHOOKS_ENV, ...env });
  const api = apiClient(ctx);
  const [bakery, gym] = insertOwnerBusinesses(ctx, "Rosa's Bakery", "Iron & Oak Gym");
  const [bob] = insertOwnerBusinesses(ctx, "Bob's Books");
  const sam = insertPersonSubscribedTo(ctx, PHONE, [bakery!.id, gym!.id, bob!.id]);
  /** Texts `body` the way Twilio posts it with Advanced Opt-Out off (Nearcast answers). */
  async function text(body: string, publicUrl: string = PUBLIC_URL) {
    const req = inboundRequest({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN }, publicUrl, INBOUND, { from: PHONE, body, advancedOptOut: false });
    const res = await api.call("POST", INBOUND, { body: req.body, headers: req.headers, noXsrf: true });
    return String(res.body);
  }
  async function help(): Promise<string> {
    const answer = await text("HELP");
    const token = LINK.exec(answer)?.[1];
    if (!token) throw new Error(`no link in ${answer}`);
    return token;
  }
  const page = (token: string) => api.call("GET", `/my-subscriptions?t=${encodeURIComponent(token)}`, { noXsrf: true });
  const leave = (token: string, business: string | number) =>
    api.call("POST", "/my-subscriptions", { body: new URLSearchParams({ t: token, business: String(business) }).toString(), headers: { "content-type": "application/x-www-form-urlencoded" }, noXsrf: true });
  const statuses = () => customerTables(ctx).subscriptions.map((s) => s.status);
  return { ctx, api, text, help, page, leave, statuses, sam, bakery: bakery!, gym: gym!, bob: bob! };
}

describe("HELP carries a link to the subscriptions page", () => {
  test("on the saved public URL, two GSM-7 segments at most; only the token's hash is stored, for 30 days", async () => {
    const w = world();
    const answer = await w.text("HELP");
    const link = LINK.exec(answer)![0];
    const token = LINK.exec(answer)![1]!;
    const contact = w.ctx.repos.businesses.helpContactFor(w.sam.id)!;
    expect(answer).toBe(twiml(helpReply(contact, "Nearcast", link)));
    const reply = helpReply(contact, "Nearcast", link);
    expect(countSegments(reply)).toMatchObject({ encoding: "GSM-7", segments: 2 });
    expect(countSegments(reply).characters).toBeLessThanOrEqual(HELP_MAX_WITH_LINK);
    const rows = w.ctx.db.select().from(subscriptionLinks).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ customerId: w.sam.id, tokenHash: hashToken(token) });
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - w.ctx.clock.now().getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    w.ctx.close();
  });

  test("no public URL saved: no link, the one-segment HELP, nothing stored", async () => {
    const w = world({ NEARCAST_PUBLIC_URL: "" });
    // Without a public URL, Twilio signs the address it called (the request's own).
    const answer = await w.text("HELP", "http://localhost");
    expect(answer).not.toContain("my-subscriptions");
    expect(answer).toBe(twiml(helpReply(w.ctx.repos.businesses.helpContactFor(w.sam.id), "Nearcast")));
    expect(w.ctx.db.select().from(subscriptionLinks).all()).toEqual([]);
    w.ctx.close();
  });

  test("each HELP makes a new link; the table keeps the newest few per person and drops expired ones", async () => {
    const w = world();
    const first = await w.help();
    const second = await w.help();
    expect(second).not.toBe(first);
    expect((await w.page(second)).status).toBe(200);
    for (let i = 0; i < LINKS_KEPT_PER_CUSTOMER + 2; i++) await w.help();
    expect(w.ctx.db.select().from(subscriptionLinks).all()).toHaveLength(LINKS_KEPT_PER_CUSTOMER);
    expect((await w.page(first)).status).toBe(404);
    w.ctx.clock.advance(31 * 24 * 60 * 60 * 1000);
    await w.help();
    expect(w.ctx.db.select().from(subscriptionLinks).all()).toHaveLength(1);
    w.ctx.close();
  });
});

describe("GET and POST /my-subscriptions", () => {
  test("the link lists every business the number follows, with channel and an unsubscribe form carrying the token", async () => {
    const w = world();
    const token = await w.help();
    const res = await w.page(token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = String(res.body);
    for (const name of ["Rosa&#39;s Bakery", "Iron &amp; Oak Gym", "Bob&#39;s Books"]) expect(html).toContain(name);
    expect(html).toContain("Text (SMS)");
    expect(html.match(/name="business" value="\d+"/g)).toHaveLength(3);
    expect(html).toContain('name="business" value="all"');
    expect(html).toContain(`name="t" value="${token}"`);
    expect(html).toContain("•••• 0123");
    expect(html).not.toContain("<script");
    w.ctx.close();
  });

  test("unsubscribe from one business: 303 back to the page; recorded like STOP for that business; its pending messages skipped", async () => {
    const w = world();
    const broadcast = insertBroadcast(w.ctx, { businessId: w.gym.id });
    const other = insertBroadcast(w.ctx, { businessId: w.bakery.id });
    insertDelivery(w.ctx, broadcast, w.sam);
    insertDelivery(w.ctx, other, w.sam);
    const token = await w.help();
    const res = await w.leave(token, w.gym.id);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/my-subscriptions?t=${token}&left=${w.gym.id}`);
    expect(w.statuses()).toEqual(["active", "unsubscribed", "active"]);
    expect(customerTables(w.ctx).consentEvents.at(-1)).toMatchObject({ customerId: w.sam.id, businessId: w.gym.id, kind: "unsubscribed", source: PAGE_SOURCE });
    expect(allDeliveries(w.ctx).map((d) => [d.businessId, d.status, d.errorMessage])).toEqual([
      [w.gym.id, "Skipped", NOT_SENT_UNSUBSCRIBED],
      [w.bakery.id, "Queued", null],
    ]);
    const after = String((await w.api.call("GET", res.headers.get("location")!, { noXsrf: true })).body);
    expect(after).toContain("You are unsubscribed from Iron &amp; Oak Gym.");
    expect(after.match(/name="business" value="\d+"/g)).toHaveLength(2);
    expect(after).toContain("Unsubscribed</span>");
    // Again: nothing more recorded.
    const events = customerTables(w.ctx).consentEvents.length;
    expect((await w.leave(token, w.gym.id)).status).toBe(303);
    expect(customerTables(w.ctx).consentEvents.length).toBe(events);
    w.ctx.close();
  });

  test("unsubscribe from all: exactly STOP (every business, one all-business event) until the person's START", async () => {
    const w = world();
    const token = await w.help();
    const res = await w.leave(token, "all");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/my-subscriptions?t=${token}&left=all`);
    expect(w.statuses()).toEqual(["unsubscribed", "unsubscribed", "unsubscribed"]);
    expect(customerTables(w.ctx).consentEvents.at(-1)).toMatchObject({ customerId: w.sam.id, businessId: null, kind: "unsubscribed", source: PAGE_SOURCE });
    expect(w.ctx.repos.consentEvents.optedOut(w.sam.id)).toBe(true);
    const html = String((await w.api.call("GET", res.headers.get("location")!, { noXsrf: true })).body);
    expect(html).toContain("You are unsubscribed from every business.");
    expect(html).not.toContain('value="all"');
    await w.text("START");
    expect(w.statuses()).toEqual(["active", "active", "active"]);
    w.ctx.close();
  });

  test("a business not on the person's list, or no business: 303 to the page, nothing written", async () => {
    const w = world();
    const token = await w.help();
    const [stranger] = insertOwnerBusinesses(w.ctx, "Somebody Else's Shop");
    const before = customerTables(w.ctx);
    for (const business of [String(stranger!.id), "", "abc", "-1"]) {
      const res = await w.leave(token, business);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`/my-subscriptions?t=${token}`);
    }
    expect(customerTables(w.ctx)).toEqual(before);
    w.ctx.close();
  });

  test("an expired link: 410 with how to get a new one, for the page and the form; nothing changes", async () => {
    const w = world();
    const token = await w.help();
    w.ctx.clock.advance(30 * 24 * 60 * 60 * 1000);
    const before = customerTables(w.ctx);
    for (const res of [await w.page(token), await w.leave(token, w.gym.id), await w.leave(token, "all")]) {
      expect(res.status).toBe(410);
      expect(String(res.body)).toContain(LINK_EXPIRED_TITLE);
      expect(String(res.body)).toContain(NEW_LINK_HINT);
    }
    expect(customerTables(w.ctx)).toEqual(before);
    w.ctx.close();
  });

  test("an altered, unknown or missing token: 404 with how to get a new one; nothing changes", async () => {
    const w = world();
    const token = await w.help();
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const before = customerTables(w.ctx);
    for (const res of [await w.page(altered), await w.page(""), await w.page("x".repeat(300)), await w.api.call("GET", "/my-subscriptions", { noXsrf: true }), await w.leave(altered, "all")]) {
      expect(res.status).toBe(404);
      expect(String(res.body)).toContain(LINK_UNKNOWN_TITLE);
      expect(String(res.body)).toContain(NEW_LINK_HINT);
    }
    expect(customerTables(w.ctx)).toEqual(before);
    w.ctx.close();
  });

  test("the token is the only key: a signed-in owner or the admin gets nothing without it, and writes nothing", async () => {
    const w = world();
    await w.help();
    const owner = await signUp(w.api);
    const admin = await signUp(w.api, { email: ADMIN_EMAIL });
    const before = customerTables(w.ctx);
    for (const token of [owner.token, admin.token]) {
      expect((await w.api.call("GET", "/my-subscriptions", { token })).status).toBe(404);
      const form = new URLSearchParams({ business: "all" }).toString();
      const res = await w.api.call("POST", "/my-subscriptions", { token, body: form, headers: { "content-type": "application/x-www-form-urlencoded" } });
      expect(res.status).toBe(404);
    }
    expect(customerTables(w.ctx)).toEqual(before);
    w.ctx.close();
  });

  test("customers forget erases the person's links: the link stops working", async () => {
    const w = world();
    const token = await w.help();
    expect(w.ctx.services.customers.forget(PHONE).erased).toBe(true);
    expect(w.ctx.db.select().from(subscriptionLinks).all()).toEqual([]);
    expect((await w.page(token)).status).toBe(404);
    w.ctx.close();
  });
});
