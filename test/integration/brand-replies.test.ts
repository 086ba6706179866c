// The text replies name the server's brand (issue 9): the brandName setting, saved or from NEARCAST_BRAND_NAME, and
// "Nearcast" until one is set. Read per message, so a change is in the next reply without a restart.
// Not the scenario runner: each test saves a setting between inbound calls and reads the TwiML reply.
import { afterEach, expect, test } from "bun:test";
import { twiml } from "../../src/services/inbound-messages.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertPersonSubscribedTo } from "../helpers/customer-factories.ts";
import { insertOwnerBusinesses } from "../helpers/factories.ts";

const INBOUND = "/api/webhooks/twilio/inbound";
const PHONE = "+14155550123";
const STRANGER = "+14155550999";

let ctx: TestContext;
afterEach(() => ctx?.close());

/** A sandbox server (no Twilio: inbound messages need the install's webhook key, no signature) with one subscriber of
 * Rosa's Bakery. Each message has its own MessageSid (a repeated one is ignored as a replay). */
function world(env: Record<string, string> = {}) {
  ctx = testContext(env);
  const api = apiClient(ctx);
  const [bakery] = insertOwnerBusinesses(ctx, "Rosa's Bakery");
  insertPersonSubscribedTo(ctx, PHONE, [bakery!.id]);
  let sent = 0;
  const send = async (from: string, body: string) => {
    sent += 1;
    const res = await api.call("POST", `${INBOUND}?key=${ctx.services.inboundMessages.sandboxKey()}`, {
      body: new URLSearchParams({ From: from, To: "+15005550006", Body: body, MessageSid: `SM${String(sent).padStart(32, "0")}` }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      noXsrf: true,
    });
    expect(res.status).toBe(200);
    return res.body as string;
  };
  return { send };
}

const saveBrand = (name: string) => ctx.repos.settings.save("brandName", name, ctx.clock.now());

test("HELP, START and STOP name the default brand until one is saved, then the saved one at once", async () => {
  const { send } = world();
  expect(await send(PHONE, "HELP")).toBe(
    twiml("Nearcast: You are subscribed to messages from Rosa's Bakery. Contact: +14155550100. Msg & data rates may apply. Reply STOP to unsubscribe."),
  );
  saveBrand("Main Street Deals");
  expect(await send(PHONE, "help")).toBe(
    twiml("Main Street Deals: You are subscribed to messages from Rosa's Bakery. Contact: +14155550100. Msg & data rates may apply. Reply STOP to unsubscribe."),
  );
  expect(await send(STRANGER, "INFO")).toBe(
    twiml("Main Street Deals: You are not subscribed to any business. Msg & data rates may apply. Reply STOP to unsubscribe."),
  );
  expect(await send(STRANGER, "START")).toBe(
    twiml("You are not subscribed to any business on Main Street Deals. Scan a business's QR code to subscribe."),
  );
  // The install's number belongs to one business: the STOP reply names it (issue 23); with several, the brand (below).
  expect(await send(PHONE, "STOP")).toBe(twiml("You have been unsubscribed from Rosa's Bakery messages. Reply START to resubscribe."));
  // The renewed subscription's confirmation goes through the outbox instead of a second reply.
  expect(await send(PHONE, "START")).toBe(twiml(null));
  expect(await send(PHONE, "YES")).toBe(
    twiml("You are subscribed to Main Street Deals messages from Rosa's Bakery. Msg & data rates may apply. Reply STOP to unsubscribe."),
  );
});

test("NEARCAST_BRAND_NAME wins over a saved brand", async () => {
  const { send } = world({ NEARCAST_BRAND_NAME: "Harbor Town Offers" });
  saveBrand("Main Street Deals");
  expect(await send(PHONE, "HELP")).toBe(
    twiml("Harbor Town Offers: You are subscribed to messages from Rosa's Bakery. Contact: +14155550100. Msg & data rates may apply. Reply STOP to unsubscribe."),
  );
});

test("with several businesses on the install's number, STOP names the brand (issue 23)", async () => {
  const { send } = world();
  insertOwnerBusinesses(ctx, "Iron & Oak Gym");
  saveBrand("Main Street Deals");
  expect(await send(PHONE, "STOP")).toBe(twiml("You have been unsubscribed from Main Street Deals messages. Reply START to resubscribe."));
  expect(await send(STRANGER, "STOP")).toBe(twiml("You have been unsubscribed from Main Street Deals messages. Reply START to resubscribe."));
});
