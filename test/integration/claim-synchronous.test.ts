// Issue 10, item 5 at the repo level: the claim's commit is synchronous=FULL, and so are the two writes the outside
// world acts on at once (a STOP/START before the reply says it is done, a broadcast before the owner is told it is
// queued); every other write stays NORMAL. (The built executable's
// fsync before each send is checked in test/smoke/claim-durability.test.ts.)
import { afterEach, beforeEach, expect, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { queuedBroadcast } from "../helpers/worlds.ts";

let ctx: TestContext;
beforeEach(async () => {
  ctx = testContext();
  await queuedBroadcast(ctx, 3, { text: "Soup's on" });
});
afterEach(() => ctx.close());

const synchronous = () => (ctx.db.$client.query("PRAGMA synchronous").get() as { synchronous: number }).synchronous;

test("the claim commits at FULL (2) and leaves the connection at NORMAL (1) for every other write", () => {
  const sqlite = ctx.db.$client;
  const seen: number[] = [];
  // Watch the setting at the moment the claim's statement runs.
  const exec = sqlite.exec.bind(sqlite);
  const pragmas: string[] = [];
  sqlite.exec = ((sql: string, ...rest: unknown[]) => {
    if (/PRAGMA synchronous/.test(sql)) pragmas.push(sql);
    const r = exec(sql, ...(rest as []));
    if (/PRAGMA synchronous/.test(sql)) seen.push(synchronous());
    return r;
  }) as typeof sqlite.exec;
  expect(synchronous()).toBe(1);
  const claimed = ctx.repos.deliveries.claim(Date.now() + 1000, 2);
  expect(claimed.map((c) => c.status)).toEqual(["Sending", "Sending"]);
  expect(pragmas).toEqual(["PRAGMA synchronous = FULL", "PRAGMA synchronous = NORMAL"]);
  expect(seen).toEqual([2, 1]);
  expect(synchronous()).toBe(1);
  // Other writes do not touch it.
  ctx.repos.deliveries.recordSent(claimed[0]!.id, "SM1", "Queued", "queued", Date.now());
  expect(pragmas).toHaveLength(2);
});

/** The PRAGMA synchronous statements `run` issues. */
async function pragmasDuring(run: () => unknown): Promise<string[]> {
  const sqlite = ctx.db.$client;
  const exec = sqlite.exec.bind(sqlite);
  const pragmas: string[] = [];
  sqlite.exec = ((sql: string, ...rest: unknown[]) => {
    if (/PRAGMA synchronous/.test(sql)) pragmas.push(sql);
    return exec(sql, ...(rest as []));
  }) as typeof sqlite.exec;
  try {
    await run();
  } finally {
    sqlite.exec = exec;
  }
  return pragmas;
}

test("a STOP commits at FULL before its reply; a publish before its answer; a subscribe stays NORMAL", async () => {
  const durable = ["PRAGMA synchronous = FULL", "PRAGMA synchronous = NORMAL"];
  const business = insertBusiness(ctx, { name: "Second Shop" });
  const { customer } = insertSubscriber(ctx, business.id);
  const phone = customer.phone;
  let reply = null as string | null;
  expect(await pragmasDuring(() => (reply = ctx.services.inboundMessages.handle({ From: phone, Body: "STOP", MessageSid: "SM-stop-1" }).reply))).toEqual(durable);
  expect(reply).toContain("unsubscribed");
  expect(ctx.repos.consentEvents.optedOut(customer.id)).toBe(true);
  const other = insertBusiness(ctx, { name: "Third Shop" });
  insertSubscriber(ctx, other.id);
  let published: unknown;
  // A publish: the broadcast row, then its deliveries a chunk at a time, each transaction durable.
  expect(await pragmasDuring(async () => (published = await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(other.id), messageText: "Bread's up" })))).toEqual([...durable, ...durable]);
  expect(published).toMatchObject({ recipients: 1 });
  expect(await pragmasDuring(() => ctx.services.subscriptions.subscribe({ businessId: other.id, phone: "+14155550177", contactPreference: "SMS" }, { ip: null, userAgent: null }))).toEqual([]);
  expect(synchronous()).toBe(1);
});

test("inside a transaction already open (the setting cannot change there) the claim still works; the outer commit decides", () => {
  const claimed = ctx.repos.transaction(() => ctx.repos.deliveries.claim(Date.now() + 1000, 5));
  expect(claimed).toHaveLength(3);
  expect(synchronous()).toBe(1);
});
