// WhatsApp templates (issue 11 item 1) through the fake Twilio, in Twilio's wire format: the Content API list and
// approvals (on TWILIO_API_BASE, as content.twilio.com would answer), a template broadcast (ContentSid +
// ContentVariables, no Body/MediaUrl on WhatsApp; SMS stays Body + MediaUrl), the 24-hour window on the injected
// clock, skips with their reasons and the warning before sending, 63016, 131050, bad input, ownership.
// Not the scenario runner: each test publishes, then dispatches to the fake Twilio on the fake clock.
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { broadcasts, customers } from "../../src/db/schema.ts";
import type { Dispatcher } from "../../src/dispatch/dispatcher.ts";
import { SANDBOX_CONFIRMATION_TEMPLATE_SID, SANDBOX_MEDIA_TEMPLATE_SID, SANDBOX_TEMPLATES } from "../../src/messaging/content-templates.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import { twilioSignature } from "../../src/messaging/signature.ts";
import { WHATSAPP_ERROR_REASONS } from "../../src/messaging/whatsapp-errors.ts";
import { SKIP_MARKETING_STOPPED, SKIP_OUTSIDE_WINDOW, SKIP_US_MARKETING } from "../../src/repos/sql/whatsapp-skips.ts";
import { CONTENT_SID_UNKNOWN, CONTENT_VARIABLES_NOT_JSON, CONTENT_VARIABLES_WITHOUT_SID } from "../../src/services/broadcasts/template-choice.ts";
import { type ApiClient, apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertManySubscribers, insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import {
  FAKE_ACCOUNT_SID,
  FAKE_AUTH_TOKEN,
  FAKE_MEDIA_TEMPLATE_SID,
  FAKE_PENDING_TEMPLATE_SID,
  FAKE_TEXT_TEMPLATE_SID,
} from "../helpers/fake-twilio.ts";
import { PNG } from "../helpers/images.ts";
import { until, VirtualScheduler } from "../helpers/virtual-scheduler.ts";
import { fakeTwilioForFile, type Member, member, stopDispatchers } from "../helpers/worlds.ts";

const PUBLISH = "/api/business/PublishMessageToAllCustomers";
const TEMPLATES = "/api/business/WhatsAppTemplates";
const AUDIENCE = "/api/business/WhatsAppAudience";
const HOUR = 3_600_000;
// Not US numbers: Meta delivers no marketing template to US (+1) numbers (see whatsapp-skips.ts).
const UK = "+447400123456";
const BR = "+5511987654321";

const fake = fakeTwilioForFile();
let ctx: TestContext;
let api: ApiClient;
let sched: VirtualScheduler;
const running: Dispatcher[] = [];
let owner: Member;
let other: Member;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function world(env: Record<string, string> = fake.settings()) {
  const dir = mkdtempSync(join(tmpdir(), "nearcast-wa-"));
  dirs.push(dir);
  ctx = testContext({ NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_QUIET_HOURS: "off", NEARCAST_MAX_PER_DAY: "0", NEARCAST_ALLOWED_COUNTRIES: "*", ...env }, { dataDir: dir });
  fake.follow(ctx.clock);
  api = apiClient(ctx);
  sched = new VirtualScheduler(ctx.clock);
  owner = member(ctx);
  other = member(ctx);
}

beforeEach(() => {
  fake.reset();
  world();
});
afterEach(async () => {
  await stopDispatchers(running);
  ctx.close();
});

function form(fields: Record<string, string | File | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.append(k, v);
  return f;
}

const publish = (fields: Record<string, string | File | undefined>, token = owner.token) => api.call("POST", PUBLISH, { body: form(fields), token });

/** Sends what is queued through the real Twilio adapter to the fake (the context's own dispatcher wiring: its store
 * marks a 131050 customer), until the broadcast completes. */
async function sendAll(broadcastId: number) {
  const d = ctx.dispatcherWith({
    messenger: createMessenger(ctx.services.settings.messaging(), { clock: ctx.clock, twilioTimeoutMs: 2000 }),
    rate: 50,
    scheduler: sched,
    reconcileAfterMs: 30_000,
  });
  running.push(d);
  d.start();
  await until(() => ctx.repos.broadcasts.findById(broadcastId)?.completedAt != null, 10_000, "broadcast completed");
}

const sendsTo = (phone: string) => fake.sends().filter((r) => r.form.To === phone || r.form.To === `whatsapp:${phone}`);
const deliveryOf = (broadcastId: number, customerId: number) =>
  ctx.repos.deliveries.listByBroadcast(broadcastId).find((d) => d.customerId === customerId)!;
const wroteAgo = (customerId: number, ms: number) => ctx.repos.customerInbound.record(customerId, "WhatsApp", ctx.clock.now().getTime() - ms);
const broadcastCount = () => ctx.db.select().from(broadcasts).all().length;

describe("the template list (GET WhatsAppTemplates)", () => {
  test("lists the account's templates from the Content API with their approval, through TWILIO_API_BASE; cached for a minute", async () => {
    const res = await api.get(TEMPLATES, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.map((t: { sid: string; status: string }) => [t.sid, t.status])).toEqual([
      [FAKE_TEXT_TEMPLATE_SID, "approved"],
      [FAKE_MEDIA_TEMPLATE_SID, "approved"],
      [FAKE_PENDING_TEMPLATE_SID, "pending"],
      ["HX44444444444444444444444444444444", "rejected"],
    ]);
    const media = res.body[1];
    expect(media).toEqual({
      sid: FAKE_MEDIA_TEMPLATE_SID,
      name: "photo_offer",
      language: "en",
      category: "MARKETING",
      body: "{{1}}: {{2}}",
      variables: [
        { key: "1", example: "Rosa's Bakery" },
        { key: "2", example: "New cinnamon rolls" },
      ],
      mediaHeader: true,
      mediaVariable: "3",
      mediaUrl: "https://shop.example/uploads/{{3}}",
      status: "approved",
      rejectionReason: null,
    });
    expect(res.body[3].rejectionReason).toBe("INVALID_FORMAT");
    const paths = fake.contentRequests().map((r) => r.path);
    expect(paths[0]).toBe("/v1/Content");
    expect(paths.filter((p) => p.endsWith("/ApprovalRequests"))).toHaveLength(4);
    expect(fake.contentRequests()[0]!.auth).toEqual({ username: FAKE_ACCOUNT_SID, password: FAKE_AUTH_TOKEN });
    await api.get(TEMPLATES, { token: other.token });
    expect(fake.contentRequests()).toHaveLength(5);
    ctx.clock.advance(61_000);
    await api.get(TEMPLATES, { token: owner.token });
    expect(fake.contentRequests()).toHaveLength(10);
  });

  test("follows meta.next_page_url (on Twilio's host) through every page", async () => {
    fake.templates = Array.from({ length: 130 }, (_, i) => ({
      sid: `HX${String(i).padStart(32, "0")}`,
      friendlyName: `t${i}`,
      language: "en",
      variables: {},
      types: { "twilio/text": { body: `Offer ${i}` } },
      approval: null,
    }));
    const res = await api.get(TEMPLATES, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(130);
    expect(res.body[129].status).toBe("unsubmitted");
    expect(fake.contentRequests().filter((r) => r.path === "/v1/Content").map((r) => r.query.Page ?? "0")).toEqual(["0", "1"]);
  });

  test("Twilio failing: 502 in the one error shape, no secret in it", async () => {
    fake.scriptReads({ reply: "server_error", status: 503 });
    const res = await api.get(TEMPLATES, { token: owner.token });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe("twilio_unavailable");
    expect(res.body.error).toContain("WhatsApp templates could not be loaded from Twilio");
    expect(JSON.stringify(res.body)).not.toContain(FAKE_AUTH_TOKEN);
  });

  test("anonymous: 401", async () => {
    expect((await api.get(TEMPLATES)).status).toBe(401);
  });

  test("sandbox (no Twilio): the built-in demo templates, one with an image header, and the opt-in confirmation", async () => {
    ctx.close();
    world({});
    const res = await api.get(TEMPLATES, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(SANDBOX_TEMPLATES);
    expect(res.body.filter((t: { mediaHeader: boolean }) => t.mediaHeader).map((t: { sid: string }) => t.sid)).toEqual([SANDBOX_MEDIA_TEMPLATE_SID]);
    const confirmation = res.body.find((t: { sid: string }) => t.sid === SANDBOX_CONFIRMATION_TEMPLATE_SID);
    expect(confirmation.category).toBe("UTILITY");
    expect(confirmation.variables.map((v: { key: string }) => v.key)).toEqual(["1", "2"]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("a broadcast with a template", () => {
  test("WhatsApp goes as ContentSid + ContentVariables without Body or MediaUrl (the image in the media header); SMS stays Body + MediaUrl", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const wa = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    const sms = insertSubscriber(ctx, b.id, { phone: "+14155550177" });
    const res = await publish({
      BusinessId: String(b.id),
      MessageText: "Cinnamon rolls are out!",
      Image: new File([new Uint8Array(PNG)], "roll.png", { type: "image/png" }),
      ContentSid: FAKE_MEDIA_TEMPLATE_SID,
      ContentVariables: JSON.stringify({ "1": "Rosa's Bakery", "2": "Cinnamon rolls are out!" }),
    });
    expect(res.status).toBe(200);
    expect(res.body.warning).toBeUndefined();
    const row = ctx.db.select().from(broadcasts).where(eq(broadcasts.id, res.body.broadcastId)).get()!;
    const file = row.imagePath!.split("/").pop()!;
    expect(row.contentSid).toBe(FAKE_MEDIA_TEMPLATE_SID);
    expect(JSON.parse(row.contentVariables!)).toEqual({ "1": "Rosa's Bakery", "2": "Cinnamon rolls are out!", "3": file });
    await sendAll(res.body.broadcastId);

    const [w] = sendsTo(wa.customer.phone);
    expect(w!.form.To).toBe(`whatsapp:${UK}`);
    expect(w!.form.ContentSid).toBe(FAKE_MEDIA_TEMPLATE_SID);
    expect(JSON.parse(w!.form.ContentVariables as string)).toEqual({ "1": "Rosa's Bakery", "2": "Cinnamon rolls are out!", "3": file });
    expect(w!.form.Body).toBeUndefined();
    expect(w!.form.MediaUrl).toBeUndefined();
    const [s] = sendsTo(sms.customer.phone);
    expect(s!.form.Body).toBe("Cinnamon rolls are out!");
    expect(s!.form.MediaUrl).toBe(`${PUBLIC_URL}${row.imagePath}`);
    expect(s!.form.ContentSid).toBeUndefined();
    expect(deliveryOf(res.body.broadcastId, wa.customer.id).status).toBe("Sent");
  });

  test("a scheduled broadcast keeps its template; when it starts, the WhatsApp rules are applied to the people of that moment", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const uk = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    const us = insertSubscriber(ctx, b.id, { phone: "+12125550199", contactPreference: "WhatsApp" });
    const at = new Date(ctx.clock.now().getTime() + 2 * HOUR).toISOString();
    const res = await publish({
      BusinessId: String(b.id),
      MessageText: "Tomorrow: bagels",
      ScheduledFor: at,
      ContentSid: FAKE_TEXT_TEMPLATE_SID,
      ContentVariables: JSON.stringify({ "1": "Rosa's", "2": "bagels" }),
    });
    expect(res.status).toBe(200);
    expect(res.body.warning).toContain("1 WhatsApp recipient on US (+1) numbers will be skipped");
    expect(ctx.repos.deliveries.listByBroadcast(res.body.broadcastId)).toHaveLength(0);
    ctx.clock.advance(2 * HOUR);
    ctx.repos.deliveries.startDueBroadcasts(ctx.clock.now().getTime());
    ctx.repos.deliveries.enqueueNextChunk(res.body.broadcastId, ctx.clock.now().getTime());
    expect(deliveryOf(res.body.broadcastId, uk.customer.id).status).toBe("Queued");
    expect(deliveryOf(res.body.broadcastId, us.customer.id)).toMatchObject({ status: "Skipped", errorMessage: SKIP_US_MARKETING });
    await sendAll(res.body.broadcastId);
    expect(sendsTo(UK)[0]!.form.ContentSid).toBe(FAKE_TEXT_TEMPLATE_SID);
    expect(sendsTo("+12125550199")).toHaveLength(0);
  });

  test("a template send whose answer was lost is found at Twilio by number and time (its body is Twilio's), not sent again", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const s = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    fake.scriptFor(UK, { reply: "server_error", created: true });
    const res = await publish({ BusinessId: String(b.id), MessageText: "Rye", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"Rosa","2":"Rye is back"}' });
    await sendAll(res.body.broadcastId);
    expect(sendsTo(UK)).toHaveLength(1);
    const [stored] = [...fake.messages.values()];
    expect(stored!.body).toBe("Rosa has a new offer: Rye is back Reply STOP to unsubscribe.");
    expect(deliveryOf(res.body.broadcastId, s.customer.id)).toMatchObject({ status: "Sent", providerId: stored!.sid });
  });

  test("UpdateScheduledBroadcast changes the template or drops it (ContentSid \"\"); bad variables are a 400 and change nothing", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    const at = new Date(ctx.clock.now().getTime() + HOUR).toISOString();
    const res = await publish({ BusinessId: String(b.id), MessageText: "Soon", ScheduledFor: at });
    const id = res.body.broadcastId as number;
    const update = (fields: Record<string, string>) => api.call("POST", "/api/business/UpdateScheduledBroadcast", { body: form({ BroadcastId: String(id), ...fields }), token: owner.token });
    const stored = () => ctx.db.select().from(broadcasts).where(eq(broadcasts.id, id)).get()!;
    expect((await update({ ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"Rosa"}' })).status).toBe(400);
    expect(stored().contentSid).toBeNull();
    expect((await update({ ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"Rosa","2":"Soon"}' })).status).toBe(200);
    expect(stored()).toMatchObject({ contentSid: FAKE_TEXT_TEMPLATE_SID, contentVariables: '{"1":"Rosa","2":"Soon"}' });
    expect((await update({ MessageText: "Sooner" })).status).toBe(200);
    expect(stored()).toMatchObject({ messageText: "Sooner", contentSid: FAKE_TEXT_TEMPLATE_SID });
    expect((await update({ ContentSid: "" })).status).toBe(200);
    expect(stored()).toMatchObject({ contentSid: null, contentVariables: null });
    const theirs = await api.call("POST", "/api/business/UpdateScheduledBroadcast", {
      body: form({ BroadcastId: String(id), ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"a","2":"b"}' }),
      token: other.token,
    });
    expect(theirs.status).toBe(404);
    expect(stored().contentSid).toBeNull();
  });

  test("US (+1) WhatsApp numbers are skipped with a template (Meta's pause on marketing templates), Canada is not", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const us = insertSubscriber(ctx, b.id, { phone: "+12125550142", contactPreference: "WhatsApp" });
    const ca = insertSubscriber(ctx, b.id, { phone: "+16135550143", contactPreference: "WhatsApp" });
    const audience = await api.get(`${AUDIENCE}?businessId=${b.id}`, { token: owner.token });
    expect(audience.body).toMatchObject({ whatsapp: 2, inWindow: 0, needTemplate: 2, usNumbers: 1, marketingStopped: 0 });
    const res = await publish({ BusinessId: String(b.id), MessageText: "Hi", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"Rosa","2":"Hi"}' });
    expect(res.body.warning).toBe(audience.body.warningWithTemplate);
    expect(deliveryOf(res.body.broadcastId, us.customer.id)).toMatchObject({ status: "Skipped", errorMessage: SKIP_US_MARKETING });
    expect(deliveryOf(res.body.broadcastId, ca.customer.id).status).toBe("Queued");
  });
});

describe("the audience of a big business", () => {
  test("counted a page at a time: 2,600 WhatsApp subscribers give the same counts as the skips the publish writes", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const us = insertManySubscribers(ctx, b.id, 2_600, 5_550_000, "WhatsApp");
    insertManySubscribers(ctx, b.id, 40, 6_660_000); // SMS: not counted
    insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    insertSubscriber(ctx, b.id, { phone: BR, contactPreference: "WhatsApp", status: "unsubscribed" });
    for (const id of [us[0]!, us[1_999]!, us[2_000]!, us[2_599]!]) wroteAgo(id, HOUR);
    for (const id of [us[1]!, us[2_001]!, us[2_002]!]) ctx.db.update(customers).set({ whatsappMarketingStoppedAt: ctx.clock.now() }).where(eq(customers.id, id)).run();
    const audience = await api.get(`${AUDIENCE}?businessId=${b.id}`, { token: owner.token });
    expect(audience.body).toMatchObject({ whatsapp: 2_601, inWindow: 4, marketingStopped: 3, needTemplate: 2_601 - 4 - 3, usNumbers: 2_600 - 3 });
    const estimate = await api.post("/api/broadcast/Estimate", { businessId: b.id, messageText: "Hi", withTemplate: true }, { token: owner.token });
    expect(estimate.body).toMatchObject({ skipped: 3 + 2_597, recipients: 2_641 - 3 - 2_597 });
    const res = await publish({ BusinessId: String(b.id), MessageText: "Hi", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"Rosa","2":"Hi"}' });
    expect(res.body.warning).toBe(audience.body.warningWithTemplate);
    const skipped = ctx.db.$client.prepare("SELECT count(*) AS n FROM deliveries WHERE broadcast_id = ? AND status = 'Skipped'").get(res.body.broadcastId) as { n: number };
    expect(skipped.n).toBe(3 + 2_597);
  });
});

describe("bad template input: 400 naming the field, nothing stored", () => {
  const cases: Array<[string, Record<string, string>, string, string | null]> = [
    ["unknown ContentSid", { ContentSid: "HX99999999999999999999999999999999", ContentVariables: "{}" }, "ContentSid", CONTENT_SID_UNKNOWN],
    ["not a sid at all", { ContentSid: "hello" }, "ContentSid", CONTENT_SID_UNKNOWN],
    ["a template not approved", { ContentSid: FAKE_PENDING_TEMPLATE_SID, ContentVariables: '{"1":"menu"}' }, "ContentSid", null],
    ["a rejected template", { ContentSid: "HX44444444444444444444444444444444", ContentVariables: '{"1":"5"}' }, "ContentSid", null],
    ["variables not JSON", { ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: "{1:" }, "ContentVariables", CONTENT_VARIABLES_NOT_JSON],
    ["variables an array", { ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '["a","b"]' }, "ContentVariables", null],
    ["a variable missing", { ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"Rosa"}' }, "ContentVariables", "ContentVariables is missing {{2}}."],
    ["an extra variable", { ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"a","2":"b","9":"c"}' }, "ContentVariables", null],
    ["a variable not text", { ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"a","2":5}' }, "ContentVariables", "ContentVariables {{2}} must be text."],
    ["a variable too long", { ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: JSON.stringify({ "1": "a", "2": "x".repeat(1025) }) }, "ContentVariables", null],
    ["variables without a sid", { ContentVariables: '{"1":"a"}' }, "ContentVariables", CONTENT_VARIABLES_WITHOUT_SID],
    ["a media template without an image", { ContentSid: FAKE_MEDIA_TEMPLATE_SID, ContentVariables: '{"1":"a","2":"b"}' }, "Image", null],
  ];
  for (const [name, fields, field, text] of cases) {
    test(name, async () => {
      const b = insertBusiness(ctx, { ownerId: owner.id });
      insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
      const before = broadcastCount();
      const res = await publish({ BusinessId: String(b.id), MessageText: "Hi", ...fields });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(Object.keys(res.body.fields)).toEqual([field]);
      if (text) expect(res.body.error).toBe(text);
      expect(broadcastCount()).toBe(before);
    });
  }
});

describe("the 24-hour window (no template)", () => {
  test("wrote 23 h ago: free-form Body; 25 h ago or never: Skipped with the reason, and the warning said so before", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const recent = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    const stale = insertSubscriber(ctx, b.id, { phone: BR, contactPreference: "WhatsApp" });
    const never = insertSubscriber(ctx, b.id, { phone: "+447400123457", contactPreference: "WhatsApp" });
    wroteAgo(recent.customer.id, 23 * HOUR);
    wroteAgo(stale.customer.id, 25 * HOUR);
    const audience = await api.get(`${AUDIENCE}?businessId=${b.id}`, { token: owner.token });
    expect(audience.status).toBe(200);
    expect(audience.body).toMatchObject({ whatsapp: 3, inWindow: 1, needTemplate: 2, usNumbers: 0, marketingStopped: 0 });
    expect(audience.body.warningWithoutTemplate).toContain("2 WhatsApp recipients will be skipped");

    const res = await publish({ BusinessId: String(b.id), MessageText: "Bagels at 7" });
    expect(res.status).toBe(200);
    // Issue 23 item 8: the number the confirm step showed (the 2 skipped get nothing), not every delivery written.
    expect(res.body.recipients).toBe(1);
    expect(res.body.message).toBe("Broadcast queued: 1 message to 1 subscriber.");
    expect(res.body.warning).toBe(audience.body.warningWithoutTemplate);
    for (const s of [stale, never]) {
      expect(deliveryOf(res.body.broadcastId, s.customer.id)).toMatchObject({ status: "Skipped", errorMessage: SKIP_OUTSIDE_WINDOW });
    }
    await sendAll(res.body.broadcastId);
    expect(sendsTo(UK).map((r) => [r.form.Body, r.form.ContentSid])).toEqual([["Bagels at 7", undefined]]);
    expect(sendsTo(BR)).toHaveLength(0);
    const status = await api.get(`/api/business/GetBroadcastStatus?id=${res.body.broadcastId}`, { token: owner.token });
    expect(status.body).toMatchObject({ total: 3, skipped: 2, failed: 0 });
  });

  test("the person's message through the (signed) inbound webhook opens the window", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const s = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    const params = { AccountSid: FAKE_ACCOUNT_SID, MessageSid: "SM" + "ab".repeat(16), From: `whatsapp:${UK}`, To: "whatsapp:+15550002222", Body: "Do you have rye?" };
    const path = "/api/webhooks/twilio/inbound";
    const hook = await api.call("POST", path, {
      body: new URLSearchParams(params).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params) },
      noXsrf: true,
    });
    expect(hook.status).toBe(200);
    expect(ctx.repos.customerInbound.lastInboundAt(s.customer.id, "WhatsApp")).toBe(ctx.clock.now().getTime());
    const audience = await api.get(`${AUDIENCE}?businessId=${b.id}`, { token: owner.token });
    expect(audience.body).toMatchObject({ whatsapp: 1, inWindow: 1, needTemplate: 0 });
  });

  test("Twilio's 63016 (the window closed meanwhile): Failed with a readable reason", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const s = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    wroteAgo(s.customer.id, HOUR);
    fake.closeWindow(UK);
    const res = await publish({ BusinessId: String(b.id), MessageText: "Rye is back" });
    await sendAll(res.body.broadcastId);
    expect(deliveryOf(res.body.broadcastId, s.customer.id)).toMatchObject({ status: "Failed", errorCode: 63016, errorMessage: WHATSAPP_ERROR_REASONS[63016] });
    const messages = await api.get(`/api/customer/GetCustomerMessages?customerId=${s.customer.id}`, { token: owner.token });
    expect(messages.status).toBe(200);
    expect(messages.body.map((m: { errorMessage?: string }) => m.errorMessage)).toContain(WHATSAPP_ERROR_REASONS[63016]);
  });
});

describe("Meta 131050: the person stopped WhatsApp marketing", () => {
  test("a status callback with 131050 fails the delivery with the reason and marks the customer; the next promotion skips them; their next WhatsApp message lifts it", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const s = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    const first = await publish({ BusinessId: String(b.id), MessageText: "One", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"a","2":"b"}' });
    await sendAll(first.body.broadcastId);
    const d = deliveryOf(first.body.broadcastId, s.customer.id);
    const path = `/api/webhooks/twilio/status?delivery=${d.id}`;
    const params = { AccountSid: FAKE_ACCOUNT_SID, MessageSid: d.providerId!, MessageStatus: "failed", ErrorCode: "131050", To: `whatsapp:${UK}` };
    const hook = await api.call("POST", path, {
      body: new URLSearchParams(params).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": twilioSignature(FAKE_AUTH_TOKEN, PUBLIC_URL, path, params) },
      noXsrf: true,
    });
    expect(hook.status).toBe(200);
    expect(deliveryOf(first.body.broadcastId, s.customer.id)).toMatchObject({ status: "Failed", errorCode: 131050, errorMessage: WHATSAPP_ERROR_REASONS[131050] });
    expect(ctx.repos.customerInbound.marketingStoppedAt(s.customer.id)).toBe(ctx.clock.now().getTime());

    ctx.clock.advance(20 * 60_000);
    const audience = await api.get(`${AUDIENCE}?businessId=${b.id}`, { token: owner.token });
    expect(audience.body.marketingStopped).toBe(1);
    const second = await publish({ BusinessId: String(b.id), MessageText: "Two", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"a","2":"b"}' });
    expect(second.body.warning).toContain("turned off marketing messages on WhatsApp");
    expect(deliveryOf(second.body.broadcastId, s.customer.id)).toMatchObject({ status: "Skipped", errorMessage: SKIP_MARKETING_STOPPED });

    ctx.services.inboundMessages.handle({ From: `whatsapp:${UK}`, Body: "hi again", MessageSid: "SM" + "cd".repeat(16) });
    expect(ctx.repos.customerInbound.marketingStoppedAt(s.customer.id)).toBeNull();
  });

  test("131050 answered on the send itself marks the customer too", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    const s = insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    fake.scriptFor(UK, { reply: "error", status: 400, code: 131050, message: "Unable to deliver message" });
    const res = await publish({ BusinessId: String(b.id), MessageText: "Hi", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"a","2":"b"}' });
    await sendAll(res.body.broadcastId);
    expect(deliveryOf(res.body.broadcastId, s.customer.id)).toMatchObject({ status: "Failed", errorMessage: WHATSAPP_ERROR_REASONS[131050] });
    expect(ctx.db.select().from(customers).where(eq(customers.id, s.customer.id)).get()!.whatsappMarketingStoppedAt).not.toBeNull();
  });
});

describe("ownership of WhatsAppAudience", () => {
  test("another owner: 404; anonymous: 401", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    expect((await api.get(`${AUDIENCE}?businessId=${b.id}`, { token: other.token })).status).toBe(404);
    expect((await api.get(`${AUDIENCE}?businessId=${b.id}`)).status).toBe(401);
  });

  test("another owner's business with a template: 403, nothing stored", async () => {
    const b = insertBusiness(ctx, { ownerId: owner.id });
    insertSubscriber(ctx, b.id, { phone: UK, contactPreference: "WhatsApp" });
    const res = await publish({ BusinessId: String(b.id), MessageText: "Hi", ContentSid: FAKE_TEXT_TEMPLATE_SID, ContentVariables: '{"1":"a","2":"b"}' }, other.token);
    expect(res.status).toBe(403);
    expect(broadcastCount()).toBe(0);
  });
});
