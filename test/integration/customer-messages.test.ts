import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { subscriptions } from "../../src/db/schema.ts";
import { CUSTOMER_NOT_FOUND } from "../../src/services/customers.ts";
import { CURSOR_INVALID, LIMIT_INVALID } from "../../src/schemas/paging.ts";
import { NOT_SENT_UNSUBSCRIBED } from "../../src/services/opt-outs.ts";
import { apiClient } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { insertPersonSubscribedTo, insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertDelivery, messageSid } from "../helpers/delivery-factories.ts";
import { type ApiScenario, runScenarios } from "../helpers/scenario.ts";
import { ownersWorld } from "../helpers/worlds.ts";

const PATH = "/api/customer/GetCustomerMessages";
const at = (iso: string) => new Date(iso);

/**
 * Owner A: "A Bakery", "A Cafe". Owner B: "B Gym". sam subscribes to all three; alice to A Bakery; bob to B Gym.
 * sam's messages, oldest first: bakery Delivered (image), gym Sent, bakery Failed 30006, gym Skipped (opted out),
 * cafe Queued, bakery Uncertain by WhatsApp (shown Queued), gym Sending (shown Queued).
 */
function world() {
  const ctx = testContext();
  const api = apiClient(ctx);
  const { admin, ownerA, ownerB, bakery, cafe, gym } = ownersWorld(ctx, { adminFirst: true });
  const sam = insertPersonSubscribedTo(ctx, "+14155550130", [bakery.id, cafe.id, gym.id]);
  const alice = insertSubscriber(ctx, bakery.id, { phone: "+14155550131" }).customer;
  const bob = insertSubscriber(ctx, gym.id, { phone: "+14155550132" }).customer;

  const bc = (businessId: number, messageText: string, createdAt: string, imagePath: string | null = null) =>
    insertBroadcast(ctx, { businessId, messageText, createdAt: at(createdAt), imagePath });
  const b1 = bc(bakery.id, "Croissants 2 for 1", "2026-01-10T09:00:00Z", "/uploads/croissant.png");
  const b2 = bc(gym.id, "Free trial week", "2026-01-11T09:00:00Z");
  const b3 = bc(bakery.id, "Soup of the day", "2026-01-12T09:00:00Z");
  const b4 = bc(gym.id, "Yoga at 6", "2026-01-13T09:00:00Z");
  const b5 = bc(cafe.id, "Latte art class", "2026-01-14T09:00:00Z", "https://cdn.example.com/latte.jpg");
  const b6 = bc(bakery.id, "Weekend cake sale", "2026-01-14T10:00:00Z");
  const b7 = bc(gym.id, "New kettlebells", "2026-01-14T11:00:00Z");
  insertDelivery(ctx, b1, sam, { status: "Delivered", providerId: messageSid(), sentAt: at("2026-01-10T09:00:05Z") });
  insertDelivery(ctx, b2, sam, { status: "Sent", providerId: messageSid(), sentAt: at("2026-01-11T09:00:05Z") });
  insertDelivery(ctx, b3, sam, { status: "Failed", providerId: messageSid(), sentAt: at("2026-01-12T09:00:05Z"), errorCode: 30006 });
  insertDelivery(ctx, b4, sam, { status: "Skipped", errorMessage: NOT_SENT_UNSUBSCRIBED });
  insertDelivery(ctx, b5, sam);
  insertDelivery(ctx, b6, sam, { status: "Uncertain", channel: "WhatsApp", errorMessage: "Twilio did not answer within 10000 ms" });
  insertDelivery(ctx, b7, sam, { status: "Sending" });
  // Other customers' messages never show up in sam's list.
  insertDelivery(ctx, b1, alice, { status: "Delivered", providerId: messageSid(), sentAt: at("2026-01-10T09:00:06Z") });
  insertDelivery(ctx, b2, bob, { status: "Delivered", providerId: messageSid(), sentAt: at("2026-01-11T09:00:06Z") });
  const tokens = { ownerA: ownerA.token, ownerB: ownerB.token, admin: admin.token };
  return { ctx, api, tokens, admin, ownerA, ownerB, bakery, cafe, gym, sam, alice, bob };
}

