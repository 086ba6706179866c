// POST /api/business/PublishMessageToAllCustomers and the broadcast reads (subscriber count, history, status,
// retry): validation texts, 401/403/404, the no-subscriber warning, the outbox snapshot written in one transaction,
// and the shapes the broadcast screen reads.
// Not the scenario runner: publishes are multipart forms with images; the runner sends JSON or raw text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { broadcasts, customers, deliveries, subscriptions, uploads } from "../../src/db/schema.ts";
import { eq } from "drizzle-orm";
import { BUSINESS_ID_REQUIRED } from "../../src/schemas/broadcast-input.ts";
import { NO_SUBSCRIBERS } from "../../src/services/broadcasts/publish.ts";
import { BROADCAST_IMAGE_TOO_LARGE, BROADCAST_INVALID_IMAGE, MESSAGE_REQUIRED, NOT_YOUR_BUSINESS } from "../../src/schemas/texts.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { MAX_IMAGE_BYTES } from "../../src/schemas/images.ts";
import { type ApiClient, apiClient } from "../helpers/api.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { DISGUISED, GIF, JPEG, padded, PNG } from "../helpers/images.ts";
import { insertBroadcast } from "../helpers/delivery-factories.ts";
import { CURSOR_INVALID, LIMIT_INVALID } from "../../src/schemas/paging.ts";
import { type Member, member } from "../helpers/worlds.ts";

const PUBLISH = "/api/business/PublishMessageToAllCustomers";

let ctx: TestContext;
let api: ApiClient;
let dataDir: string;
let owner: Member, other: Member, admin: Member;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "nearcast-broadcast-"));
  ctx = testContext({}, { dataDir });
  api = apiClient(ctx);
  [owner, other, admin] = [member(ctx), member(ctx), member(ctx, { role: "admin" })];
});

