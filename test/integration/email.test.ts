// Email over a real SMTP server on loopback (test/helpers/smtp.ts): forgot-password sends a reset link that works
// once; the link is built on the saved public URL (never the request's address: see public-links.test.ts); without
// SMTP the answer says so; POST /api/settings/TestEmail tells the
// admin whether email works, and why not, never with the SMTP password.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createServer, type Socket } from "node:net";
import { count } from "drizzle-orm";
import { passwordResets } from "../../src/db/schema.ts";
import { nextTurn } from "../../src/lib/next-turn.ts";
import { hashToken } from "../../src/lib/tokens.ts";
import { FORGOT_MESSAGE, FORGOT_NO_EMAIL, RESET_TTL_MS } from "../../src/services/auth.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { TEST_EMAIL_NOT_CONFIGURED } from "../../src/services/email.ts";
import { ADMIN_EMAIL, apiClient, PASSWORD, PUBLIC_URL, signUp } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { runScenarios, type ApiScenario, type ScenarioWorld } from "../helpers/scenario.ts";
import { closedPort, type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { until } from "../helpers/until.ts";

// argon2 is deliberately slow on a busy two-core box.
setDefaultTimeout(30_000);

const SMTP_USER = "mailer@shop.example";
// Characters that need percent-encoding in a URL, so both spellings of the password can be looked for.
const SMTP_PASSWORD = "S3cr3t/p@ss w0rd!";
const WRONG_PASSWORD = "Wr0ng/p@ss w0rd?";
const BAD_RESET = "Invalid or expired reset token. Please request a new password reset.";

let smtp: TestSmtpServer;
beforeAll(async () => {
  // STARTTLS: a password never crosses plain SMTP (issue 21); the worlds trust the server's test certificate.
  smtp = await startSmtpServer({ user: SMTP_USER, password: SMTP_PASSWORD, tls: "starttls" });
});
afterAll(() => smtp.close());

/** The SMTP URL of the test server with another password. */
const urlWithPassword = (password: string) => smtp.url.replace(encodeURIComponent(SMTP_PASSWORD), encodeURIComponent(password));

/** Every spelling of a password that must never show up in an answer or a log line. */
const spellings = (password: string) => [password, encodeURIComponent(password)];

function expectNoSecrets(text: string): void {
  for (const secret of [...spellings(SMTP_PASSWORD), ...spellings(WRONG_PASSWORD)]) expect(text).not.toContain(secret);
}

interface World extends ScenarioWorld {
  ctx: TestContext;
}

/** The public URL most worlds save: email links are made only on a saved one. */

/** A server with the environment `env`; `publicUrl` saved in its settings unless null. */
function world(env: Record<string, string> = {}, publicUrl: string | null = PUBLIC_URL): World {
  const ctx = testContext({ NEARCAST_ADMIN_EMAIL: ADMIN_EMAIL, ...env }, {}, { mailTls: { ca: smtp.ca! } });
  if (publicUrl) ctx.services.settings.update(OPERATOR, { publicUrl });
  return { ctx, api: apiClient(ctx) };
}

const withSmtp = (extra: Record<string, string> = {}, publicUrl: string | null = PUBLIC_URL) => world({ NEARCAST_SMTP_URL: smtp.url, ...extra }, publicUrl);

async function makeUser(w: World, email: string) {
  return w.ctx.services.auth.createUser({ firstName: "Ada", lastName: "Baker", email, password: PASSWORD });
}

const forgot = (w: World, email: string) => w.api.post("/api/auth/ForgotPassword", { email });
const resetRows = (w: World) => w.ctx.db.select({ n: count() }).from(passwordResets).get()?.n ?? 0;

/** The messages the test server received from this world, once its background sends are done. */
async function mailsTo(w: World, address: string): Promise<ReceivedMail[]> {
  await w.ctx.services.auth.idle();
  return smtp.received.filter((m) => m.rcptTo.includes(address));
}

/** The reset link in a message's plain text (and checks the HTML carries the same link). */
function linkIn(mail: ReceivedMail): string {
  const link = /(\S+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(link).toBeDefined();
  expect(mail.html).toContain(`href="${link}"`);
  return link!;
}

describe("forgot password with SMTP", () => {
  test("emails a reset link built on the saved public URL; it resets the password once", async () => {
    const w = withSmtp();
    const ada = await makeUser(w, "ada@example.com");
    const res = await forgot(w, "Ada@Example.com");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: FORGOT_MESSAGE });

    const [mail, ...more] = await mailsTo(w, "ada@example.com");
    expect(more).toEqual([]);
    expect(mail!.user).toBe(SMTP_USER);
    expect(mail!.subject).toBe("Reset your Nearcast password");
    expect(mail!.headers.from).toBe("Nearcast <hello@nearcast.app>");
    expect(mail!.headers.to).toBe("ada@example.com");
    expect(mail!.text).toContain("within 30 minutes");
    const link = linkIn(mail!);
    expect(link).toMatch(/^https:\/\/deals\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(link).searchParams.get("token")!;
    const [row] = w.ctx.db.select().from(passwordResets).all();
    expect(row).toMatchObject({ userId: ada.id, tokenHash: hashToken(token), usedAt: null });
    expect(row!.expiresAt.getTime()).toBe(w.ctx.clock.now().getTime() + RESET_TTL_MS);

    // The link itself is never logged, at any level; the token is not in the answer.
    expect(w.ctx.logger.lines.join("\n")).not.toContain(token);
    expect(w.ctx.logger.lines).toContain(`info password reset email sent for user ${ada.id}`);
    expect(JSON.stringify(res.body)).not.toContain(token);

    const first = await w.api.post("/api/auth/ResetPassword", { token, newPassword: "brand new" });
    expect(first.status).toBe(200);
    expect((await w.api.post("/api/auth/Login", { email: "ada@example.com", password: "brand new" })).status).toBe(200);
    const again = await w.api.post("/api/auth/ResetPassword", { token, newPassword: "other one" });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe(BAD_RESET);
    w.ctx.close();
  });

  test("the link uses the saved public URL; the brand and From address come from the settings", async () => {
    const w = withSmtp();
    await makeUser(w, "bea@example.com");
    w.ctx.services.settings.update(OPERATOR, { publicUrl: "https://shop.example.com/", brandName: "Bea's Bakery", mailFrom: "Bakery <news@shop.example.com>" });
    expect((await forgot(w, "bea@example.com")).status).toBe(200);
    const [mail] = await mailsTo(w, "bea@example.com");
    expect(linkIn(mail!)).toStartWith("https://shop.example.com/reset-password?token=");
    expect(mail!.subject).toBe("Reset your Bea's Bakery password");
    expect(mail!.headers.from).toBe("Bakery <news@shop.example.com>");
    expect(mail!.mailFrom).toBe("news@shop.example.com");
    expect(mail!.html).toContain("Bea&#39;s Bakery");
    w.ctx.close();
  });

  test("an unknown email gets the same answer, and no email and no token are made", async () => {
    const w = withSmtp();
    await makeUser(w, "cid@example.com");
    const before = smtp.received.length;
    const unknown = await forgot(w, "ghost@example.com");
    const known = await forgot(w, "cid@example.com");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    await w.ctx.services.auth.idle();
    expect(smtp.received.slice(before).map((m) => m.rcptTo)).toEqual([["cid@example.com"]]);
    expect(resetRows(w)).toBe(1);
    w.ctx.close();
  });

  test("the answer does not wait for the SMTP server (so its timing reveals no account)", async () => {
    // A server that accepts the connection and never greets: the send stays pending until it gives up.
    const sockets: Socket[] = [];
    const silent = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as { port: number }).port;
    const w = world({ NEARCAST_SMTP_URL: `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}` });
    await makeUser(w, "dee@example.com");
    const res = await forgot(w, "dee@example.com");
    expect(res.body).toEqual({ message: FORGOT_MESSAGE });
    await until(() => sockets.length === 1, 5000, "the SMTP connection");
    let settled = false;
    void w.ctx.services.auth.idle().then(() => (settled = true));
    // The server never greets, so the send cannot settle however long this waits: one turn of the event loop shows it.
    await nextTurn();
    expect(settled).toBe(false);
    // The server hangs up: the send fails, and the failure is logged without the password.
    for (const s of sockets) s.destroy();
    await w.ctx.services.auth.idle();
    const warn = w.ctx.logger.lines.find((l) => l.startsWith("warn password reset email"));
    expect(warn).toMatch(/^warn password reset email for user \d+ could not be sent: The email could not be sent: /);
    expectNoSecrets(w.ctx.logger.lines.join("\n"));
    silent.close();
    w.ctx.close();
  });

  test("a wrong SMTP password: the same answer; the log says why, without any password", async () => {
    const w = world({ NEARCAST_SMTP_URL: urlWithPassword(WRONG_PASSWORD) });
    const eve = await makeUser(w, "eve@example.com");
    expect((await forgot(w, "eve@example.com")).body).toEqual({ message: FORGOT_MESSAGE });
    expect(await mailsTo(w, "eve@example.com")).toEqual([]);
    expect(w.ctx.logger.lines).toContain(
      `warn password reset email for user ${eve.id} could not be sent: The email could not be sent: 127.0.0.1:${smtp.port} refused the user name or password (the server said: 535 Invalid username or password).`,
    );
    expectNoSecrets(w.ctx.logger.lines.join("\n"));
    w.ctx.close();
  });

  test("SMTP saved in the settings (no restart) is used from the next request on", async () => {
    const w = world();
    await makeUser(w, "fay@example.com");
    expect((await forgot(w, "fay@example.com")).body.code).toBe("email_not_configured");
    w.ctx.services.settings.update(OPERATOR, { smtpUrl: smtp.url });
    expect((await forgot(w, "fay@example.com")).status).toBe(200);
    expect(await mailsTo(w, "fay@example.com")).toHaveLength(1);
    w.ctx.close();
  });
});

