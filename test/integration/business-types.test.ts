// Business types API, scenario by scenario (PocketBase style): each row says who calls what with which body, and
// what must come back and what must (not) have changed in the database.
import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { businesses, businessTypes } from "../../src/db/schema.ts";
import { SESSION_EXPIRED } from "../../src/http/middleware/auth.ts";
import { TYPE_NAME_TAKEN, TYPE_NOT_FOUND } from "../../src/services/business-types.ts";
import { type ApiClient, type ApiResponse, apiClient, signUp } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { allBusinessTypes, type BusinessTypeRow, insertBusiness, insertBusinessType } from "../helpers/factories.ts";

type Who = "anon" | "owner" | "admin";
type Method = "GET" | "POST" | "PUT" | "DELETE";

interface World {
  ctx: TestContext;
  /** Seeded before every scenario: an active type with a description and an inactive one. */
  bakery: BusinessTypeRow;
  florist: BusinessTypeRow;
}

interface Scenario {
  name: string;
  method: Method;
  path: string | ((w: World) => string);
  as: Who;
  /** JSON body (sent as application/json). */
  body?: unknown;
  /** Raw body, sent as is with `headers` (for malformed JSON and wrong content types). */
  raw?: string;
  headers?: Record<string, string>;
  token?: string;
  noXsrf?: boolean;
  /** Extra rows for this scenario, after the seed. */
  setup?: (w: World) => void;
  expectStatus: number;
  /** Must match (toMatchObject); a function receives the world to name ids. */
  expectBody?: unknown | ((w: World) => unknown);
  expect?: (res: ApiResponse, w: World) => void;
  /** Database check after the call. Failed calls (4xx) are also checked to leave business_types unchanged. */
  sideEffect?: (w: World, before: BusinessTypeRow[]) => void;
}

const BASE = "/api/businesstype";
const ALL = `${BASE}/GetAllBusinessTypes`;
const byId = (id: number | string) => `${BASE}/GetBusinessTypeById?id=${id}`;
const CREATE = `${BASE}/CreateBusinessType`;
const update = (id: number | string) => `${BASE}/UpdateBusinessType?id=${id}`;
const remove = (id: number | string) => `${BASE}/DeleteBusinessType?id=${id}`;
const UNKNOWN_ID = 999_999;

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
const unchanged = (w: World, before: BusinessTypeRow[]) => expect(allBusinessTypes(w.ctx)).toEqual(before);