type World = ReturnType<typeof world>;
type Role = "anon" | "ownerA" | "ownerB" | "admin";
const tokenOf = (w: World, role: Role) => (role === "anon" ? undefined : w[role].token);

describe("GetCustomerMessages: who sees what", () => {
  const matrix: { customer: "sam" | "alice" | "bob"; expect: Record<Role, number | string[]> }[] = [
    {
      customer: "sam",
      expect: {
        anon: 401,
        ownerA: ["A Bakery", "A Cafe", "A Bakery", "A Bakery"],
        ownerB: ["B Gym", "B Gym", "B Gym"],
        admin: ["B Gym", "A Bakery", "A Cafe", "B Gym", "A Bakery", "B Gym", "A Bakery"],
      },
    },
    { customer: "alice", expect: { anon: 401, ownerA: ["A Bakery"], ownerB: 404, admin: ["A Bakery"] } },
    { customer: "bob", expect: { anon: 401, ownerA: 404, ownerB: ["B Gym"], admin: ["B Gym"] } },
  ];
  const roles: Role[] = ["anon", "ownerA", "ownerB", "admin"];
  runScenarios<World>(
    matrix.flatMap((row) =>
      roles.map((role): ApiScenario<World> => {
        const want = row.expect[role];
        const asked = { name: `${role} asks for ${row.customer}'s messages -> ${Array.isArray(want) ? `200, ${want.length} message(s)` : want}`, as: role === "anon" ? undefined : role, method: "GET" as const, path: (w: World) => `${PATH}?customerId=${w[row.customer].id}` };
        if (Array.isArray(want)) return { ...asked, status: 200, expect: (body) => expect(body.map((m: { businessName: string }) => m.businessName)).toEqual(want) };
        return { ...asked, status: want, expectBody: want === 404 ? { error: CUSTOMER_NOT_FOUND } : undefined, expect: (body) => expect(Object.keys(body).sort()).toEqual(["code", "error"]) };
      }),
    ),
    { world },
  );

  test("an unknown customer is a 404 for everyone, the admin too", async () => {
    const w = world();
    for (const role of ["ownerA", "admin"] as Role[]) {
      const res = await w.api.get(`${PATH}?customerId=999999`, { token: tokenOf(w, role) });
      expect(res.status).toBe(404);
    }
  });

  test("a customer the owner removed from their list: 404 for that owner (as GetCustomerById)", async () => {
    const w = world();
    w.ctx.db.update(subscriptions).set({ status: "removed" }).where(eq(subscriptions.customerId, w.alice.id)).run();
    expect((await w.api.get(`${PATH}?customerId=${w.alice.id}`, { token: w.ownerA.token })).status).toBe(404);
    expect((await w.api.get(`/api/customer/GetCustomerById?id=${w.alice.id}`, { token: w.ownerA.token })).status).toBe(404);
  });

  test("a customer who replied STOP is still listed, and so are their messages", async () => {
    const w = world();
    w.ctx.services.optOuts.optOutCustomer(w.alice.id, { source: "sms-stop", at: at("2026-01-20T00:00:00Z") });
    const res = await w.api.get(`${PATH}?customerId=${w.alice.id}`, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
  });

  test("missing or malformed customerId: 400 naming the parameter", async () => {
    const w = world();
    for (const q of ["", "?customerId=", "?customerId=abc", "?customerId=-1", "?id=1"]) {
      const res = await w.api.get(`${PATH}${q}`, { token: w.ownerA.token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.error).toContain("customerId");
    }
  });
});

describe("GetCustomerMessages: contents", () => {
  test("newest first, every field mapped (admin view)", async () => {
    const w = world();
    const res = await w.api.get(`${PATH}?customerId=${w.sam.id}`, { token: w.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      // Not sent yet: ordered by when they were queued, after anything sent earlier.
      { businessName: "B Gym", status: "Queued", messageType: "SMS", kind: "Promotion", sentAt: null, messageText: "New kettlebells", imageUrl: null, errorMessage: null },
      { businessName: "A Bakery", status: "Queued", messageType: "WhatsApp", kind: "Promotion", sentAt: null, messageText: "Weekend cake sale", imageUrl: null, errorMessage: null },
      {
        businessName: "A Cafe",
        status: "Queued",
        messageType: "SMS", kind: "Promotion",
        sentAt: null,
        messageText: "Latte art class",
        imageUrl: "https://cdn.example.com/latte.jpg",
        errorMessage: null,
      },
      { businessName: "B Gym", status: "Failed", messageType: "SMS", kind: "Promotion", sentAt: null, messageText: "Yoga at 6", imageUrl: null, errorMessage: NOT_SENT_UNSUBSCRIBED },
      {
        businessName: "A Bakery",
        status: "Failed",
        messageType: "SMS", kind: "Promotion",
        sentAt: "2026-01-12T09:00:05.000Z",
        messageText: "Soup of the day",
        imageUrl: null,
        errorMessage: "Twilio error 30006: Landline or unreachable carrier",
      },
      { businessName: "B Gym", status: "Sent", messageType: "SMS", kind: "Promotion", sentAt: "2026-01-11T09:00:05.000Z", messageText: "Free trial week", imageUrl: null, errorMessage: null },
      {
        businessName: "A Bakery",
        status: "Delivered",
        messageType: "SMS", kind: "Promotion",
        sentAt: "2026-01-10T09:00:05.000Z",
        messageText: "Croissants 2 for 1",
        imageUrl: "/uploads/croissant.png",
        errorMessage: null,
      },
    ]);
  });

  test("a message sent late sorts by when it was sent, not when it was queued", async () => {
    const w = world();
    const old = insertBroadcast(w.ctx, { businessId: w.bakery.id, messageText: "Queued long ago", createdAt: at("2026-01-01T00:00:00Z") });
    insertDelivery(w.ctx, old, w.sam, { status: "Delivered", providerId: messageSid(), sentAt: at("2026-01-15T00:00:00Z") });
    const res = await w.api.get(`${PATH}?customerId=${w.sam.id}`, { token: w.ownerA.token });
    expect(res.body[0].messageText).toBe("Queued long ago");
  });

  test("statuses are only ever the spec's four", async () => {
    const w = world();
    const res = await w.api.get(`${PATH}?customerId=${w.sam.id}`, { token: w.admin.token });
    for (const m of res.body) expect(["Sent", "Delivered", "Failed", "Queued"]).toContain(m.status);
  });

  test("a customer with no messages: an empty list", async () => {
    const w = world();
    const carol = insertSubscriber(w.ctx, w.cafe.id, { phone: "+14155550133" }).customer;
    const res = await w.api.get(`${PATH}?customerId=${carol.id}`, { token: w.ownerA.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  test("a failure without code or text still says it was not delivered", async () => {
    const w = world();
    const b = insertBroadcast(w.ctx, { businessId: w.bakery.id, messageText: "x", createdAt: at("2026-01-16T00:00:00Z") });
    insertDelivery(w.ctx, b, w.alice, { status: "Failed" });
    const res = await w.api.get(`${PATH}?customerId=${w.alice.id}`, { token: w.ownerA.token });
    expect(res.body[0]).toMatchObject({ status: "Failed", errorMessage: "Not delivered" });
  });
});

describe("ListCustomerMessages: the same list a page at a time (issue 12)", () => {
  const LIST = "/api/customer/ListCustomerMessages";
  type MessagePage = { items: { businessName: string; messageText: string }[]; nextCursor: string | null; total: number };
  async function walk(w: World, token: string | undefined, customerId: number, limit: number, between?: () => void): Promise<MessagePage[]> {
    const pages: MessagePage[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: unknown } = await w.api.get(`${LIST}?customerId=${customerId}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, { token });
      expect(res.status).toBe(200);
      pages.push(res.body as MessagePage);
      cursor = (res.body as MessagePage).nextCursor;
      between?.();
    } while (cursor && pages.length < 10);
    return pages;
  }

  for (const role of ["ownerA", "ownerB", "admin"] as const) {
    test(`${role}: the pages, joined, are GetCustomerMessages' list in its order; the total on each`, async () => {
      const w = world();
      const whole = (await w.api.get(`${PATH}?customerId=${w.sam.id}`, { token: tokenOf(w, role) })).body as { messageText: string }[];
      const pages = await walk(w, tokenOf(w, role), w.sam.id, 2);
      expect(pages.flatMap((p) => p.items.map((m) => m.messageText))).toEqual(whole.map((m) => m.messageText));
      expect(pages.map((p) => p.total)).toEqual(pages.map(() => whole.length));
      expect(pages.map((p) => p.items.length)).toEqual([2, 2, 2, 2].slice(0, pages.length - 1).concat([whole.length - 2 * (pages.length - 1)]));
      expect(pages.at(-1)!.nextCursor).toBeNull();
    });
  }

  test("a message queued while paging shows on no later page (it is newer than the cursor), and none repeats", async () => {
    const w = world();
    let added = false;
    const pages = await walk(w, w.admin.token, w.sam.id, 3, () => {
      if (added) return;
      added = true;
      insertDelivery(w.ctx, insertBroadcast(w.ctx, { businessId: w.bakery.id, messageText: "Late news", createdAt: at("2026-02-01T09:00:00Z") }), w.sam);
    });
    const texts = pages.flatMap((p) => p.items.map((m) => m.messageText));
    expect(texts).not.toContain("Late news");
    expect(new Set(texts).size).toBe(7);
    expect(pages.at(-1)!.total).toBe(8);
    const fresh = await walk(w, w.admin.token, w.sam.id, 50);
    expect(fresh[0]!.items[0]!.messageText).toBe("Late news");
  });

  test("owners: another owner's customer is 404, an unknown one too; nobody signed in is 401", async () => {
    const w = world();
    expect((await w.api.get(`${LIST}?customerId=${w.bob.id}`, { token: w.ownerA.token })).status).toBe(404);
    expect((await w.api.get(`${LIST}?customerId=${w.alice.id}`, { token: w.ownerB.token })).status).toBe(404);
    expect((await w.api.get(`${LIST}?customerId=999999`, { token: w.admin.token })).status).toBe(404);
    expect((await w.api.get(`${LIST}?customerId=${w.sam.id}`)).status).toBe(401);
  });

  test("an owner's cursor cannot reach another owner's messages: the same customer, the other owner's rows only", async () => {
    const w = world();
    const first = (await w.api.get(`${LIST}?customerId=${w.sam.id}&limit=1`, { token: w.ownerA.token })).body as MessagePage;
    const rest = (await w.api.get(`${LIST}?customerId=${w.sam.id}&cursor=${first.nextCursor}`, { token: w.ownerB.token })).body as MessagePage;
    expect(new Set(rest.items.map((m) => m.businessName))).toEqual(new Set(["B Gym"]));
  });

  test("bad cursor, limit and customerId: 400 naming the field; nothing else in the body", async () => {
    const w = world();
    const other = Buffer.from(JSON.stringify(["A Bakery", 3])).toString("base64url"); // a name-keyed list's cursor
    const cases: [string, string, string][] = [
      [`customerId=${w.sam.id}&cursor=%%%`, "cursor", CURSOR_INVALID],
      [`customerId=${w.sam.id}&cursor=${other}`, "cursor", CURSOR_INVALID],
      [`customerId=${w.sam.id}&cursor=${Buffer.from("[1,-2]").toString("base64url")}`, "cursor", CURSOR_INVALID],
      [`customerId=${w.sam.id}&limit=0`, "limit", LIMIT_INVALID],
      [`customerId=${w.sam.id}&limit=201`, "limit", LIMIT_INVALID],
      [`customerId=${w.sam.id}&limit=ten`, "limit", LIMIT_INVALID],
    ];
    for (const [query, field, text] of cases) {
      const res = await w.api.get(`${LIST}?${query}`, { token: w.admin.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: text, code: "validation_failed", fields: { [field]: text } });
    }
    expect((await w.api.get(`${LIST}?customerId=abc`, { token: w.admin.token })).status).toBe(400);
  });
});
