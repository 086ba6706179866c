// Accounts over HTTP: register, login, current user, logout, forgot/reset password, rate limits and roles.
// Table-driven (PocketBase style): each scenario names its request, the expected status and body, and checks the
// side effects in the database through ctx.repos / ctx.db.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { passwordResets, sessions, users } from "../../src/db/schema.ts";
import { hashToken, randomToken } from "../../src/lib/tokens.ts";
import { REGISTERED, RESET_TTL_MS, SESSION_TTL_MS } from "../../src/services/auth.ts";
import { ADMIN_EMAIL, apiClient, type ApiResponse, PASSWORD } from "../helpers/api.ts";
import { testContext } from "../helpers/context.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";

// The spec's texts (sections 5 and 8) and this design's, spelled out: they are the contract.
const INVALID_LOGIN = "Invalid email or password. Please check your credentials and try again.";
const BAD_RESET = "Invalid or expired reset token. Please request a new password reset.";
const MISSING_RESET = "Invalid or missing reset token. Please request a new password reset.";
const SESSION_EXPIRED = "Your session has expired. Please log in again.";
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

// argon2 is deliberately slow, and a rate-limit test verifies twenty-odd passwords: more than bun's 5 s on a busy box.
setDefaultTimeout(30_000);


// ---------------------------------------------------------------------------------------------------------------
// Scenarios: each in a world of its own

interface World extends ScenarioWorld {
  /** Whatever `before` wants to hand to the request and the checks (tokens, ids). */
  vars: Record<string, any>;
}

type Scenario = ApiScenario<World>;

function world(env: Record<string, string> = {}): World {
  const ctx = testContext({ NEARCAST_ADMIN_EMAIL: ADMIN_EMAIL, ...env });
  return { ctx, api: apiClient(ctx), vars: {} };
}

/** A table of scenarios of one endpoint (a row may still name another). */
type Row = Omit<Scenario, "method" | "path"> & Partial<Pick<Scenario, "method" | "path">>;
const scenarios = (endpoint: Pick<Scenario, "method" | "path">, rows: Row[]) =>
  runScenarios(
    rows.map((r) => ({ ...endpoint, ...r })),
    { world: (s) => world(s.env), done: (w) => w.ctx.close() },
  );

// ---------------------------------------------------------------------------------------------------------------
// Direct setup (no HTTP, and no login where the login itself is not under test: argon2 is deliberately slow)

let seq = 0;
const freshEmail = () => `user${++seq}@example.com`;

/** A user who can log in with `password`. */
async function makeUser(w: World, email = freshEmail(), password = PASSWORD) {
  const user = await w.ctx.services.auth.createUser({ firstName: "Ada", lastName: "Baker", email, password });
  return { ...user, password };
}

/** A live session token for a user, written straight into the sessions table. */
function sessionFor(w: World, userId: number, expiresAt = new Date(w.ctx.clock.now().getTime() + SESSION_TTL_MS)): string {
  const token = randomToken();
  w.ctx.repos.sessions.insert(userId, hashToken(token), expiresAt);
  return token;
}

const userCount = (w: World) => w.ctx.db.select({ n: count() }).from(users).get()?.n ?? 0;
const userRow = (w: World, email: string) => w.ctx.repos.users.findByEmail(email);
const sessionRows = (w: World, userId: number) => w.ctx.db.select().from(sessions).where(eq(sessions.userId, userId)).all();
const resetRows = (w: World, userId: number) =>
  w.ctx.db.select().from(passwordResets).where(eq(passwordResets.userId, userId)).all();

const login = (w: World, email: string, password: string, ip?: string) =>
  w.api.post("/api/auth/Login", { email, password }, { ip });
const me = (w: World, token?: string) => w.api.get("/api/auth/GetCurrentUser", { token });
const forgot = (w: World, email: string, ip?: string) => w.api.post("/api/auth/ForgotPassword", { email }, { ip });
const reset = (w: World, token: string, newPassword: string, ip?: string) =>
  w.api.post("/api/auth/ResetPassword", { token, newPassword }, { ip });

/** The reset token the development server hands back. */
async function devResetToken(w: World, email: string): Promise<string> {
  const res = await forgot(w, email);
  expect(res.status).toBe(200);
  expect(typeof res.body.token).toBe("string");
  return res.body.token;
}

const DEV = { NEARCAST_ENV: "development" };
const valid = { firstName: "Ada", lastName: "Baker", email: "ada@example.com", password: "secret1" };

// ---------------------------------------------------------------------------------------------------------------

