// Replies kept (issue 24 item 1): the business a reply is filed under, replays, strangers, opt-outs, media fetched
// with the account's credentials and served to its owner only; the owner's answer reaching Twilio (item 2); the hourly
// email to the owner (item 4); retention and erasure.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inboxMedia, inboxMessages } from "../../src/db/schema.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { apiClient } from "../helpers/api.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";
import { png } from "../helpers/images.ts";
import { inboxWorld, texted } from "../helpers/inbox-world.ts";
import { startSmtpServer, type TestSmtpServer } from "../helpers/smtp.ts";
import { until } from "../helpers/until.ts";
import { FAKE_TEXT_TEMPLATE_SID } from "../helpers/fake-twilio.ts";
import { contextOnFake, fakeTwilioForFile, ownersWorld } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile();
const PUBLIC_URL = "https://shop.example.com";
const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Sending through the file's fake Twilio, webhooks signed with its token, media stored in a temporary data dir. */
function world(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "nearcast-inbox-"));
  dirs.push(dataDir);
  const ctx = contextOnFake(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_QUIET_HOURS: "off", ...env }, { dataDir });
  const api = apiClient(ctx);
  const owners = ownersWorld(ctx, { cafe: false });
  const fan = insertSubscriber(ctx, owners.bakery.id, { phone: "+14155550111" }).customer;
  const text = (from: string, body: string, more: { media?: string[]; sid?: string } = {}) =>
    texted(api, { from, body, ...more }, { accountSid: fake.accountSid, authToken: fake.authToken }, PUBLIC_URL);
  return { ctx, api, ...owners, fan, text, dataDir };
}

const messages = (w: ReturnType<typeof world>) => w.ctx.db.select().from(inboxMessages).all();

describe("what is stored", () => {
  test("a replayed MessageSid is stored once; a stranger's text is kept for no owner; a STOP shows as opted out by their reply", async () => {
    const w = world();
    try {
      expect((await w.text("+14155550111", "Hello!", { sid: "SM11111111111111111111111111111111" })).status).toBe(200);
      await w.text("+14155550111", "Hello!", { sid: "SM11111111111111111111111111111111" });
      await w.text("+14155550999", "Who is this?");
      expect(messages(w).map((m) => [m.fromPhone, m.businessId, m.body])).toEqual([
        ["+14155550111", w.bakery.id, "Hello!"],
        ["+14155550999", null, "Who is this?"],
      ]);
      const admin = await w.api.get("/api/inbox/ListConversations", { token: w.admin.token });
      expect(admin.body.items.map((i: { phone: string }) => i.phone)).toEqual(["+14155550111"]);
      expect(admin.body.items[0].unread).toBe(1);

      await w.text("+14155550111", "STOP");
      const after = await w.api.get("/api/inbox/ListConversations", { token: w.ownerA.token });
      expect(after.body.items[0]).toMatchObject({ unread: 2, state: "optedOutByReply", stateText: "Opted out by their reply", lastMessagePreview: "STOP" });
    } finally {
      w.ctx.close();
    }
  });

  test("someone following two businesses: the reply goes to the one that last sent them something", async () => {
    const w = world();
    try {
      insertSubscriber(w.ctx, w.gym.id, { phone: "+14155550111" });
      const sql = w.ctx.db.$client;
      const b = sql.query("INSERT INTO broadcasts (business_id, kind, message_text, total, created_at) VALUES (?1, 'promotion', 'Gym deal', 1, ?2) RETURNING id").get(w.gym.id, w.ctx.clock.now().getTime() - 60_000) as { id: number };
      sql.run("INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, next_attempt_at, sent_at) VALUES (?1, ?2, ?3, 'SMS', '+14155550111', 'Delivered', 0, ?4)", [b.id, w.fan.id, w.gym.id, w.ctx.clock.now().getTime() - 60_000]);
      await w.text("+14155550111", "Is the deal still on?");
      expect(messages(w).map((m) => m.businessId)).toEqual([w.gym.id]);
      const thread = await w.api.get(`/api/inbox/GetConversation?customerId=${w.fan.id}&businessId=${w.gym.id}`, { token: w.ownerB.token });
      expect(thread.body.items.map((i: { kind: string; body: string }) => [i.kind, i.body])).toEqual([["broadcast", "Gym deal"], ["reply", "Is the deal still on?"]]);
    } finally {
      w.ctx.close();
    }
  });
});

