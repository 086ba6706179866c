// Issue 21, item 2: owners are approved before anything is sent for them. The admin's /api/user/ routes (admin only,
// 404 for unknown ids, never their own account or the last admin), registration in each ownerSignup mode, a refused
// account's sign-in, and every sending path of a pending owner in the sandbox (403 owner_not_approved, nothing
// written).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { broadcasts, businesses, phoneVerifications, sessions, users } from "../../src/db/schema.ts";
import {
  ACCOUNT_REFUSED,
  BUSINESS_OWNER_NOT_APPROVED,
  CANNOT_CHANGE_SELF,
  LAST_ADMIN,
  OWNER_NOT_APPROVED,
  SIGNUP_CLOSED,
  USER_NOT_FOUND,
} from "../../src/schemas/owner-approval.ts";
import { INVALID_LOGIN } from "../../src/schemas/texts.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { ADMIN_EMAIL, apiClient, PASSWORD } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { closing } from "../helpers/worlds.ts";

// argon2 is deliberately slow on a busy two-core box.
setDefaultTimeout(30_000);

const OWNER = { firstName: "Rosa", lastName: "Baker", email: "rosa@example.com", password: PASSWORD };

interface World extends ScenarioWorld {
  ctx: TestContext;
  ids: { admin: number; pending: number; approved: number; refused: number };
}

function world(env: Record<string, string> = {}): World {
  const ctx = testContext({ NEARCAST_OWNER_SIGNUP: "approval", NEARCAST_ADMIN_EMAIL: ADMIN_EMAIL, ...env });
  const admin = insertUser(ctx, { role: "admin", email: ADMIN_EMAIL });
  const pending = insertUser(ctx, { status: "pending", phone: "+14155550101", phoneVerifiedAt: new Date() });
  const approved = insertUser(ctx, {});
  const refused = insertUser(ctx, { status: "refused" });
  insertBusiness(ctx, { ownerId: pending.id, name: "Pending Bakery" });
  return {
    ctx,
    api: apiClient(ctx),
    ids: { admin: admin.id, pending: pending.id, approved: approved.id, refused: refused.id },
    tokens: { admin: sessionFor(ctx, admin), pending: sessionFor(ctx, pending), owner: sessionFor(ctx, approved) },
  };
}

const statusOf = (w: World, id: number) => w.ctx.db.select().from(users).where(eq(users.id, id)).get()?.status;
const liveSessions = (w: World, id: number) =>
  w.ctx.db.select().from(sessions).where(eq(sessions.userId, id)).all().filter((s) => s.revokedAt === null).length;