afterAll(() => {
  ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function form(fields: Record<string, string | File | undefined>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.append(k, v);
  return f;
}

function publish(token: string | undefined, fields: Record<string, string | File | undefined>) {
  return api.call("POST", PUBLISH, { body: form(fields), ...(token ? { token } : {}) });
}

function imageFile(bytes: Uint8Array, name = "deal.png", type = "image/png"): File {
  return new File([new Uint8Array(bytes)], name, { type });
}

/** A business of `ownerId` with `active` active subscribers, plus one unsubscribed and one removed. */
function businessWithSubscribers(ownerId: number, active: number, whatsapp = 0) {
  const b = insertBusiness(ctx, { ownerId });
  const subs = [];
  for (let i = 0; i < active; i++) {
    subs.push(insertSubscriber(ctx, b.id, { contactPreference: i < whatsapp ? "WhatsApp" : "SMS" }));
  }
  insertSubscriber(ctx, b.id, { status: "unsubscribed" });
  insertSubscriber(ctx, b.id, { status: "removed" });
  return { business: b, subs };
}

const broadcastRows = (businessId: number) => ctx.db.select().from(broadcasts).where(eq(broadcasts.businessId, businessId)).all();
const deliveryRows = (broadcastId: number) =>
  ctx.db.select().from(deliveries).where(eq(deliveries.broadcastId, broadcastId)).orderBy(deliveries.id).all();
const storedFiles = () => {
  try {
    return readdirSync(join(dataDir, "uploads")).filter((f) => !f.startsWith("."));
  } catch {
    return [];
  }
};

describe("validation (spec section 5)", () => {
  test("no login: 401", async () => {
    const res = await publish(undefined, { BusinessId: "1", MessageText: "Hi" });
    expect(res.status).toBe(401);
  });

  test("a missing or blank business id: 400 'Business ID is required.'", async () => {
    for (const BusinessId of [undefined, "", "   "]) {
      const res = await publish(owner.token, { BusinessId, MessageText: "Half price" });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(BUSINESS_ID_REQUIRED);
      expect(res.body.error).toBe("Business ID is required.");
    }
    const bad = await publish(owner.token, { BusinessId: "abc", MessageText: "Half price" });
    expect(bad.status).toBe(400);
  });

  test("message text missing, empty or only spaces: 400 'Message text is required'", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    for (const MessageText of [undefined, "", "   ", "\n\t "]) {
      const res = await publish(owner.token, { BusinessId: String(business.id), MessageText });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(MESSAGE_REQUIRED);
      expect(res.body.error).toBe("Message text is required");
    }
    expect(broadcastRows(business.id)).toHaveLength(0);
  });

  test("the form's own field names (businessId, messageText, image) are accepted too", async () => {
    const { business } = businessWithSubscribers(owner.id, 2);
    const res = await publish(owner.token, { businessId: String(business.id), messageText: "Lower-case fields" });
    expect(res.status).toBe(200);
    expect(res.body.recipients).toBe(2);
  });

  test("a form-urlencoded body (no image) is accepted too; a text Image there is not an image", async () => {
    const { business } = businessWithSubscribers(owner.id, 2);
    const urlencoded = (fields: Record<string, string>) =>
      api.call("POST", PUBLISH, { body: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" }, token: owner.token });
    const res = await urlencoded({ BusinessId: String(business.id), MessageText: "Plain form", Image: "" });
    expect(res.status).toBe(200);
    expect(res.body.recipients).toBe(2);
    expect(broadcastRows(business.id)[0]!.imagePath).toBeNull();
    const withText = await urlencoded({ BusinessId: String(business.id), MessageText: "x", Image: "deal.png" });
    expect(withText.status).toBe(400);
    expect(withText.body.error).toBe(BROADCAST_INVALID_IMAGE);
  });

  test("the spec's field names win when both spellings are sent; a file where text belongs counts as missing", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const res = await publish(owner.token, { messageText: "form's", businessId: "999999", BusinessId: String(business.id), MessageText: "spec's" });
    expect(res.status).toBe(200);
    expect(broadcastRows(business.id)[0]!.messageText).toBe("spec's");
    const fileAsText = await publish(owner.token, { BusinessId: String(business.id), MessageText: new File(["hello"], "m.txt", { type: "text/plain" }) });
    expect(fileAsText.status).toBe(400);
    expect(fileAsText.body.error).toBe(MESSAGE_REQUIRED);
  });

  test("a body that is not a form: 400", async () => {
    const res = await api.post(PUBLISH, { BusinessId: 1, MessageText: "json" }, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("multipart/form-data");
  });

  test("text longer than one Twilio message body (1600): 400", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "x".repeat(1601) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Message text cannot exceed 1600 characters.");
  });
});

describe("who may broadcast (spec section 6)", () => {
  test("an unknown business: 404", async () => {
    const res = await publish(owner.token, { BusinessId: "999999", MessageText: "Hello" });
    expect(res.status).toBe(404);
  });

  test("another owner's business: 403 with the screen's text; nothing written", async () => {
    const { business } = businessWithSubscribers(owner.id, 2);
    const res = await publish(other.token, { BusinessId: String(business.id), MessageText: "Not mine" });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(NOT_YOUR_BUSINESS);
    expect(broadcastRows(business.id)).toHaveLength(0);
  });

  test("an admin may broadcast for any business (recorded as its creator)", async () => {
    const { business } = businessWithSubscribers(owner.id, 2);
    const res = await publish(admin.token, { BusinessId: String(business.id), MessageText: "From the admin" });
    expect(res.status).toBe(200);
    expect(broadcastRows(business.id)[0]!.createdBy).toBe(admin.id);
  });
});

describe("publishing", () => {
  test("no active subscriber: 200 {warning}, nothing written (unsubscribed and removed ones do not count)", async () => {
    const { business } = businessWithSubscribers(owner.id, 0);
    const before = storedFiles().length;
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Anyone?", Image: imageFile(PNG) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ warning: NO_SUBSCRIBERS });
    expect(res.body.warning).toBe("This business has no active subscribers yet. Share your QR code to get some!");
    expect(broadcastRows(business.id)).toHaveLength(0);
    expect(storedFiles().length).toBe(before);
  });

  test("success: {message, broadcastId, recipients}; one Queued delivery per ACTIVE subscriber, channel and phone snapshotted", async () => {
    const { business, subs } = businessWithSubscribers(owner.id, 3, 1);
    // The WhatsApp subscriber wrote an hour ago: inside WhatsApp's 24-hour window, so not skipped.
    ctx.repos.customerInbound.record(subs[0]!.customer.id, "WhatsApp", ctx.clock.now().getTime() - 3_600_000);
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "  20% off all bread today!  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Broadcast queued: 3 messages to 3 subscribers.", broadcastId: expect.any(Number), recipients: 3 });
    const [row] = broadcastRows(business.id);
    expect(row!.id).toBe(res.body.broadcastId);
    expect(row!.total).toBe(3);
    expect(row!.messageText).toBe("20% off all bread today!");
    expect(row!.imagePath).toBeNull();
    expect(row!.createdBy).toBe(owner.id);
    expect(row!.completedAt).toBeNull();
    expect(row!.createdAt.getTime()).toBe(ctx.clock.now().getTime());
    const rows = deliveryRows(row!.id);
    expect(rows.map((d) => ({ customerId: d.customerId, channel: d.channel, toPhone: d.toPhone, status: d.status, businessId: d.businessId }))).toEqual(
      subs.map((s) => ({
        customerId: s.customer.id,
        channel: s.subscription.contactPreference,
        toPhone: s.customer.phone,
        status: "Queued",
        businessId: business.id,
      })),
    );
    expect(rows.map((d) => d.channel).sort()).toEqual(["SMS", "SMS", "WhatsApp"]);
    for (const d of rows) {
      expect(d.attempts).toBe(0);
      expect(d.nextAttemptAt.getTime()).toBe(ctx.clock.now().getTime());
      expect(d.providerId).toBeNull();
    }
  });

  test("a subscriber under an all-business STOP gets no delivery, even with an 'active' subscription; counted out too; back after START", async () => {
    const { business, subs } = businessWithSubscribers(owner.id, 3);
    const stopped = subs[1]!.customer;
    ctx.services.optOuts.optOutCustomer(stopped.id, { source: "sms-stop", at: ctx.clock.now() });
    // e.g. they subscribed again on the page afterwards, without texting START: the carrier still blocks them.
    ctx.db.update(subscriptions).set({ status: "active", unsubscribedAt: null }).where(eq(subscriptions.id, subs[1]!.subscription.id)).run();
    const others = [subs[0]!.customer.id, subs[2]!.customer.id];
    expect((await api.get(`/api/business/GetSubscriberCount?businessId=${business.id}`, { token: owner.token })).body).toEqual({ total: 2, sms: 2, whatsapp: 0 });
    expect(ctx.services.broadcasts.dryRun(OPERATOR, { businessId: String(business.id), messageText: "x" }).recipients.map((r) => r.customerId)).toEqual(others);
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Not for the one who said STOP" });
    expect(res.body).toEqual({ message: "Broadcast queued: 2 messages to 2 subscribers.", broadcastId: expect.any(Number), recipients: 2 });
    expect(deliveryRows(res.body.broadcastId).map((d) => d.customerId)).toEqual(others);

    ctx.services.optOuts.optInCustomer(stopped.id, { source: "sms-start", at: ctx.clock.now() });
    const after = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Welcome back" });
    expect(deliveryRows(after.body.broadcastId).map((d) => d.customerId)).toEqual(subs.map((s) => s.customer.id));
  });

  test("every active subscriber under a STOP: the no-subscriber warning, nothing written", async () => {
    const { business, subs } = businessWithSubscribers(owner.id, 1);
    ctx.services.optOuts.optOutCustomer(subs[0]!.customer.id, { source: "twilio-21610", at: ctx.clock.now() });
    ctx.db.update(subscriptions).set({ status: "active", unsubscribedAt: null }).where(eq(subscriptions.id, subs[0]!.subscription.id)).run();
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Anyone?" });
    expect(res.body).toEqual({ warning: NO_SUBSCRIBERS });
    expect(broadcastRows(business.id)).toHaveLength(0);
  });

  test("one subscriber: singular wording", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Just you" });
    expect(res.body.message).toBe("Broadcast queued: 1 message to 1 subscriber.");
  });

  test("snapshot: later subscribers, unsubscribes and phone changes do not alter a written broadcast", async () => {
    const { business, subs } = businessWithSubscribers(owner.id, 2);
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Snapshot" });
    const id = res.body.broadcastId as number;
    insertSubscriber(ctx, business.id);
    ctx.db.update(subscriptions).set({ status: "unsubscribed" }).where(eq(subscriptions.id, subs[0]!.subscription.id)).run();
    ctx.db.update(customers).set({ phone: "+14155559999" }).where(eq(customers.id, subs[1]!.customer.id)).run();
    const rows = deliveryRows(id);
    expect(rows.map((d) => d.customerId)).toEqual(subs.map((s) => s.customer.id));
    expect(rows[1]!.toPhone).toBe(subs[1]!.customer.phone);
    expect(ctx.services.broadcasts.status(ctx.repos.users.findById(owner.id)!, id).total).toBe(2);
  });

  test("a failure inside the transaction leaves no broadcast, no delivery and no stored image", async () => {
    const { business, subs } = businessWithSubscribers(owner.id, 5);
    const sqlite = ctx.db.$client;
    // Fails on the 4th subscriber's row, in the middle of the INSERT ... SELECT.
    sqlite.run(
      `CREATE TEMP TRIGGER fail_mid_broadcast BEFORE INSERT ON deliveries WHEN NEW.customer_id = ${subs[3]!.customer.id}
       BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`,
    );
    const filesBefore = storedFiles();
    const uploadsBefore = ctx.db.select().from(uploads).all().length;
    const deliveriesBefore = ctx.db.select().from(deliveries).all().length;
    try {
      const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Doomed", Image: imageFile(PNG) });
      expect(res.status).toBe(500);
    } finally {
      sqlite.run("DROP TRIGGER fail_mid_broadcast");
    }
    expect(broadcastRows(business.id)).toHaveLength(0);
    expect(ctx.db.select().from(deliveries).all().length).toBe(deliveriesBefore);
    expect(ctx.db.select().from(uploads).all().length).toBe(uploadsBefore);
    expect(storedFiles()).toEqual(filesBefore);
    // and the same publish works once the fault is gone
    const ok = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Doomed" });
    expect(ok.body.recipients).toBe(5);
  });
});

