// Issue 21, item 1: no link sent to another person is ever built from a request header. Requests go over a real
// socket to 127.0.0.1 with a forged Host (and, behind a trusted proxy, X-Forwarded-Host), as an attacker would send
// them; what leaves the server is read where it arrives: the SMTP sink (test/helpers/smtp.ts) and the fake Twilio.
// Until a public URL is saved (or NEARCAST_PUBLIC_URL set), what needs such a link refuses plainly.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { count } from "drizzle-orm";
import { broadcasts, passwordResets, uploads } from "../../src/db/schema.ts";
import { createApp } from "../../src/http/app.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { ATTEMPT_EMAIL_NEEDS_PUBLIC_URL, EMAIL_LINKS_NEED_PUBLIC_URL, IMAGE_NEEDS_PUBLIC_URL } from "../../src/services/public-links.ts";
import { ADMIN_EMAIL, answerOf, type ApiClient, type CallOptions, PUBLIC_URL } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { PNG } from "../helpers/images.ts";
import { request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { type ReceivedMail, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { fakeTwilioForFile } from "../helpers/worlds.ts";

// argon2 is deliberately slow on a busy two-core box.
setDefaultTimeout(30_000);

const EVIL = "evil.example";
const ENV_URL = "https://env.example.org";
const XSRF = "test-xsrf-token";

let smtp: TestSmtpServer;
const fake = fakeTwilioForFile();
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
});

/** The app on a real socket: the request's URL (and so its origin) comes from the Host header sent, as in `serve`. */
function socketClient(ctx: TestContext, host = EVIL) {
  const app = createApp(ctx);
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => app.fetch(req, srv) });
  async function call(method: string, path: string, opts: CallOptions = {}) {
    const headers: Record<string, string> = { host, cookie: `XSRF-TOKEN=${XSRF}`, "x-xsrf-token": XSRF, ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body = opts.body;
    if (body === undefined && opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = "application/json";
    }
    return answerOf(await fetch(`http://127.0.0.1:${server.port}${path}`, { method, headers, body }));
  }
  const api: ApiClient = {
    app,
    call,
    get: (path, opts) => call("GET", path, opts),
    post: (path, json, opts) => call("POST", path, { json, ...opts }),
    put: (path, json, opts) => call("PUT", path, { json, ...opts }),
    del: (path, opts) => call("DELETE", path, opts),
  };
  return { api, stop: () => server.stop(true) };
}

interface World extends ScenarioWorld {
  stop(): void;
  /** How many messages the sink held when this world began (the sink is shared). */
  mailBefore: number;
}

/** A server with SMTP on the sink, an account for ada@example.com, and `publicUrl` saved unless null. */
async function world(env: Record<string, string> = {}, publicUrl: string | null = null): Promise<World> {
  const ctx = testContext({ NEARCAST_SMTP_URL: smtp.url, NEARCAST_ADMIN_EMAIL: ADMIN_EMAIL, ...env });
  if (publicUrl) ctx.services.settings.update(OPERATOR, { publicUrl });
  await ctx.services.auth.createUser({ firstName: "Ada", lastName: "Baker", email: "ada@example.com", password: "correct horse" });
  const { api, stop } = socketClient(ctx);
  return { ctx, api, stop, mailBefore: smtp.received.length };
}

/** The mail that reached the sink for `address` (after the world's background sends are done). */
async function mailTo(w: World, address: string): Promise<ReceivedMail[]> {
  await w.ctx.services.auth.idle();
  return smtp.received.slice(w.mailBefore).filter((m) => m.rcptTo.includes(address));
}
const resetRows = (w: World) => w.ctx.db.select({ n: count() }).from(passwordResets).get()!.n;
const urlsIn = (mail: ReceivedMail) => [...mail.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);

/** Every link in the mail starts with `base`; none names the forged host. */
function expectLinksOn(mail: ReceivedMail, base: string): void {
  expect(urlsIn(mail).length).toBeGreaterThan(0);
  for (const url of urlsIn(mail)) expect(url.startsWith(`${base}/`)).toBe(true);
  expect(mail.raw).not.toContain(EVIL);
}

