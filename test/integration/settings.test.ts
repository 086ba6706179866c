// GET/PUT /api/settings scenario by scenario (who may, what is stored, what is refused and that nothing of a refused
// body is stored), secrets that never come back nor reach the log, the environment's lock, and the one public-URL
// function (env > saved > request origin > http://localhost:PORT) as every link the server gives out uses it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeClock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { settings as settingsTable } from "../../src/db/schema.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { SETTING_KEYS, type SettingsView, type SettingView } from "../../src/schemas/settings.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { IMAGE_NEEDS_PUBLIC_URL } from "../../src/services/public-links.ts";
import { type ApiClient, apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { FAKE_AUTH_TOKEN, type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { PNG } from "../helpers/images.ts";
import { pdfText } from "../helpers/pdf-text.ts";
import { decodeQrPng } from "../helpers/qr-decode.ts";
import { type ApiScenario, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { until } from "../helpers/until.ts";
import { broadcastIn, closing, queuedBroadcast } from "../helpers/worlds.ts";

const SETTINGS = "/api/settings";
const TOKEN = "tok3n-S3cret-9f8e7d6c5b4a3210zz";
const SMTP = "smtp://mailer:hunter2-smtp-secret@mail.example.com:587";
const SID = "AC0123456789abcdef0123456789abcdef";

const LOGIN_FIRST = { code: "unauthorized", error: "Please log in to continue." };
const ADMIN_ONLY = { code: "forbidden", error: "Only an administrator can do this." };
const NOT_AN_OBJECT = { code: "validation_failed", error: "Request body must be a JSON object." };

const BAD_PUBLIC_URL = "Public URL must be an http:// or https:// address, without a query or fragment";
const BAD_SMTP_URL = "SMTP URL must look like smtp://user:password@host:587 or smtps://user:password@host:465";
const BAD_SID = "Twilio account SID must be AC followed by 32 hexadecimal characters";
const BAD_MG = "Messaging Service SID must be MG followed by 32 hexadecimal characters";
const BAD_RATE = "Send rate must be a number from 0.01 to 10000 (messages per second)";
const LOCKED = (env: string) => `${env} is set on the server, so this setting cannot be changed here`;

interface World extends ScenarioWorld {
  tokens: Record<"anon" | "owner" | "admin", string | undefined>;
}
type Scenario = ApiScenario<World>;

/** What is saved in the settings table, key by key. */
const saved = (ctx: TestContext) => ctx.repos.settings.all();

/** A context with an owner's and an admin's session (no password hashing). */
function world(env: Record<string, string> = {}): World {
  const ctx = testContext(env);
  const owner = insertUser(ctx);
  const admin = insertUser(ctx, { role: "admin" });
  return { ctx, api: apiClient(ctx), tokens: { anon: undefined, owner: sessionFor(ctx, owner), admin: sessionFor(ctx, admin) } };
}

/** A view of a plain (not secret) setting. */
const plain = (value: string | null, source: SettingView["source"], env: string): SettingView => ({ value, source, env, secret: false });

const invalid = (fields: Record<string, string>) => ({ code: "validation_failed", error: Object.values(fields)[0], fields });

const scenarios: Scenario[] = [
  // ---- who may --------------------------------------------------------------------------------------------------
  { name: "read as anonymous", as: "anon", method: "GET", path: SETTINGS, status: 401, expectBody: LOGIN_FIRST },
  { name: "read as an owner", as: "owner", method: "GET", path: SETTINGS, status: 403, expectBody: ADMIN_ONLY },
  { name: "save as anonymous", as: "anon", method: "PUT", path: SETTINGS, json: { brandName: "Mine" }, status: 401, expectBody: LOGIN_FIRST },
  { name: "save as an owner", as: "owner", method: "PUT", path: SETTINGS, json: { brandName: "Mine" }, status: 403, expectBody: ADMIN_ONLY },
  {
    name: "read with an expired session",
    as: "anon",
    token: "not-a-session",
    method: "GET",
    path: SETTINGS,
    status: 401,
    expectBody: { code: "unauthorized" },
  },
  {
    name: "every key with its source, env name and default; secrets only say whether they are set",
    as: "admin",
    method: "GET",
    path: SETTINGS,
    status: 200,
    expect: (body: SettingsView, _w, res) => {
      expect(Object.keys(body).sort()).toEqual([...SETTING_KEYS].sort());
      expect(body.brandName).toEqual(plain("Nearcast", "default", "NEARCAST_BRAND_NAME"));
      expect(body.contactEmail).toEqual(plain("hello@nearcast.app", "default", "NEARCAST_CONTACT_EMAIL"));
      expect(body.sendRate).toEqual(plain("1", "default", "NEARCAST_SEND_RATE"));
      expect(body.publicUrl).toEqual(plain(null, "unset", "NEARCAST_PUBLIC_URL"));
      expect(body.twilioAuthToken).toEqual({ value: null, source: "unset", env: "TWILIO_AUTH_TOKEN", secret: true, set: false });
      expect(body.smtpUrl).toEqual({ value: null, source: "unset", env: "NEARCAST_SMTP_URL", secret: true, set: false });
      expect(res.headers.get("cache-control")).toBe("no-store");
    },
  },

  // ---- saving ---------------------------------------------------------------------------------------------------
  {
    name: "saves the given keys, trimmed and normalised, and answers the new view",
    as: "admin",
    method: "PUT",
    path: SETTINGS,
    json: { publicUrl: " https://deals.example.com/ ", brandName: "Corner Deals", sendRate: "2.50", twilioWhatsAppFrom: "whatsapp:+15550002222" },
    status: 200,
    expect: (body: SettingsView) => {
      expect(body.publicUrl).toEqual(plain("https://deals.example.com", "saved", "NEARCAST_PUBLIC_URL"));
      expect(body.brandName).toEqual(plain("Corner Deals", "saved", "NEARCAST_BRAND_NAME"));
      expect(body.sendRate.value).toBe("2.5");
      expect(body.contactEmail.source).toBe("default");
    },
    after: (w) =>
      expect(saved(w.ctx)).toEqual({
        publicUrl: "https://deals.example.com",
        brandName: "Corner Deals",
        sendRate: "2.5",
        twilioWhatsAppFrom: "+15550002222",
      }),
  },
  {
    name: "a number is taken as the send rate",
    as: "admin",
    method: "PUT",
    path: SETTINGS,
    json: { sendRate: 5 },
    status: 200,
    after: (w) => expect(saved(w.ctx)).toEqual({ sendRate: "5" }),
  },
  {
    name: "an empty body changes nothing",
    as: "admin",
    method: "PUT",
    path: SETTINGS,
    json: {},
    status: 200,
    before: (w) => w.ctx.repos.settings.save("brandName", "Kept", w.ctx.clock.now()),
    after: (w) => expect(saved(w.ctx)).toEqual({ brandName: "Kept" }),
  },
  ...[null, ""].map(
    (clear): Scenario => ({
      name: `${JSON.stringify(clear)} clears a saved value back to its default`,
      as: "admin",
      method: "PUT",
      path: SETTINGS,
      before: (w) => {
        for (const [k, v] of Object.entries({ brandName: "Old Brand", publicUrl: "https://old.example.com", twilioAuthToken: TOKEN, sendRate: "3" })) {
          w.ctx.repos.settings.save(k, v, w.ctx.clock.now());
        }
      },
      json: { brandName: clear, publicUrl: clear, twilioAuthToken: clear },
      status: 200,
      expect: (body: SettingsView) => {
        expect(body.brandName).toEqual(plain("Nearcast", "default", "NEARCAST_BRAND_NAME"));
        expect(body.publicUrl).toEqual(plain(null, "unset", "NEARCAST_PUBLIC_URL"));
        expect(body.twilioAuthToken).toMatchObject({ set: false, source: "unset" });
        expect(body.sendRate).toEqual(plain("3", "saved", "NEARCAST_SEND_RATE"));
      },
      after: (w) => expect(saved(w.ctx)).toEqual({ sendRate: "3" }),
    }),
  ),

  // ---- refused: 400 naming each field, and nothing of the body stored ---------------------------------------------
  ...(
    [
      ["publicUrl", "ftp://x", BAD_PUBLIC_URL],
      ["publicUrl", "javascript:alert(1)", BAD_PUBLIC_URL],
      ["publicUrl", "https://deals.example.com/?utm=poster", BAD_PUBLIC_URL],
      ["smtpUrl", "http://x", BAD_SMTP_URL],
      ["smtpUrl", "smtp://", BAD_SMTP_URL],
      ["twilioAccountSid", "AC123", BAD_SID],
      ["twilioMessagingServiceSid", "MGx", BAD_MG],
      ["sendRate", "0", BAD_RATE],
      ["sendRate", "fast", BAD_RATE],
      ["brandName", 5, "Brand name must be text"],
    ] as const
  ).map(
    ([key, value, message]): Scenario => ({
      name: `${key} ${JSON.stringify(value)} is refused, and the valid keys beside it are not saved`,
      as: "admin",
      method: "PUT",
      path: SETTINGS,
      json: { brandName: "Valid Brand", contactEmail: "shop@example.com", [key]: value },
      status: 400,
      expectBody: invalid({ [key]: message }),
      after: (w) => expect(saved(w.ctx)).toEqual({}),
    }),
  ),
  {
    name: "every bad field is named at once",
    as: "admin",
    method: "PUT",
    path: SETTINGS,
    json: { publicUrl: "ftp://x", sendRate: "fast", twilioAccountSid: "AC123", brandName: "Fine" },
    status: 400,
    fields: { publicUrl: BAD_PUBLIC_URL, sendRate: BAD_RATE, twilioAccountSid: BAD_SID },
    after: (w) => expect(saved(w.ctx)).toEqual({}),
  },
  {
    name: "an unknown key is refused by name",
    as: "admin",
    method: "PUT",
    path: SETTINGS,
    json: { brandName: "Fine", adminPassword: "x" },
    status: 400,
    expectBody: invalid({ adminPassword: 'Unknown setting "adminPassword"' }),
  },
  ...(["[]", '"publicUrl"', "null", "42"] as const).map(
    (raw): Scenario => ({
      name: `a body that is not an object (${raw})`,
      as: "admin",
      method: "PUT",
      path: SETTINGS,
      raw,
      headers: { "content-type": "application/json" },
      status: 400,
      expectBody: NOT_AN_OBJECT,
    }),
  ),
  {
    name: "a body that is not JSON",
    as: "admin",
    method: "PUT",
    path: SETTINGS,
    raw: "brandName=x",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    status: 415,
  },

  // ---- the environment wins and locks -----------------------------------------------------------------------------
  {
    name: "with NEARCAST_PUBLIC_URL set, the public URL shows its env source and name",
    env: { NEARCAST_PUBLIC_URL: "https://env.example.org" },
    as: "admin",
    method: "GET",
    path: SETTINGS,
    status: 200,
    expect: (body: SettingsView) => expect(body.publicUrl).toEqual(plain("https://env.example.org", "env", "NEARCAST_PUBLIC_URL")),
  },
  ...[{ publicUrl: "https://mine.example.com" }, { publicUrl: null }, { brandName: "Also Valid", publicUrl: "https://mine.example.com" }].map(
    (json): Scenario => ({
      name: `with NEARCAST_PUBLIC_URL set, saving ${JSON.stringify(json)} is refused naming the field`,
      env: { NEARCAST_PUBLIC_URL: "https://env.example.org" },
      as: "admin",
      method: "PUT",
      path: SETTINGS,
      json,
      status: 400,
      expectBody: invalid({ publicUrl: LOCKED("NEARCAST_PUBLIC_URL") }),
      after: (w) => expect(saved(w.ctx)).toEqual({}),
    }),
  ),
  {
    name: "a secret set by the environment shows as set, from env, without its value",
    env: { NEARCAST_SMTP_URL: SMTP },
    as: "admin",
    method: "GET",
    path: SETTINGS,
    status: 200,
    expect: (body: SettingsView, _w, res) => {
      expect(body.smtpUrl).toEqual({
        value: null,
        source: "env",
        env: "NEARCAST_SMTP_URL",
        secret: true,
        set: true,
        hint: "smtp://mailer@mail.example.com:587",
      });
      expect(JSON.stringify(body)).not.toContain("hunter2");
      expect(res.headers.get("cache-control")).toBe("no-store");
    },
  },
];

describe("GET/PUT /api/settings", () => {
  let shared: World;
  beforeAll(() => {
    shared = world();
  });
  afterAll(() => shared.ctx.close());

  runScenarios(scenarios, {
    // A world of its own for a scenario with an environment; otherwise the shared one with nothing saved.
    world: (s) => {
      if (s.env) return world(s.env);
      shared.ctx.db.delete(settingsTable).run();
      return shared;
    },
    unchanged: (w) => saved(w.ctx),
    done: (w) => {
      if (w !== shared) w.ctx.close();
    },
  });
});

describe("secrets are write-only", () => {
  let w: World;
  beforeAll(() => {
    w = world();
  });
  afterAll(() => w.ctx.close());

  /** The answer's raw text, not the parsed JSON. */
  async function rawText(method: "GET" | "PUT", json?: unknown): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = { authorization: `Bearer ${w.tokens.admin}`, cookie: "XSRF-TOKEN=x", "x-xsrf-token": "x" };
    if (json !== undefined) headers["content-type"] = "application/json";
    const res = await w.api.app.request(SETTINGS, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) }, { requestIP: () => ({ address: "203.0.113.1" }) });
    return { status: res.status, text: await res.text() };
  }

  test("the auth token and the SMTP URL are stored and used, but no answer ever contains them", async () => {
    const put = await rawText("PUT", { twilioAccountSid: SID, twilioAuthToken: TOKEN, twilioFrom: "+15550001111", smtpUrl: SMTP });
    expect(put.status).toBe(200);
    const get = await rawText("GET");
    expect(get.status).toBe(200);
    for (const text of [put.text, get.text]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain("hunter2-smtp-secret");
    }
    const view = JSON.parse(get.text) as SettingsView;
    expect(view.twilioAuthToken).toEqual({ value: null, source: "saved", env: "TWILIO_AUTH_TOKEN", secret: true, set: true });
    expect(view.smtpUrl).toEqual({ value: null, source: "saved", env: "NEARCAST_SMTP_URL", secret: true, set: true, hint: "smtp://mailer@mail.example.com:587" });
    // Saved as given, and in use: the messenger is built with them.
    expect(saved(w.ctx)).toMatchObject({ twilioAuthToken: TOKEN, smtpUrl: SMTP });
    expect(w.ctx.services.settings.current().twilio).toMatchObject({ accountSid: SID, authToken: TOKEN });
    expect(w.ctx.services.settings.current().smtpUrl).toBe(SMTP);
    // /api/site, public, never names a secret either.
    expect(JSON.stringify((await w.api.get("/api/site")).body)).not.toMatch(/hunter2|tok3n-S3cret/);
  });

  test("a refused body with a secret in it does not echo the secret", async () => {
    const res = await rawText("PUT", { twilioAuthToken: "has spaces in it so it is refused", smtpUrl: "http://user:pw-in-refused-url@x" });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain("has spaces");
    expect(res.text).not.toContain("pw-in-refused-url");
    expect(JSON.parse(res.text).fields).toEqual({
      twilioAuthToken: "Twilio auth token must be 16 to 128 characters without spaces",
      smtpUrl: BAD_SMTP_URL,
    });
  });

  test("no log line ever contains a saved secret, even while the dispatcher rebuilds on the change", async () => {
    const fake = startFakeTwilio();
    const ctx = testContext({ TWILIO_API_BASE: fake.url });
    try {
      const admin = sessionFor(ctx, insertUser(ctx, { role: "admin" }));
      const api = apiClient(ctx);
      const put = await api.put(SETTINGS, { twilioAccountSid: fake.accountSid, twilioAuthToken: fake.authToken, twilioFrom: "+15550001111", smtpUrl: SMTP }, { token: admin });
      expect(put.status).toBe(200);
      // A dispatcher built from them logs what it sends with (the messenger, the public URL warning).
      const d = ctx.dispatcherWith();
      d.start();
      await d.stop();
      expect(ctx.logger.lines.length).toBeGreaterThan(0);
      const log = ctx.logger.lines.join("\n");
      expect(log).not.toContain(fake.authToken);
      expect(log).not.toContain("hunter2-smtp-secret");
    } finally {
      ctx.close();
      await fake.stop();
    }
  });
});