describe("the admin's user routes", () => {
  const scenarios: ApiScenario<World>[] = [
    {
      name: "every account with its role and state, oldest first, never a hash",
      as: "admin",
      method: "GET",
      path: "/api/user/GetAllUsers",
      status: 200,
      expect: (body, w) => {
        expect(body.map((u: { id: number; role: string; status: string }) => [u.id, u.role, u.status])).toEqual([
          [w.ids.admin, "admin", "approved"],
          [w.ids.pending, "owner", "pending"],
          [w.ids.approved, "owner", "approved"],
          [w.ids.refused, "owner", "refused"],
        ]);
        expect(JSON.stringify(body)).not.toContain("passwordHash");
      },
    },
    { name: "an owner may not list accounts", as: "owner", method: "GET", path: "/api/user/GetAllUsers", status: 403, expectBody: { code: "forbidden" } },
    { name: "a pending owner may not list accounts", as: "pending", method: "GET", path: "/api/user/GetAllUsers", status: 403 },
    { name: "anonymous: 401", method: "GET", path: "/api/user/GetAllUsers", status: 401 },
    {
      name: "only the owners waiting for approval",
      as: "admin",
      method: "GET",
      path: "/api/user/GetPendingUsers",
      status: 200,
      expect: (body, w) => expect(body.map((u: { id: number }) => u.id)).toEqual([w.ids.pending]),
    },
    { name: "pending list: owners get 403", as: "owner", method: "GET", path: "/api/user/GetPendingUsers", status: 403 },
    ...(
      [
        ["approve a pending owner", "pending", { status: "approved", role: "owner" }],
        ["approve a refused account: it may sign in again", "refused", undefined],
      ] as const
    ).map(([name, who, expectBody]) =>
      request<World>("admin", "POST", (w) => `/api/user/ApproveUser?id=${w.ids[who]}`)(name, 200, { expectBody, after: (w) => expect(statusOf(w, w.ids[who])).toBe("approved") }),
    ),
    { name: "an owner may not approve", as: "owner", method: "POST", path: (w) => `/api/user/ApproveUser?id=${w.ids.pending}`, status: 403 },
    { name: "a pending owner may not approve themselves", as: "pending", method: "POST", path: (w) => `/api/user/ApproveUser?id=${w.ids.pending}`, status: 403 },
    { name: "approve an unknown id: 404", as: "admin", method: "POST", path: "/api/user/ApproveUser?id=9999", status: 404, expectBody: { error: USER_NOT_FOUND } },
    { name: "approve without an id: 400", as: "admin", method: "POST", path: "/api/user/ApproveUser", status: 400, fields: { id: "required" } },
    { name: "approve with a bad id: 400", as: "admin", method: "POST", path: "/api/user/ApproveUser?id=abc", status: 400, fields: { id: "invalid" } },
    {
      name: "refuse an owner: the account is refused and its sessions end",
      as: "admin",
      method: "POST",
      path: (w) => `/api/user/RefuseUser?id=${w.ids.approved}`,
      status: 200,
      expectBody: { status: "refused" },
      after: async (w) => {
        expect(statusOf(w, w.ids.approved)).toBe("refused");
        expect(liveSessions(w, w.ids.approved)).toBe(0);
        expect((await w.api.get("/api/auth/GetCurrentUser", { token: w.tokens!.owner })).status).toBe(401);
      },
    },
    { name: "refuse one's own account: 409", as: "admin", method: "POST", path: (w) => `/api/user/RefuseUser?id=${w.ids.admin}`, status: 409, expectBody: { error: CANNOT_CHANGE_SELF } },
    { name: "an owner may not refuse", as: "owner", method: "POST", path: (w) => `/api/user/RefuseUser?id=${w.ids.pending}`, status: 403 },
    { name: "refuse an unknown id: 404", as: "admin", method: "POST", path: "/api/user/RefuseUser?id=9999", status: 404 },
    {
      name: "delete an account: it and its businesses are gone",
      as: "admin",
      method: "DELETE",
      path: (w) => `/api/user/DeleteUser?id=${w.ids.pending}`,
      status: 200,
      after: async (w) => {
        expect(statusOf(w, w.ids.pending)).toBeUndefined();
        expect(w.ctx.db.select({ n: count() }).from(businesses).get()?.n).toBe(0);
        expect((await w.api.get("/api/auth/GetCurrentUser", { token: w.tokens!.pending })).status).toBe(401);
      },
    },
    { name: "delete one's own account: 409", as: "admin", method: "DELETE", path: (w) => `/api/user/DeleteUser?id=${w.ids.admin}`, status: 409 },
    { name: "an owner may not delete", as: "owner", method: "DELETE", path: (w) => `/api/user/DeleteUser?id=${w.ids.pending}`, status: 403 },
    { name: "delete an unknown id: 404", as: "admin", method: "DELETE", path: "/api/user/DeleteUser?id=9999", status: 404 },
    { name: "delete without an id: 400", as: "admin", method: "DELETE", path: "/api/user/DeleteUser", status: 400 },
  ];
  runScenarios(scenarios, {
    world: () => world(),
    unchanged: (w) => ({
      users: w.ctx.db.select().from(users).all(),
      sessions: w.ctx.db.select().from(sessions).all(),
      businesses: w.ctx.db.select({ n: count() }).from(businesses).get(),
    }),
    done: (w) => w.ctx.close(),
  });

  test("the last admin cannot be refused or deleted, not even by the operator", () => {
    const w = world();
    try {
      expect(() => w.ctx.services.ownerApproval.refuse(OPERATOR, w.ids.admin)).toThrow(LAST_ADMIN);
      expect(() => w.ctx.services.ownerApproval.remove(OPERATOR, w.ids.admin)).toThrow(LAST_ADMIN);
      // With a second admin, one admin may refuse the other.
      const second = insertUser(w.ctx, { role: "admin" });
      expect(w.ctx.services.ownerApproval.refuse(OPERATOR, second.id).status).toBe("refused");
      expect(() => w.ctx.services.ownerApproval.remove(OPERATOR, w.ids.admin)).toThrow(LAST_ADMIN);
      expect(statusOf(w, w.ids.admin)).toBe("approved");
    } finally {
      w.ctx.close();
    }
  });
});