describe("the image (by content, 5 MB)", () => {
  test("a real image is stored as a broadcast upload and becomes the broadcast's imagePath", async () => {
    for (const [bytes, name, type] of [
      [PNG, "a.png", "image/png"],
      [JPEG, "b.jpg", "image/jpeg"],
      [GIF, "c.gif", "image/gif"],
    ] as const) {
      const { business } = businessWithSubscribers(owner.id, 1);
      const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Look", Image: imageFile(bytes, name, type) });
      expect(res.status).toBe(200);
      const row = broadcastRows(business.id)[0]!;
      expect(row.imagePath).toMatch(/^\/uploads\/[0-9a-f]{32}\.(png|jpg|gif)$/);
      const upload = ctx.services.uploads.find(row.imagePath!)!;
      expect(upload.kind).toBe("broadcast");
      expect(upload.ownerId).toBe(owner.id);
    }
  });

  test("files that are not images: 400 'Invalid file type. Only image files are allowed.', nothing stored", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const before = storedFiles();
    for (const d of DISGUISED) {
      const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "x", Image: imageFile(d.bytes, d.filename, d.type) });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(BROADCAST_INVALID_IMAGE);
      expect(res.body.error).toBe("Invalid file type. Only image files are allowed.");
    }
    const asText = await publish(owner.token, { BusinessId: String(business.id), MessageText: "x", Image: "not a file" });
    expect(asText.status).toBe(400);
    expect(asText.body.error).toBe(BROADCAST_INVALID_IMAGE);
    expect(storedFiles()).toEqual(before);
    expect(broadcastRows(business.id)).toHaveLength(0);
  });

  test("an empty file input (no file chosen) means no image", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "x", Image: new File([], "", { type: "application/octet-stream" }) });
    expect(res.status).toBe(200);
    expect(broadcastRows(business.id)[0]!.imagePath).toBeNull();
  });

  test("exactly 5 MB is accepted; one byte more: 413 'File size cannot exceed 5MB.'", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const ok = await publish(owner.token, { BusinessId: String(business.id), MessageText: "big", Image: imageFile(padded(PNG, MAX_IMAGE_BYTES)) });
    expect(ok.status).toBe(200);
    const before = storedFiles();
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "bigger", Image: imageFile(padded(PNG, MAX_IMAGE_BYTES + 1)) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe(BROADCAST_IMAGE_TOO_LARGE);
    expect(res.body.error).toBe("File size cannot exceed 5MB.");
    expect(storedFiles()).toEqual(before);
    expect(broadcastRows(business.id)).toHaveLength(1);
  });
});