describe("media", () => {
  test("fetched with the account's credentials, kept when it is a picture, served to its owner only", async () => {
    const w = world();
    try {
      const picture = png(3, 3);
      const good = `${fake.url}${fake.media.add(picture, "image/png")}`;
      const notAPicture = `${fake.url}${fake.media.add(new TextEncoder().encode("<html>hi</html>"), "image/png")}`;
      const elsewhere = "https://example.com/evil.png";
      await w.text("+14155550111", "Look at this cake", { media: [good, notAPicture, elsewhere] });
      await until(() => fake.media.fetches.length === 2 && w.ctx.db.select().from(inboxMedia).all().length === 1, 5000, "the media fetched");
      await until(() => w.ctx.logger.lines.some((l) => l.includes("is not a picture")), 5000, "the refusal logged");
      expect(fake.media.fetches.every((f) => f.authorized)).toBe(true);
      const thread = await w.api.get(`/api/inbox/GetConversation?customerId=${w.fan.id}&businessId=${w.bakery.id}`, { token: w.ownerA.token });
      const [url] = thread.body.items[0].mediaUrls as string[];
      expect(url).toMatch(/^\/api\/inbox\/Media\/\d+$/);
      const mine = await w.api.app.request(url!, { headers: { authorization: `Bearer ${w.ownerA.token}` } });
      expect(mine.status).toBe(200);
      expect(mine.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await mine.arrayBuffer()).equals(Buffer.from(picture))).toBe(true);
      expect((await w.api.get(url!, { token: w.ownerB.token })).status).toBe(404);
      expect((await w.api.get(url!, { token: w.admin.token })).status).toBe(200);
      expect((await w.api.get(url!)).status).toBe(401);
      expect(readdirSync(join(w.dataDir, "uploads", "inbox"))).toHaveLength(1);

      // Past replyRetentionDays, prune clears the text and removes the file; forget erases the rest.
      w.ctx.clock.advance(181 * DAY);
      expect(w.ctx.services.inbox.prune()).toMatchObject({ bodiesCleared: 1, mediaRemoved: 1 });
      expect(readdirSync(join(w.dataDir, "uploads", "inbox"))).toEqual([]);
      expect(messages(w).map((m) => m.body)).toEqual([null]);
      expect(w.ctx.services.inbox.forgetPhone("(415) 555-0111")).toBe(1);
      expect(messages(w)).toEqual([]);
    } finally {
      w.ctx.close();
    }
  });

  test("a deleted business's pictures: the cascade takes the rows, the hourly sweep the files (once an hour old)", async () => {
    const w = world();
    try {
      await w.text("+14155550111", "Our cake", { media: [`${fake.url}${fake.media.add(png(2, 2), "image/png")}`] });
      const dir = join(w.dataDir, "uploads", "inbox");
      await until(() => existsSync(dir) && readdirSync(dir).length === 1 && w.ctx.db.select().from(inboxMedia).all().length === 1, 5000, "the picture kept");
      const [file] = readdirSync(dir);
      // A file whose row is still there, and one being fetched (no row yet, but new), are never swept.
      writeFileSync(join(dir, "in-flight.png"), "x");
      expect(w.ctx.services.inbox.sweepOrphanMedia()).toBe(0);
      const hourAgo = (Date.now() - 2 * 3_600_000) / 1000;
      utimesSync(join(dir, file!), hourAgo, hourAgo);
      expect(w.ctx.services.inbox.sweepOrphanMedia()).toBe(0);

      w.ctx.services.businesses.remove(OPERATOR, w.bakery.id);
      expect(w.ctx.db.select().from(inboxMedia).all()).toEqual([]);
      expect(w.ctx.services.inbox.sweepOrphanMedia()).toBe(1);
      expect(readdirSync(dir)).toEqual(["in-flight.png"]);
    } finally {
      w.ctx.close();
    }
  });
});

