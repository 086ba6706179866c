// Issue 10, items 1 and 7: a customer's channel belongs to each subscription, an anonymous subscribe never re-activates
// a number the owner removed (a pending request the owner accepts or declines), and no owner learns another owner's
// subscription state (their channel, removal, unsubscribe, or the person's STOP).
// Not the scenario runner: each test is a flow across two owners' requests and a dispatch to the fake Twilio.
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { subscriptions } from "../../src/db/schema.ts";
import { SUBSCRIPTION_REQUEST_NOT_FOUND } from "../../src/services/customers.ts";
import { consentText } from "../../src/schemas/consent.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { contextFollowing, fakeTwilioForFile, ownersWorld } from "../helpers/worlds.ts";
import { customerTables, insertSubscriber } from "../helpers/customer-factories.ts";
import { allDeliveries } from "../helpers/delivery-factories.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";

const C = "/api/customer";
const SUBSCRIBE = "/api/subscription/Subscribe";
// Toronto: WhatsApp promotions reach Canada, not the US (issue 23 item 7: a US number cannot subscribe by WhatsApp).
const PHONE = "+14165550150";

const fake = fakeTwilioForFile();

/** Owner A (bakery, cafe), owner B (gym), the admin; optionally with Twilio pointed at the fake. */
function world(env: Record<string, string> = {}) {
  const ctx = contextFollowing(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_ALLOWED_COUNTRIES: "US,CA", ...env });
  return { ctx, api: apiClient(ctx), ...ownersWorld(ctx, { bakery: { successMessage: "Thanks from the bakery!" } }) };
}
type World = ReturnType<typeof world>;

const subOf = (w: World, customerId: number, businessId: number) =>
  customerTables(w.ctx).subscriptions.find((s) => s.customerId === customerId && s.businessId === businessId);

