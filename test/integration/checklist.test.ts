// GET /api/settings/Checklist (admin only) and the inbound webhook's "seen" mark behind it.
// Not the scenario runner: each test changes settings or the webhook's state between reads of the checklist.
import { afterEach, describe, expect, test } from "bun:test";
import { businessTypes } from "../../src/db/schema.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { INBOUND_SEEN_EVERY_MS, INBOUND_SEEN_KEY } from "../../src/services/checklist.ts";
import { twilioSignature } from "../../src/messaging/signature.ts";
import { ADMIN_EMAIL, apiClient, signUp } from "../helpers/api.ts";
import { testContext, type TestContext } from "../helpers/context.ts";
import { insertOwnerBusinesses } from "../helpers/factories.ts";
import { fakeTwilioForFile } from "../helpers/worlds.ts";

const INBOUND = "/api/webhooks/twilio/inbound";

const fake = fakeTwilioForFile();
let ctx: TestContext;
afterEach(() => {
  ctx?.close();
  fake.reset();
});

async function world(env: Record<string, string> = {}) {
  ctx = testContext({ NEARCAST_ADMIN_EMAIL: ADMIN_EMAIL, ...env });
  const api = apiClient(ctx);
  const admin = await signUp(api, { email: ADMIN_EMAIL });
  const owner = await signUp(api);
  const checklist = async () => {
    const res = await api.get("/api/settings/Checklist", { token: admin.token });
    expect(res.status).toBe(200);
    return Object.fromEntries((res.body.items as { id: string; status: string; detail: string }[]).map((i) => [i.id, i]));
  };
  // Signed for Twilio, or (sandbox) with the install's webhook key.
  const inbound = (params: Record<string, string>, signature?: string) =>
    api.app.request(
      `https://deals.example.com${INBOUND}${signature ? "" : `?key=${ctx.services.inboundMessages.sandboxKey()}`}`,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(signature ? { "x-twilio-signature": signature } : {}) },
        body: new URLSearchParams(params).toString(),
      },
      { requestIP: () => ({ address: "54.172.60.1" }) },
    );
  return { api, admin, owner, checklist, inbound };
}

