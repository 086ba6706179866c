// Issue 11 item 5, the API: PublishMessageToAllCustomers with ScheduledFor stores a broadcast that waits (no
// deliveries, total 0); bad ScheduledFor values answer 400 naming the field and store nothing (not even the image);
// UpdateScheduledBroadcast and CancelBroadcast work until it starts (409 after), for its owner or an admin (404 for
// anyone else, 401 anonymous); the history shows the state; the repeat check counts scheduled publishes.
// Not the scenario runner: publishes are multipart forms, then updated or cancelled: flows of requests.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { broadcasts, deliveries } from "../../src/db/schema.ts";
import { SCHEDULED_FOR_INVALID, SCHEDULED_FOR_PAST, SCHEDULED_FOR_TOO_FAR } from "../../src/schemas/broadcast-input.ts";
import { DUPLICATE_BROADCAST } from "../../src/services/broadcasts/repeat-check.ts";
import { ALREADY_CANCELLED, ALREADY_STARTED, NOTHING_TO_UPDATE } from "../../src/services/broadcasts/schedule.ts";
import type { ApiClient } from "../helpers/api.ts";
import type { TestContext } from "../helpers/context.ts";
import { sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { PNG } from "../helpers/images.ts";
import { type Member, ownerWithShop } from "../helpers/worlds.ts";

const PUBLISH = "/api/business/PublishMessageToAllCustomers";
const UPDATE = "/api/business/UpdateScheduledBroadcast";
const CANCEL = "/api/business/CancelBroadcast";
const TEXT = "Pumpkin pie preorders open tomorrow at 9!";
// The fake clock starts at 2026-01-15T12:00:00Z; 2026-01-16T09:00:00-05:00 is 14:00Z the next day.
const TOMORROW = "2026-01-16T09:00:00-05:00";
const TOMORROW_MS = Date.parse("2026-01-16T14:00:00Z");

let ctx: TestContext, api: ApiClient, owner: Member, other: Member, admin: Member, businessId: number;
beforeEach(() => {
  ({ ctx, api, owner, other, admin, businessId } = ownerWithShop(2));
});

afterEach(() => ctx.close());

function form(fields: Record<string, string | File>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return body;
}

const publish = (token: string, fields: Record<string, string | File>) => api.call("POST", PUBLISH, { body: form(fields), token });
const update = (token: string, fields: Record<string, string>) => api.call("POST", UPDATE, { body: form(fields), token });
const cancel = (token: string | undefined, id: number) => api.call("POST", CANCEL, { body: form({ BroadcastId: String(id) }), token });
const rows = () => ctx.db.select().from(broadcasts).where(eq(broadcasts.businessId, businessId)).all();
const deliveryCount = () => ctx.db.select().from(deliveries).all().length;
const uploadCount = () => (ctx.db.$client.query("SELECT COUNT(*) AS n FROM uploads").get() as { n: number }).n;

async function schedule(fields: Record<string, string | File> = {}) {
  const res = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT, ScheduledFor: TOMORROW, ...fields });
  expect(res.status).toBe(200);
  return res.body.broadcastId as number;
}