describe("forgot password: the same steps for every email (issue 10, item 7)", () => {
  test("the answer comes before any account is looked at: nothing is stored yet for a known email, then the link and its email follow", async () => {
    const w = withSmtp();
    const ida = await makeUser(w, "ida@example.com");
    const before = smtp.received.length;
    const known = await forgot(w, "ida@example.com");
    const unknown = await forgot(w, "nobody@example.com");
    // Identical answers, and at the moment they were given neither request had stored or sent anything: the
    // lookup, the token row and the email all run after the answer, the same steps whatever the email.
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect([...unknown.headers.entries()]).toEqual([...known.headers.entries()]);
    expect(resetRows(w)).toBe(0);
    expect(smtp.received.length).toBe(before);
    await w.ctx.services.auth.idle();
    expect(resetRows(w)).toBe(1);
    const mails = smtp.received.slice(before);
    expect(mails.map((m) => m.rcptTo)).toEqual([["ida@example.com"]]);
    const token = new URL(linkIn(mails[0]!)).searchParams.get("token")!;
    expect(w.ctx.repos.passwordResets.findUsable(hashToken(token), w.ctx.clock.now())?.userId).toBe(ida.id);
    w.ctx.close();
  });
});

describe("register with an email that already has an account (issue 10, item 7)", () => {
  const newAccount = (email: string) => ({ firstName: "Mallory", lastName: "Doe", email, password: "not yours" });
  const register = (w: World, email: string) => w.api.post("/api/auth/Register", newAccount(email));

  test("the same answer as a new email; the owner gets an email with the login and reset links; nothing new is stored", async () => {
    const w = withSmtp({ NEARCAST_PUBLIC_URL: "https://deals.example.com" }, null);
    const owner = await makeUser(w, "jo@example.com");
    const hashBefore = w.ctx.repos.users.findByEmail("jo@example.com")!.passwordHash;
    const before = smtp.received.length;
    const taken = await register(w, "Jo@Example.com");
    const fresh = await register(w, "kim@example.com");
    expect(taken.status).toBe(201);
    expect(taken.status).toBe(fresh.status);
    expect(taken.body).toEqual(fresh.body);
    expect(taken.body).toEqual({ message: "Registration successful. Please log in." });
    expect([...taken.headers.entries()]).toEqual([...fresh.headers.entries()]);
    await w.ctx.services.auth.idle();
    // Only the owner of the taken address hears of it; the new account gets nothing.
    const mails = smtp.received.slice(before);
    expect(mails.map((m) => m.rcptTo)).toEqual([["jo@example.com"]]);
    const mail = mails[0]!;
    expect(mail.subject).toBe("Someone tried to register with your Nearcast address");
    expect(mail.text).toContain("Someone tried to register a new Nearcast account with your email address");
    for (const link of ["https://deals.example.com/login", "https://deals.example.com/forgot-password"]) {
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link}"`);
    }
    expect(mail.text).not.toContain("not yours");
    // The owner's account is as it was; one new account (kim), no second jo.
    const row = w.ctx.repos.users.findByEmail("jo@example.com")!;
    expect(row).toMatchObject({ id: owner.id, firstName: "Ada", passwordHash: hashBefore });
    expect(w.ctx.repos.users.list().map((u) => u.email).sort()).toEqual(["jo@example.com", "kim@example.com"]);
    expect(w.ctx.logger.lines).toEqual([`info registration-attempt email sent for user ${owner.id}`]);
    w.ctx.close();
  });

  test("a failing SMTP server only logs, the answer is the same", async () => {
    const w = world({ NEARCAST_SMTP_URL: urlWithPassword(WRONG_PASSWORD) });
    const owner = await makeUser(w, "lee@example.com");
    const res = await register(w, "lee@example.com");
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: "Registration successful. Please log in." });
    await w.ctx.services.auth.idle();
    expect(w.ctx.logger.lines).toHaveLength(1);
    expect(w.ctx.logger.lines[0]).toStartWith(`warn registration-attempt email for user ${owner.id} could not be sent: `);
    expectNoSecrets(w.ctx.logger.lines.join("\n"));
    w.ctx.close();
  });
});

