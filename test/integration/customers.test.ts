import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { subscriptions } from "../../src/db/schema.ts";
import { manualConsentText } from "../../src/schemas/consent.ts";
import { CUSTOMER_NOT_FOUND } from "../../src/services/customers.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { customerTables, insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { type ApiScenario, runScenarios } from "../helpers/scenario.ts";
import { member, ownersWorld } from "../helpers/worlds.ts";
import { WHATSAPP_NO_PROMOTIONS } from "../../src/schemas/whatsapp-reach.ts";

const C = "/api/customer";

/**
 * Two owners and an admin. A owns "A Bakery" and "A Cafe", B owns "B Gym".
 * alice: A Bakery only. bob: B Gym only. sam: A Bakery and B Gym (one person, two owners).
 */
async function world() {
  const ctx = testContext();
  // Sessions are issued directly (no password hashing); every call still goes through the real auth middleware.
  const people = ownersWorld(ctx, { adminFirst: true });
  const { bakery, gym } = people;
  const alice = insertSubscriber(ctx, bakery.id, { phone: "+14155550101" }).customer;
  const bob = insertSubscriber(ctx, gym.id, { phone: "+14155550102", contactPreference: "WhatsApp" }).customer;
  const sam = insertSubscriber(ctx, bakery.id, { phone: "+14155550103" }).customer;
  insertSubscriber(ctx, gym.id, { phone: "+14155550103" });
  const tokens = { ownerA: people.ownerA.token, ownerB: people.ownerB.token, admin: people.admin.token };
  return { ctx, api: apiClient(ctx), tokens, ...people, alice, bob, sam };
}

type World = Awaited<ReturnType<typeof world>>;
const ownerOf = (w: World) => member(w.ctx);
type Role = "anon" | "ownerA" | "ownerB" | "admin";
/** Refused calls and reads change nothing. */
const setup = { world, unchanged: (w: World) => customerTables(w.ctx) };

describe("customer routes: who may call what (table-driven)", () => {
  type Case = Pick<ApiScenario<World>, "name" | "method" | "path" | "json"> & { expect: Record<Role, number> };
  const cases: Case[] = [
    { name: "GetAllCustomers", method: "GET", path: `${C}/GetAllCustomers`, expect: { anon: 401, ownerA: 200, ownerB: 200, admin: 200 } },
    { name: "GetCustomerById (A's customer)", method: "GET", path: (w) => `${C}/GetCustomerById?id=${w.alice.id}`, expect: { anon: 401, ownerA: 200, ownerB: 404, admin: 200 } },
    {
      name: "CreateCustomer (into A Bakery)",
      method: "POST",
      path: `${C}/CreateCustomer`,
      json: (w) => ({ phone: "415-555-0199", contactPreference: "SMS", businessId: w.bakery.id }),
      expect: { anon: 401, ownerA: 201, ownerB: 404, admin: 201 },
    },
    {
      name: "UpdateCustomer (A's customer)",
      method: "PUT",
      path: (w) => `${C}/UpdateCustomer?id=${w.alice.id}`,
      json: { phone: "4155550101", contactPreference: "WhatsApp" },
      expect: { anon: 401, ownerA: 200, ownerB: 404, admin: 200 },
    },
    { name: "DeleteCustomer (A's customer)", method: "DELETE", path: (w) => `${C}/DeleteCustomer?id=${w.alice.id}`, expect: { anon: 401, ownerA: 200, ownerB: 404, admin: 200 } },
  ];
  const roles: Role[] = ["anon", "ownerA", "ownerB", "admin"];
  runScenarios<World>(
    cases.flatMap(({ expect: want, ...c }) =>
      roles.map((role) => ({ ...c, name: `${c.name}${role === "anon" ? " anonymously" : ""} -> ${want[role]}`, as: role === "anon" ? undefined : role, status: want[role] })),
    ),
    setup,
  );
});

