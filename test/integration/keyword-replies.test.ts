// One reply to a keyword (issue 23, item 3) and the shop's brand in it (item 9). Twilio's Advanced Opt-Out answers
// STOP, START and HELP itself and says so with OptOutType on the inbound webhook (the fake Twilio builds that request
// as Twilio does, signed); with keywordReplies "twilio" (the default) Nearcast then records the keyword and answers
// with empty TwiML. Without OptOutType (Advanced Opt-Out off) or with "nearcast", Nearcast answers, naming the brand
// (or the install's only business) instead of "Nearcast".
import { describe, expect, test } from "bun:test";
import { broadcasts } from "../../src/db/schema.ts";
import { twiml } from "../../src/services/inbound-messages.ts";
import { keywordReplyTexts, keywordSpeaker } from "../../src/services/keyword-replies.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { customerTables, insertPersonSubscribedTo } from "../helpers/customer-factories.ts";
import { insertOwnerBusinesses } from "../helpers/factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../helpers/fake-twilio.ts";
import { type FakeInbound, inboundRequest, twilioOptOutType } from "../helpers/fake-twilio-inbound.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { SIGNED_WEBHOOKS_ENV } from "../helpers/worlds.ts";

const INBOUND = "/api/webhooks/twilio/inbound";
const PHONE = "+14155550123";
const BRAND = "Main Street Deals";
const EMPTY = twiml(null);

type World = ScenarioWorld & { phone: string };

/** Twilio configured (webhooks signed), brand set, two businesses of one owner and a person following both. */
function world(s: ApiScenario<World>): World {
  const ctx = testContext({ ...SIGNED_WEBHOOKS_ENV, NEARCAST_BRAND_NAME: BRAND, ...s.env });
  const [bakery, cafe] = insertOwnerBusinesses(ctx, "Rosa's Bakery", "Rosa's Cafe");
  insertPersonSubscribedTo(ctx, PHONE, [bakery.id, cafe.id]);
  return { ctx, api: apiClient(ctx), phone: PHONE };
}

/** A text from `message.from` as the fake Twilio posts it (signed for the public URL). */
function texted(message: Partial<FakeInbound> & { body: string }) {
  const req = inboundRequest({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN }, SIGNED_WEBHOOKS_ENV.NEARCAST_PUBLIC_URL, INBOUND, { from: PHONE, ...message });
  return { raw: req.body, headers: req.headers, noXsrf: true };
}

const statuses = (w: World) => customerTables(w.ctx).subscriptions.map((s) => s.status);
const lastEvent = (w: World) => customerTables(w.ctx).consentEvents.at(-1);
const optOut = (w: World) => {
  const customer = w.ctx.repos.customers.findByPhone(PHONE)!;
  w.ctx.services.optOuts.optOutCustomer(customer.id, { source: "sms-stop", at: w.ctx.clock.now() });
};

const post = (name: string, body: ReturnType<typeof texted>, expected: string, rest: Partial<ApiScenario<World>> = {}): ApiScenario<World> => ({
  name,
  method: "POST",
  path: INBOUND,
  ...body,
  status: 200,
  expect: (answer) => expect(answer).toBe(expected),
  ...rest,
});

