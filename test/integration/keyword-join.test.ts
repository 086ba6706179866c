// Join by texting a word (issue 24, item 5), through the signed inbound webhook (the fake Twilio's own request,
// signed with its auth token) and the outbox: subscribed with source 'keyword' on the channel texted from, the message
// kept as the consent evidence, the QR path's confirmation (double opt-in, the hourly budget), refusals in TwiML.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { businesses } from "../../src/db/schema.ts";
import { confirmationText } from "../../src/schemas/confirmation.ts";
import { twiml } from "../../src/services/inbound-messages.ts";
import { alreadyJoinedReply, joinClosedReply, joinedReply, joinRefusedReply, joinWhatsAppUsReply } from "../../src/services/keyword-join.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { customerTables, insertPersonSubscribedTo, sessionFor } from "../helpers/customer-factories.ts";
import { allDeliveries } from "../helpers/delivery-factories.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";
import { insertBusiness, insertOwnerBusinesses, insertUser } from "../helpers/factories.ts";
import { type FakeInbound, inboundRequest } from "../helpers/fake-twilio-inbound.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { closing, contextFollowing, fakeTwilioForFile } from "../helpers/worlds.ts";

const INBOUND = "/api/webhooks/twilio/inbound";
const PUBLIC_URL = "https://shop.example.com";
const PHONE = "+14155550123";
const EMPTY = twiml(null);
const HOUR = 3_600_000;

const fake = fakeTwilioForFile();

function world(env: Record<string, string> = {}, business: { doubleOptIn?: boolean; isActive?: boolean } = {}) {
  const ctx = contextFollowing(fake, { ...fake.settings(), NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_ALLOWED_COUNTRIES: "US,CA", ...env });
  const owner = insertUser(ctx, { role: "owner" });
  const bakery = insertBusiness(ctx, { ownerId: owner.id, name: "Rosa's Bakery", messagesPerWeek: 3, keyword: "BAGEL", ...business });
  insertBusiness(ctx, { ownerId: owner.id, name: "Other Shop", keyword: "OTHER" });
  /** A text to the shop's number as the fake Twilio posts it: the request, and its MessageSid. */
  const texted = (message: Partial<FakeInbound> & { body: string }) => {
    const req = inboundRequest({ accountSid: fake.accountSid, authToken: fake.authToken }, PUBLIC_URL, INBOUND, { from: PHONE, ...message });
    return { raw: req.body, headers: req.headers, noXsrf: true, sid: String(req.params.MessageSid) };
  };
  return { ctx, api: apiClient(ctx), bakery, texted };
}
type World = ScenarioWorld & ReturnType<typeof world>;

const confirmations = (w: World) =>
  w.ctx.db.$client
    .query(
      `SELECT b.origin, b.message_text AS text, d.to_phone AS phone, d.next_attempt_at AS notBefore, d.deferred_reason AS reason
       FROM broadcasts b JOIN deliveries d ON d.broadcast_id = b.id WHERE b.kind = 'confirmation' ORDER BY d.id`,
    )
    .all() as { origin: string; text: string; phone: string; notBefore: number; reason: string | null }[];
const tables = (w: World) => customerTables(w.ctx);

/** One text to the webhook, answered with `expected` TwiML. */
function texting(name: string, message: Partial<FakeInbound> & { body: string }, expected: string, rest: Partial<ApiScenario<World>> & { env?: Record<string, string>; business?: { doubleOptIn?: boolean; isActive?: boolean } } = {}): ApiScenario<World> {
  // One signed request per world: its body and its headers (the signature) must be of the same MessageSid.
  const sent = new WeakMap<World, ReturnType<World["texted"]>>();
  const request = (w: World) => sent.get(w) ?? sent.set(w, w.texted(message)).get(w)!;
  return {
    name,
    method: "POST",
    path: INBOUND,
    raw: (w) => request(w).raw,
    headers: (w) => request(w).headers,
    noXsrf: true,
    status: 200,
    expect: (answer) => expect(answer).toBe(expected),
    ...rest,
  };
}

const nothingStored = (w: World) => {
  expect(tables(w).customers).toEqual([]);
  expect(confirmations(w)).toEqual([]);
};