describe("ownership matrix: owner B on owner A's customer answers 404 and nothing changes", () => {
  const attempts: Pick<ApiScenario<World>, "name" | "method" | "path" | "json">[] = [
    { name: "get", method: "GET", path: (w) => `${C}/GetCustomerById?id=${w.alice.id}` },
    { name: "update phone", method: "PUT", path: (w) => `${C}/UpdateCustomer?id=${w.alice.id}`, json: { phone: "4155550177", contactPreference: "SMS" } },
    { name: "update preference", method: "PUT", path: (w) => `${C}/UpdateCustomer?id=${w.alice.id}`, json: { phone: "4155550101", contactPreference: "WhatsApp" } },
    { name: "delete", method: "DELETE", path: (w) => `${C}/DeleteCustomer?id=${w.alice.id}` },
    { name: "add to A's business", method: "POST", path: `${C}/CreateCustomer`, json: (w) => ({ phone: "4155550101", contactPreference: "SMS", businessId: w.cafe.id }) },
    { name: "get a customer id that does not exist", method: "GET", path: `${C}/GetCustomerById?id=9999` },
    { name: "read their messages", method: "GET", path: (w) => `${C}/GetCustomerMessages?customerId=${w.alice.id}` },
    { name: "read their messages a page at a time", method: "GET", path: (w) => `${C}/ListCustomerMessages?customerId=${w.alice.id}&limit=5` },
  ];
  runScenarios<World>(
    attempts.map((a) => ({ ...a, as: "ownerB", status: 404, expect: (body) => expect(body.error).toMatch(/not found/i) })),
    setup,
  );

  test("a customer B removed is also gone for B (404), while A still has them", async () => {
    const w = await world();
    expect((await w.api.del(`${C}/DeleteCustomer?id=${w.sam.id}`, { token: w.ownerB.token })).status).toBe(200);
    expect((await w.api.get(`${C}/GetCustomerById?id=${w.sam.id}`, { token: w.ownerB.token })).status).toBe(404);
    expect((await w.api.get(`${C}/GetCustomerById?id=${w.sam.id}`, { token: w.ownerA.token })).status).toBe(200);
  });
});

