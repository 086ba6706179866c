// Issue 23 item 11: the dispatcher is fair to every shop on the install. Ten shops broadcasting at once go out
// interleaved (the businesses take turns), not one list after another; a confirmation queued behind a big broadcast
// goes first. Through the real dispatcher and the Twilio adapter against the fake Twilio, on the fake clock.
import { afterEach, expect, test } from "bun:test";
import type { DispatcherOptions } from "../../src/dispatch/dispatcher.ts";
import { TURNS_PER_CLAIM } from "../../src/repos/sql/fair-turns.ts";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext } from "../helpers/context.ts";
import { apiClient, PUBLIC_URL } from "../helpers/api.ts";
import { dispatchUntil } from "../helpers/dispatch-run.ts";
import { contextOnFake, fakeTwilioForFile, queuedBroadcast, shopWithSubscribers } from "../helpers/worlds.ts";

const fake = fakeTwilioForFile();
let ctx: TestContext;
afterEach(() => ctx.close());

/** Runs the real dispatcher (through the Twilio adapter, to the fake Twilio) until `done`. */
const dispatch = (done: () => boolean, options: Partial<DispatcherOptions> = {}) =>
  dispatchUntil(ctx, done, options.rate ?? 50, options, 20_000);
const newContext = () => (ctx = contextOnFake(fake, { NEARCAST_PUBLIC_URL: PUBLIC_URL }));

const completed = (id: number) => ctx.repos.broadcasts.findById(id)?.completedAt != null;
/** The numbers the fake Twilio was asked to text, in the order the requests came. */
const sentTo = () => fake.sends().map((r) => String(r.form.To));

test("ten shops broadcasting 50 each at once take turns, one message each (paced: one claimed per send)", async () => {
  newContext();
  const { shops, order } = await tenShopsSending({ rate: 50, concurrency: 1 });
  // Every shop's first message is among the first 10 + a few sends: nobody waits for another shop's list.
  expect(Math.max(...shops.map((_, i) => order.indexOf(i)))).toBeLessThan(14);
  // And they stay interleaved: in every 100 sends each shop has about its tenth (with ten shops, 10 each).
  for (let start = 0; start < 500; start += 100) {
    const window = order.slice(start, start + 100);
    for (let i = 0; i < 10; i++) expect(Math.abs(window.filter((s) => s === i).length - 10)).toBeLessThanOrEqual(2);
  }
});

test("unlimited, claiming batches of 100: each batch is a run of TURNS_PER_CLAIM shops, and the next batch goes on round", async () => {
  newContext();
  const { shops, order } = await tenShopsSending({ rate: Number.POSITIVE_INFINITY, concurrency: 4, batchSize: 100 });
  const rounds = Math.ceil(10 / TURNS_PER_CLAIM);
  // Every shop has started within the first `rounds` batches, long before the first shop is done with its 50.
  const firstAt = shops.map((_, i) => order.indexOf(i));
  const lastAt = shops.map((_, i) => order.lastIndexOf(i));
  expect(Math.max(...firstAt)).toBeLessThan(rounds * 100 + 10);
  expect(Math.max(...firstAt)).toBeLessThan(Math.min(...lastAt));
  // Inside a batch the shops alternate: no shop sends more than a few in a row.
  let run = 1;
  let longest = 1;
  for (let i = 1; i < order.length; i++) longest = Math.max(longest, (run = order[i] === order[i - 1] ? run + 1 : 1));
  expect(longest).toBeLessThan(10);
});

/** Ten shops with 50 subscribers each publish at once; the dispatcher sends all; the shop (0..9) of each send in order. */
async function tenShopsSending(opts: Partial<DispatcherOptions>) {
  const shops: Awaited<ReturnType<typeof queuedBroadcast>>[] = [];
  for (let i = 0; i < 10; i++) shops.push(await queuedBroadcast(ctx, 50, { text: `Shop ${i} deal` }));
  const shopOf = new Map(shops.flatMap((s, i) => s.phones.map((p) => [p, i] as const)));
  await dispatch(() => shops.every((s) => completed(s.broadcastId)), opts);
  expect(sentTo()).toHaveLength(500);
  expect(new Set(sentTo()).size).toBe(500); // everyone exactly once
  return { shops, order: sentTo().map((to) => shopOf.get(to)!) };
}

test("the turn is the business's: a shop with two broadcasts gets one turn, like a shop with one", async () => {
  newContext();
  const two = await queuedBroadcast(ctx, 20, { text: "First of two" });
  const second = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(two.business.id), messageText: "Second of two" });
  if (!("broadcastId" in second)) throw new Error("nothing published");
  const one = await queuedBroadcast(ctx, 20, { text: "Only one" });
  await dispatch(() => [two.broadcastId, second.broadcastId, one.broadcastId].every(completed), { concurrency: 1 });
  expect(sentTo()).toHaveLength(60);
  const oneShop = new Set(one.phones);
  const firstForty = sentTo().slice(0, 40).map((to) => (oneShop.has(to) ? "one" : "two"));
  // Strict alternation: the shop with two broadcasts does not get two turns to the other's one.
  expect(firstForty.filter((s) => s === "one")).toHaveLength(20);
  for (let i = 0; i + 1 < 40; i++) expect(firstForty[i]).not.toBe(firstForty[i + 1]);
});

test("a confirmation queued behind a big broadcast goes first", async () => {
  newContext();
  const big = await queuedBroadcast(ctx, 200, { text: "Big list" });
  const other = shopWithSubscribers(ctx, 0);
  const joined = await apiClient(ctx).post("/api/subscription/Subscribe", { businessId: other.business.id, phone: "+12125550199", contactPreference: "SMS" });
  expect(joined.status).toBe(200);
  await dispatch(() => completed(big.broadcastId) && sentTo().includes("+12125550199"), { concurrency: 1 });
  expect(sentTo()[0]).toBe("+12125550199");
  expect(fake.sends()[0]!.form.Body).toContain("Reply STOP");
  expect(sentTo()).toHaveLength(201);
});