describe("the owner's answer", () => {
  test("reaches Twilio through the outbox, to the person's number, and shows in the thread", async () => {
    const w = world();
    try {
      await w.text("+14155550111", "Open tomorrow?");
      const r = await w.api.post("/api/inbox/Reply", { customerId: w.fan.id, businessId: w.bakery.id, messageText: "Yes, 7am to 4pm" }, { token: w.ownerA.token });
      expect(r.status).toBe(200);
      await dispatchUntil(w.ctx, () => fake.sends().length === 1);
      expect(fake.sends()[0]!.form).toMatchObject({ To: "+14155550111", Body: "Yes, 7am to 4pm" });
      await until(async () => {
        const t = await w.api.get(`/api/inbox/GetConversation?customerId=${w.fan.id}&businessId=${w.bakery.id}`, { token: w.ownerA.token });
        return t.body.items.at(-1)?.status === "Sent";
      });
    } finally {
      w.ctx.close();
    }
  });

  test("WhatsApp more than 24 hours after they wrote: an approved template goes, with its variables", async () => {
    const w = world({ NEARCAST_ALLOWED_COUNTRIES: "US,CA" });
    try {
      const waFan = insertSubscriber(w.ctx, w.bakery.id, { phone: "+14165550112", contactPreference: "WhatsApp" }).customer;
      const body = { customerId: waFan.id, businessId: w.bakery.id, messageText: "", contentSid: FAKE_TEXT_TEMPLATE_SID, contentVariables: JSON.stringify({ "1": "A Bakery", "2": "Rye is back!" }) };
      const r = await w.api.post("/api/inbox/Reply", body, { token: w.ownerA.token });
      expect(r.status).toBe(200);
      expect(r.body.item).toMatchObject({ channel: "WhatsApp", status: "Queued", body: "{{1}} has a new offer: {{2}} Reply STOP to unsubscribe." });
      await dispatchUntil(w.ctx, () => fake.sends().length === 1);
      expect(fake.sends()[0]!.form).toMatchObject({ To: "whatsapp:+14165550112", ContentSid: FAKE_TEXT_TEMPLATE_SID });
    } finally {
      w.ctx.close();
    }
  });

  test("quiet hours hold an answer to someone who wrote over an hour ago, not to someone who just wrote", async () => {
    const w = world({ NEARCAST_QUIET_HOURS: "00:00-23:59" });
    try {
      const policy = { quietHours: w.ctx.services.settings.current().quietHours, maxPerDay: 1, serverZone: () => "UTC" };
      const claim = () => w.ctx.repos.deliveries.claim(w.ctx.clock.now().getTime(), 10, policy);
      const answer = (messageText: string) => w.api.post("/api/inbox/Reply", { customerId: w.fan.id, businessId: w.bakery.id, messageText }, { token: w.ownerA.token });
      w.ctx.repos.customerInbound.record(w.fan.id, "SMS", w.ctx.clock.now().getTime());
      expect((await answer("Now")).body.heldUntil).toBeNull();
      await answer("Again");
      // Both go: quiet hours spare them, and the daily cap of promotions (1 here) does not count answers.
      expect(claim()).toHaveLength(2);
      w.ctx.clock.advance(2 * 3_600_000);
      const later = await answer("Later");
      expect(claim()).toEqual([]);
      // The answer says when: 23:59 in San Francisco (+1 415).
      expect(later.body.heldUntil).toMatch(/T07:59:00\.000Z$/);
      expect(w.ctx.db.$client.query("SELECT deferred_reason AS r FROM deliveries WHERE status = 'Queued'").all()).toEqual([{ r: "quiet_hours" }]);
    } finally {
      w.ctx.close();
    }
  });
});

describe("the email to the owner", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(() => smtp.close());
  afterEach(() => void (smtp.received.length = 0));

  test("at most one an hour per business, listing the new conversations; none with replyEmails off", async () => {
    const w = await inboxWorld({ NEARCAST_SMTP_URL: smtp.url });
    try {
      const mails = await smtp.waitFor(2);
      const bakery = mails.find((m) => m.subject.startsWith("A Bakery"))!;
      expect(bakery.subject).toBe("A Bakery: a new reply in your inbox");
      expect(bakery.text).toContain("+14155550101");
      expect(bakery.text).toContain("Do you have rye bread today?");
      w.ctx.clock.advance(60_000);
      await texted(w.api, { from: "+14165550103", body: "Me too!" });
      await w.ctx.services.inbox.notices.idle();
      expect(smtp.received).toHaveLength(2);
      w.ctx.clock.advance(3_600_000);
      expect(await w.ctx.services.inbox.notices.sendDue()).toBe(1);
      const again = (await smtp.waitFor(3))[2]!;
      // Only what came since the last email.
      expect(again.subject).toBe("A Bakery: a new reply in your inbox");
      expect(again.text).toContain("- +14165550103 (2026-01-15 12:01 UTC): Me too!");
      expect(again.text).not.toContain("+14155550101");
    } finally {
      w.ctx.close();
    }
    const off = await inboxWorld({ NEARCAST_SMTP_URL: smtp.url, NEARCAST_REPLY_EMAILS: "off" });
    try {
      await off.ctx.services.inbox.notices.idle();
      expect(await off.ctx.services.inbox.notices.sendDue()).toBe(0);
    } finally {
      off.ctx.close();
    }
    expect(smtp.received).toHaveLength(3);
  });
});
