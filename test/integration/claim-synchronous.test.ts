// Issue 10, item 5 at the repo level: the claim's commit is synchronous=FULL and only that one. (The built executable's
// fsync before each send is checked in test/smoke/claim-durability.test.ts.)
import { afterEach, beforeEach, expect, test } from "bun:test";
import { OPERATOR } from "../../src/services/principal.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";

let ctx: TestContext;
beforeEach(async () => {
  ctx = testContext();
  const business = insertBusiness(ctx);
  for (let i = 0; i < 3; i++) insertSubscriber(ctx, business.id);
  await ctx.services.broadcasts.publish(OPERATOR, { businessId: String(business.id), messageText: "Soup's on" });
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

test("inside a transaction already open (the setting cannot change there) the claim still works; the outer commit decides", () => {
  const claimed = ctx.repos.transaction(() => ctx.repos.deliveries.claim(Date.now() + 1000, 5));
  expect(claimed).toHaveLength(3);
  expect(synchronous()).toBe(1);
});