describe("forgot password without SMTP", () => {
  test("says plainly that email is not set up, for known and unknown emails alike, and makes no token", async () => {
    const w = world();
    await makeUser(w, "gus@example.com");
    const known = await forgot(w, "gus@example.com");
    const unknown = await forgot(w, "ghost@example.com");
    expect(known.status).toBe(400);
    expect(known.body).toEqual({ error: FORGOT_NO_EMAIL, code: "email_not_configured" });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(FORGOT_NO_EMAIL).toBe(
      "Email is not set up on this server, so no reset link can be sent. Ask the person who runs it to reset your password.",
    );
    expect(resetRows(w)).toBe(0);
    expect(w.ctx.logger.lines).toEqual([]);
    w.ctx.close();
  });

  test("a malformed email is still a validation error first", async () => {
    const w = world();
    const res = await forgot(w, "nope");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "validation_failed", fields: { email: "Please enter a valid email address" } });
    w.ctx.close();
  });

  test("development keeps handing the token back (and logs no link)", async () => {
    const w = world({ NEARCAST_ENV: "development" });
    await makeUser(w, "hal@example.com");
    const res = await forgot(w, "hal@example.com");
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(w.ctx.logger.lines.join("\n")).not.toContain(res.body.token);
    expect((await w.api.post("/api/auth/ResetPassword", { token: res.body.token, newPassword: "brand new" })).status).toBe(200);
    w.ctx.close();
  });
});

