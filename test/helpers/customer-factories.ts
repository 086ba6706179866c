// Rows and checks for the customer/subscription tests: insert straight into the tables, read them back whole.
import { asc } from "drizzle-orm";
import type { AppContext } from "../../src/context.ts";
import { hashToken, randomToken } from "../../src/lib/tokens.ts";
import { consentEvents, customers, subscriptions } from "../../src/db/schema.ts";
import type { Ctx } from "./factories.ts";

/**
 * A live session for a user row (e.g. from insertUser): the bearer token, without the cost of hashing a password
 * through Register/Login. The API still resolves it through the real auth middleware.
 */
export function sessionFor(ctx: Pick<AppContext, "repos" | "clock">, user: { id: number }): string {
  const token = randomToken();
  ctx.repos.sessions.insert(user.id, hashToken(token), new Date(ctx.clock.now().getTime() + 24 * 3600 * 1000));
  return token;
}

export type CustomerRow = typeof customers.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type ConsentEventRow = typeof consentEvents.$inferSelect;

let seq = 0;

/** A customer (E.164 phone) subscribed to a business on a channel (SMS unless told), with its 'subscribed' consent event. */
export function insertSubscriber(
  ctx: Ctx,
  businessId: number,
  overrides: { phone?: string; contactPreference?: "WhatsApp" | "SMS"; status?: SubscriptionRow["status"]; source?: SubscriptionRow["source"] } = {},
): { customer: CustomerRow; subscription: SubscriptionRow } {
  seq += 1;
  const phone = overrides.phone ?? `+1415555${String(1000 + seq).slice(-4)}`;
  const at = new Date("2026-01-10T09:00:00Z");
  const customer =
    ctx.db.select().from(customers).all().find((c) => c.phone === phone) ??
    ctx.db.insert(customers).values({ phone, createdAt: at }).returning().get();
  const subscription = ctx.db
    .insert(subscriptions)
    .values({
      customerId: customer.id,
      businessId,
      status: overrides.status ?? "active",
      contactPreference: overrides.contactPreference ?? "SMS",
      source: overrides.source ?? "qr",
      consentAt: at,
      consentText: "factory consent",
      ip: "198.51.100.7",
      userAgent: "factory",
      unsubscribedAt: overrides.status === "unsubscribed" ? at : null,
      createdAt: at,
    })
    .returning()
    .get();
  ctx.db.insert(consentEvents).values({ customerId: customer.id, businessId, kind: "subscribed", source: "qr", consentText: "factory consent", at }).run();
  return { customer, subscription };
}

/**
 * One person (one phone) subscribed to each of `businessIds` in order, and to each of `removedFrom` with a subscription
 * the owner removed: whom an opt-out or a STOP reaches everywhere. Returns the customer.
 */
export function insertPersonSubscribedTo(ctx: Ctx, phone: string, businessIds: number[], removedFrom: number[] = []): CustomerRow {
  const [customer] = businessIds.map((businessId) => insertSubscriber(ctx, businessId, { phone }).customer);
  for (const businessId of removedFrom) insertSubscriber(ctx, businessId, { phone, status: "removed" });
  if (!customer) throw new Error("insertPersonSubscribedTo: no business to subscribe to");
  return customer;
}

/** Every row of the three tables, in id order: for "nothing changed" checks. */
export function customerTables(ctx: Ctx) {
  return {
    customers: ctx.db.select().from(customers).orderBy(asc(customers.id)).all(),
    subscriptions: ctx.db.select().from(subscriptions).orderBy(asc(subscriptions.id)).all(),
    consentEvents: ctx.db.select().from(consentEvents).orderBy(asc(consentEvents.id)).all(),
  };
}

export function counts(ctx: Ctx) {
  const t = customerTables(ctx);
  return { customers: t.customers.length, subscriptions: t.subscriptions.length, consentEvents: t.consentEvents.length };
}

/** `count` active subscribers (SMS unless told) of a business, phones `+1415` + (firstNumber + i), in one transaction (plain SQL:
 * the smoke tests seed thousands before the executable starts); answers the customer ids.
 * Not shopWithSubscribers: thousands of bare rows (no consent events) in one prepared transaction, for speed; add them to a
 * shop it built. */
export function insertManySubscribers(ctx: Ctx, businessId: number, count: number, firstNumber: number, channel: "SMS" | "WhatsApp" = "SMS"): number[] {
  const sqlite = ctx.db.$client;
  const ids: number[] = [];
  sqlite.transaction(() => {
    const customer = sqlite.prepare("INSERT INTO customers (phone, created_at) VALUES (?1, ?2) RETURNING id");
    const sub = sqlite.prepare(
      "INSERT INTO subscriptions (customer_id, business_id, status, source, consent_at, consent_text, created_at, contact_preference) VALUES (?1, ?2, 'active', 'qr', ?3, 'test', ?3, ?4)",
    );
    for (let i = 0; i < count; i++) {
      const { id } = customer.get(`+1415${String(firstNumber + i)}`, Date.now()) as { id: number };
      sub.run(id, businessId, Date.now(), channel);
      ids.push(id);
    }
  })();
  return ids;
}