describe("PublishMessageToAllCustomers with ScheduledFor", () => {
  test("stores a waiting broadcast: scheduled_for set, not started, no deliveries, total 0", async () => {
    const res = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT, ScheduledFor: TOMORROW });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ scheduledFor: "2026-01-16T14:00:00.000Z", recipients: 2 });
    expect(res.body.message).toContain(`Broadcast scheduled for ${TOMORROW}`);
    const [row] = rows();
    expect(row).toMatchObject({ id: res.body.broadcastId, total: 0, startedAt: null, cancelledAt: null, completedAt: null });
    expect(row!.scheduledFor?.getTime()).toBe(TOMORROW_MS);
    expect(deliveryCount()).toBe(0);

    const list = await api.call("GET", `/api/business/GetBroadcasts?businessId=${businessId}`, { token: owner.token });
    expect(list.body).toEqual([
      expect.objectContaining({ id: row!.id, state: "scheduled", scheduledFor: "2026-01-16T14:00:00.000Z", startedAt: null, total: 0 }),
    ]);
  });

  test("Z, a compact offset, seconds and an image are accepted; the image is kept for the start", async () => {
    await schedule({ ScheduledFor: "2026-01-20T08:30:15Z", MessageText: "one" });
    await schedule({ ScheduledFor: "2026-01-20T08:30+0100", MessageText: "two", Image: new File([new Uint8Array(PNG)], "pie.png", { type: "image/png" }) });
    expect(rows().map((r) => r.scheduledFor?.toISOString())).toEqual(["2026-01-20T08:30:15.000Z", "2026-01-20T07:30:00.000Z"]);
    expect(rows()[1]!.imagePath).toMatch(/^\/uploads\//);
    expect(uploadCount()).toBe(1);
  });

  test("a business with nobody subscribed yet may schedule (recipients are decided at the start)", async () => {
    const empty = insertBusiness(ctx, { ownerId: owner.id }).id;
    const res = await publish(owner.token, { BusinessId: String(empty), MessageText: TEXT, ScheduledFor: TOMORROW });
    expect(res.status).toBe(200);
    expect(res.body.recipients).toBe(0);
  });

  const bad: Array<[string, string, string]> = [
    ["no offset", "2026-01-16T09:00:00", SCHEDULED_FOR_INVALID],
    ["a date only", "2026-01-16", SCHEDULED_FOR_INVALID],
    ["not a date", "tomorrow at nine", SCHEDULED_FOR_INVALID],
    ["an impossible day", "2026-02-30T09:00:00Z", SCHEDULED_FOR_INVALID],
    ["an impossible hour", "2026-01-16T25:00:00Z", SCHEDULED_FOR_INVALID],
    ["in the past", "2026-01-15T06:59:00-05:00", SCHEDULED_FOR_PAST],
    ["exactly now", "2026-01-15T12:00:00Z", SCHEDULED_FOR_PAST],
    ["more than 35 days ahead", "2026-02-19T12:00:01Z", SCHEDULED_FOR_TOO_FAR],
  ];
  for (const [what, value, message] of bad) {
    test(`ScheduledFor ${what}: 400 naming the field, nothing stored, not even the image`, async () => {
      const res = await publish(owner.token, {
        BusinessId: String(businessId),
        MessageText: TEXT,
        ScheduledFor: value,
        Image: new File([new Uint8Array(PNG)], "pie.png", { type: "image/png" }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message, code: "validation_failed", fields: { ScheduledFor: message } });
      expect(rows()).toHaveLength(0);
      expect(deliveryCount()).toBe(0);
      expect(uploadCount()).toBe(0);
    });
  }

  test("35 days ahead exactly is allowed", async () => {
    await schedule({ ScheduledFor: "2026-02-19T12:00:00Z" });
    expect(rows()).toHaveLength(1);
  });

  test("another owner's business: 403 and nothing stored; anonymous: 401", async () => {
    const res = await publish(other.token, { BusinessId: String(businessId), MessageText: TEXT, ScheduledFor: TOMORROW });
    expect(res.status).toBe(403);
    const anon = await api.call("POST", PUBLISH, { body: form({ BusinessId: String(businessId), MessageText: TEXT, ScheduledFor: TOMORROW }) });
    expect(anon.status).toBe(401);
    expect(rows()).toHaveLength(0);
  });

  test("the repeat check counts a scheduled publish; a cancelled one does not", async () => {
    const first = await schedule();
    const again = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: DUPLICATE_BROADCAST, duplicateOf: first });
    expect((await cancel(owner.token, first)).status).toBe(200);
    const now = await publish(owner.token, { BusinessId: String(businessId), MessageText: TEXT });
    expect(now.status).toBe(200);
    expect(deliveryCount()).toBe(2);
  });
});

