// Issue 23 item 10, "the checklist tells the truth": Email is Done only once an email went through (the SMTP sink on
// loopback); Public URL is green only once the address answered /api/health when the server asked it (this app on a
// loopback port), or once Twilio fetched an image from it; amber with the reason otherwise. Traffic stays on
// 127.0.0.1: the public URLs saved are loopback ones, which a fake Twilio on loopback (TWILIO_API_BASE) can fetch.
// Not the scenario runner: each test changes settings or the world between reads of the checklist.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../src/server.ts";
import { EMAIL_FAILED_KEY, EMAIL_SENT_KEY } from "../../src/services/email-outcomes.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { REACH_CACHE_MS, TWILIO_MEDIA_FETCH_KEY } from "../../src/services/public-url-reach.ts";
import { ADMIN_EMAIL, apiClient, signUp } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { PNG } from "../helpers/images.ts";
import { closedPort, startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { fakeTwilioForFile } from "../helpers/worlds.ts";

type Item = { id: string; status: string; detail: string };

const fake = fakeTwilioForFile();
let smtp: TestSmtpServer;
let deadPort: number;
const dirs: string[] = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
  deadPort = await closedPort();
});
afterAll(async () => {
  await smtp.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

let ctx: TestContext;
afterEach(() => ctx?.close());

async function world(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "nearcast-checklist-truth-"));
  dirs.push(dataDir);
  ctx = testContext({ NEARCAST_ADMIN_EMAIL: ADMIN_EMAIL, ...env }, { dataDir });
  const api = apiClient(ctx);
  const admin = await signUp(api, { email: ADMIN_EMAIL });
  const line = async (id: string): Promise<Item> => {
    const res = await api.get("/api/settings/Checklist", { token: admin.token });
    expect(res.status).toBe(200);
    return (res.body.items as Item[]).find((i) => i.id === id)!;
  };
  const testEmail = () => api.post("/api/settings/TestEmail", { to: "owner@shop.example" }, { token: admin.token });
  const setSmtp = (smtpUrl: string) => ctx.services.settings.update(OPERATOR, { smtpUrl });
  const setPublicUrl = (url: string) => ctx.repos.settings.save("publicUrl", url, ctx.clock.now());
  return { api, admin, line, testEmail, setSmtp, setPublicUrl };
}

describe("Email: Done only after an email went through", () => {
  test("set but never sent: amber; a test email through the sink: green; a failing server: red with the reason; back: green", async () => {
    const w = await world();
    w.setSmtp(smtp.url);
    const server = `127.0.0.1:${smtp.port}`;
    expect(await w.line("email")).toEqual({ id: "email", status: "amber", title: "Email", detail: `SMTP is set (${server}), but no email has gone through it yet: send a test email in Settings.` } as Item);

    const before = smtp.received.length;
    expect((await w.testEmail()).status).toBe(200);
    expect(smtp.received.length).toBe(before + 1);
    const sent = ctx.clock.now().toISOString();
    expect(JSON.parse(ctx.repos.settings.get(EMAIL_SENT_KEY)!)).toEqual({ at: sent, server });
    expect(await w.line("email")).toMatchObject({ status: "green", detail: `Done: an email went through ${sent.slice(0, 16).replace("T", " ")} UTC, so forgot-password emails a reset link.` });

    // Another server: what went through the old one says nothing about it.
    w.setSmtp(`smtp://127.0.0.1:${deadPort}`);
    expect((await w.line("email")).status).toBe("amber");
    ctx.clock.advance(60_000);
    const failed = await w.testEmail();
    expect(failed.status).toBe(400);
    expect(failed.body.code).toBe("email_failed");
    const stored = JSON.parse(ctx.repos.settings.get(EMAIL_FAILED_KEY)!) as { at: string; server: string; reason: string };
    expect([stored.at, stored.server]).toEqual([ctx.clock.now().toISOString(), `127.0.0.1:${deadPort}`]);
    expect(stored.reason).toBe(`nothing is listening on 127.0.0.1:${deadPort} (connection refused)`);
    const red = await w.line("email");
    expect(red.status).toBe("red");
    expect(red.detail).toBe(`The last email failed (${ctx.clock.now().toISOString().slice(0, 16).replace("T", " ")} UTC): ${stored.reason}. Fix SMTP in Settings, then send a test email.`);

    w.setSmtp(smtp.url);
    expect((await w.line("email")).status).toBe("green");
    // Internal keys, not settings.
    expect(Object.keys(ctx.services.settings.view(OPERATOR))).not.toContain(EMAIL_SENT_KEY);
  });

  test("a real email counts too: a forgot-password link that went through turns the line green", async () => {
    const w = await world({ NEARCAST_SMTP_URL: smtp.url, NEARCAST_PUBLIC_URL: `http://127.0.0.1:${deadPort}` });
    expect((await w.line("email")).status).toBe("amber");
    await ctx.services.auth.createUser({ firstName: "Ada", lastName: "Baker", email: "baker@shop.example", password: "correct horse" });
    const before = smtp.received.length;
    expect((await w.api.post("/api/auth/ForgotPassword", { email: "baker@shop.example" })).status).toBe(200);
    await ctx.services.auth.idle();
    expect(smtp.received.slice(before).map((m) => m.rcptTo)).toEqual([["baker@shop.example"]]);
    expect((await w.line("email")).status).toBe("green");
  });
});