describe("POST /api/auth/Register", () => {
  const noUserWritten = (w: World) => expect(userCount(w)).toBe(0);
  const invalid = (name: string, json: Record<string, unknown>, field: string, message: string): Row => ({
    name,
    json,
    status: 400,
    expectBody: { code: "validation_failed", error: message },
    expect: (b) => expect(b.fields[field]).toBe(message),
    after: noUserWritten,
  });

  scenarios({ method: "POST", path: "/api/auth/Register" }, [
    {
      name: "creates an owner; the password is stored as an argon2id hash, not as itself",
      json: valid,
      status: 201,
      // The message only: the same body as for an email that already has an account (nothing to compare).
      expect: (b) => expect(b).toEqual({ message: REGISTERED }),
      after: async (w) => {
        const row = userRow(w, "ada@example.com");
        expect(row).toMatchObject({ email: "ada@example.com", firstName: "Ada", lastName: "Baker", role: "owner" });
        expect(row?.passwordHash.startsWith("$argon2id$")).toBe(true);
        expect(row?.passwordHash).not.toContain("secret1");
        expect(await Bun.password.verify("secret1", row!.passwordHash)).toBe(true);
      },
    },
    {
      name: "email is trimmed and stored lower-case; names trimmed",
      json: { ...valid, firstName: "  Ada ", email: "  Ada@Example.COM " },
      status: 201,
      after: (w) => expect([userRow(w, "ada@example.com")?.email, userRow(w, "ada@example.com")?.firstName]).toEqual(["ada@example.com", "Ada"]),
    },
    invalid("first name missing", { ...valid, firstName: undefined }, "firstName", "First name is required"),
    invalid("first name blank", { ...valid, firstName: "   " }, "firstName", "First name is required"),
    invalid("last name missing", { ...valid, lastName: undefined }, "lastName", "Last name is required"),
    invalid("email missing", { ...valid, email: undefined }, "email", "Email is required"),
    invalid("email empty", { ...valid, email: "" }, "email", "Email is required"),
    invalid("email malformed", { ...valid, email: "ada.example.com" }, "email", "Please enter a valid email address"),
    invalid("password missing", { ...valid, password: undefined }, "password", "Password is required"),
    invalid("password empty", { ...valid, password: "" }, "password", "Password is required"),
    invalid("password shorter than 6", { ...valid, password: "12345" }, "password", "Password must be at least 6 characters"),
    invalid("first name a number", { ...valid, firstName: 12 }, "firstName", "First name is required"),
    {
      name: "an empty object names every field with the spec's texts",
      json: {},
      status: 400,
      expectBody: { error: "First name is required" },
      fields: {
        firstName: "First name is required",
        lastName: "Last name is required",
        email: "Email is required",
        password: "Password is required",
      },
      after: noUserWritten,
    },
    {
      name: "an email that already has an account: the same 201 and message as a new one; nothing new stored",
      before: async (w) => {
        await makeUser(w, "ada@example.com");
        w.vars.hash = userRow(w, "ada@example.com")!.passwordHash;
      },
      json: { ...valid, firstName: "Mallory", password: "taken over" },
      status: 201,
      expect: (b) => expect(b).toEqual({ message: REGISTERED }),
      after: (w) => {
        expect(userCount(w)).toBe(1);
        // The account is untouched: the caller's name and password went nowhere.
        expect(userRow(w, "ada@example.com")).toMatchObject({ firstName: "Ada", passwordHash: w.vars.hash });
        // Without SMTP nobody is told, and nothing is logged (no address, no hint).
        expect(w.ctx.logger.lines).toEqual([]);
      },
    },
    {
      name: "the same in a different case: 201, one account",
      before: async (w) => void (await makeUser(w, "ada@example.com")),
      json: { ...valid, email: "ADA@Example.Com" },
      status: 201,
      expect: (b) => expect(b).toEqual({ message: REGISTERED }),
      after: (w) => expect(userCount(w)).toBe(1),
    },
    { name: "NEARCAST_ADMIN_EMAIL registers as admin (any case)", json: { ...valid, email: "Boss@Example.com" }, status: 201, after: (w) => expect(userRow(w, ADMIN_EMAIL)?.role).toBe("admin") },
    { name: "a role in the body is ignored", json: { ...valid, role: "admin" }, status: 201, after: (w) => expect(userRow(w, "ada@example.com")?.role).toBe("owner") },
  ]);

  test("a new and a taken email answer byte for byte the same: status, body and headers", async () => {
    const w = world();
    await makeUser(w, "ada@example.com");
    const taken = await w.api.post("/api/auth/Register", valid);
    const fresh = await w.api.post("/api/auth/Register", { ...valid, email: "bea@example.com" });
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual(fresh.body);
    expect([...taken.headers.entries()]).toEqual([...fresh.headers.entries()]);
    expect(userCount(w)).toBe(2);
  });

  test("two registrations of the same email at once: both 201, one account", async () => {
    const w = world();
    const [a, b] = await Promise.all([w.api.post("/api/auth/Register", valid), w.api.post("/api/auth/Register", valid)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    expect(userCount(w)).toBe(1);
  });
});

describe("registration limits (per address and per server, per hour)", () => {
  const register = (w: World, email: string, ip: string) => w.api.post("/api/auth/Register", { ...valid, email }, { ip });
  const HOUR = 60 * MIN;

  test("NEARCAST_REGISTER_LIMIT per address: the 6th in an hour is a 429 with Retry-After; nothing stored; other addresses and later are fine", async () => {
    const w = world({ NEARCAST_REGISTER_LIMIT: "5" });
    for (let i = 0; i < 4; i++) expect((await register(w, `new${i}@example.com`, "198.51.100.30")).status).toBe(201);
    // A taken email counts like a new one (it answers like one).
    await makeUser(w, "ada@example.com");
    expect((await register(w, "ada@example.com", "198.51.100.30")).status).toBe(201);
    w.ctx.clock.advance(10 * MIN);
    const refused = await register(w, "late@example.com", "198.51.100.30");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: "too_many_requests",
      error: "Too many registrations from your network. Please wait 50 minutes and try again.",
    });
    expect(refused.headers.get("retry-after")).toBe(String(50 * 60));
    expect(userRow(w, "late@example.com")).toBeUndefined();
    expect((await register(w, "other@example.com", "198.51.100.31")).status).toBe(201);
    w.ctx.clock.advance(50 * MIN);
    expect((await register(w, "late@example.com", "198.51.100.30")).status).toBe(201);
    expect(userRow(w, "late@example.com")).toBeDefined();
  });

  test("NEARCAST_REGISTER_GLOBAL_LIMIT for the whole server, whatever the address", async () => {
    const w = world({ NEARCAST_REGISTER_LIMIT: "0", NEARCAST_REGISTER_GLOBAL_LIMIT: "3" });
    for (let i = 0; i < 3; i++) expect((await register(w, `new${i}@example.com`, `192.0.2.${i + 1}`)).status).toBe(201);
    const refused = await register(w, "late@example.com", "192.0.2.99");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: "too_many_requests",
      error: "Too many registrations on this server right now. Please wait 60 minutes and try again.",
    });
    expect(refused.headers.get("retry-after")).toBe(String(HOUR / 1000));
    expect(userCount(w)).toBe(3);
    w.ctx.clock.advance(HOUR);
    expect((await register(w, "late@example.com", "192.0.2.99")).status).toBe(201);
  });

  test("0 means no limit; bad input is answered first and not counted", async () => {
    const w = world({ NEARCAST_REGISTER_LIMIT: "2", NEARCAST_REGISTER_GLOBAL_LIMIT: "0" });
    for (let i = 0; i < 5; i++) expect((await w.api.post("/api/auth/Register", { ...valid, email: "nope" })).status).toBe(400);
    expect((await register(w, "a@example.com", "192.0.2.1")).status).toBe(201);
    expect((await register(w, "b@example.com", "192.0.2.1")).status).toBe(201);
    expect((await register(w, "c@example.com", "192.0.2.1")).status).toBe(429);
    const open = world({ NEARCAST_REGISTER_LIMIT: "0", NEARCAST_REGISTER_GLOBAL_LIMIT: "0" });
    for (let i = 0; i < 8; i++) expect((await register(open, `n${i}@example.com`, "192.0.2.1")).status).toBe(201);
  });
});