const REFUSED = { error: EMAIL_LINKS_NEED_PUBLIC_URL, code: "public_url_not_set" };
const taken = (email: string) => ({ firstName: "Mallory", lastName: "Doe", email, password: "not yours" });

// The two requests that send an email with links in it.
const forgot = request<World>(undefined, "POST", "/api/auth/ForgotPassword");
const register = request<World>(undefined, "POST", "/api/auth/Register");

describe("forged Host: emails are built on the saved public URL only", () => {
  runScenarios<World>(
    [
      forgot("ForgotPassword, no public URL: 400 in the one shape, for an account that exists; no token, no email", 400, {
        json: { email: "ada@example.com" }, expectBody: REFUSED,
        after: async (w) => {
          expect(EMAIL_LINKS_NEED_PUBLIC_URL).toBe("Email links need the server's public address; ask the person who runs it");
          expect(await mailTo(w, "ada@example.com")).toEqual([]);
          expect(resetRows(w)).toBe(0);
        },
      }),
      forgot("ForgotPassword, no public URL: the very same answer for an address with no account", 400, {
        json: { email: "ghost@example.com" }, expect: (body) => expect(body).toEqual(REFUSED), after: async (w) => expect(await mailTo(w, "ghost@example.com")).toEqual([]),
      }),
      forgot("ForgotPassword behind a trusted proxy with a forged X-Forwarded-Host, no public URL: refused the same", 400, {
        env: { NEARCAST_TRUST_PROXY: "on" }, headers: { "x-forwarded-host": EVIL, "x-forwarded-proto": "https" }, json: { email: "ada@example.com" }, expect: (body) => expect(body).toEqual(REFUSED),
      }),
      forgot("ForgotPassword with a saved public URL: the emailed link is on it, never on the forged Host", 200, {
        env: { PUBLIC_URL_SAVED: "1" }, json: { email: "ada@example.com" },
        after: async (w) => {
          const [mail, ...more] = await mailTo(w, "ada@example.com");
          expect(more).toEqual([]);
          expectLinksOn(mail!, PUBLIC_URL);
          expect(urlsIn(mail!)[0]).toMatch(/^https:\/\/deals\.example\.com\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
          expect(resetRows(w)).toBe(1);
        },
      }),
      forgot("ForgotPassword with NEARCAST_PUBLIC_URL and a forged X-Forwarded-Host behind a proxy: on the variable's URL", 200, {
        env: { NEARCAST_PUBLIC_URL: ENV_URL, NEARCAST_TRUST_PROXY: "on" },
        headers: { "x-forwarded-host": EVIL },
        json: { email: "ada@example.com" },
        after: async (w) => expectLinksOn((await mailTo(w, "ada@example.com"))[0]!, ENV_URL),
      }),
      register("Register with a taken address, no public URL: the usual answer; no email, one line in the log", 201, {
        json: taken("ada@example.com"), expectBody: { message: "Registration successful. Please log in." },
        after: async (w) => {
          expect(await mailTo(w, "ada@example.com")).toEqual([]);
          expect((await w.api.post("/api/auth/Register", taken("Ada@Example.com"))).status).toBe(201);
          expect(await mailTo(w, "ada@example.com")).toEqual([]);
          // Said once, however many attempts, and without the address.
          expect(w.ctx.logger.lines).toEqual([`warn ${ATTEMPT_EMAIL_NEEDS_PUBLIC_URL}`]);
        },
      }),
      register("Register with a taken address and a saved public URL: the owner's email links to it, not to the forged Host", 201, {
        env: { PUBLIC_URL_SAVED: "1" }, json: taken("ada@example.com"),
        after: async (w) => {
          const [mail] = await mailTo(w, "ada@example.com");
          expectLinksOn(mail!, PUBLIC_URL);
          expect(urlsIn(mail!)).toEqual([`${PUBLIC_URL}/login`, `${PUBLIC_URL}/forgot-password`]);
        },
      }),
      register("Register with a taken address and NEARCAST_PUBLIC_URL: on the variable's URL", 201, {
        env: { NEARCAST_PUBLIC_URL: ENV_URL }, json: taken("ada@example.com"), after: async (w) => expectLinksOn((await mailTo(w, "ada@example.com"))[0]!, ENV_URL),
      }),
      forgot("development without a public URL: the token comes back (the page links to it), and nothing is emailed", 200, {
        env: { NEARCAST_ENV: "development" }, json: { email: "ada@example.com" }, expect: (body) => expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/),
        after: async (w) => {
          expect(await mailTo(w, "ada@example.com")).toEqual([]);
          expect(resetRows(w)).toBe(1);
        },
      }),
    ],
    {
      world: ({ env = {} }) => {
        const { PUBLIC_URL_SAVED, ...rest } = env;
        return world(rest, PUBLIC_URL_SAVED ? PUBLIC_URL : null);
      },
      done: (w) => {
        w.stop();
        w.ctx.close();
      },
      unchanged: (w) => resetRows(w),
    },
  );

  test("refused requests count nothing: after 15 of them, once the URL is saved, the next one is answered (no 429)", async () => {
    const w = await world();
    try {
      for (let i = 0; i < 15; i++) expect((await w.api.post("/api/auth/ForgotPassword", { email: "ada@example.com" })).status).toBe(400);
      w.ctx.services.settings.update(OPERATOR, { publicUrl: PUBLIC_URL });
      expect((await w.api.post("/api/auth/ForgotPassword", { email: "ada@example.com" })).status).toBe(200);
      expectLinksOn((await mailTo(w, "ada@example.com"))[0]!, PUBLIC_URL);
    } finally {
      w.stop();
      w.ctx.close();
    }
  });

  test("the admin's test email names the saved URL, never the request's Host", async () => {
    const w = await world();
    try {
      const admin = sessionFor(w.ctx, insertUser(w.ctx, { role: "admin", email: "root@example.com" }));
      expect((await w.api.post("/api/settings/TestEmail", { to: "root@example.com" }, { token: admin })).status).toBe(200);
      const [before] = await mailTo(w, "root@example.com");
      expect(before!.raw).not.toContain(EVIL);
      expect(before!.text).toContain("forgotten passwords can be reset by email only once the server's public URL is set");
      w.ctx.services.settings.update(OPERATOR, { publicUrl: PUBLIC_URL });
      await w.api.post("/api/settings/TestEmail", { to: "root@example.com" }, { token: admin });
      const [, after] = await mailTo(w, "root@example.com");
      expect(after!.text).toContain(`This is a test email from Nearcast (${PUBLIC_URL}).`);
      expect(after!.raw).not.toContain(EVIL);
    } finally {
      w.stop();
      w.ctx.close();
    }
  });
});