describe("Public URL: green only once the address was seen working", () => {
  test("this server on a loopback port answers /api/health: green; stopped, the answer is remembered for a minute, then amber", async () => {
    const w = await world(fake.settings());
    const server = startServer({ ...ctx, config: { ...ctx.config, port: 0, host: "127.0.0.1" } }, {});
    const url = server.url.replace("localhost", "127.0.0.1");
    try {
      w.setPublicUrl(url);
      expect(await w.line("publicUrl")).toMatchObject({
        status: "green",
        detail: `${url}: it answered /api/health when this server asked it, so customers' phones can open the links and QR codes.`,
      });
    } finally {
      await server.stop();
    }
    expect((await w.line("publicUrl")).status).toBe("green");
    ctx.clock.advance(REACH_CACHE_MS + 1);
    const amber = await w.line("publicUrl");
    expect(amber.status).toBe("amber");
    expect(amber.detail).toStartWith(`We could not reach ${url} from this server: the connection was refused (ECONNREFUSED).`);
  });

  test("nothing listening: amber with the reason and the word that Twilio's fetch is what counts", async () => {
    const w = await world(fake.settings());
    const url = `http://127.0.0.1:${deadPort}`;
    w.setPublicUrl(url);
    expect(await w.line("publicUrl")).toMatchObject({
      status: "amber",
      detail: `We could not reach ${url} from this server: the connection was refused (ECONNREFUSED). A server cannot always reach itself by its public name; if Twilio can, ignore this.`,
    });
  });

  test("Twilio fetched an image from it: green, though this server cannot reach itself; another client's fetch does not count", async () => {
    const w = await world(fake.settings());
    const url = `http://127.0.0.1:${deadPort}`;
    w.setPublicUrl(url);
    const image = await ctx.services.uploads.saveBytes(w.admin.id, "broadcast", PNG);
    const fetchAs = (ua: string) => w.api.app.request(image.filePath, { headers: { "user-agent": ua } }, { requestIP: () => ({ address: "54.172.60.1" }) });
    expect((await fetchAs("Mozilla/5.0 (iPhone)")).status).toBe(200);
    expect(ctx.repos.settings.get(TWILIO_MEDIA_FETCH_KEY)).toBeUndefined();
    expect((await w.line("publicUrl")).status).toBe("amber");

    expect((await fetchAs("TwilioProxy/1.1")).status).toBe(200);
    const at = ctx.clock.now().toISOString();
    expect(JSON.parse(ctx.repos.settings.get(TWILIO_MEDIA_FETCH_KEY)!)).toEqual({ at, url });
    expect(await w.line("publicUrl")).toMatchObject({ status: "green", detail: `${url}: Twilio fetched an image from it ${at.slice(0, 16).replace("T", " ")} UTC, so customers' phones can open the links and QR codes.` });
  });

  test("a name reserved for examples is not looked up: amber with why; without a fake Twilio a loopback URL stays red", async () => {
    const w = await world();
    w.setPublicUrl("https://deals.example.com");
    expect(await w.line("publicUrl")).toMatchObject({
      status: "amber",
      detail: "We could not reach https://deals.example.com from this server: deals.example.com is a name reserved for examples, which nobody can reach. A server cannot always reach itself by its public name; if Twilio can, ignore this.",
    });
    w.setPublicUrl(`http://127.0.0.1:${deadPort}`);
    expect((await w.line("publicUrl")).status).toBe("red");
  });
});