const scenarios: (ApiScenario<World> & { business?: { doubleOptIn?: boolean; isActive?: boolean } })[] = [
  texting("the keyword in any case, with spaces: subscribed (keyword, SMS), confirmation queued, empty TwiML", { body: "  bagel " }, EMPTY, {
    after: (w) => {
      const t = tables(w);
      expect(t.customers.map((c) => c.phone)).toEqual([PHONE]);
      expect(t.subscriptions).toEqual([expect.objectContaining({ businessId: w.bakery.id, status: "active", source: "keyword", contactPreference: "SMS" })]);
      expect(t.consentEvents).toEqual([expect.objectContaining({ kind: "subscribed", source: "keyword", businessId: w.bakery.id })]);
      expect(t.consentEvents[0]!.consentText).toContain('Texted "  bagel "');
      expect(confirmations(w)).toEqual([expect.objectContaining({ origin: "keyword", phone: PHONE, reason: null, text: confirmationText({ name: "Rosa's Bakery", messagesPerWeek: 3, doubleOptIn: false }) })]);
    },
  }),
  texting("from WhatsApp (a Toronto number): subscribed on WhatsApp", { body: "BAGEL", from: "whatsapp:+14165550123" }, EMPTY, {
    after: (w) => expect(tables(w).subscriptions).toEqual([expect.objectContaining({ source: "keyword", contactPreference: "WhatsApp", status: "active" })]),
  }),
  texting("a US number on WhatsApp: refused politely, nothing stored", { body: "BAGEL", from: "whatsapp:+14155550123" }, twiml(joinWhatsAppUsReply("Rosa's Bakery")), { after: nothingStored }),
  texting("a premium-rate number: refused politely, nothing stored", { body: "bagel", from: "+19005550123" }, twiml(joinRefusedReply("Rosa's Bakery")), { after: nothingStored }),
  texting("a country not allowed (UK mobile): refused politely, nothing stored", { body: "bagel", from: "+447700900123" }, twiml(joinRefusedReply("Rosa's Bakery")), { after: nothingStored }),
  texting("an inactive business's keyword: says so, nothing stored", { body: "bagel" }, twiml(joinClosedReply("Rosa's Bakery")), { business: { isActive: false }, after: nothingStored }),
  texting("already subscribed: says so, no second confirmation", { body: "BAGEL" }, twiml(alreadyJoinedReply("Rosa's Bakery")), {
    before: async (w) => {
      const first = w.texted({ body: "BAGEL" });
      expect((await w.api.call("POST", INBOUND, { body: first.raw, headers: first.headers, noXsrf: true })).status).toBe(200);
    },
    after: (w) => {
      expect(confirmations(w)).toHaveLength(1);
      expect(tables(w).consentEvents).toHaveLength(1);
    },
  }),
  texting("double opt-in: unconfirmed until YES, the double opt-in confirmation queued", { body: "bagel" }, EMPTY, {
    business: { doubleOptIn: true },
    after: (w) => {
      expect(tables(w).subscriptions).toEqual([expect.objectContaining({ status: "unconfirmed", source: "keyword" })]);
      expect(confirmations(w)).toEqual([expect.objectContaining({ text: confirmationText({ name: "Rosa's Bakery", messagesPerWeek: 3, doubleOptIn: true }) })]);
    },
  }),
  texting("a word that is no business's keyword: nothing stored, no reply", { body: "croissant" }, EMPTY, { after: nothingStored }),
  texting("the keyword inside a sentence is not a join", { body: "bagel please" }, EMPTY, { after: nothingStored }),
];

describe("texting a business's keyword", () => {
  runScenarios<World>(scenarios, {
    world: (s) => world(s.env, (s as { business?: { doubleOptIn?: boolean; isActive?: boolean } }).business),
    done: (w) => w.ctx.close(),
  });
});