describe("registration in each mode", () => {
  const register = (w: World, body = OWNER) => w.api.post("/api/auth/Register", body);

  test("approval (the default): the new owner is pending, signs in, and sees it", async () =>
    closing(world({ NEARCAST_OWNER_SIGNUP: "" }), async (w) => {
      expect(w.ctx.services.settings.current().ownerSignup).toBe("approval");
      expect((await register(w)).status).toBe(201);
      expect(w.ctx.repos.users.findByEmail(OWNER.email)?.status).toBe("pending");
      const login = await w.api.post("/api/auth/Login", { email: OWNER.email, password: PASSWORD });
      expect(login.status).toBe(200);
      expect(login.body.user).toMatchObject({ status: "pending", role: "owner", phoneVerified: false });
      expect((await w.api.get("/api/auth/GetCurrentUser", { token: login.body.token })).body.status).toBe("pending");
      expect((await w.api.get("/api/site")).body.ownerSignup).toBe("approval");
    }));

  test("open: the new owner is approved at once", async () =>
    closing(world({ NEARCAST_OWNER_SIGNUP: "open" }), async (w) => {
      expect((await register(w)).status).toBe(201);
      expect(w.ctx.repos.users.findByEmail(OWNER.email)?.status).toBe("approved");
      expect((await w.api.get("/api/site")).body.ownerSignup).toBe("open");
    }));

  test("closed: a 403 saying the admin creates owners, and no account; the admin's email still registers", async () =>
    closing(world({ NEARCAST_OWNER_SIGNUP: "closed", NEARCAST_ADMIN_EMAIL: "second@example.com" }), async (w) => {
      const res = await register(w);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: SIGNUP_CLOSED, code: "registration_closed" });
      expect(w.ctx.repos.users.findByEmail(OWNER.email)).toBeUndefined();
      expect((await w.api.get("/api/site")).body.ownerSignup).toBe("closed");
      expect((await register(w, { ...OWNER, email: "second@example.com" })).status).toBe(201);
      expect(w.ctx.repos.users.findByEmail("second@example.com")).toMatchObject({ role: "admin", status: "approved" });
      // The operator still creates owners, approved.
      const made = await w.ctx.services.auth.createUser({ ...OWNER, email: "made@example.com" });
      expect(made.status).toBe("approved");
    }));

  test("the admin's email registers an approved admin under approval too", async () =>
    closing(world(), async (w) => {
      w.ctx.repos.users.delete(w.ids.admin);
      expect((await register(w, { ...OWNER, email: ADMIN_EMAIL })).status).toBe(201);
      expect(w.ctx.repos.users.findByEmail(ADMIN_EMAIL)).toMatchObject({ role: "admin", status: "approved" });
    }));

  test("the setting: saved on the Settings API, checked, and the environment wins", async () => {
    const w = world({ NEARCAST_OWNER_SIGNUP: "" });
    try {
      const bad = await w.api.put("/api/settings", { ownerSignup: "sometimes" }, { token: w.tokens!.admin });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toEqual({ ownerSignup: "Owner sign-up must be approval, open or closed" });
      const ok = await w.api.put("/api/settings", { ownerSignup: "OPEN" }, { token: w.tokens!.admin });
      expect(ok.status).toBe(200);
      expect(ok.body.ownerSignup).toMatchObject({ value: "open", source: "saved", env: "NEARCAST_OWNER_SIGNUP" });
      expect((await register(w)).status).toBe(201);
      expect(w.ctx.repos.users.findByEmail(OWNER.email)?.status).toBe("approved");
    } finally {
      w.ctx.close();
    }
    const locked = world({ NEARCAST_OWNER_SIGNUP: "closed" });
    try {
      const res = await locked.api.put("/api/settings", { ownerSignup: "open" }, { token: locked.tokens!.admin });
      expect(res.status).toBe(400);
      expect(res.body.fields.ownerSignup).toContain("NEARCAST_OWNER_SIGNUP");
      expect(locked.ctx.services.settings.current().ownerSignup).toBe("closed");
    } finally {
      locked.ctx.close();
    }
  });
});