describe("POST /api/auth/Login", () => {
  const withAda = async (w: World) => void (w.vars.user = await makeUser(w, "ada@example.com"));
  scenarios({ method: "POST", path: "/api/auth/Login" }, [
    {
      name: "ok: a token and the user; the session is stored hashed with a 30-day expiry",
      before: withAda,
      json: { email: "ada@example.com", password: PASSWORD },
      status: 200,
      expect: (b) => {
        expect(b.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(b.user).toMatchObject({ email: "ada@example.com", role: "owner" });
        expect(b.user).not.toHaveProperty("passwordHash");
      },
      after: (w, res) => {
        const rows = sessionRows(w, w.vars.user.id);
        expect(rows).toHaveLength(1);
        expect(rows[0]!.tokenHash).toBe(hashToken(res.body.token));
        expect(rows[0]!.tokenHash).not.toContain(res.body.token);
        expect(rows[0]!.expiresAt.getTime()).toBe(w.ctx.clock.now().getTime() + 30 * DAY);
      },
    },
    { name: "email in another case and with spaces logs in", before: withAda, json: { email: " ADA@example.com ", password: PASSWORD }, status: 200 },
    {
      name: "wrong password: 401 with the spec's text, no session",
      before: withAda,
      json: { email: "ada@example.com", password: "wrong horse" },
      status: 401,
      expectBody: { code: "unauthorized", error: INVALID_LOGIN },
      after: (w) => expect(sessionRows(w, w.vars.user.id)).toHaveLength(0),
    },
    { name: "unknown email: the same 401 text", before: withAda, json: { email: "nobody@example.com", password: PASSWORD }, status: 401, expectBody: { code: "unauthorized", error: INVALID_LOGIN } },
    {
      name: "an over-long password is just a wrong password (401, not a message of its own)",
      before: withAda,
      json: { email: "ada@example.com", password: "x".repeat(5000) },
      status: 401,
      expectBody: { error: INVALID_LOGIN },
    },
    { name: "email missing", json: { password: PASSWORD }, status: 400, expectBody: { error: "Email is required" }, fields: { email: "Email is required" } },
    {
      name: "email malformed",
      json: { email: "ada@", password: PASSWORD },
      status: 400,
      expectBody: { error: "Please enter a valid email address" },
      fields: { email: "Please enter a valid email address" },
    },
    { name: "password missing", json: { email: "ada@example.com" }, status: 400, expectBody: { error: "Password is required" }, fields: { password: "Password is required" } },
    { name: "both empty", json: { email: "", password: "" }, status: 400, fields: { email: "Email is required", password: "Password is required" } },
  ]);

  test("wrong password and unknown email answer byte for byte the same", async () => {
    const w = world();
    await makeUser(w, "ada@example.com");
    const a = await login(w, "ada@example.com", "nope-nope");
    const b = await login(w, "ghost@example.com", "nope-nope");
    expect(a.status).toBe(401);
    expect(b).toEqual({ ...a, headers: b.headers });
  });
});

describe("GET /api/auth/GetCurrentUser", () => {
  const withSession = async (w: World) => {
    w.vars.user = await makeUser(w, "ada@example.com");
    w.vars.token = sessionFor(w, w.vars.user.id);
  };
  scenarios({ method: "GET", path: "/api/auth/GetCurrentUser" }, [
    {
      name: "a live token: the user, without secrets",
      before: withSession,
      token: (w) => w.vars.token,
      status: 200,
      expect: (b, w) => {
        expect(b).toEqual({
          id: w.vars.user.id,
          email: "ada@example.com",
          firstName: "Ada",
          lastName: "Baker",
          role: "owner",
          createdAt: w.ctx.clock.now().toISOString(),
          phone: null,
          phoneVerified: false,
          status: "approved",
        });
      },
    },
    { name: "no token: 401", status: 401, expectBody: { code: "unauthorized", error: "Please log in to continue." } },
    { name: "a garbage token: 401", before: withSession, token: "not-a-token", status: 401, expectBody: { code: "unauthorized", error: SESSION_EXPIRED } },
    { name: "a very long token: 401, not a crash", token: "a".repeat(5000), status: 401 },
    { name: "the stored hash used as a token does not work", before: withSession, token: (w) => hashToken(w.vars.token), status: 401 },
    {
      name: "just before 30 days: still valid",
      before: async (w) => {
        await withSession(w);
        w.ctx.clock.advance(30 * DAY - 1000);
      },
      token: (w) => w.vars.token,
      status: 200,
    },
    {
      name: "expired after 30 days: 401",
      before: async (w) => {
        await withSession(w);
        w.ctx.clock.advance(30 * DAY + 1);
      },
      token: (w) => w.vars.token,
      status: 401,
      expectBody: { error: SESSION_EXPIRED },
    },
    { name: "a malformed Authorization header counts as no token", headers: { authorization: "Basic abc:def" }, status: 401, expectBody: { error: "Please log in to continue." } },
  ]);

  test("a session from a real login expires 30 days later", async () => {
    const w = world();
    await makeUser(w, "ada@example.com");
    const { token } = (await login(w, "ada@example.com", PASSWORD)).body;
    expect((await me(w, token)).status).toBe(200);
    w.ctx.clock.advance(30 * DAY);
    expect((await me(w, token)).status).toBe(401);
  });
});

describe("housekeeping", () => {
  test("a login forgets expired and revoked sessions (anyone's), and keeps live ones", async () => {
    const w = world();
    const ada = await makeUser(w, "ada@example.com");
    const other = await makeUser(w, "bob@example.com");
    const expired = sessionFor(w, other.id, new Date(w.ctx.clock.now().getTime() + 1000));
    const revoked = sessionFor(w, other.id);
    const live = sessionFor(w, other.id);
    w.ctx.repos.sessions.revoke(hashToken(revoked), w.ctx.clock.now());
    w.ctx.clock.advance(2000);
    expect(sessionRows(w, other.id)).toHaveLength(3);
    expect((await login(w, ada.email, PASSWORD)).status).toBe(200);
    expect(sessionRows(w, other.id).map((r) => r.tokenHash)).toEqual([hashToken(live)]);
    expect(sessionRows(w, ada.id)).toHaveLength(1);
    expect((await me(w, live)).status).toBe(200);
    expect((await me(w, expired)).status).toBe(401);
  });

  test("a reset request forgets used and expired reset links", async () => {
    const w = world(DEV);
    const ada = await makeUser(w, "ada@example.com");
    const bob = await makeUser(w, "bob@example.com");
    await devResetToken(w, bob.email); // Bob's link will expire...
    const used = await devResetToken(w, ada.email);
    expect((await reset(w, used, "brand new")).status).toBe(200);
    w.ctx.clock.advance(RESET_TTL_MS);
    expect(w.ctx.db.select({ n: count() }).from(passwordResets).get()?.n).toBe(2);
    const fresh = await devResetToken(w, ada.email); // ...and goes with Ada's used one
    expect(w.ctx.db.select().from(passwordResets).all().map((r) => r.tokenHash)).toEqual([hashToken(fresh)]);
  });
});

describe("POST /api/auth/Logout", () => {
  scenarios({ method: "POST", path: "/api/auth/Logout" }, [
    {
      name: "revokes this token on the server; other sessions of the user live on",
      before: async (w) => {
        w.vars.user = await makeUser(w, "ada@example.com");
        w.vars.token = sessionFor(w, w.vars.user.id);
        w.vars.other = sessionFor(w, w.vars.user.id);
      },
      token: (w) => w.vars.token,
      status: 200,
      expect: (b) => expect(b.message).toBe("You have been logged out."),
      after: async (w) => {
        const rows = sessionRows(w, w.vars.user.id);
        const mine = rows.find((r) => r.tokenHash === hashToken(w.vars.token));
        expect(mine?.revokedAt?.getTime()).toBe(w.ctx.clock.now().getTime());
        expect((await me(w, w.vars.token)).status).toBe(401);
        expect((await me(w, w.vars.other)).status).toBe(200);
      },
    },
    { name: "without a token: 200, nothing to do", status: 200 },
    {
      name: "an unknown token: 200, nothing revoked",
      before: async (w) => {
        w.vars.user = await makeUser(w, "ada@example.com");
        w.vars.token = sessionFor(w, w.vars.user.id);
      },
      token: "someone-elses-guess",
      status: 200,
      after: async (w) => expect((await me(w, w.vars.token)).status).toBe(200),
    },
  ]);

  test("a real login, logout, then the token is dead and logout again is harmless", async () => {
    const w = world();
    await makeUser(w, "ada@example.com");
    const { token } = (await login(w, "ada@example.com", PASSWORD)).body;
    expect((await me(w, token)).status).toBe(200);
    expect((await w.api.post("/api/auth/Logout", undefined, { token })).status).toBe(200);
    const after = await me(w, token);
    expect(after.status).toBe(401);
    expect(after.body.error).toBe(SESSION_EXPIRED);
    expect((await w.api.post("/api/auth/Logout", undefined, { token })).status).toBe(200);
  });
});

describe("POST /api/auth/ForgotPassword", () => {
  const FORGOT = "If an account exists for that email, password reset instructions have been sent.";
  const NO_EMAIL = "Email is not set up on this server, so no reset link can be sent. Ask the person who runs it to reset your password.";
  const withAda = async (w: World) => void (w.vars.user = await makeUser(w, "ada@example.com"));
  scenarios({ method: "POST", path: "/api/auth/ForgotPassword" }, [
    {
      name: "production without SMTP, known email: says email is not set up; no token stored, nothing logged",
      before: withAda,
      json: { email: "ada@example.com" },
      status: 400,
      expectBody: { code: "email_not_configured", error: NO_EMAIL },
      after: (w) => {
        expect(w.ctx.logger.lines).toEqual([]);
        expect(w.ctx.db.select({ n: count() }).from(passwordResets).get()?.n).toBe(0);
      },
    },
    {
      name: "production without SMTP, unknown email: the same answer",
      before: withAda,
      json: { email: "ghost@example.com" },
      status: 400,
      expectBody: { code: "email_not_configured", error: NO_EMAIL },
      after: (w) => expect(w.ctx.db.select({ n: count() }).from(passwordResets).get()?.n).toBe(0),
    },
    {
      name: "development, known email: the token is in the answer",
      env: DEV,
      before: withAda,
      json: { email: "ADA@example.com" },
      status: 200,
      expect: (b) => {
        expect(b.message).toBe(FORGOT);
        expect(b.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      },
      after: (w, res) => expect(resetRows(w, w.vars.user.id)[0]?.tokenHash).toBe(hashToken(res.body.token)),
    },
    { name: "development, unknown email: the message only", env: DEV, json: { email: "ghost@example.com" }, status: 200, expect: (b) => expect(b).toEqual({ message: FORGOT }) },
    { name: "email missing", json: {}, status: 400, expectBody: { error: "Email is required" }, fields: { email: "Email is required" } },
    { name: "email malformed", json: { email: "ada" }, status: 400, expectBody: { error: "Please enter a valid email address" }, fields: { email: "Please enter a valid email address" } },
  ]);

  test("known and unknown emails answer byte for byte the same", async () => {
    // SMTP set (to a port nothing listens on: the email itself is email.test.ts's business), and the public URL
    // reset links need (issue 21; without one both answers are the same refusal: public-links.test.ts).
    const w = world({ NEARCAST_SMTP_URL: "smtp://127.0.0.1:1", NEARCAST_PUBLIC_URL: "https://deals.example.com" });
    await makeUser(w, "ada@example.com");
    const a = await forgot(w, "ada@example.com");
    const b = await forgot(w, "ghost@example.com");
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(b.status).toBe(a.status);
    await w.ctx.services.auth.idle();
  });
});

describe("POST /api/auth/ResetPassword", () => {
  /** Ada, a live session of hers, and a fresh reset token (development mode hands it back). */
  const withToken = async (w: World) => {
    w.vars.user = await makeUser(w, "ada@example.com");
    w.vars.session = sessionFor(w, w.vars.user.id);
    w.vars.token = await devResetToken(w, "ada@example.com");
  };
  scenarios({ method: "POST", path: "/api/auth/ResetPassword" }, [
    {
      name: "works: new password set, the token used up, every session revoked",
      env: DEV,
      before: withToken,
      json: (w) => ({ token: w.vars.token, newPassword: "brand new" }),
      status: 200,
      expect: (b) => expect(b).toEqual({ message: "Your password has been reset. Please log in with your new password." }),
      after: async (w) => {
        const row = userRow(w, "ada@example.com")!;
        expect(row.passwordHash.startsWith("$argon2id$")).toBe(true);
        expect(await Bun.password.verify("brand new", row.passwordHash)).toBe(true);
        expect(resetRows(w, row.id).every((r) => r.usedAt !== null)).toBe(true);
        expect(sessionRows(w, row.id).every((r) => r.revokedAt !== null)).toBe(true);
        expect((await me(w, w.vars.session)).status).toBe(401);
      },
    },
    {
      name: "the second use of a token: 400 with the spec's text",
      env: DEV,
      before: async (w) => {
        await withToken(w);
        expect((await reset(w, w.vars.token, "brand new")).status).toBe(200);
      },
      json: (w) => ({ token: w.vars.token, newPassword: "another one" }),
      status: 400,
      expectBody: { error: BAD_RESET },
      fields: { token: BAD_RESET },
      after: async (w) => {
        expect(await Bun.password.verify("brand new", userRow(w, "ada@example.com")!.passwordHash)).toBe(true);
      },
    },
    {
      name: "29 minutes later: still works",
      env: DEV,
      before: async (w) => {
        await withToken(w);
        w.ctx.clock.advance(29 * MIN);
      },
      json: (w) => ({ token: w.vars.token, newPassword: "brand new" }),
      status: 200,
    },
    {
      name: "30 minutes later: expired",
      env: DEV,
      before: async (w) => {
        await withToken(w);
        w.ctx.clock.advance(RESET_TTL_MS);
      },
      json: (w) => ({ token: w.vars.token, newPassword: "brand new" }),
      status: 400,
      expectBody: { error: BAD_RESET },
      after: async (w) => {
        expect(await Bun.password.verify(PASSWORD, userRow(w, "ada@example.com")!.passwordHash)).toBe(true);
        expect((await me(w, w.vars.session)).status).toBe(200);
      },
    },
    {
      name: "an earlier token is invalidated by a newer request",
      env: DEV,
      before: async (w) => {
        await withToken(w);
        w.vars.newer = await devResetToken(w, "ada@example.com");
      },
      json: (w) => ({ token: w.vars.token, newPassword: "brand new" }),
      status: 400,
      expectBody: { error: BAD_RESET },
      after: async (w) => expect((await reset(w, w.vars.newer, "brand new")).status).toBe(200),
    },
    { name: "a made-up token: 400", json: { token: randomToken(), newPassword: "brand new" }, status: 400, expectBody: { code: "validation_failed", error: BAD_RESET } },
    { name: "token missing: the spec's missing-token text", json: { newPassword: "brand new" }, status: 400, expectBody: { error: MISSING_RESET }, fields: { token: MISSING_RESET } },
    {
      name: "new password too short: 400 and the token stays usable (nothing half-written)",
      env: DEV,
      before: withToken,
      json: (w) => ({ token: w.vars.token, newPassword: "12345" }),
      status: 400,
      expectBody: { error: "Password must be at least 6 characters" },
      fields: { newPassword: "Password must be at least 6 characters" },
      after: async (w) => {
        expect(resetRows(w, w.vars.user.id).every((r) => r.usedAt === null)).toBe(true);
        expect((await me(w, w.vars.session)).status).toBe(200);
        expect((await reset(w, w.vars.token, "long enough")).status).toBe(200);
      },
    },
    { name: "new password missing", json: { token: "abc" }, status: 400, expectBody: { error: "Password is required" }, fields: { newPassword: "Password is required" } },
  ]);

  test("the same link submitted twice at once resets once", async () => {
    const w = world(DEV);
    await makeUser(w, "ada@example.com");
    const token = await devResetToken(w, "ada@example.com");
    const [a, b] = await Promise.all([reset(w, token, "first choice"), reset(w, token, "second choice")]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const loser = a.status === 400 ? a : b;
    expect(loser.body).toEqual({ error: BAD_RESET, code: "validation_failed", fields: { token: BAD_RESET } });
    const winner = a.status === 200 ? "first choice" : "second choice";
    expect(await Bun.password.verify(winner, userRow(w, "ada@example.com")!.passwordHash)).toBe(true);
  });

  test("after a reset the new password logs in and the old one does not", async () => {
    const w = world(DEV);
    await makeUser(w, "ada@example.com");
    const token = await devResetToken(w, "ada@example.com");
    expect((await reset(w, token, "brand new")).status).toBe(200);
    const old = await login(w, "ada@example.com", PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe(INVALID_LOGIN);
    const fresh = await login(w, "ada@example.com", "brand new");
    expect(fresh.status).toBe(200);
    expect((await me(w, fresh.body.token)).status).toBe(200);
  });
});

describe("login throttling: growing delays, never a lockout (issue 10, item 3)", () => {
  const expect429 = (res: ApiResponse, seconds?: number) => {
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("too_many_requests");
    expect(res.body.error).toMatch(/^Too many attempts\. Please wait \d+ (seconds?|minutes?) and try again\.$/);
    const retry = Number(res.headers.get("retry-after"));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThan(0);
    if (seconds !== undefined) expect(retry).toBe(seconds);
    return retry;
  };
  /** Waits out a Retry-After on the fake clock. */
  const wait = (w: World, seconds: number) => w.ctx.clock.advance(seconds * 1000);

  /**
   * `n` wrong passwords for `email` from `ip`, each as soon as it is heard: a 429 in between is waited out. Returns the
   * Retry-After of each 429, so the growth is visible.
   */
  async function failures(w: World, email: string, ip: string, n: number): Promise<number[]> {
    const waits: number[] = [];
    for (let heard = 0; heard < n; ) {
      const res = await login(w, email, "wrong password", ip);
      if (res.status === 429) {
        const retry = expect429(res);
        waits.push(retry);
        wait(w, retry);
        continue;
      }
      expect(res.status).toBe(401);
      heard++;
    }
    return waits;
  }

  test("(a) 10 wrong passwords from address A: A waits 1, 2, 4, 8, 16 s; the right password from B works at once", async () => {
    const w = world();
    const ada = await makeUser(w, "ada@example.com");
    // Five free failures, then each one doubles the wait: the growth shows in Retry-After.
    expect(await failures(w, ada.email, "198.51.100.1", 10)).toEqual([1, 2, 4, 8]);
    // After the 10th: A must wait 16 s, even with the right password (it is not even checked)...
    const held = await login(w, ada.email, PASSWORD, "198.51.100.1");
    expect429(held, 16);
    expect(held.body.error).toBe("Too many attempts. Please wait 16 seconds and try again.");
    // ...while the real owner, on another address, gets in at once.
    expect((await login(w, ada.email, PASSWORD, "203.0.113.50")).status).toBe(200);
    // A, once its wait is over, gets in too; its success forgives the pair, so a later typo is a plain 401 again.
    wait(w, 16);
    expect((await login(w, ada.email, PASSWORD, "198.51.100.1")).status).toBe(200);
    expect((await login(w, ada.email, "typo", "198.51.100.1")).status).toBe(401);
    expect((await login(w, ada.email, PASSWORD, "198.51.100.1")).status).toBe(200);
  });

  test("the delays grow to a cap of 15 minutes, and an hour without failures forgets them; never a lockout", async () => {
    const w = world();
    const ada = await makeUser(w, "ada@example.com");
    const waits = await failures(w, ada.email, "198.51.100.2", 17);
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900]);
    expect429(await login(w, ada.email, PASSWORD, "198.51.100.2"), 900);
    expect(await failures(w, ada.email, "198.51.100.2", 1)).toEqual([900]);
    // Capped: still 15 minutes after a further failure, not more.
    expect429(await login(w, ada.email, PASSWORD, "198.51.100.2"), 900);
    w.ctx.clock.advance(60 * MIN);
    expect(await failures(w, ada.email, "198.51.100.2", 5)).toEqual([]);
    expect((await login(w, ada.email, PASSWORD, "198.51.100.2")).status).toBe(200);
  });

  test("(b) credential stuffing from one address (a shop's NAT): that address is slowed; colleagues who logged in there before are not; a newcomer waits seconds", async () => {
    const w = world();
    const NAT = "198.51.100.77";
    const regular = await makeUser(w, "regular@example.com");
    const newcomer = await makeUser(w, "newcomer@example.com");
    // The regular logged in from the shop last week.
    expect((await login(w, regular.email, PASSWORD, NAT)).status).toBe(200);
    w.ctx.clock.advance(7 * DAY);
    // The attacker behind the same NAT tries 25 different accounts: 20 free, then 1, 2, 4, 5 s between tries (the
    // address's delay stops at 5 s since issue 21: a newcomer there waits seconds, never minutes).
    const waits: number[] = [];
    for (let i = 0; i < 25; ) {
      const res = await login(w, `victim${i}@example.com`, "Summer2026!", NAT);
      if (res.status === 429) {
        waits.push(expect429(res));
        wait(w, waits.at(-1)!);
        continue;
      }
      expect(res.status).toBe(401);
      i++;
    }
    expect(waits).toEqual([1, 2, 4, 5]);
    // The attacker's next try must wait 5 s.
    expect429(await login(w, "victim99@example.com", "Summer2026!", NAT), 5);
    // The regular is not held up by other people's failures...
    expect((await login(w, regular.email, PASSWORD, NAT)).status).toBe(200);
    // ...a first-time login from the shop waits like the attacker (the address is all there is to go on), for
    // seconds, not a lockout; anywhere else it is not held at all.
    expect429(await login(w, newcomer.email, PASSWORD, NAT), 5);
    expect((await login(w, newcomer.email, PASSWORD, "203.0.113.9")).status).toBe(200);
    wait(w, 5);
    expect((await login(w, newcomer.email, PASSWORD, NAT)).status).toBe(200);
  });

  test("a shop's NAT with typos gets in: the address counts different accounts, not one person's repeated mistakes", async () => {
    const w = world();
    const NAT = "198.51.100.78";
    const staff = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => makeUser(w, `staff${i}@example.com`)));
    // Everyone mistypes twice; one of them five times more (their own pair throttle is theirs alone).
    for (const person of staff) expect(await failures(w, person.email, NAT, 2)).toEqual([]);
    expect(await failures(w, staff[0]!.email, NAT, 5)).toEqual([1]);
    for (const person of staff.slice(1)) expect((await login(w, person.email, PASSWORD, NAT)).status).toBe(200);
  });

  test("a global ceiling per account: 100 failures from many addresses slow new addresses by seconds; the owner's own address is not held", async () => {
    const w = world(DEV);
    const ada = await makeUser(w, "ada@example.com");
    expect((await login(w, ada.email, PASSWORD, "203.0.113.10")).status).toBe(200); // the owner's home
    // A botnet: 20 addresses, 5 free failures each, then one more: 101 failures against Ada.
    for (let i = 0; i < 20; i++) {
      const rounds = await Promise.all([1, 2, 3, 4, 5].map(() => login(w, ada.email, "guess", `192.0.2.${i + 1}`)));
      expect(rounds.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
    }
    expect((await login(w, ada.email, PASSWORD, "203.0.113.10")).status).toBe(200);
    expect((await login(w, ada.email, "guess", "192.0.2.100")).status).toBe(401);
    // Now any new address waits (unknown or not, the same answer), the owner's home does not.
    expect429(await login(w, ada.email, PASSWORD, "192.0.2.101"), 1);
    expect((await login(w, ada.email, PASSWORD, "203.0.113.10")).status).toBe(200);
    wait(w, 1);
    expect((await login(w, ada.email, "guess", "192.0.2.102")).status).toBe(401);
    expect429(await login(w, ada.email, PASSWORD, "192.0.2.103"), 2);
    // A password reset forgives the account's count: the owner on a new address gets in at once.
    const token = await devResetToken(w, ada.email);
    expect((await reset(w, token, "brand new")).status).toBe(200);
    expect((await login(w, ada.email, "brand new", "192.0.2.104")).status).toBe(200);
  });

  test("unknown accounts are throttled exactly like known ones (no hint which emails exist)", async () => {
    const w = world();
    await makeUser(w, "ada@example.com");
    const known = await failures(w, "ada@example.com", "198.51.100.3", 8);
    const a = await login(w, "ada@example.com", "x", "198.51.100.3");
    const unknown = await failures(w, "ghost@example.com", "198.51.100.3", 8);
    const b = await login(w, "ghost@example.com", "x", "198.51.100.3");
    expect(unknown).toEqual(known);
    expect(a.status).toBe(429);
    expect(b.body).toEqual(a.body);
    expect(b.headers.get("retry-after")).toBe(a.headers.get("retry-after"));
  });

  test("successful logins are not counted, and forgive the pair's failures", async () => {
    const w = world();
    const ada = await makeUser(w, "ada@example.com");
    for (let round = 0; round < 3; round++) {
      expect(await failures(w, ada.email, "198.51.100.4", 5)).toEqual([]);
      expect((await login(w, ada.email, PASSWORD, "198.51.100.4")).status).toBe(200);
    }
  });

  test("validation errors are answered before and without the throttle", async () => {
    const w = world();
    for (let i = 0; i < 25; i++) expect((await w.api.post("/api/auth/Login", { email: "x" })).status).toBe(400);
    const ada = await makeUser(w, "ada@example.com");
    expect((await login(w, ada.email, PASSWORD)).status).toBe(200);
  });

  /** 21 failures on different accounts: past the address's free 20, so its next try waits. */
  async function stuff(w: World, opts: (i: number) => { ip?: string; headers?: Record<string, string> }) {
    for (let i = 0; i < 21; i++) {
      const res = await w.api.post("/api/auth/Login", { email: `ghost${i}@example.com`, password: "x" }, opts(i));
      expect(res.status).toBe(401);
    }
  }

  test("behind a trusted proxy the throttle follows the proxy's X-Forwarded-For entry, not one the client made up", async () => {
    const w = world({ NEARCAST_TRUST_PROXY: "true" });
    await stuff(w, (i) => ({ headers: { "x-forwarded-for": `10.9.9.${i}, 203.0.113.77` }, ip: "127.0.0.1" }));
    const res = await w.api.post(
      "/api/auth/Login",
      { email: "fresh@example.com", password: "x" },
      { headers: { "x-forwarded-for": "10.1.1.1, 203.0.113.77" }, ip: "127.0.0.1" },
    );
    expect429(res, 1);
    const other = await w.api.post(
      "/api/auth/Login",
      { email: "fresh@example.com", password: "x" },
      { headers: { "x-forwarded-for": "203.0.113.78" }, ip: "127.0.0.1" },
    );
    expect(other.status).toBe(401);
  });

  test("IPv6: a client cannot dodge the per-address throttle by hopping addresses inside its /64", async () => {
    const w = world();
    await stuff(w, (i) => ({ ip: `2001:db8:77:1::${(i + 1).toString(16)}` }));
    expect429(await login(w, "fresh@example.com", "wrong", "2001:db8:77:1:dead:beef:0:1"), 1);
    expect((await login(w, "fresh@example.com", "wrong", "2001:db8:77:2::1")).status).toBe(401);
  });

  test("without a trusted proxy X-Forwarded-For is ignored", async () => {
    const w = world();
    await stuff(w, (i) => ({ headers: { "x-forwarded-for": `10.0.0.${i}` } }));
    expect429(await w.api.post("/api/auth/Login", { email: "z@example.com", password: "x" }, { headers: { "x-forwarded-for": "10.0.0.99" } }), 1);
  });
});

describe("reset limits", () => {
  const expect429 = (res: ApiResponse) => {
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("too_many_requests");
    expect(res.body.error).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  };

  test("(c) 5 reset requests for the victim from the attacker's address: the attacker is refused, the victim's own request still makes a token", async () => {
    const w = world(DEV);
    const victim = await makeUser(w, "ada@example.com");
    for (let i = 0; i < 5; i++) expect((await forgot(w, victim.email, "198.51.100.66")).status).toBe(200);
    const before = w.ctx.db.select().from(passwordResets).all();
    expect429(await forgot(w, victim.email, "198.51.100.66"));
    // The refused request changed nothing: the fifth link is still the live one.
    expect(w.ctx.db.select().from(passwordResets).all()).toEqual(before);
    // The victim, from home: a fresh token, and it works.
    const own = await forgot(w, victim.email, "203.0.113.20");
    expect(own.status).toBe(200);
    expect(typeof own.body.token).toBe("string");
    expect((await reset(w, own.body.token, "brand new", "203.0.113.20")).status).toBe(200);
  });

  test("forgot password, per (email, address): 5 requests, then 429 (known and unknown alike); later fine", async () => {
    const w = world(DEV);
    await makeUser(w, "ada@example.com");
    for (const email of ["ada@example.com", "ghost@example.com"]) {
      for (let i = 0; i < 5; i++) expect((await forgot(w, email, "192.0.2.10")).status).toBe(200);
      expect429(await forgot(w, email, "192.0.2.10"));
      w.ctx.clock.advance(15 * MIN);
    }
    expect((await forgot(w, "ada@example.com", "192.0.2.10")).status).toBe(200);
  });

  test("forgot password, per address: 10 requests from one address, then 429", async () => {
    const w = world(DEV);
    for (let i = 0; i < 10; i++) expect((await forgot(w, `ghost${i}@example.com`, "198.51.100.9")).status).toBe(200);
    expect429(await forgot(w, "another@example.com", "198.51.100.9"));
    expect((await forgot(w, "another@example.com", "198.51.100.10")).status).toBe(200);
  });

  test("reset password, per address: 20 bad tokens, then 429 even for a good one; other addresses unaffected", async () => {
    const w = world(DEV);
    await makeUser(w, "ada@example.com");
    const token = await devResetToken(w, "ada@example.com");
    for (let i = 0; i < 20; i++) expect((await reset(w, randomToken(), "brand new", "198.51.100.20")).status).toBe(400);
    expect429(await reset(w, token, "brand new", "198.51.100.20"));
    expect((await reset(w, token, "brand new", "198.51.100.21")).status).toBe(200);
  });
});

describe("roles are enforced on the server", () => {
  const create = (w: World, token?: string) =>
    w.api.post("/api/businesstype/CreateBusinessType", { name: "Bakery", description: "", isActive: true }, { token });
  scenarios({ method: "POST", path: "/api/businesstype/CreateBusinessType" }, [
    {
      name: "an owner may not create a business type: 403",
      before: async (w) => void (w.vars.token = sessionFor(w, (await makeUser(w)).id)),
      json: { name: "Bakery" },
      token: (w) => w.vars.token,
      status: 403,
      expectBody: { code: "forbidden" },
      after: (w) => expect(w.ctx.repos.businessTypes.list().map((t) => t.name)).not.toContain("Bakery"),
    },
    { name: "anonymous: 401", json: { name: "Bakery" }, status: 401, expectBody: { code: "unauthorized" } },
    {
      name: "the admin (registered with NEARCAST_ADMIN_EMAIL) may",
      before: async (w) => void (w.vars.token = sessionFor(w, (await makeUser(w, ADMIN_EMAIL)).id)),
      json: { name: "Bakery" },
      token: (w) => w.vars.token,
      status: 201,
      after: (w) => expect(w.ctx.repos.businessTypes.list().map((t) => t.name)).toContain("Bakery"),
    },
  ]);

  test("a demoted admin loses admin rights at once (the role is read per request, not from the token)", async () => {
    const w = world();
    const admin = await makeUser(w, ADMIN_EMAIL);
    const token = sessionFor(w, admin.id);
    expect((await create(w, token)).status).toBe(201);
    w.ctx.repos.users.setRole(admin.id, "owner");
    expect((await create(w, token)).status).toBe(403);
  });
});
