// Issue 23 item 8: honest counts and a way to stop. CancelBroadcast stops a broadcast that is sending (what is not yet
// handed to Twilio becomes Cancelled, what is in flight finishes), also while the dispatcher runs against the fake
// Twilio; skipped is counted apart from failed in the status API and the CSV report; Retry failed with nothing to
// retry is a 409.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { deliveries, subscriptions } from "../../src/db/schema.ts";
import { NOTHING_TO_RETRY } from "../../src/services/broadcasts/reports.ts";
import { ALREADY_CANCELLED } from "../../src/services/broadcasts/schedule.ts";
import { ALREADY_FINISHED, stoppedMessage } from "../../src/services/broadcasts/stop.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { apiClient } from "../helpers/api.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";
import { type ApiScenario, request, runScenarios } from "../helpers/scenario.ts";
import { broadcastIn, contextOnFake, fakeTwilioForFile, member, ownerWithShop, shopWithSubscribers } from "../helpers/worlds.ts";

const CANCEL = "/api/business/CancelBroadcast";
const fake = fakeTwilioForFile();

function world() {
  const w = ownerWithShop(5);
  return { ...w, tokens: { owner: w.owner.token, other: w.other.token, admin: w.admin.token }, broadcastId: 0 };
}
type World = ReturnType<typeof world>;

const statuses = (w: { ctx: World["ctx"] }, id: number) =>
  w.ctx.db.select({ status: deliveries.status }).from(deliveries).where(eq(deliveries.broadcastId, id)).all().map((d) => d.status).sort();

/** A broadcast of the shop's 5 subscribers with one delivery claimed (Sending) and 4 Queued. */
const sending = async (w: World) => {
  w.broadcastId = (await broadcastIn(w.ctx, "sending", { businessId: w.businessId })).id;
};
const stopOf = (w: World) => `${CANCEL}?broadcastId=${w.broadcastId}`;

const stops = (as: string) => request<World>(as, "POST", stopOf);
const stoppedByOwner = {
  before: sending,
  expectBody: { message: stoppedMessage(4), cancelled: 4, broadcast: { state: "cancelled", total: 5, queued: 1, cancelled: 4, failed: 0 } },
  after: (w: World) => expect(statuses(w, w.broadcastId)).toEqual(["Cancelled", "Cancelled", "Cancelled", "Cancelled", "Sending"]),
};

const scenarios: ApiScenario<World>[] = [
  stops("owner")("a sending broadcast stops: the 4 queued are Cancelled, the one in flight goes on", 200, stoppedByOwner),
  stops("admin")("any owner's sending broadcast stops", 200, stoppedByOwner),
  stops("other")("another owner's broadcast: 404, nothing cancelled", 404, {
    before: sending,
    after: (w) => expect(statuses(w, w.broadcastId)).toEqual(["Queued", "Queued", "Queued", "Queued", "Sending"]),
  }),
  request<World>(undefined, "POST", stopOf)("anonymous: 401", 401, { before: sending }),
  stops("owner")("a finished broadcast: 409, nothing left to stop", 409, {
    before: async (w) => {
      w.broadcastId = (await broadcastIn(w.ctx, "completed", { businessId: w.businessId })).id;
    },
    expectBody: { error: ALREADY_FINISHED, code: "conflict" },
  }),
  stops("owner")("stopped twice: 409 the second time", 409, {
    before: async (w) => {
      await sending(w);
      w.ctx.services.broadcasts.cancel(OPERATOR, String(w.broadcastId));
    },
    expectBody: { error: ALREADY_CANCELLED, code: "conflict" },
  }),
];

describe("CancelBroadcast of a sending broadcast", () => {
  runScenarios(scenarios, { world: () => world(), done: (w) => w.ctx.close() });
});