describe("GET /api/customer/GetAllCustomers", () => {
  test("an owner sees only customers of their businesses, with only their businesses listed", async () => {
    const w = await world();
    const a = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerA.token });
    expect(a.body.map((c: any) => c.phone).sort()).toEqual(["+14155550101", "+14155550103"]);
    const samForA = a.body.find((c: any) => c.id === w.sam.id);
    expect(samForA.businesses).toEqual([{ id: w.bakery.id, name: "A Bakery", status: "active" }]);
    const b = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerB.token });
    expect(b.body.map((c: any) => c.phone).sort()).toEqual(["+14155550102", "+14155550103"]);
    expect(b.body.find((c: any) => c.id === w.sam.id).businesses).toEqual([{ id: w.gym.id, name: "B Gym", status: "active" }]);
  });

  test("the admin sees everyone, with every business", async () => {
    const w = await world();
    const res = await w.api.get(`${C}/GetAllCustomers`, { token: w.admin.token });
    expect(res.body.map((c: any) => c.phone).sort()).toEqual(["+14155550101", "+14155550102", "+14155550103"]);
    expect(res.body.find((c: any) => c.id === w.sam.id).businesses.map((b: any) => b.name)).toEqual(["A Bakery", "B Gym"]);
  });

  test("the customer JSON has the spec's fields", async () => {
    const w = await world();
    const res = await w.api.get(`${C}/GetCustomerById?id=${w.bob.id}`, { token: w.ownerB.token });
    expect(res.body).toEqual({
      id: w.bob.id,
      phone: "+14155550102",
      contactPreference: "WhatsApp",
      createdAt: "2026-01-10T09:00:00.000Z",
      businesses: [{ id: w.gym.id, name: "B Gym", status: "active" }],
      // A US number on WhatsApp: the list says promotions never reach it (issue 23 item 7).
      whatsappProblem: WHATSAPP_NO_PROMOTIONS,
    });
  });

  test("unsubscribed customers stay listed (with their status); removed ones do not", async () => {
    const w = await world();
    const owner = ownerOf(w);
    const shop = insertBusiness(w.ctx, { ownerId: owner.id });
    insertSubscriber(w.ctx, shop.id, { phone: "+14155550111", status: "unsubscribed" });
    insertSubscriber(w.ctx, shop.id, { phone: "+14155550112", status: "removed" });
    const res = await w.api.get(`${C}/GetAllCustomers`, { token: owner.token });
    expect(res.body.map((c: any) => [c.phone, c.businesses[0].status])).toEqual([["+14155550111", "unsubscribed"]]);
  });

  test("an owner with no customers gets an empty list", async () => {
    const w = await world();
    const owner = ownerOf(w);
    const res = await w.api.get(`${C}/GetAllCustomers`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  test("a bad id is a 400 naming the parameter", async () => {
    const w = await world();
    const res = await w.api.get(`${C}/GetCustomerById?id=abc`, { token: w.ownerA.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("The id parameter must be a positive whole number.");
  });
});

describe("POST /api/customer/CreateCustomer", () => {
  const validation: [string, Record<string, unknown>, string, string][] = [
    ["phone missing", { contactPreference: "SMS" }, "phone", "Phone number is required"],
    ["phone invalid", { phone: "12ab", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
    ["phone not a real number", { phone: "+1 555 555 5555", contactPreference: "SMS" }, "phone", "Please enter a valid phone number"],
    ["preference missing", { phone: "4155550150" }, "contactPreference", "Please select a contact preference"],
    ["business missing", { phone: "4155550150", contactPreference: "SMS", businessId: "" }, "businessId", "Please select a business"],
  ];
  for (const [name, body, field, message] of validation) {
    test(`${name} -> 400 "${message}"`, async () => {
      const w = await world();
      const before = customerTables(w.ctx);
      const res = await w.api.post(`${C}/CreateCustomer`, { businessId: w.bakery.id, ...body }, { token: w.ownerA.token });
      expect(res.status).toBe(400);
      expect(res.body.fields[field]).toBe(message);
      expect(customerTables(w.ctx)).toEqual(before);
    });
  }

  test("adds the person (E.164) to the chosen business with source 'manual' and the owner's id in the consent", async () => {
    const w = await world();
    const res = await w.api.post(
      `${C}/CreateCustomer`,
      { phone: "(415) 555-0150", contactPreference: "WhatsApp", businessId: String(w.cafe.id) },
      { token: w.ownerA.token, ip: "192.0.2.9" },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ phone: "+14155550150", contactPreference: "WhatsApp", businesses: [{ id: w.cafe.id, name: "A Cafe", status: "active" }] });
    const t = customerTables(w.ctx);
    const sub = t.subscriptions.find((s) => s.customerId === res.body.id)!;
    const text = manualConsentText("A Cafe", w.ownerA.id);
    expect(text).toContain(`user #${w.ownerA.id}`);
    expect(sub).toMatchObject({ businessId: w.cafe.id, status: "active", source: "manual", consentText: text, ip: "192.0.2.9" });
    const event = t.consentEvents.find((e) => e.customerId === res.body.id)!;
    expect(event).toMatchObject({ kind: "subscribed", source: "manual", consentText: text });
    const list = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerA.token });
    expect(list.body.map((c: any) => c.id)).toContain(res.body.id);
  });

  test("a person already known (through another owner) is the same customer; the other owner sees no change", async () => {
    const w = await world();
    const bBefore = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerB.token });
    const res = await w.api.post(`${C}/CreateCustomer`, { phone: "415 555 0102", contactPreference: "WhatsApp", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(w.bob.id);
    expect(res.body.businesses).toEqual([{ id: w.bakery.id, name: "A Bakery", status: "active" }]);
    expect((await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerB.token })).body).toEqual(bBefore.body);
    expect(customerTables(w.ctx).customers).toHaveLength(3);
  });

  test("already subscribed -> 409 with a clear message, nothing written", async () => {
    const w = await world();
    const before = customerTables(w.ctx);
    const res = await w.api.post(`${C}/CreateCustomer`, { phone: "4155550101", contactPreference: "WhatsApp", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("+14155550101 is already subscribed to A Bakery.");
    expect(customerTables(w.ctx)).toEqual(before);
  });

  test("a person who unsubscribed cannot be re-added by the owner (409), nothing written", async () => {
    const w = await world();
    w.ctx.db.update(subscriptions).set({ status: "unsubscribed" }).where(eq(subscriptions.customerId, w.alice.id)).run();
    const before = customerTables(w.ctx);
    const res = await w.api.post(`${C}/CreateCustomer`, { phone: "4155550101", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("unsubscribed from A Bakery");
    expect(customerTables(w.ctx)).toEqual(before);
  });

  // A STOP to our number applies to every business sending from it, also ones the person never subscribed to. But it
  // is the person's word to our number, not an owner's to learn: the owner's answer is the one any number gets, and
  // the STOP stays in force through the broadcast enqueue.
  for (const source of ["sms-stop", "whatsapp-stop", "twilio-21610"]) {
    test(`a person who replied STOP (${source}) is added like any number (201, same answer), and nothing is sent to them`, async () => {
      const w = await world();
      // bob only ever subscribed to owner B's gym.
      w.ctx.services.optOuts.optOutCustomer(w.bob.id, { source, at: w.ctx.clock.now() });
      const res = await w.api.post(`${C}/CreateCustomer`, { phone: "(415) 555-0102", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
      const normal = await w.api.post(`${C}/CreateCustomer`, { phone: "(415) 555-0188", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
      expect(res.status).toBe(201);
      expect(normal.status).toBe(201);
      const shape = (b: any) => ({ ...b, id: 0, phone: "", createdAt: "" });
      expect(shape(res.body)).toEqual(shape(normal.body));
      expect(res.body).toMatchObject({ id: w.bob.id, phone: "+14155550102", contactPreference: "SMS", businesses: [{ id: w.bakery.id, name: "A Bakery", status: "active" }] });
      // The owner's subscription is stored with the owner's consent; the STOP still stands.
      const sub = customerTables(w.ctx).subscriptions.find((s) => s.customerId === w.bob.id && s.businessId === w.bakery.id);
      expect(sub).toMatchObject({ status: "active", source: "manual", consentText: manualConsentText("A Bakery", w.ownerA.id) });
      expect(w.ctx.repos.consentEvents.optedOut(w.bob.id)).toBe(true);
      expect(w.ctx.repos.broadcasts.recipients(w.bakery.id).map((r) => r.phone)).not.toContain("+14155550102");
      const byAdmin = await w.api.post(`${C}/CreateCustomer`, { phone: "4155550102", contactPreference: "WhatsApp", businessId: w.cafe.id }, { token: w.admin.token });
      expect(byAdmin.status).toBe(201);
      expect(w.ctx.repos.broadcasts.recipients(w.cafe.id)).toEqual([]);
    });
  }

  test("after the person texts START an owner may add them again", async () => {
    const w = await world();
    w.ctx.services.optOuts.optOutCustomer(w.bob.id, { source: "sms-stop", at: w.ctx.clock.now() });
    w.ctx.clock.advance(60_000);
    w.ctx.services.optOuts.optInCustomer(w.bob.id, { source: "sms-start", at: w.ctx.clock.now() });
    const res = await w.api.post(`${C}/CreateCustomer`, { phone: "4155550102", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: w.bob.id, contactPreference: "SMS", businesses: [{ id: w.bakery.id, name: "A Bakery", status: "active" }] });
  });

  test("a later per-business event (the person subscribing themselves somewhere) does not end the STOP", async () => {
    const w = await world();
    w.ctx.services.optOuts.optOutCustomer(w.bob.id, { source: "sms-stop", at: w.ctx.clock.now() });
    await w.ctx.services.subscriptions.subscribe({ businessId: w.cafe.id, phone: "+14155550102", contactPreference: "SMS" }, { ip: null, userAgent: null });
    const res = await w.api.post(`${C}/CreateCustomer`, { phone: "4155550102", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(201);
    expect(w.ctx.repos.consentEvents.optedOut(w.bob.id)).toBe(true);
    expect(w.ctx.repos.broadcasts.recipients(w.bakery.id).map((r) => r.phone)).not.toContain("+14155550102");
    expect(w.ctx.repos.broadcasts.recipients(w.cafe.id)).toEqual([]);
  });

  test("a person the owner removed can be added back: reactivated, 'resubscribed' recorded", async () => {
    const w = await world();
    await w.api.del(`${C}/DeleteCustomer?id=${w.alice.id}`, { token: w.ownerA.token });
    const res = await w.api.post(`${C}/CreateCustomer`, { phone: "4155550101", contactPreference: "SMS", businessId: w.bakery.id }, { token: w.ownerA.token });
    expect(res.status).toBe(201);
    expect(res.body.id).toBe(w.alice.id);
    const kinds = customerTables(w.ctx).consentEvents.filter((e) => e.customerId === w.alice.id).map((e) => e.kind);
    expect(kinds).toEqual(["subscribed", "removed", "resubscribed"]);
  });
});

describe("PUT /api/customer/UpdateCustomer", () => {
  test("same number typed differently: only the preference changes", async () => {
    const w = await world();
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "(415) 555-0101", contactPreference: "WhatsApp" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.alice.id, phone: "+14155550101", contactPreference: "WhatsApp" });
  });

  test("validation texts", async () => {
    const w = await world();
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "", contactPreference: "Fax" }, { token: w.ownerA.token });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ phone: "Phone number is required", contactPreference: "Please select a contact preference" });
  });

  test("a new, free number for a customer only this owner has: renamed in place, id and history kept", async () => {
    const w = await world();
    const eventsBefore = customerTables(w.ctx).consentEvents.filter((e) => e.customerId === w.alice.id);
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "415-555-0160", contactPreference: "SMS" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.alice.id, phone: "+14155550160" });
    expect(customerTables(w.ctx).consentEvents.filter((e) => e.customerId === w.alice.id)).toEqual(eventsBefore);
  });

  test("a shared person: owner A's change moves only A's subscription; owner B keeps the old number untouched", async () => {
    const w = await world();
    const bBefore = await w.api.get(`${C}/GetCustomerById?id=${w.sam.id}`, { token: w.ownerB.token });
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.sam.id}`, { phone: "4155550170", contactPreference: "WhatsApp" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(w.sam.id);
    expect(res.body).toMatchObject({ phone: "+14155550170", contactPreference: "WhatsApp", businesses: [{ id: w.bakery.id, name: "A Bakery", status: "active" }] });
    const bAfter = await w.api.get(`${C}/GetCustomerById?id=${w.sam.id}`, { token: w.ownerB.token });
    expect(bAfter.body).toEqual(bBefore.body);
    // The bakery's consent history moved with the subscription; the gym's stayed.
    const t = customerTables(w.ctx);
    expect(t.consentEvents.filter((e) => e.customerId === res.body.id).map((e) => e.businessId)).toEqual([w.bakery.id]);
    expect(t.consentEvents.filter((e) => e.customerId === w.sam.id).map((e) => e.businessId)).toEqual([w.gym.id]);
    // A no longer has the old number.
    expect((await w.api.get(`${C}/GetCustomerById?id=${w.sam.id}`, { token: w.ownerA.token })).status).toBe(404);
  });

  test("a number that is another customer's: merged (the owner's subscription moves to that customer)", async () => {
    const w = await world();
    // alice's number corrected to bob's: bob (B's customer) now also belongs to A Bakery.
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "+1 415 555 0102", contactPreference: "SMS" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.bob.id, phone: "+14155550102", businesses: [{ id: w.bakery.id, name: "A Bakery", status: "active" }] });
    const aList = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerA.token });
    expect(aList.body.map((c: any) => c.phone).sort()).toEqual(["+14155550102", "+14155550103"]);
    // B still sees bob with the gym only; no customer row was deleted.
    const bBob = await w.api.get(`${C}/GetCustomerById?id=${w.bob.id}`, { token: w.ownerB.token });
    expect(bBob.body.businesses).toEqual([{ id: w.gym.id, name: "B Gym", status: "active" }]);
    expect(customerTables(w.ctx).customers).toHaveLength(3);
  });

  test("merging into a person already on the same business: theirs stands, the duplicate is marked removed", async () => {
    const w = await world();
    // alice corrected to sam's number: sam is already a subscriber of A Bakery.
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "4155550103", contactPreference: "SMS" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(w.sam.id);
    const aList = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerA.token });
    expect(aList.body.map((c: any) => c.id)).toEqual([w.sam.id]);
    const t = customerTables(w.ctx);
    expect(t.subscriptions.find((s) => s.customerId === w.alice.id)?.status).toBe("removed");
    expect(t.consentEvents.filter((e) => e.customerId === w.alice.id).map((e) => e.kind)).toEqual(["subscribed", "removed"]);
  });

  test("merging never overrides a person's own unsubscribe", async () => {
    const w = await world();
    w.ctx.db.update(subscriptions).set({ status: "unsubscribed" }).where(eq(subscriptions.customerId, w.sam.id)).run();
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "4155550103", contactPreference: "SMS" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body.businesses).toEqual([{ id: w.bakery.id, name: "A Bakery", status: "unsubscribed" }]);
  });

  test("the new number replied STOP: answered like any merge (200), the STOP stays in force (nothing sent to it)", async () => {
    const w = await world();
    w.ctx.services.optOuts.optOutCustomer(w.bob.id, { source: "sms-stop", at: w.ctx.clock.now() });
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "415 555 0102", contactPreference: "SMS" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.bob.id, phone: "+14155550102", contactPreference: "SMS", businesses: [{ id: w.bakery.id, name: "A Bakery", status: "active" }] });
    expect(w.ctx.repos.consentEvents.optedOut(w.bob.id)).toBe(true);
    expect(w.ctx.repos.broadcasts.recipients(w.bakery.id).map((r) => r.phone)).toEqual(["+14155550103"]);
  });

  test("a person who replied STOP is not renamed in place: the STOP stays with their number, which still cannot be added", async () => {
    const w = await world();
    w.ctx.services.optOuts.optOutCustomer(w.alice.id, { source: "sms-stop", at: w.ctx.clock.now() });
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.alice.id}`, { phone: "415-555-0160", contactPreference: "SMS" }, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body.id).not.toBe(w.alice.id);
    // The owner's subscription moved as it was (unsubscribed by the STOP: only the person may undo that).
    expect(res.body).toMatchObject({ phone: "+14155550160", businesses: [{ id: w.bakery.id, name: "A Bakery", status: "unsubscribed" }] });
    const t = customerTables(w.ctx);
    expect(t.customers.find((c) => c.id === w.alice.id)?.phone).toBe("+14155550101");
    expect(t.consentEvents.filter((e) => e.customerId === w.alice.id).map((e) => [e.businessId, e.kind])).toEqual([[null, "unsubscribed"]]);
    // Adding the old number again answers like any number, and the STOP (which stayed with it) keeps it out.
    const readd = await w.api.post(`${C}/CreateCustomer`, { phone: "4155550101", contactPreference: "SMS", businessId: w.cafe.id }, { token: w.ownerA.token });
    expect(readd.status).toBe(201);
    expect(readd.body.id).toBe(w.alice.id);
    expect(w.ctx.repos.broadcasts.recipients(w.cafe.id)).toEqual([]);
  });

  test("the admin renames in place across businesses", async () => {
    const w = await world();
    const res = await w.api.put(`${C}/UpdateCustomer?id=${w.sam.id}`, { phone: "4155550180", contactPreference: "SMS" }, { token: w.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.sam.id, phone: "+14155550180" });
    expect(res.body.businesses.map((b: any) => b.name)).toEqual(["A Bakery", "B Gym"]);
  });
});

