// First run over HTTP (issue 9): POST /api/setup makes the first admin of a fresh server and logs it in, once; GET
// /api/site says whether it is still due; later registrations are owners; the CLI way and NEARCAST_ADMIN_EMAIL
// keep working. Since issue 21 it takes the setup code serve printed (the code's own tests: setup-code.test.ts).
// Also the business types a fresh database is seeded with.
// Not the scenario runner: each test is a flow (set up, then log in, register or set up again).
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { users } from "../../src/db/schema.ts";
import { sampleDealText, DEFAULT_DEAL_TEXT } from "../../src/schemas/poster-text.ts";
import { apiClient, signUp } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";

// argon2 is deliberately slow; a busy box can take seconds per hash.
setDefaultTimeout(30_000);

const SETUP = "/api/setup";
const SITE = "/api/site";
const ALREADY_DONE = "Setup is already done: log in, or ask your admin.";
const ADMIN = { firstName: "Grace", lastName: "Hopper", email: "grace@shop.example", password: "s3cret-pass" };

let ctx: TestContext;
/** The setup code this server printed (as `nearcast serve` does at start); null when setup is not due. */
let code: string | null;
afterEach(() => ctx?.close());

function fresh(env: Record<string, string> = {}) {
  ctx = testContext(env);
  code = ctx.services.setupCode.issue();
  return apiClient(ctx);
}

const userRows = () => ctx.db.select().from(users).all();
const admins = () => userRows().filter((u) => u.role === "admin");