const scenarios: Scenario[] = [
  // ---- reads are public ---------------------------------------------------------------------------------------
  ...(["anon", "owner", "admin"] as const).flatMap((as): Scenario[] => [
    {
      name: `list as ${as}: every type, active and inactive, alphabetical`,
      method: "GET",
      path: ALL,
      as,
      expectStatus: 200,
      expect: (res, w) => expect(res.body).toEqual([typeShape(w.bakery), typeShape(w.florist)]),
    },
    {
      name: `get by id as ${as}`,
      method: "GET",
      path: (w) => byId(w.florist.id),
      as,
      expectStatus: 200,
      expect: (res, w) => expect(res.body).toEqual(typeShape(w.florist)),
    },
  ]),
  {
    name: "list sorts case-insensitively",
    method: "GET",
    path: ALL,
    as: "anon",
    setup: (w) => {
      insertBusinessType(w.ctx, { name: "antiques" });
      insertBusinessType(w.ctx, { name: "Zoo Shop" });
    },
    expectStatus: 200,
    expect: (res) => expect(res.body.map((t: { name: string }) => t.name)).toEqual(["antiques", "Bakery", "Florist", "Zoo Shop"]),
  },
  {
    name: "list when there are none",
    method: "GET",
    path: ALL,
    as: "anon",
    setup: (w) => w.ctx.db.delete(businessTypes).run(),
    expectStatus: 200,
    expectBody: [],
  },
  { name: "get unknown id", method: "GET", path: byId(UNKNOWN_ID), as: "anon", expectStatus: 404, expectBody: { code: "not_found", error: TYPE_NOT_FOUND } },
  ...["abc", "0", "-1", "1.5", "1e3", "%201"].map(
    (id): Scenario => ({
      name: `get with non-numeric id "${id}"`,
      method: "GET",
      path: byId(id),
      as: "anon",
      expectStatus: 400,
      expectBody: { code: "validation_failed", error: "The id parameter must be a positive whole number.", fields: { id: "invalid" } },
    }),
  ),
  {
    name: "get without id",
    method: "GET",
    path: `${BASE}/GetBusinessTypeById`,
    as: "anon",
    expectStatus: 400,
    expectBody: { code: "validation_failed", error: "The id parameter is required.", fields: { id: "required" } },
  },

  // ---- create ------------------------------------------------------------------------------------------------
  { name: "create as anon", method: "POST", path: CREATE, as: "anon", body: { name: "Gym" }, expectStatus: 401, expectBody: LOGIN_FIRST.body },
  { name: "create as owner", method: "POST", path: CREATE, as: "owner", body: { name: "Gym" }, expectStatus: 403, expectBody: ADMIN_ONLY.body },
  {
    name: "create with an unknown token",
    method: "POST",
    path: CREATE,
    as: "anon",
    token: "not-a-session",
    body: { name: "Gym" },
    expectStatus: 401,
    expectBody: { code: "unauthorized", error: SESSION_EXPIRED },
  },
  {
    name: "create without the XSRF header",
    method: "POST",
    path: CREATE,
    as: "admin",
    noXsrf: true,
    body: { name: "Gym" },
    expectStatus: 403,
    expectBody: { code: "xsrf_failed" },
  },
  {
    name: "create as admin: trimmed, stored, 201",
    method: "POST",
    path: CREATE,
    as: "admin",
    body: { name: "  Hair Salon ", description: "  Cuts and colour  ", isActive: false },
    expectStatus: 201,
    expectBody: { name: "Hair Salon", description: "Cuts and colour", isActive: false },
    expect: (res) => {
      expect(Object.keys(res.body).sort()).toEqual(["createdAt", "description", "id", "isActive", "name"]);
      expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    },
    sideEffect: (w, before) => {
      expect(allBusinessTypes(w.ctx)).toHaveLength(before.length + 1);
      expect(rowNamed(w, "Hair Salon")).toMatchObject({ description: "Cuts and colour", isActive: false });
    },
  },
  {
    name: "create with the name only: description empty, active",
    method: "POST",
    path: CREATE,
    as: "admin",
    body: { name: "Gym" },
    expectStatus: 201,
    expectBody: { name: "Gym", description: "", isActive: true },
  },
  {
    name: "create with a null description",
    method: "POST",
    path: CREATE,
    as: "admin",
    body: { name: "Gym", description: null, isActive: true },
    expectStatus: 201,
    expectBody: { name: "Gym", description: "" },
  },
  {
    name: "create ignores id and createdAt in the body",
    method: "POST",
    path: CREATE,
    as: "admin",
    body: { name: "Gym", id: UNKNOWN_ID, createdAt: "1999-01-01T00:00:00.000Z" },
    expectStatus: 201,
    expect: (res) => {
      expect(res.body.id).not.toBe(UNKNOWN_ID);
      expect(res.body.createdAt).not.toStartWith("1999");
    },
  },
  { name: "create with name of exactly 2", method: "POST", path: CREATE, as: "admin", body: { name: "Ab" }, expectStatus: 201 },
  { name: "create with name of exactly 100", method: "POST", path: CREATE, as: "admin", body: { name: "n".repeat(100) }, expectStatus: 201 },
  {
    name: "create with description of exactly 500",
    method: "POST",
    path: CREATE,
    as: "admin",
    body: { name: "Gym", description: "d".repeat(500) },
    expectStatus: 201,
  },
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
    ([what, body, fields]): Scenario => ({
      name: `create: ${what}`,
      method: "POST",
      path: CREATE,
      as: "admin",
      body,
      expectStatus: 400,
      expectBody: invalid(fields),
    }),
  ),
  ...["Bakery", "bakery", "  BAKERY  ", "Florist"].map(
    (name): Scenario => ({
      name: `create duplicate name "${name}" (case-insensitive)`,
      method: "POST",
      path: CREATE,
      as: "admin",
      body: { name },
      expectStatus: 409,
      expectBody: { code: "conflict", error: TYPE_NAME_TAKEN },
    }),
  ),
  {
    name: "create duplicate beyond ASCII (Café / CAFÉ)",
    method: "POST",
    path: CREATE,
    as: "admin",
    setup: (w) => insertBusinessType(w.ctx, { name: "Café" }),
    body: { name: "CAFÉ" },
    expectStatus: 409,
    expectBody: { code: "conflict", error: TYPE_NAME_TAKEN },
  },
  {
    name: "create with malformed JSON",
    method: "POST",
    path: CREATE,
    as: "admin",
    raw: '{"name": "Gym",',
    headers: { "content-type": "application/json" },
    expectStatus: 400,
    expectBody: { code: "validation_failed", error: "Request body must be valid JSON." },
  },
  {
    name: "create with an empty JSON body",
    method: "POST",
    path: CREATE,
    as: "admin",
    raw: "",
    headers: { "content-type": "application/json" },
    expectStatus: 400,
    expectBody: { code: "validation_failed", error: "Request body must be valid JSON." },
  },
  ...['["Gym"]', '"Gym"', "null", "42"].map(
    (raw): Scenario => ({
      name: `create with a non-object body ${raw}`,
      method: "POST",
      path: CREATE,
      as: "admin",
      raw,
      headers: { "content-type": "application/json" },
      expectStatus: 400,
      expectBody: { code: "validation_failed", error: "Request body must be a JSON object." },
    }),
  ),
  ...[
    ["text/plain", '{"name":"Gym"}'],
    ["application/x-www-form-urlencoded", "name=Gym"],
    [undefined, '{"name":"Gym"}'],
  ].map(
    ([type, raw]): Scenario => ({
      name: `create with content type ${type ?? "(none)"}`,
      method: "POST",
      path: CREATE,
      as: "admin",
      raw,
      headers: type ? { "content-type": type } : {},
      expectStatus: 415,
      expectBody: { code: "unsupported_media_type", error: "Content-Type must be application/json." },
    }),
  ),
  {
    name: "create with application/json; charset=utf-8",
    method: "POST",
    path: CREATE,
    as: "admin",
    raw: '{"name":"Gym"}',
    headers: { "content-type": "application/json; charset=utf-8" },
    expectStatus: 201,
    expectBody: { name: "Gym" },
  },
  {
    name: "create with a body over 64 KB",
    method: "POST",
    path: CREATE,
    as: "admin",
    body: { name: "Gym", description: "d".repeat(70_000) },
    expectStatus: 413,
    expectBody: { code: "payload_too_large" },
  },

  // ---- update ------------------------------------------------------------------------------------------------
  {
    name: "update as anon",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "anon",
    body: { name: "Bread", description: "", isActive: true },
    expectStatus: 401,
    expectBody: LOGIN_FIRST.body,
  },
  {
    name: "update as owner",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "owner",
    body: { name: "Bread", description: "", isActive: true },
    expectStatus: 403,
    expectBody: ADMIN_ONLY.body,
  },
  {
    name: "update as admin: every field replaced, id and createdAt kept",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "admin",
    body: { name: " Bread & Cakes ", description: "", isActive: false },
    expectStatus: 200,
    expectBody: (w: World) => ({ id: w.bakery.id, name: "Bread & Cakes", description: "", isActive: false, createdAt: w.bakery.createdAt.toISOString() }),
    sideEffect: (w) => {
      expect(allBusinessTypes(w.ctx)).toEqual([{ ...w.bakery, name: "Bread & Cakes", description: "", isActive: false }, w.florist]);
    },
  },
  {
    name: "update to its own name in another case",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "admin",
    body: { name: "BAKERY", description: "x", isActive: true },
    expectStatus: 200,
    expectBody: { name: "BAKERY", description: "x" },
  },
  {
    name: "update leaves omitted fields as they were (an inactive type stays inactive)",
    method: "PUT",
    path: (w) => update(w.florist.id),
    as: "admin",
    body: { name: "Flowers" },
    expectStatus: 200,
    expectBody: (w: World) => ({ id: w.florist.id, name: "Flowers", description: w.florist.description, isActive: false }),
  },
  {
    name: "update can clear the description with null",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "admin",
    body: { name: "Bakery", description: null },
    expectStatus: 200,
    expectBody: { description: "", isActive: true },
  },
  {
    name: "update to another type's name",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "admin",
    body: { name: "florist", description: "", isActive: true },
    expectStatus: 409,
    expectBody: { code: "conflict", error: TYPE_NAME_TAKEN },
  },
  {
    name: "update unknown id",
    method: "PUT",
    path: update(UNKNOWN_ID),
    as: "admin",
    body: { name: "Bread", description: "", isActive: true },
    expectStatus: 404,
    expectBody: { code: "not_found", error: TYPE_NOT_FOUND },
  },
  {
    name: "update non-numeric id",
    method: "PUT",
    path: update("abc"),
    as: "admin",
    body: { name: "Bread" },
    expectStatus: 400,
    expectBody: { code: "validation_failed", fields: { id: "invalid" } },
  },
  {
    name: "update without id",
    method: "PUT",
    path: `${BASE}/UpdateBusinessType`,
    as: "admin",
    body: { name: "Bread" },
    expectStatus: 400,
    expectBody: { code: "validation_failed", fields: { id: "required" } },
  },
  ...(
    [
      ["name too short", { name: "B" }, { name: "Name must be at least 2 characters long" }],
      ["name too long", { name: "n".repeat(101) }, { name: "Name cannot exceed 100 characters" }],
      ["name missing", { description: "x" }, { name: "Business type name is required" }],
      ["description 501", { name: "Bakery", description: "d".repeat(501) }, { description: "Description cannot exceed 500 characters" }],
      ["isActive a string", { name: "Bakery", isActive: "no" }, { isActive: "isActive must be true or false" }],
    ] as const
  ).map(
    ([what, body, fields]): Scenario => ({
      name: `update: ${what}`,
      method: "PUT",
      path: (w) => update(w.bakery.id),
      as: "admin",
      body,
      expectStatus: 400,
      expectBody: invalid(fields),
    }),
  ),
  {
    name: "update with malformed JSON",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "admin",
    raw: "{name: Bread}",
    headers: { "content-type": "application/json" },
    expectStatus: 400,
    expectBody: { error: "Request body must be valid JSON." },
  },
  {
    name: "update with a non-object body",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "admin",
    raw: "[]",
    headers: { "content-type": "application/json" },
    expectStatus: 400,
    expectBody: { error: "Request body must be a JSON object." },
  },
  {
    name: "update with a wrong content type",
    method: "PUT",
    path: (w) => update(w.bakery.id),
    as: "admin",
    raw: '{"name":"Bread"}',
    headers: { "content-type": "text/plain" },
    expectStatus: 415,
    expectBody: { code: "unsupported_media_type" },
  },

  // ---- delete ------------------------------------------------------------------------------------------------
  { name: "delete as anon", method: "DELETE", path: (w) => remove(w.florist.id), as: "anon", expectStatus: 401, expectBody: LOGIN_FIRST.body },
  { name: "delete as owner", method: "DELETE", path: (w) => remove(w.florist.id), as: "owner", expectStatus: 403, expectBody: ADMIN_ONLY.body },
  {
    name: "delete an unused type as admin",
    method: "DELETE",
    path: (w) => remove(w.florist.id),
    as: "admin",
    expectStatus: 200,
    expectBody: { message: "Business type deleted." },
    sideEffect: (w) => expect(allBusinessTypes(w.ctx)).toEqual([w.bakery]),
  },
  {
    name: "delete a type one business uses",
    method: "DELETE",
    path: (w) => remove(w.bakery.id),
    as: "admin",
    setup: (w) => insertBusiness(w.ctx, { businessTypeId: w.bakery.id }),
    expectStatus: 409,
    expectBody: { code: "conflict", error: '"Bakery" is used by 1 business and cannot be deleted. Mark it inactive instead.' },
    sideEffect: (w) => expect(w.ctx.db.select().from(businesses).all()).toHaveLength(1),
  },
  {
    name: "delete a type two businesses use",
    method: "DELETE",
    path: (w) => remove(w.bakery.id),
    as: "admin",
    setup: (w) => {
      insertBusiness(w.ctx, { businessTypeId: w.bakery.id });
      insertBusiness(w.ctx, { businessTypeId: w.bakery.id, isActive: false });
    },
    expectStatus: 409,
    expectBody: { code: "conflict", error: '"Bakery" is used by 2 businesses and cannot be deleted. Mark it inactive instead.' },
    sideEffect: (w) => expect(w.ctx.db.select().from(businesses).all()).toHaveLength(2),
  },
  { name: "delete unknown id", method: "DELETE", path: remove(UNKNOWN_ID), as: "admin", expectStatus: 404, expectBody: { code: "not_found", error: TYPE_NOT_FOUND } },
  { name: "delete non-numeric id", method: "DELETE", path: remove("x1"), as: "admin", expectStatus: 400, expectBody: { code: "validation_failed", fields: { id: "invalid" } } },
  { name: "delete without id", method: "DELETE", path: `${BASE}/DeleteBusinessType`, as: "admin", expectStatus: 400, expectBody: { fields: { id: "required" } } },
];