describe("DELETE /api/customer/DeleteCustomer", () => {
  test("an owner's delete marks their subscriptions removed; the row and history stay; the other owner keeps the person", async () => {
    const w = await world();
    const res = await w.api.del(`${C}/DeleteCustomer?id=${w.sam.id}`, { token: w.ownerA.token, ip: "192.0.2.44" });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Customer deleted.");
    const t = customerTables(w.ctx);
    expect(t.customers.map((c) => c.id)).toContain(w.sam.id);
    const subs = t.subscriptions.filter((s) => s.customerId === w.sam.id);
    expect(subs.map((s) => [s.businessId, s.status])).toEqual([
      [w.bakery.id, "removed"],
      [w.gym.id, "active"],
    ]);
    const events = t.consentEvents.filter((e) => e.customerId === w.sam.id);
    expect(events.map((e) => e.kind)).toEqual(["subscribed", "subscribed", "removed"]);
    expect(events[2]).toMatchObject({ businessId: w.bakery.id, source: "owner", ip: "192.0.2.44" });
    expect(events[2]!.consentText).toContain(`user #${w.ownerA.id}`);
    const aList = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerA.token });
    expect(aList.body.map((c: any) => c.id)).not.toContain(w.sam.id);
    const bList = await w.api.get(`${C}/GetAllCustomers`, { token: w.ownerB.token });
    expect(bList.body.map((c: any) => c.id)).toContain(w.sam.id);
  });

  test("the admin's delete removes the person from every business, keeping the row and history", async () => {
    const w = await world();
    const before = customerTables(w.ctx);
    expect((await w.api.del(`${C}/DeleteCustomer?id=${w.sam.id}`, { token: w.admin.token })).status).toBe(200);
    const t = customerTables(w.ctx);
    expect(t.customers).toEqual(before.customers);
    expect(t.subscriptions.filter((s) => s.customerId === w.sam.id).map((s) => s.status)).toEqual(["removed", "removed"]);
    expect(t.consentEvents.length).toBe(before.consentEvents.length + 2);
    for (const token of [w.ownerA.token, w.ownerB.token, w.admin.token]) {
      expect((await w.api.get(`${C}/GetCustomerById?id=${w.sam.id}`, { token })).status).toBe(404);
    }
  });

  test("deleting twice: the second answers 404", async () => {
    const w = await world();
    expect((await w.api.del(`${C}/DeleteCustomer?id=${w.alice.id}`, { token: w.ownerA.token })).status).toBe(200);
    const res = await w.api.del(`${C}/DeleteCustomer?id=${w.alice.id}`, { token: w.ownerA.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(CUSTOMER_NOT_FOUND);
  });

  test("after an owner's delete, the person's own subscribe is a pending request for the owner, not a re-activation", async () => {
    const w = await world();
    await w.api.del(`${C}/DeleteCustomer?id=${w.alice.id}`, { token: w.ownerA.token });
    const res = await w.api.post("/api/subscription/Subscribe", { businessId: w.bakery.id, phone: "4155550101", contactPreference: "SMS" });
    expect(res.status).toBe(200);
    expect((await w.api.get(`${C}/GetCustomerById?id=${w.alice.id}`, { token: w.ownerA.token })).status).toBe(404);
    const requests = await w.api.get(`${C}/GetSubscriptionRequests`, { token: w.ownerA.token });
    expect(requests.body).toMatchObject([{ customerId: w.alice.id, businessId: w.bakery.id, phone: "+14155550101" }]);
  });
});