describe("GET /api/settings/Checklist", () => {
  test("admin only: 401 anonymous, 403 for an owner", async () => {
    const w = await world();
    expect((await w.api.get("/api/settings/Checklist")).status).toBe(401);
    const owner = await w.api.get("/api/settings/Checklist", { token: w.owner.token });
    expect(owner.status).toBe(403);
    expect(owner.body).toMatchObject({ code: "forbidden", error: expect.any(String) });
  });

  test("a fresh install: red public URL, amber sandbox/webhook/email, green business types; each line one sentence", async () => {
    const w = await world();
    const res = await w.api.get("/api/settings/Checklist", { token: w.admin.token });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body.items.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      ["publicUrl", "red"],
      ["messages", "amber"],
      ["inboundWebhook", "amber"],
      ["email", "amber"],
      ["businessTypes", "green"],
      ["quietHours", "green"],
      ["backups", "amber"],
    ]);
    for (const item of res.body.items) {
      expect(item.title).toMatch(/^[A-Z]/);
      expect(item.detail).toMatch(/\.$/);
    }
    const items = await w.checklist();
    expect(items.messages!.detail).toBe(
      "Sandbox: messages are recorded, not sent. Set the Twilio account SID, auth token and a sender in Settings to send for real.",
    );
    expect(items.email!.detail).toBe("Forgot-password cannot send email; set SMTP in Settings.");
    // No public URL: the webhook to set is on the address the admin opened the page at.
    expect(items.inboundWebhook!.detail).toContain(`"A message comes in" webhook to http://localhost${INBOUND}`);
  });

  test("keyword replies (issue 23), only with Twilio: the texts to paste into Advanced Opt-Out, naming the brand; or that Nearcast answers", async () => {
    const w = await world({ ...fake.settings(), NEARCAST_BRAND_NAME: "Main Street Deals" });
    insertOwnerBusinesses(ctx, "Rosa's Bakery", "Rosa's Cafe");
    const twilio = (await w.checklist()).keywordReplies!;
    expect(twilio.status).toBe("green");
    expect(twilio.detail).toContain("paste into the Messaging Service's Advanced Opt-Out");
    expect(twilio.detail).toContain('STOP "You have been unsubscribed from Main Street Deals messages. Reply START to resubscribe."');
    expect(twilio.detail).toContain('HELP "Main Street Deals: local deals by text. Contact: hello@nearcast.app. Msg & data rates may apply. Reply STOP to unsubscribe."');
    ctx.repos.settings.save("keywordReplies", "nearcast", ctx.clock.now());
    expect((await w.checklist()).keywordReplies!.detail).toStartWith("Nearcast answers STOP, START and HELP, naming Main Street Deals");
    ctx.close();
    const sandbox = await world();
    expect((await sandbox.checklist()).keywordReplies).toBeUndefined();
  });

  // Green needs the address to answer (issue 23 item 10): checklist-truth.test.ts, on loopback.
  test("the public URL: amber over http, amber over https until it answered, red when private", async () => {
    const w = await world();
    ctx.repos.settings.save("publicUrl", "http://deals.example.com", ctx.clock.now());
    expect((await w.checklist()).publicUrl!.status).toBe("amber");
    ctx.repos.settings.save("publicUrl", "https://deals.example.com", ctx.clock.now());
    expect((await w.checklist()).publicUrl!).toMatchObject({ status: "amber", detail: expect.stringContaining("We could not reach https://deals.example.com from this server") });
    ctx.repos.settings.save("publicUrl", "http://raspberrypi.local:3000", ctx.clock.now());
    const red = (await w.checklist()).publicUrl!;
    expect(red.status).toBe("red");
    expect(red.detail).toContain("Phones outside this network cannot open this link");
  });

  test("Twilio partly set is red with what is missing; set and accepted by the fake is green; a bad token red", async () => {
    const w = await world();
    ctx.repos.settings.save("twilioAccountSid", fake.accountSid, ctx.clock.now());
    const partial = (await w.checklist()).messages!;
    expect(partial.status).toBe("red");
    expect(partial.detail).toContain("auth token");
    expect(fake.requests).toHaveLength(0);
    ctx.close();

    const good = await world({ ...fake.settings() });
    expect((await good.checklist()).messages).toMatchObject({ status: "green" });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /2010-04-01/Accounts/${fake.accountSid}.json`]);
    ctx.close();

    const bad = await world({ ...fake.settings(), TWILIO_AUTH_TOKEN: "not-the-token-0123456789" });
    const refused = (await bad.checklist()).messages!;
    expect(refused.status).toBe("red");
    expect(refused.detail).toContain("Twilio refused the credentials (Authenticate)");
  });

  // Done only once an email went through (issue 23 item 10): checklist-truth.test.ts, with the SMTP sink.
  // The owner's sign-up in world() emailed the admin through this server, which does not exist: red, with why.
  test("SMTP set and its last email failed: email red; no active business type: red", async () => {
    const w = await world({ NEARCAST_SMTP_URL: "smtp://u:p@mail.example.com:587", NEARCAST_MAIL_FROM: "Bakery <news@example.com>" });
    ctx.db.update(businessTypes).set({ isActive: false }).run();
    await ctx.services.auth.idle();
    const items = await w.checklist();
    expect(items.email).toMatchObject({ status: "red", detail: expect.stringMatching(/^The last email failed \(.+\): .+\. Fix SMTP in Settings, then send a test email\.$/) });
    expect(items.businessTypes).toMatchObject({ status: "red", detail: expect.stringContaining("owners cannot create a business") });
  });
});

describe("the inbound webhook's last-seen mark", () => {
  const params = { From: "+14155550100", To: "+15550001111", Body: "HELP", MessageSid: "SM00000000000000000000000000000001" };

  test("sandbox: an inbound request with the webhook key marks it seen; later ones within a minute do not write again", async () => {
    const w = await world();
    expect(ctx.repos.settings.get(INBOUND_SEEN_KEY)).toBeUndefined();
    expect((await w.inbound(params)).status).toBe(200);
    const first = ctx.clock.now().toISOString();
    expect(ctx.repos.settings.get(INBOUND_SEEN_KEY)).toBe(first);
    expect((await w.checklist()).inboundWebhook).toMatchObject({ status: "green", detail: expect.stringContaining(`Seen ${first.slice(0, 10)}`) });

    ctx.clock.advance(INBOUND_SEEN_EVERY_MS - 1000);
    await w.inbound(params);
    expect(ctx.repos.settings.get(INBOUND_SEEN_KEY)).toBe(first);
    ctx.clock.advance(2000);
    await w.inbound(params);
    expect(ctx.repos.settings.get(INBOUND_SEEN_KEY)).toBe(ctx.clock.now().toISOString());
    // An internal key, not a setting.
    expect(Object.keys(ctx.services.settings.view(OPERATOR))).not.toContain(INBOUND_SEEN_KEY);
  });

  test("with Twilio: a bad signature is refused and not seen; a valid one is", async () => {
    const w = await world({ ...fake.settings(), NEARCAST_PUBLIC_URL: "https://deals.example.com" });
    expect((await w.inbound(params, "bogus")).status).toBe(403);
    expect(ctx.repos.settings.get(INBOUND_SEEN_KEY)).toBeUndefined();
    const signature = twilioSignature(fake.authToken, "https://deals.example.com", INBOUND, params);
    expect((await w.inbound(params, signature)).status).toBe(200);
    expect(ctx.repos.settings.get(INBOUND_SEEN_KEY)).toBe(ctx.clock.now().toISOString());
  });
});