describe("the channel belongs to each subscription", () => {
  test("owner B's edit and a public subscribe to B's business change nothing of owner A's: A's broadcast goes by SMS to the plain number", async () => {
    fake.reset();
    const w = world(fake.settings());
    try {
      const quiet = { sendConfirmation: false }; // only A's broadcast goes to the fake Twilio
      const a = await w.api.post(`${C}/CreateCustomer`, { phone: PHONE, contactPreference: "SMS", businessId: w.bakery.id, ...quiet }, { token: w.ownerA.token });
      expect(a.status).toBe(201);
      const b = await w.api.post(`${C}/CreateCustomer`, { phone: PHONE, contactPreference: "SMS", businessId: w.gym.id, ...quiet }, { token: w.ownerB.token });
      expect(b.status).toBe(201);
      expect(b.body.id).toBe(a.body.id); // one person, one customer row
      const edit = await w.api.put(`${C}/UpdateCustomer?id=${b.body.id}`, { phone: PHONE, contactPreference: "WhatsApp" }, { token: w.ownerB.token });
      expect(edit.status).toBe(200);
      expect(edit.body.contactPreference).toBe("WhatsApp");
      const pub = await w.api.post(SUBSCRIBE, { businessId: w.gym.id, phone: PHONE, contactPreference: "WhatsApp" });
      expect(pub.status).toBe(200);

      // Each owner sees their own subscription's channel.
      expect((await w.api.get(`${C}/GetCustomerById?id=${a.body.id}`, { token: w.ownerA.token })).body.contactPreference).toBe("SMS");
      expect((await w.api.get(`${C}/GetCustomerById?id=${a.body.id}`, { token: w.ownerB.token })).body.contactPreference).toBe("WhatsApp");
      expect(subOf(w, a.body.id, w.bakery.id)?.contactPreference).toBe("SMS");
      expect(subOf(w, a.body.id, w.gym.id)?.contactPreference).toBe("WhatsApp");
      const counts = await w.api.get(`/api/business/GetSubscriberCount?businessId=${w.bakery.id}`, { token: w.ownerA.token });
      expect(counts.body).toMatchObject({ total: 1, sms: 1, whatsapp: 0 });

      // A's broadcast: one SMS delivery to the plain number, sent as such to the provider.
      const form = new FormData();
      form.append("BusinessId", String(w.bakery.id));
      form.append("MessageText", "Warm croissants at 8");
      const published = await w.api.call("POST", "/api/business/PublishMessageToAllCustomers", { body: form, token: w.ownerA.token });
      expect(published.status).toBe(200);
      expect(w.ctx.services.settings.current().twilio).not.toBeNull(); // the fake Twilio, not the sandbox
      await dispatchUntil(w.ctx, () => w.ctx.repos.broadcasts.findById(published.body.broadcastId)?.completedAt != null);
      expect(allDeliveries(w.ctx).map((r) => ({ channel: r.channel, toPhone: r.toPhone, status: r.status }))).toEqual([
        { channel: "SMS", toPhone: PHONE, status: "Sent" },
      ]);
      expect(fake.sends().map((r) => r.form.To)).toEqual([PHONE]);
    } finally {
      w.ctx.close();
    }
  });

  test("an owner with several of the person's businesses sees the oldest subscription's channel; an edit sets all of theirs", async () => {
    const w = world();
    const customer = insertSubscriber(w.ctx, w.cafe.id, { phone: PHONE, contactPreference: "WhatsApp" }).customer;
    w.ctx.clock.advance(60_000);
    const later = await w.api.post(`${C}/CreateCustomer`, { phone: PHONE, contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(later.status).toBe(201);
    // The cafe's subscription is older: its channel is the customer's as A sees it.
    expect(later.body).toMatchObject({ id: customer.id, contactPreference: "WhatsApp" });
    insertSubscriber(w.ctx, w.gym.id, { phone: PHONE, contactPreference: "WhatsApp" });
    const edit = await w.api.put(`${C}/UpdateCustomer?id=${customer.id}`, { contactPreference: "SMS" }, { token: w.ownerA.token });
    expect(edit.status).toBe(200);
    expect(edit.body.contactPreference).toBe("SMS");
    expect(subOf(w, customer.id, w.cafe.id)?.contactPreference).toBe("SMS");
    expect(subOf(w, customer.id, w.bakery.id)?.contactPreference).toBe("SMS");
    expect(subOf(w, customer.id, w.gym.id)?.contactPreference).toBe("WhatsApp");
    w.ctx.close();
  });
});

describe("a person the owner removed asks to subscribe again: a pending request", () => {
  /** alice subscribed to A Bakery by SMS, then owner A removed her; she subscribes again on the page by WhatsApp. */
  async function requested() {
    const w = world();
    const alice = insertSubscriber(w.ctx, w.bakery.id, { phone: PHONE }).customer;
    expect((await w.api.del(`${C}/DeleteCustomer?id=${alice.id}`, { token: w.ownerA.token })).status).toBe(200);
    w.ctx.clock.advance(3_600_000);
    const res = await w.api.post(SUBSCRIBE, { businessId: w.bakery.id, phone: "(416) 555-0150", contactPreference: "WhatsApp" }, { ip: "198.51.100.9", headers: { "user-agent": "Phone/2" } });
    return { ...w, alice, res };
  }

  test("the public answer is the same success message as a new subscriber's; nothing is re-activated or sent", async () => {
    const w = await requested();
    const fresh = await w.api.post(SUBSCRIBE, { businessId: w.bakery.id, phone: "4155550199", contactPreference: "SMS" });
    expect(w.res.status).toBe(200);
    expect(w.res.body).toEqual({ message: "Thanks from the bakery!" });
    expect(w.res.body).toEqual(fresh.body);
    expect(subOf(w, w.alice.id, w.bakery.id)).toMatchObject({ status: "pending", contactPreference: "WhatsApp", ip: "198.51.100.9", userAgent: "Phone/2" });
    expect(w.ctx.repos.broadcasts.recipients(w.bakery.id).map((r) => r.phone)).toEqual(["+14155550199"]);
    const list = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerA.token });
    expect(list.body.map((c: any) => c.phone)).toEqual(["+14155550199"]);
    w.ctx.close();
  });

  test("GetSubscriptionRequests: the owner sees it, another owner does not, the admin does; anonymous 401", async () => {
    const w = await requested();
    const expected = [
      { customerId: w.alice.id, businessId: w.bakery.id, businessName: "A Bakery", phone: PHONE, contactPreference: "WhatsApp", requestedAt: w.ctx.clock.now().toISOString() },
    ];
    expect((await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.ownerA.token })).body).toEqual(expected);
    expect((await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.ownerB.token })).body).toEqual([]);
    expect((await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.admin.token })).body).toEqual(expected);
    expect((await w.api.get(`${C}/GetSubscriptionRequests`)).status).toBe(401);
    w.ctx.close();
  });

  test("accept: active again on the person's consent and channel; back on the list and in the next broadcast", async () => {
    const w = await requested();
    const res = await w.api.post(`${C}/AcceptSubscriptionRequest`, { customerId: w.alice.id, businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(subOf(w, w.alice.id, w.bakery.id)).toMatchObject({
      status: "active",
      contactPreference: "WhatsApp",
      consentText: consentText({ name: "A Bakery", messagesPerWeek: 4 }, "WhatsApp"),
      ip: "198.51.100.9",
      unsubscribedAt: null,
    });
    const events = customerTables(w.ctx).consentEvents.filter((e) => e.customerId === w.alice.id);
    expect(events.map((e) => e.kind)).toEqual(["subscribed", "removed", "requested", "resubscribed"]);
    expect(events.at(-1)?.consentText).toContain(consentText({ name: "A Bakery", messagesPerWeek: 4 }, "WhatsApp"));
    expect(w.ctx.repos.broadcasts.recipients(w.bakery.id)).toEqual([{ customerId: w.alice.id, phone: PHONE, channel: "WhatsApp" }]);
    expect((await w.api.get(`${C}/GetCustomerById?id=${w.alice.id}`, { token: w.ownerA.token })).body).toMatchObject({ contactPreference: "WhatsApp" });
    expect((await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.ownerA.token })).body).toEqual([]);
    // Accepted once: a second accept finds no request.
    const again = await w.api.post(`${C}/AcceptSubscriptionRequest`, { customerId: w.alice.id, businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(again.status).toBe(404);
    w.ctx.close();
  });

  test("decline: removed again, recorded; still no broadcast; the admin may decide too", async () => {
    const w = await requested();
    const res = await w.api.post(`${C}/DeclineSubscriptionRequest`, { customerId: String(w.alice.id), businessId: String(w.bakery.id) }, { token: w.admin.token });
    expect(res.status).toBe(200);
    expect(subOf(w, w.alice.id, w.bakery.id)?.status).toBe("removed");
    expect(customerTables(w.ctx).consentEvents.at(-1)).toMatchObject({ customerId: w.alice.id, kind: "removed", source: "admin" });
    expect(w.ctx.repos.broadcasts.recipients(w.bakery.id)).toEqual([]);
    expect((await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.ownerA.token })).body).toEqual([]);
    w.ctx.close();
  });

  for (const route of ["AcceptSubscriptionRequest", "DeclineSubscriptionRequest"]) {
    test(`${route}: another owner 404 (nothing changes), anonymous 401, bad body 400 naming the fields`, async () => {
      const w = await requested();
      const before = customerTables(w.ctx);
      const body = { customerId: w.alice.id, businessId: w.bakery.id };
      const cross = await w.api.post(`${C}/${route}`, body, { token: w.ownerB.token });
      expect(cross.status).toBe(404);
      expect(cross.body).toEqual({ error: SUBSCRIPTION_REQUEST_NOT_FOUND, code: "not_found" });
      // B's own business, A's person: no request there either, the same answer.
      const wrong = await w.api.post(`${C}/${route}`, { ...body, businessId: w.gym.id }, { token: w.ownerB.token });
      expect(wrong.status).toBe(404);
      expect(wrong.body).toEqual(cross.body);
      expect((await w.api.post(`${C}/${route}`, body)).status).toBe(401);
      const bad = await w.api.post(`${C}/${route}`, { customerId: "x" }, { token: w.ownerA.token });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields).sort()).toEqual(["businessId", "customerId"]);
      // Not a pending one (alice's active cafe subscription does not exist; a fresh active subscriber): 404.
      const active = insertSubscriber(w.ctx, w.bakery.id).customer;
      const notPending = await w.api.post(`${C}/${route}`, { customerId: active.id, businessId: w.bakery.id }, { token: w.ownerA.token });
      expect(notPending.status).toBe(404);
      const after = customerTables(w.ctx);
      expect(after.subscriptions.filter((s) => s.customerId !== active.id)).toEqual(before.subscriptions);
      w.ctx.close();
    });
  }

  test("the owner adding the person back by hand while a request is pending: active on the owner's consent", async () => {
    const w = await requested();
    const res = await w.api.post(`${C}/CreateCustomer`, { phone: PHONE, contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(201);
    expect(subOf(w, w.alice.id, w.bakery.id)).toMatchObject({ status: "active", contactPreference: "SMS", source: "manual" });
    expect((await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.ownerA.token })).body).toEqual([]);
    w.ctx.close();
  });

  test("a person's own unsubscribe can still be undone by the person's subscribe (active at once)", async () => {
    const w = world();
    const bob = insertSubscriber(w.ctx, w.bakery.id, { phone: PHONE, status: "unsubscribed" }).customer;
    const res = await w.api.post(SUBSCRIBE, { businessId: w.bakery.id, phone: PHONE, contactPreference: "WhatsApp" });
    expect(res.status).toBe(200);
    expect(subOf(w, bob.id, w.bakery.id)).toMatchObject({ status: "active", contactPreference: "WhatsApp" });
    w.ctx.close();
  });
});

