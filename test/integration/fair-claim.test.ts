// Issue 23 item 11 at the claim: the order it hands out (confirmations, then the businesses in turn), that every step
// of it is an index seek (no walk of a 1,000,000-row queue), and the daily cap counted per person PER BUSINESS.
import { afterEach, expect, test } from "bun:test";
import { TURNS_PER_CLAIM } from "../../src/repos/sql/fair-turns.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { queryPlans } from "../helpers/query-plans.ts";
import { insertPersonSubscribedTo, insertSubscriber } from "../helpers/customer-factories.ts";
import { deliveryById, insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";

const HOUR = 3_600_000;
let ctx: TestContext;
afterEach(() => ctx?.close());

const NOW = new Date("2026-01-15T12:00:00Z");

/** A business with a broadcast of `n` queued deliveries (one subscriber each); the delivery ids in order. */
function shopQueue(n: number, kind: "promotion" | "confirmation" = "promotion") {
  const business = insertBusiness(ctx);
  const broadcast = insertBroadcast(ctx, { businessId: business.id, kind });
  const ids = Array.from({ length: n }, () => insertDelivery(ctx, broadcast, insertSubscriber(ctx, business.id).customer, { nextAttemptAt: NOW }).id);
  return { business, broadcast, ids };
}

const businessOf = (id: number) => deliveryById(ctx, id).businessId;

test("a batch interleaves the businesses, confirmations first; the next claim goes on from the business served last", () => {
  ctx = testContext();
  const a = shopQueue(6);
  const b = shopQueue(6);
  const c = shopQueue(6);
  const confirmation = shopQueue(1, "confirmation");
  const first = ctx.repos.deliveries.claim(NOW.getTime(), 7).map((d) => d.id);
  expect(first[0]).toBe(confirmation.ids[0]);
  expect(first.slice(1).map((id) => businessOf(id))).toEqual([a, b, c, a, b, c].map((s) => s.business.id));
  expect(first.slice(1)).toEqual([a.ids[0]!, b.ids[0]!, c.ids[0]!, a.ids[1]!, b.ids[1]!, c.ids[1]!]);
  // One at a time, the turns go round: a, b, c, a ...
  const next = [0, 1, 2, 3].map(() => ctx.repos.deliveries.claim(NOW.getTime(), 1)[0]!.id);
  expect(next).toEqual([a.ids[2]!, b.ids[2]!, c.ids[2]!, a.ids[3]!]);
  // A business whose only rows are not due yet is passed over, not waited for.
  const later = shopQueue(0);
  insertDelivery(ctx, later.broadcast, insertSubscriber(ctx, later.business.id).customer, { nextAttemptAt: new Date(NOW.getTime() + HOUR) });
  expect(ctx.repos.deliveries.claim(NOW.getTime(), 20).map((d) => businessOf(d.id))).toEqual([b, c, a, b, c, a, b, c].map((s) => s.business.id));
});

test(`a claim serves at most ${TURNS_PER_CLAIM} businesses, a run of each (one part of the file each); the next claim goes on round`, () => {
  ctx = testContext();
  const shops = [0, 1, 2, 3, 4, 5].map(() => shopQueue(10));
  const per = 3;
  const first = ctx.repos.deliveries.claim(NOW.getTime(), TURNS_PER_CLAIM * per).map((d) => businessOf(d.id));
  const served = shops.slice(0, TURNS_PER_CLAIM).map((s) => s.business.id);
  expect(first).toEqual(Array.from({ length: per }, () => served).flat());
  // The next claim starts with the shops not served yet, then round to the first ones.
  const next = ctx.repos.deliveries.claim(NOW.getTime(), TURNS_PER_CLAIM).map((d) => businessOf(d.id));
  expect(next).toEqual([...shops.slice(TURNS_PER_CLAIM), ...shops].slice(0, TURNS_PER_CLAIM).map((s) => s.business.id));
});

test("fewer businesses due than turns: the ones due fill the batch with longer runs, still interleaved", () => {
  ctx = testContext();
  const [a, b] = [shopQueue(10), shopQueue(10)];
  const got = ctx.repos.deliveries.claim(NOW.getTime(), 12).map((d) => businessOf(d.id));
  expect(got).toEqual(Array.from({ length: 6 }, () => [a.business.id, b.business.id]).flat());
});

/** Every statement `run` prepares, with the plan SQLite picks for it. */
const plansOf = (run: () => unknown) => queryPlans(ctx.db.$client, run);

test("the fair claim seeks by index: the next business and its due rows, the unfinished confirmations; no table is scanned", () => {
  ctx = testContext();
  shopQueue(3);
  shopQueue(1, "confirmation");
  const plans = plansOf(() => ctx.repos.deliveries.claim(NOW.getTime(), 10));
  const find = (needle: string) => plans.find((p) => p.sql.includes(needle))!;
  const nextBusiness = find("business_id > ?1");
  const dueOf = find("business_id = ?1 AND next_attempt_at <= ?2");
  const confirmations = find("b.kind IN ('confirmation', 'reply') AND b.completed_at IS NULL");
  expect(nextBusiness.plan.join("\n")).toMatch(/deliveries_queued_business_due_idx/);
  expect(dueOf.plan.join("\n")).toMatch(/deliveries_queued_business_due_idx \(business_id=\? AND next_attempt_at<\?\)/);
  expect(confirmations.plan.join("\n")).toMatch(/broadcasts_unfinished_idx \(kind=\?\)/);
  expect(find("json_each(?2)").plan.join("\n")).toMatch(/USING INTEGER PRIMARY KEY/);
  for (const p of [nextBusiness, dueOf, confirmations]) {
    expect({ sql: p.sql, scans: p.plan.filter((d) => /^SCAN (deliveries|broadcasts|d|b)\b/.test(d.trim())) }).toEqual({ sql: p.sql, scans: [] });
    // The order comes from the index (a sort only of the few unfinished confirmations' rows).
    if (p !== confirmations) expect(p.plan.filter((d) => /TEMP B-TREE/.test(d))).toEqual([]);
  }
});

test("a broadcast's place (queueAhead) is a count over the unfinished broadcasts only (broadcasts_unfinished_idx)", () => {
  ctx = testContext();
  shopQueue(3);
  const plans = plansOf(() => ctx.repos.broadcasts.otherBusinessesSending(1));
  expect(plans).toHaveLength(1);
  expect(plans[0]!.plan.join("\n")).toMatch(/broadcasts_unfinished_idx \(kind=\?\)/);
  expect(plans[0]!.plan.filter((d) => /^SCAN broadcasts\b/.test(d.trim()))).toEqual([]);
});

test("the daily cap counts per person per business: one person following four shops gets each shop's texts up to the cap", () => {
  ctx = testContext();
  ctx.clock.advance(Date.parse("2026-01-15T18:00:00Z") - ctx.clock.now().getTime()); // 13:00 in New York
  const now = ctx.clock.now().getTime();
  const shops = [0, 1, 2, 3].map(() => insertBusiness(ctx));
  const person = insertPersonSubscribedTo(ctx, "+12125550177", shops.map((s) => s.id));
  // Four texts queued from each shop.
  const queued = shops.map((s) => [0, 1, 2, 3].map(() => insertDelivery(ctx, insertBroadcast(ctx, { businessId: s.id }), person, { nextAttemptAt: new Date(now) }).id));
  const policy = ctx.services.settings.deferralPolicy();
  expect(policy.maxPerDay).toBe(3);
  const claimed = ctx.repos.deliveries.claim(now, 100, policy).map((d) => d.id);
  expect(claimed).toHaveLength(12);
  for (const ids of queued) {
    // Each shop's first three go; its fourth waits a day for that shop's oldest, whatever the other shops sent.
    expect(ids.slice(0, 3).every((id) => claimed.includes(id))).toBe(true);
    const fourth = deliveryById(ctx, ids[3]!);
    expect([fourth.status, fourth.deferredReason, fourth.nextAttemptAt.getTime()]).toEqual(["Queued", "daily_limit", now + 24 * HOUR]);
  }
});

test("the cap still holds per shop: three sent by a shop today hold its fourth, while another shop's text goes", () => {
  ctx = testContext();
  ctx.clock.advance(Date.parse("2026-01-15T18:00:00Z") - ctx.clock.now().getTime());
  const now = ctx.clock.now().getTime();
  const [bakery, cafe] = [insertBusiness(ctx), insertBusiness(ctx)];
  const person = insertPersonSubscribedTo(ctx, "+12125550178", [bakery.id, cafe.id]);
  for (const ago of [20, 10, 1]) {
    insertDelivery(ctx, insertBroadcast(ctx, { businessId: bakery.id }), person, { status: "Sent", sentAt: new Date(now - ago * HOUR), nextAttemptAt: new Date(now - ago * HOUR) });
  }
  const bakeryFourth = insertDelivery(ctx, insertBroadcast(ctx, { businessId: bakery.id }), person, { nextAttemptAt: new Date(now) });
  const cafeFirst = insertDelivery(ctx, insertBroadcast(ctx, { businessId: cafe.id }), person, { nextAttemptAt: new Date(now) });
  expect(ctx.repos.deliveries.claim(now, 100, ctx.services.settings.deferralPolicy()).map((d) => d.id)).toEqual([cafeFirst.id]);
  const held = deliveryById(ctx, bakeryFourth.id);
  expect([held.deferredReason, held.nextAttemptAt.getTime()]).toEqual(["daily_limit", now - 20 * HOUR + 24 * HOUR]);
});