describe("POST /api/webhooks/twilio/inbound", () => {
  runScenarios<World>(
    [
      post("STOP that Twilio answered (OptOutType): recorded, empty TwiML", texted({ body: "Stop" }), EMPTY, {
        after: (w) => {
          expect(statuses(w)).toEqual(["unsubscribed", "unsubscribed"]);
          expect(lastEvent(w)).toMatchObject({ kind: "unsubscribed", businessId: null, source: "sms-stop" });
        },
      }),
      post("START that Twilio answered: subscriptions back, empty TwiML, no confirmation queued (Twilio's text is it)", texted({ body: "START" }), EMPTY, {
        before: optOut,
        after: (w) => {
          expect(statuses(w)).toEqual(["active", "active"]);
          expect(w.ctx.db.select().from(broadcasts).all()).toEqual([]);
        },
      }),
      post("HELP that Twilio answered: empty TwiML", texted({ body: "help" }), EMPTY),
      post("STOP without OptOutType (Advanced Opt-Out off): Nearcast answers, naming the brand", texted({ body: "STOP", advancedOptOut: false }), twiml(`You have been unsubscribed from ${BRAND} messages. Reply START to resubscribe.`), {
        after: (w) => expect(statuses(w)).toEqual(["unsubscribed", "unsubscribed"]),
      }),
      // Issue 24: with the public URL saved, Nearcast's HELP carries the link to the person's subscriptions page.
      {
        ...post("HELP without OptOutType: Nearcast's HELP names the brand, the business (the newest subscription) and the link", texted({ body: "INFO", advancedOptOut: false }), ""),
        expect: (answer) => {
          const link = /https:\/\/[\w.-]+\/my-subscriptions\?t=[\w-]{22}/.exec(String(answer))?.[0];
          expect(link).toStartWith(`${SIGNED_WEBHOOKS_ENV.NEARCAST_PUBLIC_URL}/my-subscriptions?t=`);
          expect(answer).toBe(twiml(`${BRAND}: You are subscribed to messages from Rosa's Cafe. Contact: +14155550100. Manage your subscriptions: ${link} Msg & data rates may apply. Reply STOP to unsubscribe.`));
        },
      },
      post("keywordReplies nearcast: Nearcast answers a STOP even though Twilio did", texted({ body: "STOP" }), twiml(`You have been unsubscribed from ${BRAND} messages. Reply START to resubscribe.`), {
        env: { NEARCAST_KEYWORD_REPLIES: "nearcast" },
        after: (w) => expect(statuses(w)).toEqual(["unsubscribed", "unsubscribed"]),
      }),
      // Issue 24: plain words that ask to stop opt out. Twilio did not answer them, so Nearcast's one reply confirms it.
      post("not a keyword for Twilio (\"Stop please\"): no OptOutType; opted out by their words, Nearcast's one reply", texted({ body: "Stop please" }), twiml(`You have been unsubscribed from ${BRAND} messages. Reply START to resubscribe.`), {
        after: (w) => {
          expect(statuses(w)).toEqual(["unsubscribed", "unsubscribed"]);
          expect(lastEvent(w)).toMatchObject({ kind: "unsubscribed", businessId: null, source: "sms-reply-words", consentText: 'Replied "Stop please"' });
        },
      }),
      post("a question with a stop in it (\"what time do you stop baking?\"): empty TwiML, nothing changed", texted({ body: "what time do you stop baking?" }), EMPTY, {
        after: (w) => expect(statuses(w)).toEqual(["active", "active"]),
      }),
    ],
    { world, done: (w) => w.ctx.close() },
  );
});

describe("the fake Twilio's inbound form", () => {
  test("OptOutType only with Advanced Opt-Out, only when the whole body is a keyword, in any case", () => {
    expect(["STOP", "stopall", " Unsubscribe ", "yes", "UNSTOP", "Info", "help"].map(twilioOptOutType)).toEqual(["STOP", "STOP", "STOP", "START", "START", "HELP", "HELP"]);
    expect(["Stop please", "S T O P", "stop!", "hello"].map(twilioOptOutType)).toEqual([undefined, undefined, undefined, undefined]);
    const on = inboundRequest({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN }, "https://x.example", INBOUND, { from: PHONE, body: "stop" });
    const off = inboundRequest({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN }, "https://x.example", INBOUND, { from: PHONE, body: "stop", advancedOptOut: false });
    expect(on.params.OptOutType).toBe("STOP");
    expect(off.params.OptOutType).toBeUndefined();
  });
});

describe("the texts to paste into Twilio's Advanced Opt-Out", () => {
  test("name the install's only business, else the brand; each fits one SMS segment", () => {
    const ctx = testContext({ NEARCAST_BRAND_NAME: BRAND });
    try {
      const [bakery] = insertOwnerBusinesses(ctx, "Rosa's Bakery");
      const one = keywordReplyTexts(keywordSpeaker(ctx.repos, ctx.services.settings.current()));
      expect(one).toEqual({
        stop: "You have been unsubscribed from Rosa's Bakery messages. Reply START to resubscribe.",
        start: "You are subscribed to Rosa's Bakery messages again. Msg & data rates may apply. Reply HELP for help, STOP to unsubscribe.",
        help: `Rosa's Bakery: local deals by text. Contact: ${bakery.phone}. Msg & data rates may apply. Reply STOP to unsubscribe.`,
      });
      insertOwnerBusinesses(ctx, "Iron & Oak Gym");
      const many = keywordReplyTexts(keywordSpeaker(ctx.repos, ctx.services.settings.current()));
      expect(many.stop).toBe(`You have been unsubscribed from ${BRAND} messages. Reply START to resubscribe.`);
      expect(many.help).toBe(`${BRAND}: local deals by text. Contact: hello@nearcast.app. Msg & data rates may apply. Reply STOP to unsubscribe.`);
      const long = keywordReplyTexts({ name: "Ü".repeat(200), contact: "x".repeat(200) });
      for (const text of Object.values(long)) expect(text.length).toBeLessThanOrEqual(160);
    } finally {
      ctx.close();
    }
  });
});
