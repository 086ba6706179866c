// GET /api/customer/ListCustomers (issue 12, item 2): keyset pages of the customers list, search, filters, totals,
// ownership and bad input (a scenario table; the paging tests walk many pages, rows added between, which one
// request cannot say). The spec's GetAllCustomers stays as it is (its own tests).
import { afterEach, describe, expect, test } from "bun:test";
import { BUSINESS_FILTER_INVALID, SEARCH_INVALID, STATUS_INVALID } from "../../src/schemas/customer-pages.ts";
import { CURSOR_INVALID, LIMIT_INVALID } from "../../src/schemas/paging.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { runScenarios } from "../helpers/scenario.ts";
import { ownersWorld } from "../helpers/worlds.ts";

const LIST = "/api/customer/ListCustomers";
let ctx: TestContext;
afterEach(() => ctx?.close());

function world() {
  ctx = testContext();
  const api = apiClient(ctx);
  const { ownerA, ownerB, admin, bakery, cafe, gym } = ownersWorld(ctx);
  const add = (businessId: number, phone: string, status: "active" | "unsubscribed" | "pending" | "unconfirmed" | "removed" = "active") =>
    insertSubscriber(ctx, businessId, { phone, status }).customer.id;
  const page = (token: string, query = "") => api.get(`${LIST}${query ? `?${query}` : ""}`, { token });
  return { ctx, api, tokens: { ownerA: ownerA.token }, ownerA, ownerB, admin, bakery, cafe, gym, add, page };
}

type Page = { items: { id: number; phone: string; businesses: { id: number; status: string }[] }[]; nextCursor: string | null; total: number };

/** Every page, following nextCursor. */
async function allPages(w: ReturnType<typeof world>, token: string, query: string, from: string | null = null): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = from;
  do {
    const res = await w.page(token, [query, cursor ? `cursor=${cursor}` : ""].filter(Boolean).join("&"));
    expect(res.status).toBe(200);
    pages.push(res.body as Page);
    cursor = (res.body as Page).nextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}