function setGymStatus(w: World, customerId: number, status: "unsubscribed" | "removed" | "pending") {
  w.ctx.db.update(subscriptions).set({ status }).where(and(eq(subscriptions.customerId, customerId), eq(subscriptions.businessId, w.gym.id))).run();
}

describe("no owner learns another owner's subscription state", () => {
  /**
   * The same number at owner B's gym in every state B's side can be in; owner A then adds it to A Bakery. A's every
   * answer about it must look like the answers about a number nobody knew.
   */
  const states: [string, (w: World, customerId: number) => void][] = [
    ["active by WhatsApp at B", () => {}],
    ["unsubscribed from B only", (w, id) => setGymStatus(w, id, "unsubscribed")],
    ["removed by B", (w, id) => setGymStatus(w, id, "removed")],
    ["asked B to come back (pending)", (w, id) => setGymStatus(w, id, "pending")],
    ["replied STOP (all businesses)", (w, id) => void w.ctx.services.optOuts.optOutCustomer(id, { source: "sms-stop", at: w.ctx.clock.now() })],
  ];
  for (const [name, put] of states) {
    test(`${name}: A's add, edit, list, get and messages answer as for a fresh number`, async () => {
      const w = world();
      const known = insertSubscriber(w.ctx, w.gym.id, { phone: PHONE, contactPreference: "WhatsApp" }).customer;
      put(w, known.id);
      const FRESH = "+14155550177";
      const shape = (b: any) => ({ ...b, id: 0, phone: "", createdAt: "" });
      // Without the confirmation text: what is compared here is the subscription state each answer shows.
      const body = { contactPreference: "SMS", businessId: w.bakery.id, sendConfirmation: false };
      const add = await w.api.post(`${C}/CreateCustomer`, { phone: PHONE, ...body }, { token: w.ownerA.token });
      const addFresh = await w.api.post(`${C}/CreateCustomer`, { phone: FRESH, ...body }, { token: w.ownerA.token });
      expect(add.status).toBe(201);
      expect(shape(add.body)).toEqual(shape(addFresh.body));
      const edit = await w.api.put(`${C}/UpdateCustomer?id=${add.body.id}`, { phone: PHONE, contactPreference: "SMS" }, { token: w.ownerA.token });
      const editFresh = await w.api.put(`${C}/UpdateCustomer?id=${addFresh.body.id}`, { phone: FRESH, contactPreference: "SMS" }, { token: w.ownerA.token });
      expect(edit.status).toBe(200);
      expect(shape(edit.body)).toEqual(shape(editFresh.body));
      const get = await w.api.get(`${C}/GetCustomerById?id=${add.body.id}`, { token: w.ownerA.token });
      const getFresh = await w.api.get(`${C}/GetCustomerById?id=${addFresh.body.id}`, { token: w.ownerA.token });
      expect(shape(get.body)).toEqual(shape(getFresh.body));
      const list = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerA.token });
      expect(list.body.map(shape)).toEqual([shape(getFresh.body), shape(get.body)]);
      const msgs = await w.api.get(`${C}/GetCustomerMessages?customerId=${add.body.id}`, { token: w.ownerA.token });
      expect(msgs.status).toBe(200);
      expect(msgs.body).toEqual([]);
      expect((await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.ownerA.token })).body).toEqual([]);
      w.ctx.close();
    });
  }

  test("B's channel, removal and unsubscribe do not move A's subscriber counts", async () => {
    const w = world();
    const shared = insertSubscriber(w.ctx, w.bakery.id, { phone: PHONE }).customer;
    insertSubscriber(w.ctx, w.gym.id, { phone: PHONE, contactPreference: "WhatsApp" });
    const count = async () => (await w.api.get(`/api/business/GetSubscriberCount?businessId=${w.bakery.id}`, { token: w.ownerA.token })).body;
    const before = await count();
    expect(before).toMatchObject({ total: 1, sms: 1, whatsapp: 0 });
    await w.api.put(`${C}/UpdateCustomer?id=${shared.id}`, { phone: PHONE, contactPreference: "SMS" }, { token: w.ownerB.token });
    await w.api.del(`${C}/DeleteCustomer?id=${shared.id}`, { token: w.ownerB.token });
    expect(await count()).toEqual(before);
    expect(subOf(w, shared.id, w.bakery.id)?.status).toBe("active");
    w.ctx.close();
  });
});