describe("Twilio is handed no address of ours until a public URL is saved", () => {
  const OWNER_PHONE = "+14155550199";

  async function twilioWorld(sandbox = false) {
    const ctx = testContext({ ...(sandbox ? {} : fake.settings()), NEARCAST_QUIET_HOURS: "off" });
    const u = insertUser(ctx, { role: "owner", phone: OWNER_PHONE, phoneVerifiedAt: ctx.clock.now() });
    const token = sessionFor(ctx, u);
    const business = insertBusiness(ctx, { ownerId: u.id });
    insertSubscriber(ctx, business.id);
    const { api, stop } = socketClient(ctx);
    fake.reset();
    const multipart = (path: string, fields: Record<string, string | Blob>) => {
      const body = new FormData();
      for (const [k, v] of Object.entries(fields)) body.append(k, v);
      return api.call("POST", path, { body, token });
    };
    const close = () => {
      stop();
      ctx.close();
    };
    return { ctx, api, u, token, business, multipart, close };
  }
  const image = () => new File([PNG as BlobPart], "loaf.png", { type: "image/png" });
  const rows = (ctx: TestContext) => ({
    broadcasts: ctx.db.select({ n: count() }).from(broadcasts).get()!.n,
    uploads: ctx.db.select({ n: count() }).from(uploads).get()!.n,
  });

  test("a test send: no StatusCallback without a public URL (forged Host or not); the saved one's once saved", async () => {
    const w = await twilioWorld();
    try {
      const first = await w.multipart("/api/broadcast/SendTest", { BusinessId: String(w.business.id), MessageText: "Hello" });
      expect(first.body).toMatchObject({ result: "sent" });
      const [sent] = fake.sends();
      expect(sent!.form).toMatchObject({ To: OWNER_PHONE, Body: "Hello" });
      expect(sent!.form.StatusCallback).toBeUndefined();
      expect(JSON.stringify(sent!.form)).not.toContain(EVIL);

      w.ctx.services.settings.update(OPERATOR, { publicUrl: PUBLIC_URL });
      const again = await w.multipart("/api/broadcast/SendTest", { BusinessId: String(w.business.id), MessageText: "Hello again" });
      // Issue 23 item 6: the callback names the test, so its outcome reaches the test panel.
      expect(fake.sends()[1]!.form.StatusCallback).toBe(`${PUBLIC_URL}/api/webhooks/twilio/status?test=${again.body.testId}`);
    } finally {
      w.close();
    }
  });

  test("a broadcast with an image through real Twilio and no public URL: 400 naming Image and publicUrl; nothing stored", async () => {
    const w = await twilioWorld();
    try {
      const res = await w.multipart("/api/business/PublishMessageToAllCustomers", { BusinessId: String(w.business.id), MessageText: "Look!", Image: image() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: IMAGE_NEEDS_PUBLIC_URL, code: "public_url_not_set", fields: { Image: IMAGE_NEEDS_PUBLIC_URL, publicUrl: IMAGE_NEEDS_PUBLIC_URL } });
      expect(rows(w.ctx)).toEqual({ broadcasts: 0, uploads: 0 });
      // Scheduled for later: the same.
      const later = new Date(w.ctx.clock.now().getTime() + 86_400_000).toISOString();
      const scheduled = await w.multipart("/api/business/PublishMessageToAllCustomers", { BusinessId: String(w.business.id), MessageText: "Later", Image: image(), ScheduledFor: later });
      expect(scheduled.status).toBe(400);
      expect(rows(w.ctx)).toEqual({ broadcasts: 0, uploads: 0 });
      // Without the image it goes.
      const plain = await w.multipart("/api/business/PublishMessageToAllCustomers", { BusinessId: String(w.business.id), MessageText: "Look!" });
      expect(plain.status).toBe(200);
      expect(plain.body.broadcastId).toBeGreaterThan(0);
      // With a saved public URL the image goes too.
      w.ctx.services.settings.update(OPERATOR, { publicUrl: PUBLIC_URL });
      const withUrl = await w.multipart("/api/business/PublishMessageToAllCustomers", { BusinessId: String(w.business.id), MessageText: "Look again!", Image: image() });
      expect(withUrl.status).toBe(200);
      expect(rows(w.ctx)).toEqual({ broadcasts: 2, uploads: 1 });
    } finally {
      w.close();
    }
  });

  test("a test with an uploaded image through real Twilio and no public URL: 400 naming ImagePath; nothing reaches Twilio", async () => {
    const w = await twilioWorld();
    try {
      const { filePath } = await w.ctx.services.uploads.saveBytes(w.u.id, "broadcast", PNG);
      const res = await w.multipart("/api/broadcast/SendTest", { BusinessId: String(w.business.id), MessageText: "Photo", ImagePath: filePath });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: IMAGE_NEEDS_PUBLIC_URL, code: "public_url_not_set", fields: { ImagePath: IMAGE_NEEDS_PUBLIC_URL, publicUrl: IMAGE_NEEDS_PUBLIC_URL } });
      const fresh = await w.multipart("/api/broadcast/SendTest", { BusinessId: String(w.business.id), MessageText: "Photo", Image: image() });
      expect(fresh.body.fields).toEqual({ Image: IMAGE_NEEDS_PUBLIC_URL, publicUrl: IMAGE_NEEDS_PUBLIC_URL });
      expect(fake.sends()).toEqual([]);
    } finally {
      w.close();
    }
  });

  test("in the sandbox (no Twilio) an image still works without a public URL", async () => {
    const w = await twilioWorld(true);
    try {
      expect(w.ctx.services.settings.current().twilio).toBeNull();
      const res = await w.multipart("/api/business/PublishMessageToAllCustomers", { BusinessId: String(w.business.id), MessageText: "Look!", Image: image() });
      expect(res.status).toBe(200);
      const test = await w.multipart("/api/broadcast/SendTest", { BusinessId: String(w.business.id), MessageText: "Photo", Image: image() });
      expect(test.body).toMatchObject({ result: "sent" });
    } finally {
      w.close();
    }
  });
});
