// HELP through the inbound webhook (issue 11 item 8): for a person subscribed to several businesses, the one that
// messaged them most recently is named (latest sent delivery), else the most recent subscription; one segment.
// Not the scenario runner: each test stores deliveries, then sends an inbound HELP and reads the TwiML reply.
import { afterEach, expect, test } from "bun:test";
import { HELP_MAX, twiml } from "../../src/services/inbound-messages.ts";
import { countSegments } from "../../src/schemas/sms-segments.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertPersonSubscribedTo } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";

const INBOUND = "/api/webhooks/twilio/inbound";
const PHONE = "+14155550123";

let ctx: TestContext;
afterEach(() => ctx?.close());

function world() {
  ctx = testContext({});
  const api = apiClient(ctx);
  const owner = insertUser(ctx);
  const bakery = insertBusiness(ctx, { ownerId: owner.id, name: "Rosa's Bakery", phone: "+14155550101" });
  const gym = insertBusiness(ctx, { ownerId: owner.id, name: "Iron & Oak Gym", phone: "+14155550202" });
  const long = insertBusiness(ctx, {
    ownerId: owner.id,
    name: "The Extraordinarily Long-Named Family Bakery, Patisserie and Coffee Roastery of Greater Springfield 🥐",
    phone: "+14155550303",
  });
  const person = insertPersonSubscribedTo(ctx, PHONE, [bakery.id, gym.id, long.id]);
  let n = 0;
  const help = async () => {
    n += 1;
    const res = await api.call("POST", `${INBOUND}?key=${ctx.services.inboundMessages.sandboxKey()}`, {
      body: new URLSearchParams({ From: PHONE, To: "+15005550006", Body: "HELP", MessageSid: `SM${String(n).padStart(32, "0")}` }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      noXsrf: true,
    });
    expect(res.status).toBe(200);
    return res.body as string;
  };
  const sent = (businessId: number, at: string) =>
    insertDelivery(ctx, insertBroadcast(ctx, { businessId }), person, { status: "Delivered", sentAt: new Date(at) });
  return { bakery, gym, long, help, sent };
}

const textOf = (body: string) => /<Message>([\s\S]*)<\/Message>/.exec(body)?.[1]?.replaceAll("&amp;", "&").replaceAll("&apos;", "'") ?? "";

test("nothing sent yet: the most recent subscription, cut to fit one GSM-7 segment (emoji dropped)", async () => {
  const { help } = world();
  const text = textOf(await help());
  expect(text).toStartWith("Nearcast: You are subscribed to messages from The Extraordinarily Long-Named");
  expect(text).toContain("... Contact: +14155550303. Msg & data rates may apply. Reply STOP to unsubscribe.");
  const c = countSegments(text);
  expect([c.encoding, c.segments]).toEqual(["GSM-7", 1]);
  expect(c.characters).toBeLessThanOrEqual(HELP_MAX);
});

test("the business that messaged the person last is named, with its own phone; a later one takes over", async () => {
  const { bakery, gym, help, sent } = world();
  sent(gym.id, "2026-01-12T10:00:00Z");
  sent(bakery.id, "2026-01-14T10:00:00Z");
  expect(await help()).toBe(
    twiml("Nearcast: You are subscribed to messages from Rosa's Bakery. Contact: +14155550101. Msg & data rates may apply. Reply STOP to unsubscribe."),
  );
  sent(gym.id, "2026-01-15T10:00:00Z");
  expect(textOf(await help())).toContain("messages from Iron & Oak Gym. Contact: +14155550202.");
});

test("a business the person left is not named even if it messaged last", async () => {
  const { bakery, gym, help, sent } = world();
  sent(gym.id, "2026-01-12T10:00:00Z");
  sent(bakery.id, "2026-01-14T10:00:00Z");
  ctx.db.run(`UPDATE subscriptions SET status = 'unsubscribed' WHERE business_id = ${bakery.id}`);
  expect(textOf(await help())).toContain("messages from Iron & Oak Gym. Contact: +14155550202.");
});