describe("UpdateScheduledBroadcast", () => {
  test("the owner changes the text and the time; the history shows them", async () => {
    const id = await schedule();
    const res = await update(owner.token, { BroadcastId: String(id), MessageText: "Pie preorders open at 10!", ScheduledFor: "2026-01-16T10:00:00-05:00" });
    expect(res.status).toBe(200);
    expect(res.body.broadcast).toMatchObject({ id, messageText: "Pie preorders open at 10!", scheduledFor: "2026-01-16T15:00:00.000Z", state: "scheduled" });
    const time = await update(owner.token, { BroadcastId: String(id), ScheduledFor: "2026-01-17T10:00:00Z" });
    expect(time.body.broadcast).toMatchObject({ messageText: "Pie preorders open at 10!", scheduledFor: "2026-01-17T10:00:00.000Z" });
    expect(deliveryCount()).toBe(0);
  });

  test("an admin may edit; another owner gets 404 and nothing changes; anonymous 401", async () => {
    const id = await schedule();
    expect((await update(admin.token, { BroadcastId: String(id), MessageText: "By admin" })).status).toBe(200);
    const res = await update(other.token, { BroadcastId: String(id), MessageText: "Hijacked" });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect((await api.call("POST", UPDATE, { body: form({ BroadcastId: String(id), MessageText: "x" }) })).status).toBe(401);
    expect(rows()[0]!.messageText).toBe("By admin");
  });

  test("bad input: 400 naming the field, nothing changed", async () => {
    const id = await schedule();
    const none = await update(owner.token, { BroadcastId: String(id) });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe(NOTHING_TO_UPDATE);
    const past = await update(owner.token, { BroadcastId: String(id), MessageText: "new", ScheduledFor: "2026-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    expect(past.body.fields).toEqual({ ScheduledFor: SCHEDULED_FOR_PAST });
    const noId = await update(owner.token, { MessageText: "new" });
    expect(noId.status).toBe(400);
    expect(Object.keys(noId.body.fields)).toEqual(["BroadcastId"]);
    expect(rows()[0]).toMatchObject({ messageText: TEXT });
    expect(rows()[0]!.scheduledFor?.getTime()).toBe(TOMORROW_MS);
  });

  test("an immediate broadcast, or a scheduled one that started: an edit is 409 with a clear sentence (a cancel stops it)", async () => {
    const now = await publish(owner.token, { BusinessId: String(businessId), MessageText: "Now" });
    const res = await update(owner.token, { BroadcastId: String(now.body.broadcastId), MessageText: "Changed" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: ALREADY_STARTED, code: "conflict" });

    const id = await schedule();
    ctx.clock.advance(TOMORROW_MS - ctx.clock.now().getTime());
    expect(ctx.repos.deliveries.startDueBroadcasts(ctx.clock.now().getTime())).toEqual([id]);
    expect(ctx.repos.deliveries.enqueueNextChunk(id, ctx.clock.now().getTime())).toEqual({ written: 2, done: true, total: 2 });
    owner.token = sessionFor(ctx, owner); // a day later: a fresh session
    const late = await update(owner.token, { BroadcastId: String(id), MessageText: "Too late" });
    expect(late.status).toBe(409);
    expect(late.body.error).toBe(ALREADY_STARTED);
    // Issue 23 item 8: a started broadcast can be stopped (it was 409 before); its 2 queued messages are Cancelled.
    const stopped = await cancel(owner.token, id);
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ cancelled: 2, broadcast: { state: "cancelled", queued: 0, cancelled: 2 } });
    expect((await cancel(owner.token, id)).body).toEqual({ error: ALREADY_CANCELLED, code: "conflict" });
  });
});

describe("CancelBroadcast", () => {
  test("cancelled: never started, shown as cancelled; a second cancel or an edit is 409", async () => {
    const id = await schedule();
    const res = await cancel(owner.token, id);
    expect(res.status).toBe(200);
    expect(res.body.broadcast).toMatchObject({ id, state: "cancelled" });
    expect(rows()[0]!.cancelledAt?.getTime()).toBe(ctx.clock.now().getTime());
    ctx.clock.advance(2 * 86_400_000);
    expect(ctx.repos.deliveries.startDueBroadcasts(ctx.clock.now().getTime())).toEqual([]);
    expect(ctx.repos.deliveries.nextDueAt()).toBeNull();
    ctx.repos.deliveries.completeFinished(ctx.clock.now().getTime());
    expect(rows()[0]).toMatchObject({ startedAt: null, completedAt: null, total: 0 });
    expect(deliveryCount()).toBe(0);
    owner.token = sessionFor(ctx, owner); // two days later: a fresh session
    const again = await cancel(owner.token, id);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe(ALREADY_CANCELLED);
    expect((await update(owner.token, { BroadcastId: String(id), MessageText: "x" })).status).toBe(409);
  });

  test("cross-tenant: another owner gets 404 and it stays scheduled; an admin may cancel; anonymous 401", async () => {
    const id = await schedule();
    expect((await cancel(other.token, id)).status).toBe(404);
    expect((await cancel(undefined, id)).status).toBe(401);
    expect(rows()[0]!.cancelledAt).toBeNull();
    expect((await cancel(admin.token, id)).status).toBe(200);
  });

  test("the id may come as ?broadcastId=; a missing or bad id is 400 naming BroadcastId", async () => {
    const id = await schedule();
    const missing = await api.call("POST", CANCEL, { body: form({}), token: owner.token });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.fields)).toEqual(["BroadcastId"]);
    const bad = await api.call("POST", `${CANCEL}?broadcastId=abc`, { token: owner.token });
    expect(bad.status).toBe(400);
    const ok = await api.call("POST", `${CANCEL}?broadcastId=${id}`, { token: owner.token });
    expect(ok.status).toBe(200);
  });
});