describe("POST /api/setup", () => {
  test("on a fresh server: 201 with a token and the user, who is admin; the token works", async () => {
    const api = fresh();
    const res = await api.post(SETUP, { ...ADMIN, code, email: "  Grace@Shop.Example " });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ firstName: "Grace", lastName: "Hopper", email: "grace@shop.example", role: "admin" });
    expect(typeof res.body.token).toBe("string");
    expect(Object.keys(res.body).sort()).toEqual(["token", "user"]);
    expect(res.body.user.passwordHash).toBeUndefined();

    const me = await api.get("/api/auth/GetCurrentUser", { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: "grace@shop.example", role: "admin" });
    // An admin-only route serves the new admin.
    const created = await api.post("/api/businesstype/CreateBusinessType", { name: "Bakery" }, { token: res.body.token });
    expect(created.status).toBe(201);
    // The password given is the one stored: a normal login works too.
    const login = await api.post("/api/auth/Login", { email: ADMIN.email, password: ADMIN.password });
    expect(login.status).toBe(200);
    expect(login.body.user.role).toBe("admin");
    expect(admins().map((u) => u.email)).toEqual(["grace@shop.example"]);
  });

  test("a second setup gets 409 and stores nothing", async () => {
    const api = fresh();
    expect((await api.post(SETUP, { ...ADMIN, code })).status).toBe(201);
    const res = await api.post(SETUP, { ...ADMIN, code, email: "mallory@example.com" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "conflict", error: ALREADY_DONE });
    expect(userRows().map((u) => u.email)).toEqual(["grace@shop.example"]);
  });

  test("409 when an admin came from the CLI first (which also ends setupNeeded)", async () => {
    const api = fresh();
    await ctx.services.auth.createUser({ ...ADMIN, email: "cli@example.com" }, "admin");
    expect((await api.get(SITE)).body.setupNeeded).toBe(false);
    const res = await api.post(SETUP, { ...ADMIN, code });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(ALREADY_DONE);
    expect(userRows().map((u) => u.email)).toEqual(["cli@example.com"]);
  });

  test("with NEARCAST_ADMIN_EMAIL set, that address registers as admin as before: no setup screen, setup is a 409", async () => {
    const api = fresh({ NEARCAST_ADMIN_EMAIL: "boss@example.com" });
    expect((await api.get(SITE)).body.setupNeeded).toBe(false);
    const early = await api.post(SETUP, { ...ADMIN, code });
    expect(early.status).toBe(409);
    expect(early.body).toEqual({
      code: "conflict",
      error: "This server's admin is the account registered with its configured admin email (NEARCAST_ADMIN_EMAIL): register with that address.",
    });
    expect(userRows()).toHaveLength(0);
    const boss = await signUp(api, { email: "boss@example.com" });
    expect((await api.get("/api/auth/GetCurrentUser", { token: boss.token })).body.role).toBe("admin");
    expect((await api.post(SETUP, { ...ADMIN, code })).body.error).toBe(ALREADY_DONE);
    expect(admins().map((u) => u.email)).toEqual(["boss@example.com"]);
  });

  test("registering after setup makes an owner", async () => {
    const api = fresh();
    expect((await api.post(SETUP, { ...ADMIN, code })).status).toBe(201);
    const res = await api.post("/api/auth/Register", { ...ADMIN, email: "owner@example.com" });
    expect(res.status).toBe(201);
    expect(userRows().find((u) => u.email === "owner@example.com")?.role).toBe("owner");
    expect(admins()).toHaveLength(1);
  });

  test("an email an owner already registered (before setup) is refused with 409, nothing stored", async () => {
    const api = fresh();
    await signUp(api, { email: ADMIN.email });
    const res = await api.post(SETUP, { ...ADMIN, code });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: "conflict", error: "An account with this email already exists." });
    expect(admins()).toHaveLength(0);
    expect(userRows()).toHaveLength(1);
  });

  const bad: [string, unknown, Record<string, string>][] = [
    ["no first name", { ...ADMIN, firstName: "  " }, { firstName: "First name is required" }],
    ["no last name", { ...ADMIN, lastName: "" }, { lastName: "Last name is required" }],
    ["a bad email", { ...ADMIN, email: "not-an-email" }, { email: "Please enter a valid email address" }],
    ["a short password", { ...ADMIN, password: "123" }, { password: "Password must be at least 6 characters" }],
    ["no password", { firstName: "A", lastName: "B", email: "a@b.co" }, { password: "Password is required" }],
  ];
  for (const [name, body, fields] of bad) {
    test(`400 for ${name}, naming the field; nothing stored`, async () => {
      const api = fresh();
      const res = await api.post(SETUP, { ...(body as Record<string, unknown>), code });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "validation_failed", error: Object.values(fields)[0], fields });
      expect(userRows()).toHaveLength(0);
      expect((await api.get(SITE)).body.setupNeeded).toBe(true);
    });
  }

  test("400 for a body that is not a JSON object, nothing stored", async () => {
    const api = fresh();
    const res = await api.call("POST", SETUP, { body: "[1,2]", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(userRows()).toHaveLength(0);
  });

  test("without the XSRF header: 403, nothing stored", async () => {
    const api = fresh();
    const res = await api.post(SETUP, { ...ADMIN, code }, { noXsrf: true });
    expect(res.status).toBe(403);
    expect(userRows()).toHaveLength(0);
  });

  test("two setups at once: one 201, one 409, one admin row", async () => {
    const api = fresh();
    const [a, b] = await Promise.all([
      api.post(SETUP, { ...ADMIN, code, email: "first@example.com" }),
      api.post(SETUP, { ...ADMIN, code, email: "second@example.com" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.error).toBe(ALREADY_DONE);
    expect(admins()).toHaveLength(1);
    expect(userRows()).toHaveLength(1);
  });

  test("GET /api/site: setupNeeded true on a fresh server, false after setup", async () => {
    const api = fresh();
    expect((await api.get(SITE)).body.setupNeeded).toBe(true);
    // An owner is not an admin: setup is still due.
    await signUp(api);
    expect((await api.get(SITE)).body.setupNeeded).toBe(true);
    expect((await api.post(SETUP, { ...ADMIN, code })).status).toBe(201);
    expect((await api.get(SITE)).body.setupNeeded).toBe(false);
  });
});

describe("business types of a fresh database", () => {
  const SEEDED = ["Restaurant", "Pizza", "Salon & Beauty", "Retail Shop", "Real Estate", "Gym & Fitness", "Auto & Car Service", "Other"];

  test("exactly the eight seeded types, all active; each but Other has its own poster deal", async () => {
    const api = fresh();
    const res = await api.get("/api/businesstype/GetAllBusinessTypes");
    expect(res.status).toBe(200);
    const list = res.body as { name: string; isActive: boolean; description: string }[];
    expect(list.map((t) => t.name).sort()).toEqual([...SEEDED].sort());
    expect(list.every((t) => t.isActive)).toBe(true);
    expect(list.every((t) => t.description.length > 0)).toBe(true);
    for (const name of SEEDED) {
      if (name === "Other") expect(sampleDealText(name)).toBe(DEFAULT_DEAL_TEXT);
      else expect(sampleDealText(name)).not.toBe(DEFAULT_DEAL_TEXT);
    }
    // Restaurant and Pizza share the food deal; the other keywords each have their own.
    expect(new Set(SEEDED.map(sampleDealText)).size).toBe(7);
  });

  test("the admin from setup can rename one and mark one inactive", async () => {
    const api = fresh();
    const { token } = (await api.post(SETUP, { ...ADMIN, code })).body;
    const list = (await api.get("/api/businesstype/GetAllBusinessTypes")).body as { id: number; name: string; description: string }[];
    const pizza = list.find((t) => t.name === "Pizza")!;
    const gym = list.find((t) => t.name === "Gym & Fitness")!;

    const renamed = await api.put(`/api/businesstype/UpdateBusinessType?id=${pizza.id}`, { name: "Pizzeria", description: pizza.description, isActive: true }, { token });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: pizza.id, name: "Pizzeria", isActive: true });

    const off = await api.put(`/api/businesstype/UpdateBusinessType?id=${gym.id}`, { name: gym.name, description: gym.description, isActive: false }, { token });
    expect(off.status).toBe(200);

    const after = (await api.get("/api/businesstype/GetAllBusinessTypes")).body as { id: number; name: string; isActive: boolean }[];
    expect(after).toHaveLength(8);
    expect(after.find((t) => t.id === pizza.id)).toMatchObject({ name: "Pizzeria", isActive: true });
    expect(after.find((t) => t.id === gym.id)).toMatchObject({ name: "Gym & Fitness", isActive: false });
    expect(after.filter((t) => t.isActive)).toHaveLength(7);
  });

  test("an owner may not change them (403)", async () => {
    const api = fresh();
    expect((await api.post(SETUP, { ...ADMIN, code })).status).toBe(201);
    const owner = await signUp(api);
    const [first] = (await api.get("/api/businesstype/GetAllBusinessTypes")).body as { id: number; name: string }[];
    const res = await api.put(`/api/businesstype/UpdateBusinessType?id=${first!.id}`, { name: "Mine now", isActive: false }, { token: owner.token });
    expect(res.status).toBe(403);
    expect((await api.get(`/api/businesstype/GetBusinessTypeById?id=${first!.id}`)).body.name).toBe(first!.name);
  });
});
