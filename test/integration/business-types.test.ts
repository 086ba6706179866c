// Business types API, scenario by scenario (PocketBase style): each row says who calls what with which body, and
// what must come back and what must (not) have changed in the database.
import { beforeAll, describe, expect, test } from "bun:test";
import { businesses, businessTypes } from "../../src/db/schema.ts";
import { SESSION_EXPIRED } from "../../src/schemas/texts.ts";
import { TYPE_NAME_TAKEN, TYPE_NOT_FOUND } from "../../src/services/business-types.ts";
import { type ApiClient, apiClient, signUp } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { allBusinessTypes, type BusinessTypeRow, insertBusiness, insertBusinessType } from "../helpers/factories.ts";

interface World extends ScenarioWorld {
  /** Seeded before every scenario: an active type with a description and an inactive one. */
  bakery: BusinessTypeRow;
  florist: BusinessTypeRow;
}

type Scenario = ApiScenario<World>;

const BASE = "/api/businesstype";
const ALL = `${BASE}/GetAllBusinessTypes`;
const byId = (id: number | string) => `${BASE}/GetBusinessTypeById?id=${id}`;
const CREATE = `${BASE}/CreateBusinessType`;
const update = (id: number | string) => `${BASE}/UpdateBusinessType?id=${id}`;
const remove = (id: number | string) => `${BASE}/DeleteBusinessType?id=${id}`;
const UNKNOWN_ID = 999_999;

// The requests most rows make.
const create = request<World>("admin", "POST", CREATE);
const updateBakery = request<World>("admin", "PUT", (w) => update(w.bakery.id));
const removeBakery = request<World>("admin", "DELETE", (w) => remove(w.bakery.id));
const list = request<World>("anon", "GET", ALL);

const LOGIN_FIRST = { status: 401, body: { code: "unauthorized", error: "Please log in to continue." } };
const ADMIN_ONLY = { status: 403, body: { code: "forbidden", error: "Only an administrator can do this." } };
const invalid = (fields: Record<string, string>) => ({
  code: "validation_failed",
  error: Object.values(fields)[0],
  fields,
});

const typeShape = (row: Partial<BusinessTypeRow>) => ({
  ...(row.id !== undefined && { id: row.id }),
  ...(row.name !== undefined && { name: row.name }),
  ...(row.description !== undefined && { description: row.description }),
  ...(row.isActive !== undefined && { isActive: row.isActive }),
  ...(row.createdAt !== undefined && { createdAt: row.createdAt.toISOString() }),
});

const rowNamed = (w: World, name: string) => allBusinessTypes(w.ctx).find((r) => r.name === name);

