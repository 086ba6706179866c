// Row factories for broadcasts and deliveries: straight inserts (no services), so a test can build a message history
// or a half-sent broadcast without running the dispatcher. Subscribers: insertSubscriber() in customer-factories.ts.
import { and, asc, eq } from "drizzle-orm";
import { broadcasts, consentEvents, customers, deliveries, subscriptions } from "../../src/db/schema.ts";
import { counter, type Ctx, insertBusiness } from "./factories.ts";
import type { ConsentEventRow, CustomerRow, SubscriptionRow } from "./customer-factories.ts";

export type { ConsentEventRow, CustomerRow, SubscriptionRow };
export type BroadcastRow = typeof broadcasts.$inferSelect;
export type DeliveryRow = typeof deliveries.$inferSelect;

const next = counter();

/** A customer with no subscription (a fresh +1 555 number unless one is given). */
export function insertCustomer(ctx: Ctx, overrides: Partial<typeof customers.$inferInsert> = {}): CustomerRow {
  const n = next();
  return ctx.db
    .insert(customers)
    .values({ phone: `+1555${String(7000000 + n).padStart(7, "0")}`, ...overrides })
    .returning()
    .get();
}

/** A broadcast; creates its business when none is given. */
export function insertBroadcast(ctx: Ctx, overrides: Partial<typeof broadcasts.$inferInsert> = {}): BroadcastRow {
  const n = next();
  const businessId = overrides.businessId ?? insertBusiness(ctx).id;
  return ctx.db
    .insert(broadcasts)
    .values({ messageText: `Deal number ${n}`, total: 1, ...overrides, businessId })
    .returning()
    .get();
}

/**
 * One delivery of a broadcast to a customer (Queued unless told); the business defaults from the broadcast, the
 * channel from the customer's subscription to it (SMS without one).
 */
export function insertDelivery(
  ctx: Ctx,
  broadcast: BroadcastRow,
  customer: CustomerRow,
  overrides: Partial<typeof deliveries.$inferInsert> = {},
): DeliveryRow {
  const sub = ctx.db
    .select({ channel: subscriptions.contactPreference })
    .from(subscriptions)
    .where(and(eq(subscriptions.customerId, customer.id), eq(subscriptions.businessId, broadcast.businessId)))
    .get();
  return ctx.db
    .insert(deliveries)
    .values({
      broadcastId: broadcast.id,
      customerId: customer.id,
      businessId: broadcast.businessId,
      channel: sub?.channel ?? "SMS",
      toPhone: customer.phone,
      status: "Queued",
      nextAttemptAt: new Date("2026-01-15T12:00:00Z"),
      ...overrides,
    })
    .returning()
    .get();
}

/** A Twilio-looking message sid (SM + 32 hex). */
export function messageSid(n: number = next()): string {
  return `SM${n.toString(16).padStart(32, "0")}`;
}

export function deliveryById(ctx: Ctx, id: number): DeliveryRow {
  const row = ctx.db.select().from(deliveries).where(eq(deliveries.id, id)).get();
  if (!row) throw new Error(`no delivery ${id}`);
  return row;
}

export function allDeliveries(ctx: Ctx): DeliveryRow[] {
  return ctx.db.select().from(deliveries).orderBy(asc(deliveries.id)).all();
}

export function allSubscriptions(ctx: Ctx): SubscriptionRow[] {
  return ctx.db.select().from(subscriptions).orderBy(asc(subscriptions.id)).all();
}

export function allConsentEvents(ctx: Ctx): ConsentEventRow[] {
  return ctx.db.select().from(consentEvents).orderBy(asc(consentEvents.id)).all();
}
