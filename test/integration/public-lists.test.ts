// The smaller lists paged on the server (issue 12, item 2): the public business list (ListBusinesses), the business
// types (ListBusinessTypes) and the subscriber counts of the My Business cards (GetMySubscriberCounts). The spec's
// GetAllBusinesses and GetAllBusinessTypes stay as they are (their own tests). Refusals and single reads are scenario
// tables; the paging tests walk every page (many requests, rows added between them), which a one-request scenario
// cannot say.
import { afterEach, describe, expect, test } from "bun:test";
import { businessTypes } from "../../src/db/schema.ts";
import { BUSINESS_TYPE_FILTER_INVALID } from "../../src/services/businesses.ts";
import { CURSOR_INVALID, LIMIT_INVALID, NAME_SEARCH_INVALID } from "../../src/schemas/paging.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertBusinessType, insertUser } from "../helpers/factories.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";

let ctx: TestContext;
afterEach(() => ctx?.close());

type Page<T> = { items: T[]; nextCursor: string | null; total: number };

/** Every page of `path` (with `query`), following nextCursor; `between` runs after each page. */
async function walk<T>(path: string, query: string, token?: string, between?: (pageNo: number) => void): Promise<Page<T>[]> {
  const api = apiClient(ctx);
  const pages: Page<T>[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: unknown } = await api.get(`${path}?${[query, cursor ? `cursor=${cursor}` : ""].filter(Boolean).join("&")}`, { token });
    expect(res.status).toBe(200);
    pages.push(res.body as Page<T>);
    cursor = (res.body as Page<T>).nextCursor;
    between?.(pages.length);
  } while (cursor && pages.length < 30);
  return pages;
}

const names = <T extends { name: string }>(pages: Page<T>[]) => pages.flatMap((p) => p.items.map((b) => b.name));

describe("ListBusinesses (public)", () => {
  const LIST = "/api/business/ListBusinesses";
  function world() {
    ctx = testContext();
    const bakeries = insertBusinessType(ctx, { name: "Bakery" });
    const gyms = insertBusinessType(ctx, { name: "Gym" });
    const add = (name: string, businessTypeId: number, isActive = true) => insertBusiness(ctx, { name, businessTypeId, isActive });
    add("Rosa's Bakery", bakeries.id);
    add("Corner Bakery", bakeries.id);
    add("Iron Gym", gyms.id);
    add("Closed Bakery", bakeries.id, false);
    add("Bakery & Gym", gyms.id);
    add("Anna's Bakery", bakeries.id);
    return { bakeries, gyms, add };
  }

  test("by name, a page at a time, with the total on each; the pages joined are GetAllBusinesses; no inactive one", async () => {
    world();
    const pages = await walk<{ name: string; businessType: { name: string } | null }>(LIST, "limit=2");
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    expect(pages.map((p) => p.total)).toEqual([5, 5, 5]);
    const all = (await apiClient(ctx).get("/api/business/GetAllBusinesses")).body as { name: string }[];
    expect(names(pages)).toEqual(all.map((b) => b.name));
    expect(names(pages)).toEqual(["Anna's Bakery", "Bakery & Gym", "Corner Bakery", "Iron Gym", "Rosa's Bakery"]);
    expect(pages[0]!.items[0]).not.toHaveProperty("ownerId");
    expect(pages[0]!.items[0]!.businessType?.name).toBe("Bakery");
  });

  test("a search in the names (any case) and a filter by type; both together; the totals follow", async () => {
    const w = world();
    const search = await walk<{ name: string }>(LIST, "q=BAKERY&limit=2");
    expect(names(search)).toEqual(["Anna's Bakery", "Bakery & Gym", "Corner Bakery", "Rosa's Bakery"]);
    expect(search[0]!.total).toBe(4);
    const gyms = await walk<{ name: string }>(LIST, `businessTypeId=${w.gyms.id}`);
    expect(names(gyms)).toEqual(["Bakery & Gym", "Iron Gym"]);
    const both = await walk<{ name: string }>(LIST, `businessTypeId=${w.gyms.id}&q=${encodeURIComponent("bakery &")}`);
    expect(names(both)).toEqual(["Bakery & Gym"]);
    expect(both[0]!.total).toBe(1);
    const none = await walk<{ name: string }>(LIST, "q=zzz");
    expect(none).toEqual([{ items: [], nextCursor: null, total: 0 }]);
  });

  test("two businesses with the same name both show, once each, across a page boundary", async () => {
    const w = world();
    w.add("Corner Bakery", w.bakeries.id);
    const pages = await walk<{ id: number; name: string }>(LIST, "limit=3");
    const ids = pages.flatMap((p) => p.items.map((b) => b.id));
    expect(new Set(ids).size).toBe(6);
    expect(names(pages).filter((n) => n === "Corner Bakery").length).toBe(2);
  });

  test("a business added while paging: never a repeat, never a skip of what was there", async () => {
    const w = world();
    const pages = await walk<{ name: string }>(LIST, "limit=2", undefined, (n) => {
      if (n === 1) w.add("Aaron's Deli", w.bakeries.id); // sorts before the cursor: not on a later page
      if (n === 2) w.add("Zed's Bakery", w.bakeries.id); // after it: shows at the end
    });
    expect(names(pages)).toEqual(["Anna's Bakery", "Bakery & Gym", "Corner Bakery", "Iron Gym", "Rosa's Bakery", "Zed's Bakery"]);
  });

  describe("bad cursor, limit, search or type: 400 naming the field", () => {
    const idCursor = Buffer.from(JSON.stringify([5, 5])).toString("base64url"); // a number-keyed list's cursor
    const cases: [string, string, string, string][] = [
      ["a cursor that is not base64url", "cursor=nope!", "cursor", CURSOR_INVALID],
      ["a number-keyed list's cursor", `cursor=${idCursor}`, "cursor", CURSOR_INVALID],
      ["a cursor of the wrong type", `cursor=${Buffer.from('["x"]').toString("base64url")}`, "cursor", CURSOR_INVALID],
      ["a cursor of 700 characters", `cursor=${"A".repeat(700)}`, "cursor", CURSOR_INVALID],
      ["a negative limit", "limit=-1", "limit", LIMIT_INVALID],
      ["a limit over the most", "limit=1000", "limit", LIMIT_INVALID],
      ["a search of 101 characters", `q=${"x".repeat(101)}`, "q", NAME_SEARCH_INVALID],
      ["a type that is not a number", "businessTypeId=abc", "businessTypeId", BUSINESS_TYPE_FILTER_INVALID],
    ];
    runScenarios(
      cases.map(([name, query, field, text]): ApiScenario<ScenarioWorld> => ({
        name,
        method: "GET",
        path: `${LIST}?${query}`,
        status: 400,
        expectBody: { error: text, code: "validation_failed" },
        fields: { [field]: text },
      })),
      { world: () => (world(), { ctx, api: apiClient(ctx) }) },
    );
  });
});