describe("ListCustomers", () => {
  test("pages newest first with a cursor; the total on every page; a person in two of the owner's businesses is one row", async () => {
    const w = world();
    const ids = [1, 2, 3, 4, 5, 6, 7].map((i) => w.add(w.bakery.id, `+1415555010${i}`));
    w.add(w.cafe.id, "+14155550103"); // the same person in the owner's second business
    const pages = await allPages(w, w.ownerA.token, "limit=3");
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 1]);
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7]);
    expect(pages.flatMap((p) => p.items.map((c) => c.id))).toEqual([...ids].reverse());
    expect(pages.at(-1)!.nextCursor).toBeNull();
    const both = pages.flatMap((p) => p.items).find((c) => c.phone === "+14155550103")!;
    expect(both.businesses.map((b) => b.id).sort()).toEqual([w.bakery.id, w.cafe.id].sort());
  });

  test("the cursor is stable under inserts: the next page neither repeats nor skips anyone; the newcomer is on a fresh first page", async () => {
    const w = world();
    const ids = [1, 2, 3, 4, 5].map((i) => w.add(w.bakery.id, `+1415555020${i}`));
    const first = (await w.page(w.ownerA.token, "limit=2")).body as Page;
    const newcomer = w.add(w.bakery.id, "+14155550299");
    const rest = await allPages(w, w.ownerA.token, "limit=2", first.nextCursor);
    const seen = [...first.items, ...rest.flatMap((p) => p.items)].map((c) => c.id);
    expect(seen).toEqual([...ids].reverse());
    expect(((await w.page(w.ownerA.token, "limit=2")).body as Page).items[0]!.id).toBe(newcomer);
  });

  test("search by any part of the digits, however typed; filters by business and status; totals follow the filters", async () => {
    const w = world();
    w.add(w.bakery.id, "+14155550301");
    w.add(w.bakery.id, "+14155550302", "unsubscribed");
    w.add(w.cafe.id, "+12125550303");
    w.add(w.cafe.id, "+12125550304", "pending");
    w.add(w.cafe.id, "+12125550305", "unconfirmed");
    w.add(w.cafe.id, "+12125550306", "removed");
    const phones = async (query: string) => {
      const body = (await w.page(w.ownerA.token, query)).body as Page;
      return { phones: body.items.map((c) => c.phone).sort(), total: body.total };
    };
    expect(await phones("q=(212) 555")).toEqual({ phones: ["+12125550303"], total: 1 });
    expect(await phones("q=0302")).toEqual({ phones: ["+14155550302"], total: 1 });
    expect(await phones(`businessId=${w.bakery.id}`)).toEqual({ phones: ["+14155550301", "+14155550302"], total: 2 });
    expect(await phones("status=subscribed")).toEqual({ phones: ["+12125550303", "+14155550301"], total: 2 });
    expect(await phones("status=unsubscribed")).toEqual({ phones: ["+14155550302"], total: 1 });
    expect(await phones("status=pending")).toEqual({ phones: ["+12125550304", "+12125550305"], total: 2 });
    // No filter: what GetAllCustomers lists (active and unsubscribed), never the removed.
    expect(await phones("")).toEqual({ phones: ["+12125550303", "+14155550301", "+14155550302"], total: 3 });
    expect(await phones(`businessId=${w.cafe.id}&status=subscribed&q=0303`)).toEqual({ phones: ["+12125550303"], total: 1 });
  });

  test("an owner never sees another owner's rows on any page; the admin sees everyone; anonymous 401", async () => {
    const w = world();
    for (let i = 0; i < 5; i++) w.add(w.bakery.id, `+1415555040${i}`);
    for (let i = 0; i < 5; i++) w.add(w.gym.id, `+1212555040${i}`);
    w.add(w.gym.id, "+14155550400"); // A's customer also at B's gym: B sees only the gym on it
    const bPages = await allPages(w, w.ownerB.token, "limit=2");
    const bRows = bPages.flatMap((p) => p.items);
    expect(bRows).toHaveLength(6);
    expect(bRows.flatMap((c) => c.businesses.map((b) => b.id)).every((id) => id === w.gym.id)).toBe(true);
    expect(bPages[0]!.total).toBe(6);
    const aRows = (await allPages(w, w.ownerA.token, "limit=4")).flatMap((p) => p.items);
    expect(aRows.flatMap((c) => c.businesses.map((b) => b.id)).every((id) => id === w.bakery.id)).toBe(true);
    expect(((await w.page(w.admin.token, "limit=100")).body as Page).total).toBe(10);
    // Another owner's business as a filter: refused like one that does not exist.
    const other = await w.page(w.ownerA.token, `businessId=${w.gym.id}`);
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: BUSINESS_FILTER_INVALID, code: "validation_failed", fields: { businessId: BUSINESS_FILTER_INVALID } });
    expect((await w.api.get(LIST)).status).toBe(401);
  });

  const bad: [string, string, string][] = [
    ["cursor=nonsense!", "cursor", CURSOR_INVALID],
    [`cursor=${Buffer.from("x12").toString("base64url")}`, "cursor", CURSOR_INVALID],
    ["limit=0", "limit", LIMIT_INVALID],
    ["limit=201", "limit", LIMIT_INVALID],
    ["limit=ten", "limit", LIMIT_INVALID],
    ["status=active", "status", STATUS_INVALID],
    ["q=bakery", "q", SEARCH_INVALID],
    ["businessId=abc", "businessId", BUSINESS_FILTER_INVALID],
  ];
  runScenarios(
    bad.map(([query, field, message]) => ({
      name: `${query}: 400 naming ${field}`,
      as: "ownerA",
      method: "GET",
      path: `${LIST}?${query}`,
      status: 400,
      expectBody: { error: message, code: "validation_failed" },
      fields: { [field]: message },
    })),
    { world },
  );

  test("the page query walks the subscriptions index from the cursor; no table is scanned", () => {
    world();
    const plan = ctx.db.$client
      .query(
        `EXPLAIN QUERY PLAN SELECT DISTINCT s.customer_id AS id FROM subscriptions s
         JOIN businesses b ON b.id = s.business_id JOIN customers c ON c.id = s.customer_id
         WHERE (?1 IS NULL OR b.owner_id = ?1) AND (?2 IS NULL OR s.business_id = ?2)
           AND s.status IN (SELECT value FROM json_each(?3)) AND (?4 IS NULL OR instr(c.phone, ?4) > 0)
           AND (?5 IS NULL OR s.customer_id < ?5)
         ORDER BY s.customer_id DESC LIMIT ?6`,
      )
      .all(1, null, '["active"]', null, 100, 51) as { detail: string }[];
    const details = plan.map((r) => r.detail);
    expect(details.some((d) => /subscriptions_customer_business_unique/.test(d))).toBe(true);
    expect(details.filter((d) => /^SCAN (b|c)\b/.test(d))).toEqual([]);
    expect(details.some((d) => /USE TEMP B-TREE FOR ORDER BY/.test(d))).toBe(false);
  });
});