const scenarios: Scenario[] = [
  // ---- reads are public ---------------------------------------------------------------------------------------
  ...(["anon", "owner", "admin"] as const).flatMap((as): Scenario[] => [
    {
      name: `list as ${as}: every type, active and inactive, alphabetical`,
      method: "GET",
      path: ALL,
      as,
      status: 200,
      expect: (body, w) => expect(body).toEqual([typeShape(w.bakery), typeShape(w.florist)]),
    },
    {
      name: `get by id as ${as}`,
      method: "GET",
      path: (w) => byId(w.florist.id),
      as,
      status: 200,
      expect: (body, w) => expect(body).toEqual(typeShape(w.florist)),
    },
  ]),
  list("list sorts case-insensitively", 200, {
    expect: (body) => expect(body.map((t: { name: string }) => t.name)).toEqual(["antiques", "Bakery", "Florist", "Zoo Shop"]),
    before: (w) => {
      insertBusinessType(w.ctx, { name: "antiques" });
      insertBusinessType(w.ctx, { name: "Zoo Shop" });
    },
  }),
  list("list when there are none", 200, { before: (w) => w.ctx.db.delete(businessTypes).run(), expectBody: [] }),
  { name: "get unknown id", method: "GET", path: byId(UNKNOWN_ID), as: "anon", status: 404, expectBody: { code: "not_found", error: TYPE_NOT_FOUND } },
  ...["abc", "0", "-1", "1.5", "1e3", "%201"].map(
    (id): Scenario => ({
      name: `get with non-numeric id "${id}"`,
      method: "GET",
      path: byId(id),
      as: "anon",
      status: 400,
      expectBody: { code: "validation_failed", error: "The id parameter must be a positive whole number.", fields: { id: "invalid" } },
    }),
  ),
  request<World>("anon", "GET", `${BASE}/GetBusinessTypeById`)("get without id", 400, {
    expectBody: { code: "validation_failed", error: "The id parameter is required.", fields: { id: "required" } },
  }),

  // ---- create ------------------------------------------------------------------------------------------------
  { name: "create as anon", method: "POST", path: CREATE, as: "anon", json: { name: "Gym" }, status: 401, expectBody: LOGIN_FIRST.body },
  { name: "create as owner", method: "POST", path: CREATE, as: "owner", json: { name: "Gym" }, status: 403, expectBody: ADMIN_ONLY.body },
  request<World>("anon", "POST", CREATE)("create with an unknown token", 401, { token: "not-a-session", json: { name: "Gym" }, expectBody: { code: "unauthorized", error: SESSION_EXPIRED } }),
  create("create without the XSRF header", 403, { noXsrf: true, json: { name: "Gym" }, expectBody: { code: "xsrf_failed" } }),
  create("create as admin: trimmed, stored, 201", 201, {
    json: { name: "  Hair Salon ", description: "  Cuts and colour  ", isActive: false }, expectBody: { name: "Hair Salon", description: "Cuts and colour", isActive: false },
    expect: (body) => {
      expect(Object.keys(body).sort()).toEqual(["createdAt", "description", "id", "isActive", "name"]);
      expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    },
    after: (w, _res, before) => {
      expect(allBusinessTypes(w.ctx)).toHaveLength(before.types.length + 1);
      expect(rowNamed(w, "Hair Salon")).toMatchObject({ description: "Cuts and colour", isActive: false });
    },
  }),
  create("create with the name only: description empty, active", 201, { json: { name: "Gym" }, expectBody: { name: "Gym", description: "", isActive: true } }),
  create("create with a null description", 201, { json: { name: "Gym", description: null, isActive: true }, expectBody: { name: "Gym", description: "" } }),
  create("create ignores id and createdAt in the body", 201, {
    json: { name: "Gym", id: UNKNOWN_ID, createdAt: "1999-01-01T00:00:00.000Z" },
    expect: (body) => {
      expect(body.id).not.toBe(UNKNOWN_ID);
      expect(body.createdAt).not.toStartWith("1999");
    },
  }),
  { name: "create with name of exactly 2", method: "POST", path: CREATE, as: "admin", json: { name: "Ab" }, status: 201 },
  { name: "create with name of exactly 100", method: "POST", path: CREATE, as: "admin", json: { name: "n".repeat(100) }, status: 201 },
  create("create with description of exactly 500", 201, { json: { name: "Gym", description: "d".repeat(500) } }),
  ...(
    [
      ["name missing", {}, { name: "Business type name is required" }],
      ["name empty", { name: "" }, { name: "Business type name is required" }],
      ["name blank", { name: "   " }, { name: "Business type name is required" }],
      ["name null", { name: null }, { name: "Business type name is required" }],
      ["name too short", { name: "A" }, { name: "Name must be at least 2 characters long" }],
      ["name too short after trimming", { name: " A " }, { name: "Name must be at least 2 characters long" }],
      ["name too long", { name: "n".repeat(101) }, { name: "Name cannot exceed 100 characters" }],
      ["name a number", { name: 123 }, { name: "Business type name is required" }],
      ["description 501", { name: "Gym", description: "d".repeat(501) }, { description: "Description cannot exceed 500 characters" }],
      ["description a number", { name: "Gym", description: 5 }, { description: "Description must be text" }],
      ["isActive a string", { name: "Gym", isActive: "yes" }, { isActive: "isActive must be true or false" }],
      ["isActive a number", { name: "Gym", isActive: 1 }, { isActive: "isActive must be true or false" }],
      [
        "every field wrong",
        { name: 123, description: 5, isActive: "yes" },
        { name: "Business type name is required", description: "Description must be text", isActive: "isActive must be true or false" },
      ],
    ] as const
  ).map(
    ([what, body, fields]) => create(`create: ${what}`, 400, { json: body, expectBody: invalid(fields) }),
  ),
  ...["Bakery", "bakery", "  BAKERY  ", "Florist"].map(
    (name) => create(`create duplicate name "${name}" (case-insensitive)`, 409, { json: { name }, expectBody: { code: "conflict", error: TYPE_NAME_TAKEN } }),
  ),
  create("create duplicate beyond ASCII (Café / CAFÉ)", 409, {
    before: (w) => insertBusinessType(w.ctx, { name: "Café" }), json: { name: "CAFÉ" }, expectBody: { code: "conflict", error: TYPE_NAME_TAKEN },
  }),
  create("create with malformed JSON", 400, {
    raw: '{"name": "Gym",', headers: { "content-type": "application/json" }, expectBody: { code: "validation_failed", error: "Request body must be valid JSON." },
  }),
  create("create with an empty JSON body", 400, { raw: "", headers: { "content-type": "application/json" }, expectBody: { code: "validation_failed", error: "Request body must be valid JSON." } }),
  ...['["Gym"]', '"Gym"', "null", "42"].map(
    (raw) => create(`create with a non-object body ${raw}`, 400, { raw, headers: { "content-type": "application/json" }, expectBody: { code: "validation_failed", error: "Request body must be a JSON object." } }),
  ),
  ...[
    ["text/plain", '{"name":"Gym"}'],
    ["application/x-www-form-urlencoded", "name=Gym"],
    [undefined, '{"name":"Gym"}'],
  ].map(
    ([type, raw]) => create(`create with content type ${type ?? "(none)"}`, 415, { raw, headers: type ? { "content-type": type } : {}, expectBody: { code: "unsupported_media_type", error: "Content-Type must be application/json." } }),
  ),
  create("create with application/json; charset=utf-8", 201, { raw: '{"name":"Gym"}', headers: { "content-type": "application/json; charset=utf-8" }, expectBody: { name: "Gym" } }),
  create("create with a body over 64 KB", 413, { json: { name: "Gym", description: "d".repeat(70_000) }, expectBody: { code: "payload_too_large" } }),

  // ---- update ------------------------------------------------------------------------------------------------
  { name: "update as anon", method: "PUT", path: (w) => update(w.bakery.id), as: "anon", json: { name: "Bread", description: "", isActive: true }, status: 401, expectBody: LOGIN_FIRST.body },
  { name: "update as owner", method: "PUT", path: (w) => update(w.bakery.id), as: "owner", json: { name: "Bread", description: "", isActive: true }, status: 403, expectBody: ADMIN_ONLY.body },
  updateBakery("update as admin: every field replaced, id and createdAt kept", 200, {
    json: { name: " Bread & Cakes ", description: "", isActive: false },
    expectBody: (w: World) => ({ id: w.bakery.id, name: "Bread & Cakes", description: "", isActive: false, createdAt: w.bakery.createdAt.toISOString() }),
    after: (w) => {
      expect(allBusinessTypes(w.ctx)).toEqual([{ ...w.bakery, name: "Bread & Cakes", description: "", isActive: false }, w.florist]);
    },
  }),
  updateBakery("update to its own name in another case", 200, { json: { name: "BAKERY", description: "x", isActive: true }, expectBody: { name: "BAKERY", description: "x" } }),
  request<World>("admin", "PUT", (w) => update(w.florist.id))("update leaves omitted fields as they were (an inactive type stays inactive)", 200, {
    json: { name: "Flowers" }, expectBody: (w: World) => ({ id: w.florist.id, name: "Flowers", description: w.florist.description, isActive: false }),
  }),
  updateBakery("update can clear the description with null", 200, { json: { name: "Bakery", description: null }, expectBody: { description: "", isActive: true } }),
  updateBakery("update to another type's name", 409, { json: { name: "florist", description: "", isActive: true }, expectBody: { code: "conflict", error: TYPE_NAME_TAKEN } }),
  request<World>("admin", "PUT", update(UNKNOWN_ID))("update unknown id", 404, { json: { name: "Bread", description: "", isActive: true }, expectBody: { code: "not_found", error: TYPE_NOT_FOUND } }),
  { name: "update non-numeric id", method: "PUT", path: update("abc"), as: "admin", json: { name: "Bread" }, status: 400, expectBody: { code: "validation_failed", fields: { id: "invalid" } } },
  request<World>("admin", "PUT", `${BASE}/UpdateBusinessType`)("update without id", 400, { json: { name: "Bread" }, expectBody: { code: "validation_failed", fields: { id: "required" } } }),
  ...(
    [
      ["name too short", { name: "B" }, { name: "Name must be at least 2 characters long" }],
      ["name too long", { name: "n".repeat(101) }, { name: "Name cannot exceed 100 characters" }],
      ["name missing", { description: "x" }, { name: "Business type name is required" }],
      ["description 501", { name: "Bakery", description: "d".repeat(501) }, { description: "Description cannot exceed 500 characters" }],
      ["isActive a string", { name: "Bakery", isActive: "no" }, { isActive: "isActive must be true or false" }],
    ] as const
  ).map(
    ([what, body, fields]) => updateBakery(`update: ${what}`, 400, { json: body, expectBody: invalid(fields) }),
  ),
  updateBakery("update with malformed JSON", 400, { raw: "{name: Bread}", headers: { "content-type": "application/json" }, expectBody: { error: "Request body must be valid JSON." } }),
  updateBakery("update with a non-object body", 400, { raw: "[]", headers: { "content-type": "application/json" }, expectBody: { error: "Request body must be a JSON object." } }),
  updateBakery("update with a wrong content type", 415, { raw: '{"name":"Bread"}', headers: { "content-type": "text/plain" }, expectBody: { code: "unsupported_media_type" } }),

  // ---- delete ------------------------------------------------------------------------------------------------
  { name: "delete as anon", method: "DELETE", path: (w) => remove(w.florist.id), as: "anon", status: 401, expectBody: LOGIN_FIRST.body },
  { name: "delete as owner", method: "DELETE", path: (w) => remove(w.florist.id), as: "owner", status: 403, expectBody: ADMIN_ONLY.body },
  request<World>("admin", "DELETE", (w) => remove(w.florist.id))("delete an unused type as admin", 200, {
    expectBody: { message: "Business type deleted." }, after: (w) => expect(allBusinessTypes(w.ctx)).toEqual([w.bakery]),
  }),
  removeBakery("delete a type one business uses", 409, {
    before: (w) => insertBusiness(w.ctx, { businessTypeId: w.bakery.id }),
    expectBody: { code: "conflict", error: '"Bakery" is used by 1 business and cannot be deleted. Mark it inactive instead.' },
    after: (w) => expect(w.ctx.db.select().from(businesses).all()).toHaveLength(1),
  }),
  removeBakery("delete a type two businesses use", 409, {
    expectBody: { code: "conflict", error: '"Bakery" is used by 2 businesses and cannot be deleted. Mark it inactive instead.' },
    after: (w) => expect(w.ctx.db.select().from(businesses).all()).toHaveLength(2),
    before: (w) => {
      insertBusiness(w.ctx, { businessTypeId: w.bakery.id });
      insertBusiness(w.ctx, { businessTypeId: w.bakery.id, isActive: false });
    },
  }),
  { name: "delete unknown id", method: "DELETE", path: remove(UNKNOWN_ID), as: "admin", status: 404, expectBody: { code: "not_found", error: TYPE_NOT_FOUND } },
  { name: "delete non-numeric id", method: "DELETE", path: remove("x1"), as: "admin", status: 400, expectBody: { code: "validation_failed", fields: { id: "invalid" } } },
  { name: "delete without id", method: "DELETE", path: `${BASE}/DeleteBusinessType`, as: "admin", status: 400, expectBody: { fields: { id: "required" } } },
];