describe("end to end", () => {
  const post = (w: World, message: ReturnType<World["texted"]>) => w.api.call("POST", INBOUND, { body: message.raw, headers: message.headers, noXsrf: true });

  test("the confirmation reaches the fake Twilio; the consent record holds the message's text, time and MessageSid; a replay does nothing", async () => {
    fake.reset();
    await closing(world() as World, async (w) => {
      const message = w.texted({ body: "Bagel" });
      const at = w.ctx.clock.now();
      const res = await post(w, message);
      expect(res.status).toBe(200);
      expect(res.body).toBe(EMPTY);
      await dispatchUntil(w.ctx, () => allDeliveries(w.ctx).every((d) => d.status !== "Queued" && d.status !== "Sending"), 10);
      expect(fake.sends().map((r) => ({ To: r.form.To, Body: r.form.Body }))).toEqual([
        { To: PHONE, Body: confirmationText({ name: "Rosa's Bakery", messagesPerWeek: 3, doubleOptIn: false }) },
      ]);
      const [event] = tables(w).consentEvents;
      expect(event).toMatchObject({ kind: "subscribed", source: "keyword", at });
      expect(event!.consentText).toContain('Texted "Bagel" to +15005550006');
      expect(event!.consentText).toContain(`(MessageSid ${message.sid})`);
      expect(event!.consentText).toContain("up to 3 per week");
      expect(tables(w).subscriptions[0]!.consentText).toBe(event!.consentText!);

      // The same request again (a replay, or Twilio's retry): nothing more.
      const again = await post(w, message);
      expect(again.body).toBe(EMPTY);
      expect(tables(w).consentEvents).toHaveLength(1);
      expect(confirmations(w)).toHaveLength(1);
    });
  });

  test("joins count in the hourly confirmation budget: past it, the confirmation waits (text_budget)", async () => {
    fake.reset();
    await closing(world({ NEARCAST_CONFIRMATIONS_PER_HOUR: "2" }) as World, async (w) => {
      const t0 = w.ctx.clock.now().getTime();
      for (const from of ["+14155550501", "+14155550502", "+14155550503"]) {
        expect((await post(w, w.texted({ body: "bagel", from }))).body).toBe(EMPTY);
        w.ctx.clock.advance(60_000);
      }
      expect(confirmations(w).map((c) => [c.origin, c.reason, c.notBefore - t0])).toEqual([
        ["keyword", null, 0],
        ["keyword", null, 60_000],
        ["keyword", "text_budget", HOUR],
      ]);
    });
  });

  test("unsubscribed and joining again within the day: subscribed, no second confirmation, a short reply says so", async () => {
    fake.reset();
    await closing(world() as World, async (w) => {
      expect((await post(w, w.texted({ body: "bagel" }))).body).toBe(EMPTY);
      w.ctx.db.$client.run("UPDATE subscriptions SET status = 'unsubscribed'");
      w.ctx.clock.advance(2 * HOUR);
      expect((await post(w, w.texted({ body: "bagel" }))).body).toBe(twiml(joinedReply("Rosa's Bakery", false)));
      expect(tables(w).subscriptions[0]!.status).toBe("active");
      expect(tables(w).consentEvents.map((e) => e.kind)).toEqual(["subscribed", "resubscribed"]);
      expect(confirmations(w)).toHaveLength(1);
    });
  });
});

describe("a reply an owner simulates in the sandbox (Try a reply)", () => {
  test("joins only the owner's own business: another owner's keyword does nothing", async () => {
    const ctx = testContext({ NEARCAST_PUBLIC_URL: PUBLIC_URL });
    try {
      const api = apiClient(ctx);
      const [bakery, cafe] = insertOwnerBusinesses(ctx, "Rosa's Bakery", "Rosa's Cafe");
      const [gym] = insertOwnerBusinesses(ctx, "Iron Gym");
      ctx.db.update(businesses).set({ keyword: "LATTE" }).where(eq(businesses.id, cafe!.id)).run();
      ctx.db.update(businesses).set({ keyword: "GYM" }).where(eq(businesses.id, gym!.id)).run();
      insertPersonSubscribedTo(ctx, PHONE, [bakery!.id]);
      const rosa = sessionFor(ctx, { id: bakery!.ownerId });
      const reply = (body: string) =>
        api.call("POST", INBOUND, { body: new URLSearchParams({ From: PHONE, To: "+15005550006", Body: body, MessageSid: `SM${body}0123456789abcdef0123456789` }).toString(), headers: { "content-type": "application/x-www-form-urlencoded" }, token: rosa });
      expect((await reply("gym")).body).toBe(EMPTY);
      expect(tables({ ctx } as World).subscriptions.map((s) => s.businessId)).toEqual([bakery!.id]);
      expect((await reply("latte")).body).toBe(EMPTY);
      expect(tables({ ctx } as World).subscriptions.map((s) => [s.businessId, s.source])).toEqual([[bakery!.id, "qr"], [cafe!.id, "keyword"]]);
    } finally {
      ctx.close();
    }
  });
});
