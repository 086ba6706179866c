// Opt-in confirmations (issue 11, item 2), double opt-in, and the subscribe page's guards against SMS pumping
// (item 3): through the API, the outbox and the fake Twilio, on the injected clock.
// Not the scenario runner: confirmations are checked through the outbox and the fake Twilio after a dispatch.
import { describe, expect, test } from "bun:test";
import { CONFIRMATION_RATES, CONFIRMATION_STOP_HELP, confirmationText } from "../../src/schemas/confirmation.ts";
import { countSegments } from "../../src/schemas/sms-segments.ts";
import { countryNotAllowed, NOT_A_MOBILE, SHORT_CODE } from "../../src/schemas/subscribe-number.ts";
import { REPLY_YES_TO_CONFIRM } from "../../src/services/subscriptions.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { closing, contextFollowing, fakeTwilioForFile } from "../helpers/worlds.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";
import { customerTables, insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { allDeliveries, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";

const SUBSCRIBE = "/api/subscription/Subscribe";
const CREATE = "/api/customer/CreateCustomer";
const INBOUND = "/api/webhooks/twilio/inbound";
const HOUR = 3_600_000;

const fake = fakeTwilioForFile();

function world(env: Record<string, string> = {}, business: { doubleOptIn?: boolean; messagesPerWeek?: number } = {}) {
  const ctx = contextFollowing(fake, env);
  const api = apiClient(ctx);
  const owner = insertUser(ctx, { role: "owner" });
  const bakery = insertBusiness(ctx, { ownerId: owner.id, name: "Rosa's Bakery", ...business });
  const confirmations = () =>
    ctx.db.$client
      .query(
        `SELECT b.id AS broadcastId, b.origin, b.message_text AS text, b.content_sid AS contentSid, d.to_phone AS phone,
                d.status, d.next_attempt_at AS notBefore, d.deferred_reason AS reason
         FROM broadcasts b JOIN deliveries d ON d.broadcast_id = b.id WHERE b.kind = 'confirmation' ORDER BY d.id`,
      )
      .all() as { broadcastId: number; origin: string; text: string; contentSid: string | null; phone: string; status: string; notBefore: number; reason: string | null }[];
  const subscribe = (phone: string, contactPreference = "SMS") => api.post(SUBSCRIBE, { businessId: bakery.id, phone, contactPreference });
  return { ctx, api, owner, token: sessionFor(ctx, owner), bakery, confirmations, subscribe };
}

/** Runs the dispatcher against the fake Twilio until every delivery is finished. */
const dispatchAll = (ctx: ReturnType<typeof testContext>, rate: number) =>
  dispatchUntil(ctx, () => allDeliveries(ctx).every((r) => r.status !== "Queued" && r.status !== "Sending"), rate);

describe("the confirmation text", () => {
  test("business, frequency, rates, STOP and HELP, in one GSM-7 segment even for a long accented name", () => {
    const text = confirmationText({ name: "Rosa's Bakery", messagesPerWeek: 4, doubleOptIn: false });
    expect(text).toBe(`Rosa's Bakery: you're subscribed to promotions, up to 4 msgs/week. ${CONFIRMATION_RATES} ${CONFIRMATION_STOP_HELP}`);
    const long = confirmationText({ name: "Crêperie Élodie — the Extraordinarily Long-Named Café of Saint-Émilion 🍰", messagesPerWeek: 12, doubleOptIn: true });
    expect(countSegments(long)).toMatchObject({ encoding: "GSM-7", segments: 1 });
    expect(long).toStartWith("Creperie Élodie - the Extraordinar...:"); // É is GSM-7; ê and the emoji are not
    expect(long).toContain("reply YES to get promotions by text, up to 12 msgs/week.");
    expect(long).toEndWith(`${CONFIRMATION_RATES} ${CONFIRMATION_STOP_HELP}`);
    expect(confirmationText({ name: "One", messagesPerWeek: 1, doubleOptIn: false })).toContain("up to 1 msg/week.");
  });
});

describe("when a confirmation goes out", () => {
  test("the subscribe page: one Confirmation through the outbox, sent to the number by the fake Twilio; not again within 24 hours", async () => {
    fake.reset();
    const w = world(fake.settings(), { messagesPerWeek: 3 });
    try {
      expect((await w.subscribe("(415) 555-0134")).status).toBe(200);
      expect(w.confirmations()).toEqual([
        expect.objectContaining({ origin: "public", phone: "+14155550134", status: "Queued", text: confirmationText({ name: "Rosa's Bakery", messagesPerWeek: 3, doubleOptIn: false }) }),
      ]);
      await dispatchAll(w.ctx, 10);
      const sends = fake.sends().map((r) => ({ To: r.form.To, Body: r.form.Body }));
      expect(sends).toEqual([{ To: "+14155550134", Body: "Rosa's Bakery: you're subscribed to promotions, up to 3 msgs/week. Msg & data rates may apply. Reply STOP to cancel, HELP for help." }]);
      // Shown in the customer's messages as a Confirmation.
      const customerId = customerTables(w.ctx).customers[0]!.id;
      const msgs = await w.api.get(`/api/customer/GetCustomerMessages?customerId=${customerId}`, { token: w.token });
      expect(msgs.body).toEqual([expect.objectContaining({ kind: "Confirmation", status: "Sent", messageType: "SMS" })]);
      // Not in the owner's broadcast history, nor in the repeat check.
      const history = await w.api.get(`/api/business/GetBroadcasts?businessId=${w.bakery.id}`, { token: w.token });
      expect(history.status).toBe(200);
      expect(history.body).toEqual([]);

      // Unsubscribed and back within the day: subscribed again, no second text.
      w.ctx.db.$client.run("UPDATE subscriptions SET status = 'unsubscribed'");
      w.ctx.clock.advance(2 * HOUR);
      expect((await w.subscribe("4155550134")).status).toBe(200);
      expect(customerTables(w.ctx).subscriptions[0]!.status).toBe("active");
      expect(w.confirmations()).toHaveLength(1);
      // A day later it is a new confirmation.
      w.ctx.db.$client.run("UPDATE subscriptions SET status = 'unsubscribed'");
      w.ctx.clock.advance(23 * HOUR);
      expect((await w.subscribe("4155550134")).status).toBe(200);
      expect(w.confirmations()).toHaveLength(2);
    } finally {
      w.ctx.close();
    }
  });

  test("an owner's add sends one by default; unticked (sendConfirmation false) it sends none", async () =>
    closing(world(), async (w) => {
      expect((await w.api.post(CREATE, { phone: "4155550101", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.token })).status).toBe(201);
      expect(w.confirmations()).toEqual([expect.objectContaining({ origin: "owner", phone: "+14155550101" })]);
      expect((await w.api.post(CREATE, { phone: "4155550102", contactPreference: "SMS", businessId: w.bakery.id, sendConfirmation: false }, { token: w.token })).status).toBe(201);
      expect(w.confirmations()).toHaveLength(1);
      const bad = await w.api.post(CREATE, { phone: "4155550103", contactPreference: "SMS", businessId: w.bakery.id, sendConfirmation: "yes" }, { token: w.token });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toHaveProperty("sendConfirmation");
      expect(customerTables(w.ctx).customers).toHaveLength(2);
    }));

  test("an import with 'send a welcome text': ONE Confirmation broadcast for the people added, sent paced; without it, none", async () => {
    fake.reset();
    const w = world(fake.settings());
    try {
      const rows = [1, 2, 3, 4].map((i) => ({ line: i + 1, phone: `415555020${i}`, contactPreference: "SMS" }));
      const plain = await w.ctx.services.customers.importRows(w.bakery.id, rows.slice(0, 1), "a.csv");
      expect(plain.welcomed).toBeUndefined();
      expect(w.confirmations()).toEqual([]);
      const summary = await w.ctx.services.customers.importRows(w.bakery.id, rows, "b.csv", { welcome: true });
      expect(summary.added).toHaveLength(3);
      expect(summary.welcomed).toBe(3); // the one already there is not welcomed again
      const queued = w.confirmations();
      expect(new Set(queued.map((c) => c.broadcastId)).size).toBe(1);
      expect(queued.map((c) => c.origin)).toEqual(["import", "import", "import"]);
      const started = w.ctx.clock.now().getTime();
      await dispatchAll(w.ctx, 2); // 2 per second: the third start is at least 1 s after the first
      const at = fake.sends().map((r) => r.at.getTime()).sort((a, b) => a - b);
      expect(at).toHaveLength(3);
      expect(at[2]! - started).toBeGreaterThanOrEqual(1000);
    } finally {
      w.ctx.close();
    }
  });

  test("WhatsApp: the utility template when one is configured (ContentSid, variables, no Body); otherwise skipped with the reason", async () => {
    fake.reset();
    const template = "HX11111111111111111111111111111111";
    // Toronto numbers: a US number cannot subscribe by WhatsApp (issue 23 item 7).
    const w = world({ ...fake.settings(), NEARCAST_WHATSAPP_CONFIRMATION_TEMPLATE: template, NEARCAST_ALLOWED_COUNTRIES: "US,CA" });
    try {
      expect((await w.subscribe("4165550301", "WhatsApp")).status).toBe(200);
      await dispatchAll(w.ctx, 10);
      const [send] = fake.sends();
      expect(send!.form.To).toBe("whatsapp:+14165550301");
      expect(send!.form.ContentSid).toBe(template);
      expect(JSON.parse(String(send!.form.ContentVariables))).toEqual({ "1": "Rosa's Bakery", "2": "4" });
      expect(send!.form.Body).toBeUndefined();
    } finally {
      w.ctx.close();
    }
    const none = world({ ...fake.settings(), NEARCAST_ALLOWED_COUNTRIES: "US,CA" });
    try {
      expect((await none.subscribe("4165550302", "WhatsApp")).status).toBe(200);
      expect(none.confirmations()).toEqual([expect.objectContaining({ status: "Skipped", contentSid: null })]);
    } finally {
      none.ctx.close();
    }
  });
});

describe("confirmations are not marketing", () => {
  test("at 23:00 local a confirmation goes at once while a promotion waits for the morning; they do not count toward the daily cap", () => {
    const ctx = testContext({ NEARCAST_MAX_PER_DAY: "1" });
    try {
      ctx.clock.advance(Date.parse("2026-01-16T04:00:00Z") - ctx.clock.now().getTime()); // 23:00 in New York
      const business = insertBusiness(ctx);
      const { customer } = insertSubscriber(ctx, business.id, { phone: "+12125550140" });
      const promo = insertDelivery(ctx, insertBroadcast(ctx, { businessId: business.id }), customer, { nextAttemptAt: ctx.clock.now() });
      ctx.services.confirmations.queue({ businessId: business.id, customerIds: [customer.id], origin: "owner" });
      const claimed = ctx.repos.deliveries.claim(ctx.clock.now().getTime(), 10, ctx.services.settings.deferralPolicy());
      expect(claimed.map((d) => d.id)).not.toContain(promo.id);
      expect(claimed).toHaveLength(1);
      ctx.repos.deliveries.recordSent(claimed[0]!.id, "SM".padEnd(34, "0"), "Sent", "sent", ctx.clock.now().getTime());
      // The next morning the promotion goes: the confirmation sent overnight does not use up the cap of 1.
      ctx.clock.advance(10 * HOUR);
      expect(ctx.repos.deliveries.claim(ctx.clock.now().getTime(), 10, ctx.services.settings.deferralPolicy()).map((d) => d.id)).toEqual([promo.id]);
    } finally {
      ctx.close();
    }
  });
});

describe("double opt-in", () => {
  test("pending until YES: the text asks for YES, broadcasts skip the person, YES makes them a subscriber", async () =>
    closing(world({}, { doubleOptIn: true }), async (w) => {
      const res = await w.subscribe("4155550401");
      expect(res.status).toBe(200);
      expect(res.body.message).toEndWith(REPLY_YES_TO_CONFIRM);
      expect(customerTables(w.ctx).subscriptions[0]!.status).toBe("unconfirmed");
      expect(w.confirmations()[0]!.text).toContain("reply YES to get promotions");
      // The confirmation itself is claimed (sent) although the subscription is not active yet.
      const claimed = w.ctx.repos.deliveries.claim(w.ctx.clock.now().getTime(), 10);
      expect(claimed.map((d) => d.status)).toEqual(["Sending"]);
      // A broadcast now has nobody to send to.
      const form = new FormData();
      form.append("BusinessId", String(w.bakery.id));
      form.append("MessageText", "Warm croissants");
      const before = await w.api.call("POST", "/api/business/PublishMessageToAllCustomers", { body: form, token: w.token });
      expect(before.body.warning).toBeTruthy();
      // YES (through the inbound webhook, sandbox key) confirms.
      const key = w.ctx.services.inboundMessages.sandboxKey();
      const yes = await w.api.call("POST", `${INBOUND}?key=${key}`, {
        body: new URLSearchParams({ From: "+14155550401", To: "+15005550006", Body: "yes", MessageSid: `SM${"1".repeat(32)}` }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
        noXsrf: true,
      });
      expect(yes.status).toBe(200);
      expect(yes.body).toContain("You are subscribed to Nearcast messages from Rosa&apos;s Bakery.");
      expect(customerTables(w.ctx).subscriptions[0]!.status).toBe("active");
      const after = await w.api.call("POST", "/api/business/PublishMessageToAllCustomers", { body: form, token: w.token });
      expect(after.body.recipients).toBe(1);
    }));
});

describe("the subscribe page refuses what would let anyone make us text any number", () => {
  const refused: [string, string, string, Record<string, string>][] = [
    ["a premium-rate number", "+1 900 555 0134", NOT_A_MOBILE, {}],
    ["a toll-free number", "+1 800 555 0100", NOT_A_MOBILE, {}],
    ["a short code", "72345", SHORT_CODE, {}],
    ["a landline (UK, any country allowed)", "+44 20 7946 0000", NOT_A_MOBILE, { NEARCAST_ALLOWED_COUNTRIES: "*" }],
    ["a mobile of a country not allowed", "+49 151 12345678", countryNotAllowed(["US"]), {}],
    ["a mobile of a country not in the list", "+33 6 12 34 56 78", countryNotAllowed(["US", "CA"]), { NEARCAST_ALLOWED_COUNTRIES: "us, ca" }],
  ];
  for (const [name, phone, message, env] of refused) {
    test(`${name}: 400 naming phone, nothing stored, nothing queued`, async () =>
      closing(world(env), async (w) => {
        const res = await w.subscribe(phone);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: message, code: "validation_failed", fields: { phone: message } });
        expect(customerTables(w.ctx).customers).toEqual([]);
        expect(w.confirmations()).toEqual([]);
      }));
  }

  test("'*' accepts a mobile of any country; an owner's add follows the same rules (issue 21: no longer exempt)", async () =>
    closing(world({ NEARCAST_ALLOWED_COUNTRIES: "*" }), async (w) => {
      expect((await w.subscribe("+49 151 12345678")).status).toBe(200);
      const strict = world();
      try {
        const tollFree = await strict.api.post(CREATE, { phone: "+1 800 555 0100", contactPreference: "SMS", businessId: strict.bakery.id }, { token: strict.token });
        expect(tollFree.status).toBe(400);
        expect(tollFree.body).toEqual({ error: NOT_A_MOBILE, code: "validation_failed", fields: { phone: NOT_A_MOBILE } });
        const abroad = await strict.api.post(CREATE, { phone: "+49 151 12345678", contactPreference: "SMS", businessId: strict.bakery.id }, { token: strict.token });
        expect(abroad.body).toEqual({ error: countryNotAllowed(["US"]), code: "validation_failed", fields: { phone: countryNotAllowed(["US"]) } });
        expect(customerTables(strict.ctx).customers).toEqual([]);
        expect(strict.confirmations()).toEqual([]);
      } finally {
        strict.ctx.close();
      }
    }));

  test("past the install's hourly budget, subscriptions are stored and their confirmations wait (text_budget) for the next free slot", async () =>
    closing(world({ NEARCAST_CONFIRMATIONS_PER_HOUR: "2", NEARCAST_SUBSCRIBE_LIMIT: "0" }), async (w) => {
      const t0 = w.ctx.clock.now().getTime();
      for (const n of ["4155550501", "4155550502", "4155550503", "4155550504"]) {
        expect((await w.subscribe(n)).status).toBe(200);
        w.ctx.clock.advance(60_000);
      }
      expect(customerTables(w.ctx).subscriptions.map((s) => s.status)).toEqual(["active", "active", "active", "active"]);
      const c = w.confirmations();
      expect(c.map((x) => [x.reason, x.notBefore - t0])).toEqual([
        [null, 0],
        [null, 60_000],
        ["text_budget", HOUR],
        ["text_budget", HOUR + 60_000],
      ]);
      // An owner's add counts against the same budget (issue 21): it waits its turn too.
      await w.api.post(CREATE, { phone: "4155550505", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.token });
      expect(w.confirmations().at(-1)).toMatchObject({ origin: "owner", reason: "text_budget" });
      expect(w.confirmations().at(-1)!.notBefore - t0).toBe(2 * HOUR);
    }));
});