describe("the public URL: env > saved > request origin > http://localhost:PORT", () => {
  let dataDir: string;
  let fake: FakeTwilio;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "nearcast-settings-"));
    fake = startFakeTwilio();
  });
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await fake.stop();
  });

  const LAN = "http://192.168.1.20:3000";

  /** Everything the server gives out with a link, asked for on `origin`: GET /api/site, the QR code, the poster. */
  async function linksOn(w: World, api: ApiClient, businessId: number, ownerToken: string, origin: string) {
    const site = await api.get(`${origin}/api/site`);
    const qr = await api.app.request(`${origin}/api/business/GetQRCodeImage?id=${businessId}`, {}, { requestIP: () => ({ address: "203.0.113.9" }) });
    const pdf = await api.app.request(
      `${origin}/api/business/GetPosterPdf?id=${businessId}`,
      { headers: { authorization: `Bearer ${ownerToken}` } },
      { requestIP: () => ({ address: "203.0.113.9" }) },
    );
    expect(qr.status).toBe(200);
    expect(pdf.status).toBe(200);
    return {
      site: site.body,
      qrPng: new Uint8Array(await qr.arrayBuffer()),
      posterText: pdfText(new Uint8Array(await pdf.arrayBuffer())),
      subscribeUrl: w.ctx.services.qrCodes.subscribeUrl(businessId, origin),
    };
  }

  async function expectLinks(w: World, origin: string, base: string, source: string, isPrivate: boolean) {
    const owner = insertUser(w.ctx);
    const biz = insertBusiness(w.ctx, { ownerId: owner.id });
    const links = await linksOn(w, w.api, biz.id, sessionFor(w.ctx, owner), origin);
    const url = `${base}/subscribe?id=${biz.id}`;
    expect(links.site).toMatchObject({ publicUrl: base, publicUrlSource: source, publicUrlPrivate: isPrivate });
    expect(links.subscribeUrl).toBe(url);
    expect(decodeQrPng(links.qrPng)).toBe(url);
    expect(links.posterText).toContain(url);
  }

  test("nothing set: every link is built on the origin the request came in on", async () =>
    closing(world(), async (w) => {
      await expectLinks(w, LAN, LAN, "request", true);
      await expectLinks(w, "https://shop.example.net", "https://shop.example.net", "request", false);
    }));

  test("a saved public URL wins over the request's origin, at once; clearing it goes back to the origin", async () =>
    closing(world(), async (w) => {
      expect((await w.api.put(SETTINGS, { publicUrl: "https://deals.example.com/" }, { token: w.tokens.admin })).status).toBe(200);
      await expectLinks(w, LAN, "https://deals.example.com", "saved", false);
      expect((await w.api.put(SETTINGS, { publicUrl: "" }, { token: w.tokens.admin })).status).toBe(200);
      await expectLinks(w, LAN, LAN, "request", true);
    }));

  test("NEARCAST_PUBLIC_URL wins over a saved one and over the request's origin", async () =>
    closing(world({ NEARCAST_PUBLIC_URL: "https://env.example.org" }), async (w) => {
      w.ctx.repos.settings.save("publicUrl", "https://saved.example.com", w.ctx.clock.now());
      await expectLinks(w, LAN, "https://env.example.org", "env", false);
    }));

  test("without a request: the saved URL, else http://localhost:PORT", () => {
    const ctx = testContext({ NEARCAST_PORT: "3456" });
    try {
      expect(ctx.services.settings.publicUrl()).toBe("http://localhost:3456");
      expect(ctx.services.qrCodes.subscribeUrl(7)).toBe("http://localhost:3456/subscribe?id=7");
      ctx.services.settings.update(OPERATOR, { publicUrl: "https://deals.example.com" });
      expect(ctx.services.settings.publicUrl()).toBe("https://deals.example.com");
      expect(ctx.services.qrCodes.subscribeUrl(7)).toBe("https://deals.example.com/subscribe?id=7");
    } finally {
      ctx.close();
    }
  });

  /** Sends one broadcast (with an image unless told not) through Twilio (the fake) and answers the send the fake
   * recorded. */
  async function twilioSendOf(ctx: TestContext, image: Uint8Array | null = PNG) {
    fake.reset();
    const { broadcastId } = await queuedBroadcast(ctx, 1, { text: "Look!", image });
    const d = ctx.dispatcherWith();
    d.start();
    try {
      await until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 5000, "the broadcast sent");
    } finally {
      await d.stop();
    }
    const [send] = fake.sends();
    return { form: send!.form, deliveryId: ctx.repos.deliveries.listByBroadcast(broadcastId)[0]!.id };
  }

  test("Twilio's StatusCallback and MediaUrl: none when nothing is set (an image is refused), the saved URL once saved", async () => {
    // Quiet hours off: the dispatcher runs on the real clock, and +1 415 numbers are quiet for 12 hours of every UTC day.
    const ctx = testContext({ ...fake.settings(), NEARCAST_PORT: "3000", NEARCAST_SEND_RATE: "100", NEARCAST_QUIET_HOURS: "off" }, { dataDir });
    try {
      // Never http://localhost:PORT (issue 21): Twilio cannot reach it, and a request's Host is not ours to trust.
      await expect(twilioSendOf(ctx)).rejects.toMatchObject({ status: 400, code: "public_url_not_set", fields: { Image: IMAGE_NEEDS_PUBLIC_URL } });
      const before = await twilioSendOf(ctx, null);
      expect(before.form.StatusCallback).toBeUndefined();
      expect(before.form.MediaUrl).toBeUndefined();

      ctx.services.settings.update(OPERATOR, { publicUrl: "https://deals.example.com" });
      const after = await twilioSendOf(ctx);
      expect(after.form.StatusCallback).toBe(`https://deals.example.com/api/webhooks/twilio/status?delivery=${after.deliveryId}`);
      expect(after.form.MediaUrl).toMatch(/^https:\/\/deals\.example\.com\/uploads\/[0-9a-f]{32}\.png$/);
      expect(fake.sends()[0]!.auth).toEqual({ username: fake.accountSid, password: FAKE_AUTH_TOKEN });
    } finally {
      ctx.close();
    }
  });
});