describe("the body limit", () => {
  test("a body over 5 MB + the form's overhead: 413 with the spec's text, declared or streamed (chunked); nothing written", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const before = storedFiles();
    const request = new Request("http://localhost/x", { method: "POST", body: form({ BusinessId: String(business.id), MessageText: "huge", Image: imageFile(padded(PNG, MAX_IMAGE_BYTES + 200_000)) }) });
    const type = request.headers.get("content-type")!;
    const bytes = new Uint8Array(await request.arrayBuffer());
    const declared = await api.call("POST", PUBLISH, { body: bytes, headers: { "content-type": type, "content-length": String(bytes.length) }, token: owner.token });
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ error: BROADCAST_IMAGE_TOO_LARGE, code: "payload_too_large" });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
    const chunked = await api.call("POST", PUBLISH, { body: stream, headers: { "content-type": type }, token: owner.token });
    expect(chunked.status).toBe(413);
    expect(chunked.body).toEqual({ error: BROADCAST_IMAGE_TOO_LARGE, code: "payload_too_large" });
    expect(storedFiles()).toEqual(before);
    expect(broadcastRows(business.id)).toHaveLength(0);
  });
});

describe("reads: subscriber count, history, status", () => {
  test("GetSubscriberCount: active subscribers by channel; another owner's business: 404", async () => {
    const { business } = businessWithSubscribers(owner.id, 5, 2);
    const res = await api.get(`/api/business/GetSubscriberCount?businessId=${business.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total: 5, sms: 3, whatsapp: 2 });
    expect((await api.get(`/api/business/GetSubscriberCount?businessId=${business.id}`, { token: other.token })).status).toBe(404);
    expect((await api.get(`/api/business/GetSubscriberCount?businessId=${business.id}`, { token: admin.token })).status).toBe(200);
    expect((await api.get(`/api/business/GetSubscriberCount?businessId=${business.id}`)).status).toBe(401);
    expect((await api.get("/api/business/GetSubscriberCount", { token: owner.token })).status).toBe(400);
  });

  test("GetBroadcasts: newest first with counts (queued = Queued+Sending+Uncertain, skipped and expired apart from failed); GetBroadcastStatus: one", async () => {
    const { business } = businessWithSubscribers(owner.id, 7);
    const first = await publish(owner.token, { BusinessId: String(business.id), MessageText: "First" });
    ctx.clock.advance(60_000);
    const second = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Second", Image: imageFile(PNG) });
    const rows = deliveryRows(second.body.broadcastId);
    const set = (i: number, status: typeof deliveries.$inferSelect.status) =>
      ctx.db.update(deliveries).set({ status }).where(eq(deliveries.id, rows[i]!.id)).run();
    set(0, "Sending");
    set(1, "Uncertain");
    set(2, "Sent");
    set(3, "Delivered");
    set(4, "Failed");
    set(5, "Skipped");
    set(6, "Expired");
    const res = await api.get(`/api/business/GetBroadcasts?businessId=${business.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    const [newest, oldest] = res.body;
    expect(newest).toEqual({
      id: second.body.broadcastId,
      businessId: business.id,
      messageText: "Second",
      couponCode: null,
      uniqueCoupons: false,
      couponExpiresAt: null,
      // Issue 25: whether its links go as short links (a text without a URL has none to track).
      trackLinks: false,
      imagePath: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\.png$/),
      createdAt: ctx.clock.now().toISOString(),
      total: 7,
      queued: 2,
      sent: 1,
      delivered: 1,
      failed: 1,
      skipped: 1,
      expired: 1,
      cancelled: 0,
      retryable: 2, // the failed one and the expired one
      waiting: { quietHours: 0, dailyLimit: 0, quietHoursUntil: null },
      queueAhead: expect.any(Number), // the other shops of this file's world still sending
      completedAt: null,
      scheduledFor: null,
      startedAt: ctx.clock.now().toISOString(),
      cancelledAt: null,
      state: "sending",
    });
    expect(newest.queued + newest.sent + newest.delivered + newest.failed + newest.skipped + newest.expired + newest.cancelled).toBe(newest.total);
    expect(oldest).toMatchObject({ id: first.body.broadcastId, messageText: "First", imagePath: null, total: 7, queued: 7, sent: 0, failed: 0 });

    const one = await api.get(`/api/business/GetBroadcastStatus?id=${second.body.broadcastId}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(newest);

    expect((await api.get(`/api/business/GetBroadcasts?businessId=${business.id}`, { token: other.token })).status).toBe(404);
    expect((await api.get(`/api/business/GetBroadcastStatus?id=${second.body.broadcastId}`, { token: other.token })).status).toBe(404);
    expect((await api.get(`/api/business/GetBroadcastStatus?id=${second.body.broadcastId}`, { token: admin.token })).status).toBe(200);
    expect((await api.get("/api/business/GetBroadcastStatus?id=99999999", { token: owner.token })).status).toBe(404);
  });

  test("ListBroadcasts: the same summaries a page at a time, newest first; confirmations never; a cursor stable under new sends", async () => {
    const { business } = businessWithSubscribers(owner.id, 3);
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) {
      ids.push((await publish(owner.token, { BusinessId: String(business.id), MessageText: `Deal ${i}` })).body.broadcastId);
      ctx.clock.advance(i === 2 ? 0 : 60_000); // two share a creation time: the id orders them
    }
    insertBroadcast(ctx, { businessId: business.id, kind: "confirmation", messageText: "Reply YES" });
    const LIST = `/api/business/ListBroadcasts?businessId=${business.id}&limit=2`;
    const first = await api.get(LIST, { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(5);
    expect(first.body.items.map((b: { id: number }) => b.id)).toEqual(ids.slice(3).reverse());
    const whole = (await api.get(`/api/business/GetBroadcasts?businessId=${business.id}`, { token: owner.token })).body;
    expect(first.body.items).toEqual(whole.slice(0, 2));
    // A send between pages: the next page goes on from where the first ended.
    await publish(owner.token, { BusinessId: String(business.id), MessageText: "Deal 6" });
    const second = await api.get(`${LIST}&cursor=${first.body.nextCursor}`, { token: owner.token });
    const third = await api.get(`${LIST}&cursor=${second.body.nextCursor}`, { token: owner.token });
    expect([...second.body.items, ...third.body.items].map((b: { id: number }) => b.id)).toEqual(ids.slice(0, 3).reverse());
    expect(third.body.nextCursor).toBeNull();
    expect(third.body.total).toBe(6);
  });

  test("ListBroadcasts: another owner's business is 404, the admin may read it, nobody signed in 401; bad cursor or limit 400", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    await publish(owner.token, { BusinessId: String(business.id), MessageText: "Hello" });
    const LIST = `/api/business/ListBroadcasts?businessId=${business.id}`;
    expect((await api.get(LIST, { token: other.token })).status).toBe(404);
    expect((await api.get(LIST, { token: admin.token })).body.total).toBe(1);
    expect((await api.get(LIST)).status).toBe(401);
    const bad = await api.get(`${LIST}&cursor=${Buffer.from('["x",1]').toString("base64url")}`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ cursor: CURSOR_INVALID });
    expect((await api.get(`${LIST}&limit=500`, { token: owner.token })).body.fields).toEqual({ limit: LIMIT_INVALID });
    expect((await api.get("/api/business/ListBroadcasts", { token: owner.token })).status).toBe(400);
  });

  test("a business without broadcasts: []", async () => {
    const { business } = businessWithSubscribers(owner.id, 1);
    const res = await api.get(`/api/business/GetBroadcasts?businessId=${business.id}`, { token: owner.token });
    expect(res.body).toEqual([]);
  });
});

describe("RetryFailedDeliveries", () => {
  test("requeues retryable Failed deliveries only (never 21610 opt-outs, invalid numbers or Skipped) and reopens the broadcast", async () => {
    const { business } = businessWithSubscribers(owner.id, 6);
    const res = await publish(owner.token, { BusinessId: String(business.id), MessageText: "Retry me" });
    const id = res.body.broadcastId as number;
    const rows = deliveryRows(id);
    const fail = (i: number, errorCode: number | null, status: "Failed" | "Skipped" | "Sent" = "Failed") =>
      ctx.db
        .update(deliveries)
        .set({ status, errorCode, errorMessage: "boom", providerId: status === "Sent" ? null : `SM${"0".repeat(31)}${i}` })
        .where(eq(deliveries.id, rows[i]!.id))
        .run();
    fail(0, null); // refused before reaching the provider, or gave up after retries
    fail(1, 30003); // unreachable handset: worth another try
    fail(2, 21610); // opted out: never
    fail(3, 21211); // invalid number: never
    fail(4, null, "Skipped");
    fail(5, null, "Sent");
    ctx.db.update(broadcasts).set({ completedAt: ctx.clock.now() }).where(eq(broadcasts.id, id)).run();

    expect((await api.post(`/api/business/RetryFailedDeliveries?broadcastId=${id}`, {}, { token: other.token })).status).toBe(404);
    const before = await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token: owner.token });
    expect(before.body).toMatchObject({ failed: 4, skipped: 1, retryable: 2 });
    const retry = await api.post(`/api/business/RetryFailedDeliveries?broadcastId=${id}`, {}, { token: owner.token });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ message: "Requeued 2 failed messages.", requeued: 2 });
    const after = deliveryRows(id);
    expect(after.map((d) => d.status)).toEqual(["Queued", "Queued", "Failed", "Failed", "Skipped", "Sent"]);
    expect(after[0]!.errorMessage).toBeNull();
    expect(after[1]!.providerId).toBeNull();
    expect(after[2]!.errorCode).toBe(21610);
    expect(broadcastRows(business.id)[0]!.completedAt).toBeNull();
    expect((await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token: owner.token })).body).toMatchObject({ failed: 2, retryable: 0 });

    const again = await api.post(`/api/business/RetryFailedDeliveries?broadcastId=${id}`, {}, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "No failed messages can be retried.", code: "conflict" });
    expect((await api.post("/api/business/RetryFailedDeliveries", {}, { token: owner.token })).status).toBe(400);
  });
});