describe("business types API", () => {
  let ctx: TestContext;
  let api: ApiClient;
  const tokens: Record<Who, string | undefined> = { anon: undefined, owner: undefined, admin: undefined };
  let world: World;

  beforeAll(async () => {
    ctx = testContext({ NEARCAST_ADMIN_EMAIL: "admin@example.com" });
    api = apiClient(ctx);
    tokens.admin = (await signUp(api, { email: "admin@example.com" })).token;
    tokens.owner = (await signUp(api)).token;
  });

  // A fresh set of types (and no businesses) for every scenario; the accounts are shared to spare the hashing.
  beforeEach(() => {
    ctx.db.delete(businesses).run();
    ctx.db.delete(businessTypes).run();
    const bakery = insertBusinessType(ctx, { name: "Bakery", description: "Bread and cakes", isActive: true });
    const florist = insertBusinessType(ctx, { name: "Florist", description: "Flowers and plants", isActive: false });
    world = { ctx, bakery, florist };
  });

  test("every scenario has a unique name", () => {
    const names = scenarios.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });

  for (const s of scenarios) {
    test(`${s.method} ${s.as}: ${s.name}`, async () => {
      s.setup?.(world);
      const before = allBusinessTypes(ctx);
      const businessesBefore = ctx.db.select().from(businesses).all();
      const path = typeof s.path === "function" ? s.path(world) : s.path;
      const res = await api.call(s.method, path, {
        token: s.token ?? tokens[s.as],
        noXsrf: s.noXsrf,
        headers: s.headers,
        ...(s.raw !== undefined ? { body: s.raw } : s.body !== undefined ? { json: s.body } : {}),
      });
      if (res.status !== s.expectStatus) {
        throw new Error(`expected ${s.expectStatus}, got ${res.status}: ${JSON.stringify(res.body)}`);
      }
      if (s.expectBody !== undefined) {
        const want = typeof s.expectBody === "function" ? s.expectBody(world) : s.expectBody;
        if (Array.isArray(want)) expect(res.body).toEqual(want);
        else expect(res.body).toMatchObject(want as object);
      }
      if (res.status >= 400) {
        // One error shape, and a failed request changes nothing.
        expect(Object.keys(res.body).filter((k) => !["error", "code", "fields"].includes(k))).toEqual([]);
        expect(typeof res.body.error).toBe("string");
        unchanged(world, before);
        expect(ctx.db.select().from(businesses).all()).toEqual(businessesBefore);
      }
      s.expect?.(res, world);
      s.sideEffect?.(world, before);
      expect(ctx.logger.lines.filter((l) => l.startsWith("error"))).toEqual([]);
    });
  }
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
    expect((await api.get(ALL)).body).toEqual([renamed.body]);
    // the old name is free again
    expect((await api.post(CREATE, { name: "bookshop" }, { token })).status).toBe(201);
    expect((await api.del(remove(id), { token })).status).toBe(200);
    expect((await api.get(byId(id))).status).toBe(404);
    expect((await api.get(ALL)).body.map((t: { name: string }) => t.name)).toEqual(["bookshop"]);
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