describe("a refused account", () => {
  test("the right password gets a 403 saying so and no session; a wrong one the usual 401", async () =>
    closing(world({ NEARCAST_OWNER_SIGNUP: "open" }), async (w) => {
      expect((await w.api.post("/api/auth/Register", OWNER)).status).toBe(201);
      const login = await w.api.post("/api/auth/Login", { email: OWNER.email, password: PASSWORD });
      expect(login.status).toBe(200);
      const id = login.body.user.id as number;
      w.ctx.services.ownerApproval.refuse(OPERATOR, id);
      // The session it had ends.
      expect((await w.api.get("/api/auth/GetCurrentUser", { token: login.body.token })).status).toBe(401);
      const before = w.ctx.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, id)).get()?.n;
      const right = await w.api.post("/api/auth/Login", { email: OWNER.email, password: PASSWORD });
      expect(right.status).toBe(403);
      expect(right.body).toEqual({ error: ACCOUNT_REFUSED, code: "account_refused" });
      expect(w.ctx.db.select({ n: count() }).from(sessions).where(eq(sessions.userId, id)).get()?.n).toBe(before);
      const wrong = await w.api.post("/api/auth/Login", { email: OWNER.email, password: "not the password" });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe(INVALID_LOGIN);
      // Its data stays until the admin deletes it.
      expect(w.ctx.repos.users.findById(id)?.status).toBe("refused");
    }));

  test("its scheduled broadcasts are cancelled when it is refused", async () =>
    closing(world(), async (w) => {
      const shop = insertBusiness(w.ctx, { ownerId: w.ids.approved });
      insertSubscriber(w.ctx, shop.id);
      const form = new FormData();
      form.append("BusinessId", String(shop.id));
      form.append("MessageText", "Doors open at 9");
      form.append("ScheduledFor", new Date(w.ctx.clock.now().getTime() + 3600_000).toISOString());
      const res = await w.api.call("POST", "/api/business/PublishMessageToAllCustomers", { body: form, token: w.tokens!.owner });
      expect(res.status).toBe(200);
      w.ctx.services.ownerApproval.refuse(OPERATOR, w.ids.approved);
      expect(w.ctx.db.select().from(broadcasts).get()?.cancelledAt).not.toBeNull();
    }));
});

describe("a pending owner texts nothing, in the sandbox too", () => {
  const publish = (w: World, token: string, businessId: number, extra: Record<string, string> = {}) => {
    const form = new FormData();
    form.append("BusinessId", String(businessId));
    form.append("MessageText", "Fresh bread at 7!");
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    return w.api.call("POST", "/api/business/PublishMessageToAllCustomers", { body: form, token });
  };
  const nothingWritten = (w: World) => {
    expect(w.ctx.db.select({ n: count() }).from(broadcasts).get()?.n).toBe(0);
    expect(w.ctx.db.$client.query("SELECT count(*) AS n FROM deliveries").get()).toEqual({ n: 0 });
    expect(w.ctx.db.select({ n: count() }).from(phoneVerifications).get()?.n).toBe(0);
  };

  test("publish, schedule, test send and phone code: 403 owner_not_approved, nothing written", async () =>
    closing(world(), async (w) => {
      const shop = w.ctx.db.select().from(businesses).where(eq(businesses.ownerId, w.ids.pending)).get()!;
      insertSubscriber(w.ctx, shop.id);
      const token = w.tokens!.pending!;
      const now = await publish(w, token, shop.id);
      expect(now.status).toBe(403);
      expect(now.body).toEqual({ error: OWNER_NOT_APPROVED, code: "owner_not_approved" });
      const later = await publish(w, token, shop.id, { ScheduledFor: new Date(w.ctx.clock.now().getTime() + 3600_000).toISOString() });
      expect(later.status).toBe(403);
      expect(later.body.code).toBe("owner_not_approved");
      const test = new FormData();
      test.append("BusinessId", String(shop.id));
      test.append("MessageText", "Just me");
      const sent = await w.api.call("POST", "/api/broadcast/SendTest", { body: test, token });
      expect(sent.status).toBe(403);
      expect(sent.body.code).toBe("owner_not_approved");
      const code = await w.api.post("/api/auth/SendPhoneCode", {}, { token });
      expect(code.status).toBe(403);
      expect(code.body.code).toBe("owner_not_approved");
      nothingWritten(w);
      // The admin cannot send for them either, until they approve the account.
      const byAdmin = await publish(w, w.tokens!.admin!, shop.id);
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body).toEqual({ error: BUSINESS_OWNER_NOT_APPROVED, code: "owner_not_approved" });
      nothingWritten(w);

      // Approved: the same publish goes (to the sandbox).
      expect((await w.api.post(`/api/user/ApproveUser?id=${w.ids.pending}`, {}, { token: w.tokens!.admin })).status).toBe(200);
      const after = await publish(w, token, shop.id);
      expect(after.status).toBe(200);
      expect(after.body.recipients).toBe(1);
    }));

  test("a pending owner still builds businesses and customer lists", async () =>
    closing(world(), async (w) => {
      const token = w.tokens!.pending!;
      const customers = await w.api.get("/api/customer/GetAllCustomers", { token });
      expect(customers.status).toBe(200);
      const mine = await w.api.get("/api/business/GetMyBusinesses", { token });
      expect(mine.status).toBe(200);
      expect(mine.body.map((b: { name: string }) => b.name)).toEqual(["Pending Bakery"]);
    }));
});