describe("ListBusinessTypes", () => {
  const LIST = "/api/businesstype/ListBusinessTypes";
  test("alphabetical regardless of case, as GetAllBusinessTypes; pages, total, search", async () => {
    ctx = testContext();
    ctx.db.delete(businessTypes).run(); // the types every install starts with
    for (const name of ["gym", "Bakery", "cafe", "Barber", "Florist", "bar"]) insertBusinessType(ctx, { name });
    const pages = await walk<{ name: string }>(LIST, "limit=4");
    const all = (await apiClient(ctx).get("/api/businesstype/GetAllBusinessTypes")).body as { name: string }[];
    expect(names(pages)).toEqual(all.map((t) => t.name));
    expect(names(pages)).toEqual(["Bakery", "bar", "Barber", "cafe", "Florist", "gym"]);
    expect(pages.map((p) => p.total)).toEqual([6, 6]);
    const search = await walk<{ name: string }>(LIST, "q=BAR&limit=1");
    expect(names(search)).toEqual(["bar", "Barber"]);
    expect(search.map((p) => p.total)).toEqual([2, 2]);
  });

  describe("bad cursor or limit: 400 naming the field", () => {
    runScenarios<ScenarioWorld>(
      [
        { name: "limit 0", method: "GET", path: `${LIST}?limit=0`, status: 400, fields: { limit: LIMIT_INVALID } },
        { name: "a blank cursor", method: "GET", path: `${LIST}?cursor=%20`, status: 400, fields: { cursor: CURSOR_INVALID } },
      ],
      { world: () => ((ctx = testContext()), { ctx, api: apiClient(ctx) }) },
    );
  });
});

describe("GetMySubscriberCounts (the My Business cards)", () => {
  const COUNTS = "/api/business/GetMySubscriberCounts";
  // Active subscribers of each of the user's own businesses, 0 included; another owner's never.
  function world() {
    ctx = testContext();
    const rosa = insertUser(ctx);
    const ben = insertUser(ctx);
    const admin = insertUser(ctx, { role: "admin" });
    const bakery = insertBusiness(ctx, { ownerId: rosa.id, name: "Bakery" });
    const cafe = insertBusiness(ctx, { ownerId: rosa.id, name: "Cafe" });
    const gym = insertBusiness(ctx, { ownerId: ben.id, name: "Gym" });
    insertSubscriber(ctx, bakery.id, { phone: "+14155550101" });
    insertSubscriber(ctx, bakery.id, { phone: "+14155550102" });
    insertSubscriber(ctx, bakery.id, { phone: "+14155550103", status: "unsubscribed" });
    insertSubscriber(ctx, bakery.id, { phone: "+14155550104", status: "pending" });
    insertSubscriber(ctx, gym.id, { phone: "+14155550101" });
    const tokens = { rosa: sessionFor(ctx, rosa), ben: sessionFor(ctx, ben), admin: sessionFor(ctx, admin) };
    return { ctx, api: apiClient(ctx), tokens, bakery, cafe, gym };
  }
  type World = ReturnType<typeof world>;
  const sorted = (body: { businessId: number; subscribers: number }[]) => [...body].sort((a, b) => a.businessId - b.businessId);
  runScenarios<World>(
    [
      {
        name: "both of her businesses, the cafe with 0",
        as: "rosa",
        method: "GET",
        path: COUNTS,
        status: 200,
        expect: (body, w) =>
          expect(sorted(body)).toEqual([
            { businessId: w.bakery.id, subscribers: 2 },
            { businessId: w.cafe.id, subscribers: 0 },
          ]),
      },
      { name: "his one business", as: "ben", method: "GET", path: COUNTS, status: 200, expectBody: (w) => [{ businessId: w.gym.id, subscribers: 1 }] },
      // The admin's cards are their own businesses, as GetMyBusinesses.
      { name: "none of the owners' businesses", as: "admin", method: "GET", path: COUNTS, status: 200, expectBody: [] },
      { name: "anonymous: 401", method: "GET", path: COUNTS, status: 401 },
    ],
    { world },
  );
});
