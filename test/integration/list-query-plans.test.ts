// Issue 12 item 2: no paged list scans a table. Each list's own statements (captured as the repo prepares them, with
// the parameters of a real call) go through EXPLAIN QUERY PLAN: an index walks the order, no full SCAN of a table, no
// sort of everything into a temporary B-tree.
import { afterEach, expect, test } from "bun:test";
import type { Keyset } from "../../src/schemas/paging.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { queryPlans } from "../helpers/query-plans.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBroadcast, insertDelivery } from "../helpers/delivery-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";

let ctx: TestContext;
afterEach(() => ctx?.close());

/** Every statement `run` prepares, with the plan SQLite picks for it. */
const plansOf = (run: () => unknown) => queryPlans(ctx.db.$client, run);

/** A full scan of a table (walking an index, even all of it in order, is not one). */
const scansTable = (detail: string) => /^SCAN \w+$/.test(detail.trim()) || /^SCAN \w+ \(~/.test(detail.trim());

function expectIndexed(plans: { sql: string; plan: string[] }[], index: RegExp) {
  expect(plans.length).toBeGreaterThan(0);
  const all = plans.flatMap((p) => p.plan);
  expect(all.some((d) => index.test(d))).toBe(true);
  for (const p of plans) {
    expect({ sql: p.sql, scans: p.plan.filter(scansTable) }).toEqual({ sql: p.sql, scans: [] });
    expect({ sql: p.sql, sorts: p.plan.filter((d) => /USE TEMP B-TREE FOR ORDER BY/.test(d)) }).toEqual({ sql: p.sql, sorts: [] });
  }
}

function world() {
  ctx = testContext();
  const owner = insertUser(ctx);
  const business = insertBusiness(ctx, { ownerId: owner.id, name: "Bakery" });
  const { customer } = insertSubscriber(ctx, business.id, { phone: "+14155550101" });
  const broadcast = insertBroadcast(ctx, { businessId: business.id });
  insertDelivery(ctx, broadcast, customer);
  return { owner, business, customer };
}

const after = <K extends string | number>(key: K): Keyset<K> => ({ key, id: 5 });

test("ListBusinesses walks businesses_public_name_idx, with or without a cursor, a search or a type", () => {
  world();
  const repo = ctx.repos.businesses;
  for (const filter of [
    { search: null, businessTypeId: null },
    { search: "bak", businessTypeId: null },
  ]) {
    expectIndexed(plansOf(() => repo.pageActive(filter, null, 25)), /businesses_public_name_idx/);
    expectIndexed(plansOf(() => repo.pageActive(filter, after("Bakery"), 25)), /businesses_public_name_idx/);
  }
});

test("ListBusinessTypes walks business_types_name_nocase_idx", () => {
  world();
  expectIndexed(plansOf(() => ctx.repos.businessTypes.page(null, null, 25)), /business_types_name_nocase_idx/);
  expectIndexed(plansOf(() => ctx.repos.businessTypes.page("ba", after("Bakery"), 25)), /business_types_name_nocase_idx/);
});

test("ListBroadcasts walks broadcasts_business_kind_created_idx; its counts are read from broadcast_counts' key", () => {
  const { business } = world();
  expectIndexed(plansOf(() => ctx.repos.broadcasts.pageByBusiness(business.id, null, 25)), /broadcasts_business_kind_created_idx/);
  expectIndexed(plansOf(() => ctx.repos.broadcasts.pageByBusiness(business.id, after(Date.now()), 25)), /broadcasts_business_kind_created_idx/);
  expectIndexed(plansOf(() => ctx.repos.broadcasts.countByBusiness(business.id)), /broadcasts_business_kind_created_idx/);
  expectIndexed(plansOf(() => ctx.repos.broadcasts.countsFor([1, 2, 3])), /broadcast_counts/);
});

// One person's messages are sorted (by when they were sent, which no index holds): a few hundred rows at most, one
// per broadcast they got, however big the deliveries table.
test("ListCustomerMessages reads one customer's deliveries by deliveries_customer_idx", () => {
  const { customer, owner } = world();
  const repo = ctx.repos.deliveryHistory;
  for (const ownerId of [null, owner.id]) {
    const plans = plansOf(() => repo.pageForCustomer(customer.id, ownerId, after(Date.now()), 25));
    expect(plans.flatMap((p) => p.plan).some((d) => /deliveries_customer_idx/.test(d))).toBe(true);
    expect(plans.flatMap((p) => p.plan).filter(scansTable)).toEqual([]);
    expectIndexed(plansOf(() => repo.countForCustomer(customer.id, ownerId)), /deliveries_customer_idx/);
  }
});

test("GetMySubscriberCounts reads subscriptions_business_status_idx for the owner's businesses", () => {
  const { owner } = world();
  expectIndexed(plansOf(() => ctx.repos.subscriptions.activeCountsOfOwner(owner.id)), /subscriptions_business_status_idx/);
});
