// ListCustomers in a town (issue 26 item 7): the admin's phone search walks customers newest first, and totals stop
// counting at CUSTOMER_TOTAL_CAP (one business's count stays exact). Pages still follow each other with no gap and no
// repeat; the plans of the admin's statements are checked (no sort of everything, the subscriptions index per person).
import { afterEach, describe, expect, test } from "bun:test";
import { CUSTOMER_TOTAL_CAP } from "../../src/schemas/customer-pages.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertManySubscribers, insertSubscriber } from "../helpers/customer-factories.ts";
import { queryPlans } from "../helpers/query-plans.ts";
import { ownersWorld } from "../helpers/worlds.ts";

const LIST = "/api/customer/ListCustomers";
let ctx: TestContext;
afterEach(() => ctx?.close());

type Page = { items: { id: number; phone: string; businesses: { id: number }[] }[]; nextCursor: string | null; total: number; totalCapped: boolean };

function world() {
  ctx = testContext();
  const api = apiClient(ctx);
  const w = ownersWorld(ctx);
  type Status = "active" | "unsubscribed" | "pending" | "unconfirmed" | "removed";
  const add = (businessId: number, phone: string, status: Status = "active") => insertSubscriber(ctx, businessId, { phone, status }).customer.id;
  const page = async (token: string, query: string) => {
    const res = await api.get(`${LIST}?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body as Page;
  };
  /** Every page of `query`, following nextCursor. */
  const walk = async (token: string, query: string) => {
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      pages.push(await page(token, [query, cursor ? `cursor=${cursor}` : ""].filter(Boolean).join("&")));
      cursor = pages.at(-1)!.nextCursor;
    } while (cursor && pages.length < 50);
    return pages;
  };
  return { ...w, add, page, walk };
}

describe("ListCustomers in a town", () => {
  test("the admin's phone search: every match of every business, newest first, page after page with no gap or repeat", async () => {
    const w = world();
    const expected: number[] = [];
    for (let i = 0; i < 12; i++) {
      const phone = `+1415555${String(7000 + i).padStart(4, "0")}`;
      const id = w.add([w.bakery.id, w.cafe.id, w.gym.id][i % 3]!, phone, i % 4 === 1 ? "unsubscribed" : "active");
      if (phone.includes("5557")) expected.push(id);
      w.add(w.gym.id, `+1212666${String(1000 + i)}`); // never matches 5557
    }
    const removed = w.add(w.gym.id, "+14155557900", "removed");
    const pending = w.add(w.bakery.id, "+14155557901", "pending");
    const twice = expected[3]!;
    insertSubscriber(ctx, w.gym.id, { phone: "+14155557003" }); // expected[3] in a second business
    const pages = await w.walk(w.admin.token, "q=555-7&limit=5");
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 2]);
    expect(pages.flatMap((p) => p.items.map((c) => c.id))).toEqual([...expected].reverse());
    expect(pages.map((p) => [p.total, p.totalCapped])).toEqual([[12, false], [12, false], [12, false]]);
    expect(pages.flatMap((p) => p.items).find((c) => c.id === twice)!.businesses).toHaveLength(2);
    // The status filter with the search: only what it names.
    const waiting = await w.walk(w.admin.token, "q=5557901&status=pending");
    expect(waiting.flatMap((p) => p.items.map((c) => c.id))).toEqual([pending]);
    const none = await w.walk(w.admin.token, "q=5557900");
    expect(none.flatMap((p) => p.items.map((c) => c.id)).includes(removed)).toBe(false);
    expect(none[0]!.total).toBe(0);
    // The owner's search is the owner's: the same words, only their businesses.
    const mine = (await w.walk(w.ownerA.token, "q=5557")).flatMap((p) => p.items);
    expect(mine.map((c) => c.id)).toEqual(expected.filter((_, i) => i % 3 !== 2).reverse());
  });

  test(`totals stop at ${CUSTOMER_TOTAL_CAP.toLocaleString("en-US")} ('more'); one business's count stays exact; the pages are not cut`, async () => {
    const w = world();
    insertManySubscribers(ctx, w.bakery.id, 6_000, 1_000_000);
    insertManySubscribers(ctx, w.gym.id, CUSTOMER_TOTAL_CAP - 6_000 + 100, 3_000_000);
    const first = await w.page(w.admin.token, "limit=200");
    expect([first.total, first.totalCapped, first.items.length]).toEqual([CUSTOMER_TOTAL_CAP, true, 200]);
    const searched = await w.page(w.admin.token, "q=1415&limit=3");
    expect([searched.total, searched.totalCapped]).toEqual([CUSTOMER_TOTAL_CAP, true]);
    const gymOnly = await w.page(w.admin.token, `q=1415&businessId=${w.gym.id}`);
    expect([gymOnly.total, gymOnly.totalCapped]).toEqual([CUSTOMER_TOTAL_CAP - 6_000 + 100, false]);
    const bakery = await w.page(w.ownerA.token, `businessId=${w.bakery.id}`);
    expect([bakery.total, bakery.totalCapped]).toEqual([6_000, false]);
    const ownerB = await w.page(w.ownerB.token, "limit=200");
    expect([ownerB.total, ownerB.totalCapped]).toEqual([CUSTOMER_TOTAL_CAP - 6_000 + 100, false]);
    // Past the cap the list goes on: the last page of the admin's list is the oldest customer.
    const oldest = ctx.db.$client.query("SELECT MIN(id) AS id FROM customers").get() as { id: number };
    const cursor = Buffer.from(JSON.stringify([oldest.id + 2, oldest.id + 2])).toString("base64url");
    for (const query of [`cursor=${cursor}`, `q=1415&cursor=${cursor}`, `q=1415&limit=3&cursor=${cursor}`]) {
      const last = await w.page(w.admin.token, query);
      expect([query, last.items.map((c) => c.id), last.nextCursor, last.total]).toEqual([query, [oldest.id + 1, oldest.id], null, CUSTOMER_TOTAL_CAP]);
    }
    // A search's page that straddles the last match counted (the 10,001st newest): the rows on both sides of it.
    const newest = (ctx.db.$client.query("SELECT MAX(id) AS id FROM customers").get() as { id: number }).id;
    const at = newest - CUSTOMER_TOTAL_CAP + 3;
    const across = await w.page(w.admin.token, `q=1415&limit=4&cursor=${Buffer.from(JSON.stringify([at, at])).toString("base64url")}`);
    expect([across.items.map((c) => c.id), across.total, across.totalCapped]).toEqual([[at - 1, at - 2, at - 3, at - 4], CUSTOMER_TOTAL_CAP, true]);
  });

  test("the plans: the admin's list walks subscriptions by person; the admin's phone search walks customers by id, one index seek each", () => {
    world();
    const repo = ctx.repos.customerPages;
    const plans = queryPlans(ctx.db.$client, () => repo.page({ ownerId: null, businessId: null, statuses: ["active"], digits: "5557", beforeId: 9, limit: 51 }, 10));
    const planOf = (part: RegExp) => plans.find((p) => part.test(p.sql))!.plan;
    for (const plan of plans.map((p) => p.plan)) expect(plan.filter((d) => /TEMP B-TREE/.test(d))).toEqual([]);
    const list = planOf(/SELECT DISTINCT s\.customer_id AS id/);
    expect(list[0]).toMatch(/^SCAN s USING (COVERING )?INDEX subscriptions_customer_business_unique/);
    const count = planOf(/COUNT\(\*\) AS n FROM \(SELECT DISTINCT s\.customer_id/);
    expect(count.some((d) => /^SCAN s USING (COVERING )?INDEX subscriptions_customer_business_unique/.test(d))).toBe(true);
    for (const search of [planOf(/SELECT c\.id\s+FROM customers c[\s\S]*ORDER BY c\.id DESC/), planOf(/COUNT\(\*\) AS n FROM \(SELECT c\.id/)]) {
      expect(search.some((d) => /^SCAN c\b/.test(d))).toBe(true);
      expect(search.some((d) => /^SEARCH s (EXISTS )?USING (COVERING )?INDEX subscriptions_customer_business_unique \(customer_id=\?\)/.test(d))).toBe(true);
    }
    expect(planOf(/SELECT c\.id\s+FROM customers c[\s\S]*ORDER BY c\.id DESC/)[0]).toMatch(/^SCAN c( USING INTEGER PRIMARY KEY)?$/);
  });
});
