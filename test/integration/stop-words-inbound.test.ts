// Replies that ask to stop in plain words (issue 24 item 3), through the signed inbound webhook as Twilio posts it
// (test/helpers/fake-twilio-inbound.ts: the twilio signing, OptOutType only on whole keywords): every business on the
// sender stops, the person gets one confirmation, and the consent ledger keeps their words as evidence.
import { describe, expect, test } from "bun:test";
import { OPTED_OUT_BY_REPLY, optedOutByReply } from "../../src/lib/stop-words.ts";
import { STOP_REPLY, twiml } from "../../src/services/inbound-messages.ts";
import { enroll } from "../../src/services/subscriptions.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { customerTables, insertPersonSubscribedTo } from "../helpers/customer-factories.ts";
import { insertOwnerBusinesses } from "../helpers/factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../helpers/fake-twilio.ts";
import { inboundRequest } from "../helpers/fake-twilio-inbound.ts";
import { SIGNED_WEBHOOKS_ENV } from "../helpers/worlds.ts";

const INBOUND = "/api/webhooks/twilio/inbound";
const ACCOUNT = { accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN };

function world() {
  const ctx = testContext({ ...SIGNED_WEBHOOKS_ENV });
  ctx.repos.settings.save("keywordReplies", "twilio", ctx.clock.now());
  const api = apiClient(ctx);
  const [bakery] = insertOwnerBusinesses(ctx, "Rosa's Bakery");
  const [gym] = insertOwnerBusinesses(ctx, "Iron & Oak Gym");
  const phone = "+14155550123";
  const sam = insertPersonSubscribedTo(ctx, phone, [bakery!.id, gym!.id]);
  /** The person texts `body` to our number, Twilio posts it signed (Advanced Opt-Out on, as by default). */
  async function text(body: string, from = phone) {
    const req = inboundRequest(ACCOUNT, SIGNED_WEBHOOKS_ENV.NEARCAST_PUBLIC_URL, INBOUND, { from, body });
    const res = await api.call("POST", INBOUND, { body: req.body, headers: req.headers, noXsrf: true });
    return { status: res.status, twiml: String(res.body), sid: String(req.params.MessageSid) };
  }
  const statuses = () => customerTables(ctx).subscriptions.map((s) => s.status);
  const events = () => customerTables(ctx).consentEvents;
  return { ctx, text, statuses, events, sam, bakery: bakery!, gym: gym! };
}

describe("an opt-out in plain words, through the signed webhook", () => {
  test("'stop texting me': every business stops, one confirmation, the ledger keeps the words (source sms-reply-words)", async () => {
    const w = world();
    const res = await w.text("Please stop texting me!!");
    expect(res).toMatchObject({ status: 200, twiml: twiml(STOP_REPLY) });
    expect(w.statuses()).toEqual(["unsubscribed", "unsubscribed"]);
    const optOut = w.events().at(-1)!;
    expect(optOut).toMatchObject({ customerId: w.sam.id, businessId: null, kind: "unsubscribed", source: "sms-reply-words", consentText: 'Replied "Please stop texting me!!"' });
    expect(optedOutByReply(optOut.source)).toBe(true);
    expect(OPTED_OUT_BY_REPLY).toBe("Opted out by their reply");
    expect(w.ctx.repos.consentEvents.optedOut(w.sam.id)).toBe(true);
    w.ctx.close();
  });

  test("a second plain-words stop records nothing more, and is still confirmed once", async () => {
    const w = world();
    await w.text("unsubscribe me please");
    const after = w.events().length;
    expect((await w.text("STOP please")).twiml).toBe(twiml(STOP_REPLY));
    expect(w.events().length).toBe(after);
    w.ctx.close();
  });

  test("WhatsApp: the source says whatsapp-reply-words; Spanish words count", async () => {
    const w = world();
    expect((await w.text("Ya no me envíen mensajes", `whatsapp:${"+14155550123"}`)).twiml).toBe(twiml(STOP_REPLY));
    expect(w.statuses()).toEqual(["unsubscribed", "unsubscribed"]);
    expect(w.events().at(-1)).toMatchObject({ source: "whatsapp-reply-words", consentText: 'Replied "Ya no me envíen mensajes"' });
    w.ctx.close();
  });

  test("a question or another sense changes nothing and gets no reply", async () => {
    const w = world();
    const before = customerTables(w.ctx);
    for (const body of ["what time do you stop baking?", "don't stop the deals!", "can you remove the nuts from my order?", "is the sale over? no more?"]) {
      expect(await w.text(body)).toMatchObject({ status: 200, twiml: twiml(null) });
    }
    expect(customerTables(w.ctx)).toEqual(before);
    w.ctx.close();
  });

  test("a replayed plain-words stop (same MessageSid) is ignored; only the person's START undoes it, not an owner", async () => {
    const w = world();
    const req = inboundRequest(ACCOUNT, SIGNED_WEBHOOKS_ENV.NEARCAST_PUBLIC_URL, INBOUND, { from: "+14155550123", body: "remove me" });
    const api = apiClient(w.ctx);
    expect(String((await api.call("POST", INBOUND, { body: req.body, headers: req.headers, noXsrf: true })).body)).toBe(twiml(STOP_REPLY));
    const after = customerTables(w.ctx);
    expect(String((await api.call("POST", INBOUND, { body: req.body, headers: req.headers, noXsrf: true })).body)).toBe(twiml(null));
    expect(customerTables(w.ctx)).toEqual(after);
    // The owner cannot put them back: the opt-out covers every business until the person's own START.
    const outcome = w.ctx.repos.transaction(() =>
      enroll(w.ctx.repos, {
        customerId: w.sam.id,
        businessId: w.bakery.id,
        contactPreference: "SMS",
        source: "manual",
        consentText: "Added by the owner",
        meta: { ip: null, userAgent: null },
        at: w.ctx.clock.now(),
        byThePerson: false,
      }),
    );
    expect(outcome).toBe("opted-out");
    expect(w.statuses()).toEqual(["unsubscribed", "unsubscribed"]);
    await w.text("START");
    expect(w.statuses()).toEqual(["active", "active"]);
    expect(w.events().at(-1)).toMatchObject({ kind: "resubscribed", source: "sms-start" });
    w.ctx.close();
  });
});