describe("the server's dispatcher follows the saved Twilio settings, without a restart", () => {
  test("sandbox first; once the Twilio settings are saved, the next broadcast reaches Twilio", async () => {
    const fake = startFakeTwilio();
    const logger = new MemoryLogger();
    // Like testContext, with the dispatcher looking for changed settings every 20 ms instead of every 2 s.
    const ctx = createContext(loadConfig({ NEARCAST_DATA_DIR: "/nonexistent-test-dir", TWILIO_API_BASE: fake.url, NEARCAST_QUIET_HOURS: "off" }), {
      dbPath: ":memory:",
      clock: new FakeClock(),
      logger,
      settingsCheckEveryMs: 20,
    });
    try {
      const admin = sessionFor(ctx, insertUser(ctx, { role: "admin" }));
      const api = apiClient(ctx);
      const biz = insertBusiness(ctx);
      const { customer } = insertSubscriber(ctx, biz.id);
      const broadcast = async (text: string) => (await broadcastIn(ctx, "queued", { businessId: biz.id, text })).id;
      const delivery = (broadcastId: number) => ctx.repos.deliveries.listByBroadcast(broadcastId)[0]!;

      expect(ctx.dispatcher.start()).toBe("dispatching");
      const first = await broadcast("Before the change");
      await until(() => delivery(first).providerId !== null, 5000, "the sandbox send");
      expect(delivery(first).providerId).toStartWith("SMsandbox");
      expect(fake.sends()).toHaveLength(0);

      const put = await api.put(
        SETTINGS,
        { twilioAccountSid: fake.accountSid, twilioAuthToken: fake.authToken, twilioFrom: "+15550001111" },
        { token: admin },
      );
      expect(put.status).toBe(200);
      await until(() => logger.lines.some((l) => l.includes("messaging settings changed")), 5000, "the dispatcher to restart");

      const second = await broadcast("After the change");
      await until(() => fake.sends().length === 1, 5000, "the send to reach Twilio");
      const [send] = fake.sends();
      expect(send!.form).toMatchObject({ To: customer.phone, From: "+15550001111", Body: expect.stringContaining("After the change") });
      expect(send!.auth).toEqual({ username: fake.accountSid, password: fake.authToken });
      await until(() => delivery(second).providerId !== null, 5000, "the Twilio send recorded");
      expect(delivery(second).providerId).not.toStartWith("SMsandbox");
      expect(ctx.dispatcher.state).toBe("dispatching");
      // The restart is logged; the token it restarted with is not.
      expect(logger.lines.join("\n")).not.toContain(fake.authToken);
    } finally {
      await ctx.dispatcher.stop();
      ctx.close();
      await fake.stop();
    }
  });
});
