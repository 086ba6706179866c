// What the public sees of a business is an allowlist (PUBLIC_BUSINESS_KEYS), not "every column but the private
// ones": every public read answers exactly those keys, and a column that is not listed (the owner's id, the time
// zone, or one added to the table tomorrow) never reaches an anonymous caller.
import { afterEach, describe, expect, test } from "bun:test";
import { getTableColumns } from "drizzle-orm";
import { businesses } from "../../src/db/schema.ts";
import type { BusinessWithType } from "../../src/repos/businesses.ts";
import { PUBLIC_BUSINESS_KEYS } from "../../src/schemas/businesses.ts";
import { toBusiness, toPublicBusiness } from "../../src/services/businesses.ts";
import { apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { type BusinessRow, insertBusiness, insertBusinessType } from "../helpers/factories.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";

interface World extends ScenarioWorld {
  shop: BusinessRow;
}

const ALLOWED = [...PUBLIC_BUSINESS_KEYS].sort();
/** The table's columns the allowlist leaves out: each must be absent from every public answer. */
const PRIVATE_COLUMNS = Object.keys(getTableColumns(businesses)).filter((c) => !(PUBLIC_BUSINESS_KEYS as readonly string[]).includes(c));

function expectPublic(record: Record<string, unknown>) {
  expect(Object.keys(record).sort()).toEqual(ALLOWED);
  for (const column of PRIVATE_COLUMNS) expect(record).not.toHaveProperty(column);
}

const anon = (name: string, path: (w: World) => string, records: (body: any) => Record<string, unknown>[]): ApiScenario<World> => ({
  name,
  method: "GET",
  path,
  status: 200,
  expect: (body) => {
    const found = records(body);
    expect(found).toHaveLength(1);
    for (const record of found) expectPublic(record);
  },
});

describe("the public business shape is an allowlist", () => {
  test("the private columns today: the owner and the time zone", () => {
    expect(PRIVATE_COLUMNS.sort()).toEqual(["ownerId", "timeZone"]);
  });

  let ctx: TestContext | undefined;
  afterEach(() => ctx?.close());

  runScenarios<World>(
    [
      anon("GetBusinessById", (w) => `/api/business/GetBusinessById?id=${w.shop.id}`, (body) => [body]),
      anon("ListBusinesses", () => "/api/business/ListBusinesses", (body) => body.items),
      anon("GetAllBusinesses", () => "/api/business/GetAllBusinesses", (body) => body),
      anon("GetBusinessesByType", (w) => `/api/business/GetBusinessesByType?businessTypeId=${w.shop.businessTypeId}`, (body) => body),
    ],
    {
      world: () => {
        ctx = testContext();
        // Every private column holds a value, so an answer that leaked one would show it.
        const shop = insertBusiness(ctx, { businessTypeId: insertBusinessType(ctx).id, timeZone: "Asia/Tokyo", logoImagePath: "/uploads/logo.png" });
        return { ctx, api: apiClient(ctx), shop };
      },
    },
  );

  test("a column added to the table stays out of the public view until it is listed", () => {
    ctx = testContext();
    const row: BusinessWithType = { ...ctx.repos.businesses.findById(insertBusiness(ctx).id)!, ...{ internalNote: "never shown" } };
    expect(toBusiness(row)).toHaveProperty("internalNote", "never shown");
    expectPublic(toPublicBusiness(row));
  });
});