describe("business types API", () => {
  let ctx: TestContext;
  let api: ApiClient;
  const tokens: Record<string, string | undefined> = {};

  beforeAll(async () => {
    ctx = testContext({ NEARCAST_ADMIN_EMAIL: "admin@example.com" });
    api = apiClient(ctx);
    tokens.admin = (await signUp(api, { email: "admin@example.com" })).token;
    tokens.owner = (await signUp(api)).token;
  });

  runScenarios(scenarios, {
    // A fresh set of types (and no businesses) for every scenario; the accounts are shared to spare the hashing.
    world: () => {
      ctx.db.delete(businesses).run();
      ctx.db.delete(businessTypes).run();
      const bakery = insertBusinessType(ctx, { name: "Bakery", description: "Bread and cakes", isActive: true });
      const florist = insertBusinessType(ctx, { name: "Florist", description: "Flowers and plants", isActive: false });
      return { ctx, api, tokens, bakery, florist };
    },
    unchanged: (w) => ({ types: allBusinessTypes(w.ctx), businesses: w.ctx.db.select().from(businesses).all() }),
  });
});

describe("business types API across requests", () => {
  test("create, read back, rename, deactivate, delete", async () => {
    const ctx = testContext({ NEARCAST_ADMIN_EMAIL: "admin@example.com" });
    const api = apiClient(ctx);
    const { token } = await signUp(api, { email: "admin@example.com" });
    const created = await api.post(CREATE, { name: "Bookshop", description: "Books", isActive: true }, { token });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect((await api.get(byId(id))).body).toEqual(created.body);
    const renamed = await api.put(update(id), { name: "Bookstore", description: "Books and maps", isActive: false }, { token });
    expect(renamed.status).toBe(200);
    // Next to the types a fresh database is seeded with.
    expect((await api.get(ALL)).body).toContainEqual(renamed.body);
    // the old name is free again
    expect((await api.post(CREATE, { name: "bookshop" }, { token })).status).toBe(201);
    expect((await api.del(remove(id), { token })).status).toBe(200);
    expect((await api.get(byId(id))).status).toBe(404);
    const names = (await api.get(ALL)).body.map((t: { name: string }) => t.name);
    expect(names).toContain("bookshop");
    expect(names).not.toContain("Bookstore");
  });

  test("a type freed by deleting its last business can then be deleted", async () => {
    const ctx = testContext({ NEARCAST_ADMIN_EMAIL: "admin@example.com" });
    const api = apiClient(ctx);
    const { token } = await signUp(api, { email: "admin@example.com" });
    const type = insertBusinessType(ctx, { name: "Barber" });
    const shop = insertBusiness(ctx, { businessTypeId: type.id });
    expect((await api.del(remove(type.id), { token })).status).toBe(409);
    ctx.db.delete(businesses).run();
    expect(shop.businessTypeId).toBe(type.id);
    expect((await api.del(remove(type.id), { token })).status).toBe(200);
  });
});