describe("with the dispatcher sending through the fake Twilio", () => {
  test("stopped mid-way: every recipient gets the message exactly once or it is Cancelled, and the counts add up", async () => {
    const ctx = contextOnFake(fake);
    try {
      const api = apiClient(ctx);
      const owner = member(ctx);
      const shop = shopWithSubscribers(ctx, 40, { business: { ownerId: owner.id } });
      const { id } = await broadcastIn(ctx, "queued", { businessId: shop.business.id });
      fake.latencyMs = 3;
      let stop: Promise<{ status: number; body: any }> | null = null;
      const summary = () => ctx.services.broadcasts.status(OPERATOR, id);
      await dispatchUntil(ctx, () => {
        if (!stop && fake.sends().length >= 5) stop = api.post(`${CANCEL}?broadcastId=${id}`, undefined, { token: owner.token });
        return stop !== null && summary().completedAt !== null;
      }, 20);
      const res = await stop!;
      expect(res.status).toBe(200);
      const sentTo = fake.sends().map((r) => String(r.form.To));
      expect(new Set(sentTo).size).toBe(sentTo.length);
      const s = summary();
      expect(s.state).toBe("cancelled");
      expect(s.cancelled).toBe(res.body.cancelled);
      expect(s.cancelled).toBeGreaterThan(0);
      expect(s.queued).toBe(0);
      expect(s.sent + s.delivered + s.failed + s.skipped + s.cancelled).toBe(40);
      // What Twilio got is exactly what is counted as sent; the rest were never handed over.
      expect(s.sent + s.delivered).toBe(sentTo.length);
      const rows = ctx.db.select().from(deliveries).where(eq(deliveries.broadcastId, id)).all();
      expect(rows.filter((r) => r.status === "Cancelled").map((r) => r.toPhone).some((p) => sentTo.includes(p))).toBe(false);
    } finally {
      ctx.close();
    }
  });
});

describe("skipped is not failed", () => {
  test("status API, retry and the CSV report count a skip and a failure apart, each with its reason", async () => {
    const ctx = contextOnFake(fake);
    try {
      const api = apiClient(ctx);
      const owner = member(ctx);
      const other = member(ctx);
      const shop = shopWithSubscribers(ctx, 4, { business: { ownerId: owner.id } });
      const { id } = await broadcastIn(ctx, "queued", { businessId: shop.business.id });
      // One unsubscribes before their turn (Skipped); Twilio refuses another's number (21211, not retryable).
      const gone = shop.subs[0]!.subscription;
      ctx.db.update(subscriptions).set({ status: "unsubscribed" }).where(eq(subscriptions.id, gone.id)).run();
      fake.scriptFor(shop.phones[1]!, "invalid_number");
      await dispatchUntil(ctx, () => ctx.repos.broadcasts.findById(id)!.completedAt !== null);

      const status = await api.get(`/api/business/GetBroadcastStatus?id=${id}`, { token: owner.token });
      expect(status.body).toMatchObject({ total: 4, sent: 2, failed: 1, skipped: 1, cancelled: 0, retryable: 0, queued: 0 });
      const retry = await api.post(`/api/business/RetryFailedDeliveries?broadcastId=${id}`, undefined, { token: owner.token });
      expect(retry.status).toBe(409);
      expect(retry.body).toEqual({ error: NOTHING_TO_RETRY, code: "conflict" });

      const report = await api.get(`/api/business/BroadcastReport?id=${id}`, { token: owner.token });
      expect(report.status).toBe(200);
      const lines = String(report.body).trimEnd().split("\r\n");
      expect(lines[0]).toBe("phone,channel,status,reason,sent_at");
      expect(lines).toHaveLength(5);
      const byPhone = (p: string) => lines.find((l) => l.startsWith(`'${p},`))!;
      expect(byPhone(shop.phones[0]!)).toContain(",SMS,Skipped,Not sent: the customer unsubscribed before their turn.,");
      expect(byPhone(shop.phones[1]!)).toMatch(/,SMS,Failed,Invalid 'To' Phone Number,$/);
      expect(byPhone(shop.phones[2]!)).toMatch(/,SMS,Sent,,\d{4}-/);
      expect((await api.get(`/api/business/BroadcastReport?id=${id}`, { token: other.token })).status).toBe(404);
    } finally {
      ctx.close();
    }
  });
});