// ---------------------------------------------------------------------------------------------------------------

describe("POST /api/settings/TestEmail", () => {
  interface RoleWorld extends World {
    tokens: Record<string, string | undefined>;
  }
  async function roleWorld(env: Record<string, string>): Promise<RoleWorld> {
    const w = world(env);
    const admin = await signUp(w.api, { email: ADMIN_EMAIL });
    const owner = await signUp(w.api, { email: "owner@example.com" });
    return { ...w, tokens: { admin: admin.token, owner: owner.token, anon: undefined } };
  }
  const sent = async (w: World, to: string) => (await mailsTo(w, to)).filter((m) => m.subject === "Nearcast: test email");

  type Row = Omit<ApiScenario<RoleWorld>, "method" | "path"> & { smtp?: "ok" | "none" | "wrong password" | "closed" };
  const rows: Row[] = [
    {
      name: "sends to the admin's own address by default",
      as: "admin",
      json: {},
      status: 200,
      expectBody: { message: `Test email sent to ${ADMIN_EMAIL}.` },
      after: async (w) => {
        const [mail, ...more] = await sent(w, ADMIN_EMAIL);
        expect(more).toEqual([]);
        expect(mail!.text).toContain(`This is a test email from Nearcast (${PUBLIC_URL}).`);
        expect(mail!.html).toContain("This is a test email from Nearcast");
      },
    },
    {
      name: "sends to the address given",
      as: "admin",
      json: { to: " Other@Example.com " },
      status: 200,
      expectBody: { message: "Test email sent to other@example.com." },
      after: async (w) => expect(await sent(w, "other@example.com")).toHaveLength(1),
    },
    {
      name: "a malformed address is refused, naming the field",
      as: "admin",
      json: { to: "not-an-email" },
      status: 400,
      expectBody: { code: "validation_failed", error: "Please enter a valid email address" },
      fields: { to: "Please enter a valid email address" },
    },
    { name: "an owner may not", as: "owner", json: {}, status: 403, expectBody: { code: "forbidden" } },
    { name: "anonymous may not", as: "anon", json: {}, status: 401, expectBody: { code: "unauthorized" } },
    {
      name: "without SMTP: email_not_configured",
      smtp: "none",
      as: "admin",
      json: {},
      status: 400,
      expectBody: { code: "email_not_configured", error: TEST_EMAIL_NOT_CONFIGURED },
    },
    {
      name: "a wrong SMTP password: email_failed says why, without the password",
      smtp: "wrong password",
      as: "admin",
      json: {},
      status: 400,
      expect: (b, _w, res) => {
        expect(b).toEqual({
          code: "email_failed",
          error: `The email could not be sent: 127.0.0.1:${smtp.port} refused the user name or password (the server said: 535 Invalid username or password).`,
        });
        expectNoSecrets(JSON.stringify(res.body));
      },
      after: (w) => expectNoSecrets(w.ctx.logger.lines.join("\n")),
    },
    {
      name: "an SMTP server that cannot be reached: email_failed says so",
      smtp: "closed",
      as: "admin",
      json: {},
      status: 400,
      expect: (b) => {
        expect(b.code).toBe("email_failed");
        expect(b.error).toMatch(/^The email could not be sent: nothing is listening on 127\.0\.0\.1:\d+ \(connection refused\)\.$/);
        expectNoSecrets(b.error);
      },
    },
  ];

  let closed: number;
  beforeAll(async () => {
    closed = await closedPort();
  });
  const smtpEnv = (kind: Row["smtp"] = "ok"): Record<string, string> =>
    kind === "none"
      ? {}
      : kind === "wrong password"
        ? { NEARCAST_SMTP_URL: urlWithPassword(WRONG_PASSWORD) }
        : kind === "closed"
          ? { NEARCAST_SMTP_URL: `smtp://${encodeURIComponent(SMTP_USER)}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${closed}` }
          : { NEARCAST_SMTP_URL: smtp.url };

  // The SMTP URLs exist only once the servers run, so a row names its kind and the world turns it into the env.
  runScenarios(
    rows.map(({ smtp: kind = "ok", ...r }) => ({ ...r, method: "POST" as const, path: "/api/settings/TestEmail", env: { smtp: kind } })),
    { world: (s) => roleWorld(smtpEnv(s.env?.smtp as Row["smtp"])), done: (w) => w.ctx.close() },
  );

  test("SMTP saved on the Settings screen is used at once", async () => {
    const w = await roleWorld({});
    const call = () => w.api.post("/api/settings/TestEmail", {}, { token: w.tokens.admin });
    expect((await call()).body.code).toBe("email_not_configured");
    w.ctx.services.settings.update(OPERATOR, { smtpUrl: smtp.url });
    expect((await call()).status).toBe(200);
    w.ctx.services.settings.update(OPERATOR, { smtpUrl: urlWithPassword(WRONG_PASSWORD) });
    const failed = await call();
    expect(failed.body.code).toBe("email_failed");
    expectNoSecrets(JSON.stringify(failed.body));
    w.ctx.close();
  });
});
